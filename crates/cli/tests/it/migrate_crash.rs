//! kill -9 `monotable migrate --apply` at random points, several times, then let it finish:
//! the table ends exactly as after an uninterrupted run on a copy of the same data, with no item
//! lost or duplicated and no checkpoint left behind.

use crate::common;

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use common::{monotable, run};
use monotable_test_support::shop;

fn model(name: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop");
    root.join(name).display().to_string()
}

fn migrate_args(dir: &str) -> Vec<String> {
    [
        "migrate",
        &model("shop.toml"),
        &model("changes/orders-by-product.toml"),
        "--apply",
        "--no-audit",
        "--data-dir",
        dir,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Every item of the Shop table in `dir`, in DynamoDB JSON, sorted.
fn dump(dir: &Path) -> Vec<String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        let location = monotable_connect::DataLocation::Dir(dir.to_path_buf());
        let dynamo = monotable_connect::connect(&monotable_connect::Backend::Embedded(location))
            .await
            .expect("open the data");
        let client = dynamo.client();
        let mut out = Vec::new();
        let mut start = None;
        loop {
            let page = client
                .scan()
                .table_name("Shop")
                .set_exclusive_start_key(start)
                .send()
                .await
                .expect("scan");
            out.extend(
                page.items()
                    .iter()
                    .map(|i| monotable_access::items::to_json(i).to_string()),
            );
            match page.last_evaluated_key {
                Some(k) if !k.is_empty() => start = Some(k),
                _ => break,
            }
        }
        out.sort();
        out
    })
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        if entry.file_type().expect("type").is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        }
    }
}

#[test]
fn a_migration_killed_at_random_points_resumes_to_the_same_end_state() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let load = [
        "load-sample",
        "--data-dir",
        "crashed",
        "--quiet",
        "--users",
        "40",
        "--products",
        "60",
        "--orders",
        "900",
        "--days",
        "30",
    ];
    let out = shop::run(&load, tmp.path());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    copy_dir(&tmp.path().join("crashed"), &tmp.path().join("clean"));

    let out = run(
        &migrate_args("clean")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        tmp.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let mut rng = fastrand::Rng::with_seed(0x6b11_1e0d);
    let mut killed = 0;
    for _ in 0..5 {
        let mut child = monotable()
            .args(migrate_args("crashed"))
            .current_dir(tmp.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn migrate");
        std::thread::sleep(Duration::from_millis(rng.u64(150..1500)));
        if child.try_wait().expect("wait").is_none() {
            child.kill().expect("kill -9");
            killed += 1;
        }
        let _ = child.wait();
    }
    assert!(
        killed >= 3,
        "the migration was killed mid-way ({killed} of 5)"
    );
    let out = run(
        &migrate_args("crashed")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        tmp.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let (clean, crashed) = (
        dump(&tmp.path().join("clean")),
        dump(&tmp.path().join("crashed")),
    );
    assert!(
        !clean.iter().any(|i| i.contains("_MonotableMigration")),
        "checkpoint removed"
    );
    assert_eq!(crashed.len(), clean.len(), "no item lost or duplicated");
    assert!(crashed == clean, "the same end state after {killed} kills");
}

//! docs/your-own-app.md, followed literally: its `sh` blocks run in order in one `bash`, in an
//! empty directory (`common::scaffold::workdir`), as a new user would type them.
//!
//! The line before each `sh` block says how it runs (the guide's last section says the same):
//! - `<!-- ci -->`: run it; it must succeed;
//! - `<!-- ci: fails -->`: it must fail, and every line starting with `error` in the `text` block
//!   that follows it must appear in its output (so the error the guide shows is the real one);
//! - `<!-- ci: skip REASON -->`: not run (needs AWS, or a step the test does its own way).
//!
//! A `sh` block without one of these fails the test. The environment: the `monotable` binary
//! under test first on `PATH`, cargo offline on the scaffold target directory
//! (`common::scaffold`), a free port in `PORT`, and no AWS endpoint or Lambda variables. Nothing
//! leaves 127.0.0.1.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::scaffold;

/// Longest the whole guide may take: a cold build of every dependency included.
const DEADLINE: Duration = Duration::from_secs(40 * 60);

/// How a block runs.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    Run,
    Fails { expected: Vec<String> },
    Skip(String),
}

/// One `sh` block of the guide.
#[derive(Debug)]
struct Block {
    /// Its first line in the guide, 1-based.
    line: usize,
    mode: Mode,
    script: String,
}

fn guide_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/your-own-app.md")
}

/// The marker on the last non-blank line before line `at`.
fn marker(lines: &[&str], at: usize) -> Option<Mode> {
    let before = lines[..at].iter().rev().find(|l| !l.trim().is_empty())?;
    let inner = before
        .trim()
        .strip_prefix("<!--")?
        .strip_suffix("-->")?
        .trim();
    match inner {
        "ci" => Some(Mode::Run),
        "ci: fails" => Some(Mode::Fails {
            expected: Vec::new(),
        }),
        _ => inner
            .strip_prefix("ci: skip")
            .map(|reason| Mode::Skip(reason.trim().to_string())),
    }
}

/// The fenced block opening at line `start`: its text and the index after its closing fence.
fn fenced(lines: &[&str], start: usize) -> (String, usize) {
    let mut end = start + 1;
    while end < lines.len() && lines[end].trim() != "```" {
        end += 1;
    }
    (lines[start + 1..end].join("\n"), end + 1)
}

/// Every `sh` block, with its mode; a `fails` block takes the `error` lines of the next `text`
/// block as what its output must show.
fn blocks(guide: &str) -> Vec<Block> {
    let lines: Vec<&str> = guide.lines().collect();
    let mut out: Vec<Block> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim();
        if !fence.starts_with("```") || fence == "```" {
            i += 1;
            continue;
        }
        let (text, next) = fenced(&lines, i);
        if fence == "```sh" {
            let mode = marker(&lines, i).unwrap_or_else(|| {
                panic!("docs/your-own-app.md:{}: a sh block needs <!-- ci -->, <!-- ci: fails --> or <!-- ci: skip REASON --> on the line before", i + 1)
            });
            out.push(Block {
                line: i + 2,
                mode,
                script: text,
            });
        } else if fence == "```text"
            && let Some(Block {
                mode: Mode::Fails { expected },
                ..
            }) = out.last_mut()
            && expected.is_empty()
        {
            expected.extend(
                text.lines()
                    .filter(|l| l.starts_with("error"))
                    .map(str::to_string),
            );
        }
        i = next;
    }
    out
}

/// The blocks as one bash script; a `fails` block runs in a subshell whose output goes to
/// `logs/LINE.log`.
fn script(blocks: &[Block], logs: &Path) -> String {
    let mut out = String::from("set -euo pipefail\n");
    for block in blocks {
        let at = format!("docs/your-own-app.md:{}", block.line);
        match &block.mode {
            Mode::Run => {
                out.push_str(&format!(
                    "printf '\\n==> %s\\n' '{at}' >&2\n{}\n",
                    block.script
                ));
            }
            Mode::Fails { .. } => {
                let log = logs.join(format!("{}.log", block.line));
                out.push_str(&format!(
                    "printf '\\n==> %s\\n' '{at} (must fail)' >&2\nif ( {}\n) > '{}' 2>&1; then echo '{at} succeeded; the guide says it fails' >&2; exit 1; fi\n",
                    block.script,
                    log.display()
                ));
            }
            Mode::Skip(reason) => {
                out.push_str(&format!(
                    "printf '\\n==> %s\\n' '{at} skipped: {reason}' >&2\n"
                ));
            }
        }
    }
    out
}

/// A directory holding only a `monotable` link to the binary under test, for `PATH`.
fn bin_dir(root: &Path) -> PathBuf {
    let dir = root.join("bin");
    std::fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_monotable"), dir.join("monotable")).unwrap();
    dir
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Run `script` in `dir` in a process group of its own; kill the group when it ends or runs out
/// of time (a server the guide left behind goes too). The exit status and the output.
fn run_script(script: &str, dir: &Path, bin: &Path) -> (bool, String) {
    use std::os::unix::process::CommandExt;
    let output = dir.join("guide.log");
    let log = std::fs::File::create(&output).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut bash = Command::new("bash");
    bash.arg("-c")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .env("PORT", free_port().to_string())
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .process_group(0);
    scaffold::environment(&mut bash);
    let mut process = bash.spawn().expect("bash runs");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = process.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > DEADLINE {
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", process.id())])
        .stderr(Stdio::null())
        .status();
    let _ = process.wait();
    eprintln!("the guide took {:.1} s", started.elapsed().as_secs_f64());
    let text = std::fs::read_to_string(&output).unwrap_or_default();
    (status.is_some_and(|s| s.success()), text)
}

#[test]
fn every_shell_block_of_the_guide_has_a_marker() {
    let guide = std::fs::read_to_string(guide_path()).unwrap();
    let blocks = blocks(&guide);
    assert!(blocks.iter().filter(|b| b.mode == Mode::Run).count() >= 5);
    for block in &blocks {
        if let Mode::Fails { expected } = &block.mode {
            assert!(!expected.is_empty(), "line {}: no error shown", block.line);
        }
    }
    let skipped: Vec<&str> = blocks
        .iter()
        .filter_map(|b| match &b.mode {
            Mode::Skip(reason) => Some(reason.as_str()),
            _ => None,
        })
        .collect();
    assert!(skipped.iter().any(|r| r.contains("AWS")), "{skipped:?}");
}

#[test]
fn the_guide_runs_as_written() {
    let guide = std::fs::read_to_string(guide_path()).unwrap();
    let blocks = blocks(&guide);
    let root = scaffold::workdir("your-own-app");
    let (logs, work) = (root.join("logs"), root.join("work"));
    std::fs::create_dir_all(&logs).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let bin = bin_dir(&root);
    let (ok, output) = run_script(&script(&blocks, &logs), &work, &bin);
    let tail: Vec<&str> = output.lines().rev().take(150).collect();
    let tail: Vec<&str> = tail.into_iter().rev().collect();
    assert!(ok, "the guide failed:\n{}", tail.join("\n"));
    for block in &blocks {
        let Mode::Fails { expected } = &block.mode else {
            continue;
        };
        let log = std::fs::read_to_string(logs.join(format!("{}.log", block.line))).unwrap();
        for line in expected {
            assert!(
                log.contains(line.as_str()),
                "docs/your-own-app.md:{}: the guide shows\n  {line}\nbut the output was:\n{log}",
                block.line
            );
        }
    }
}

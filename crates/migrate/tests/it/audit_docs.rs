//! docs/audit.md and the codes agree: every code has its row, under its name and severity.

use monotable_migrate::audit::Code;

#[test]
fn every_code_has_its_row() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/audit.md");
    let docs = std::fs::read_to_string(path).expect("docs/audit.md");
    for code in Code::ALL {
        let row = format!(
            "| {} | {} | {} |",
            code.code(),
            code.name(),
            code.severity().as_str()
        );
        assert!(docs.contains(&row), "docs/audit.md has no row `{row}`");
    }
}

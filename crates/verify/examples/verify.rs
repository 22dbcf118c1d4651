//! Prints the verify report of a model file: `cargo run -p monotable-verify --example verify -- MODEL [SEED]`.

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "examples/shop/shop.toml".to_string());
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let json = args.next().is_some_and(|f| f == "json");
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    match monotable_verify::verify_source(&path, &source, seed).await {
        Ok(report) => {
            if json {
                print!("{}", report.render_json());
            } else {
                print!("{}", report.render_human());
            }
            std::process::exit(if report.passed() { 0 } else { 1 });
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}

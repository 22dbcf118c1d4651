//! Property test: checking never panics, whatever the input.

use monotable_check::{ReportFormat, check_source};
use proptest::prelude::*;

const SEED: &str = include_str!("../../../../examples/seed-original/model.toml");
const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn check_never_panics(s in any::<String>()) {
        let r = check_source("x.toml", &s);
        let _ = r.render(ReportFormat::Human);
        let _ = r.render(ReportFormat::Json);
    }

    #[test]
    fn check_never_panics_on_line_edits(drop_line in 0usize..300, shop in any::<bool>()) {
        let base = if shop { SHOP } else { SEED };
        let edited: Vec<&str> = base.lines().enumerate().filter(|(i, _)| *i != drop_line).map(|(_, l)| l).collect();
        let r = check_source("x.toml", &edited.join("\n"));
        let _ = r.render(ReportFormat::Human);
        let _ = r.render(ReportFormat::Json);
    }
}

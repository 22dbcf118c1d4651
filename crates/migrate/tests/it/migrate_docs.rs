//! docs/migrate.md shows what `diff` prints for the seed's FAQ case: the block is the real
//! output, up to the new findings it summarises.

use crate::common;

use common::*;
use monotable_migrate::diff::{self, Files, ItemCounts};

#[test]
fn the_faq_walkthrough_shows_what_diff_prints() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/migrate.md");
    let docs = std::fs::read_to_string(path).expect("docs/migrate.md");
    let command = "$ monotable diff shop.toml changes/orders-by-product.toml --items OrderItem=3000000,1000000\n";
    let start = docs.find(command).expect("the diff command in the docs") + command.len();
    let shown = &docs[start..start + docs[start..].find("```").expect("end of block")];

    let (old, new) = (model(SHOP), model(ORDERS_BY_PRODUCT));
    let d = diff::diff(&old, &new);
    let counts =
        ItemCounts::parse(&["OrderItem=3000000".into(), "1000000".into()]).expect("counts");
    let costs = diff::cost::costs(&old, &new, &d, &counts);
    let files = Files {
        old: "shop.toml",
        new: "changes/orders-by-product.toml",
        new_source: ORDERS_BY_PRODUCT,
    };
    let printed = diff::render_human(&d, &costs, files);
    assert!(
        printed.starts_with(shown),
        "docs/migrate.md shows:\n{shown}\nbut diff prints:\n{printed}"
    );
}

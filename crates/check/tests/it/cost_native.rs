//! Cost on native multi-attribute index keys: an item's native index entry is its own attributes
//! (no key copies), writes and updates reach the native indexes it is in, and the shop on
//! synthetic keys compared side by side with the shop on native keys (golden).

use monotable_check::cost::{PriceTable, compare, index_entry_bytes, put_units, update_units};
use monotable_model::Model;

const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");
const SHOP_NATIVE: &str = include_str!("../../../../examples/shop/shop-native.toml");

fn parse(source: &str) -> Model {
    match monotable_model::parse(source) {
        Ok(m) => m,
        Err(e) => panic!("test model does not parse: {e:?}"),
    }
}

const KEYS_ONLY: &str = r#"
version = 1
[table]
name = "Scores"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.ByBoard]
kind = "global"
partition_key = [{ name = "game", type = "S" }, { name = "season", type = "N" }]
sort_key = [{ name = "points", type = "N" }]
projection = "KEYS_ONLY"

[entities.Score]
attributes.scoreId = { type = "string", required = true, max_length = 10 }
attributes.game = { type = "enum", values = ["chess", "go"], required = true }
attributes.season = { type = "integer", required = true }
attributes.points = { type = "integer", required = true }
attributes.note = { type = "string" }
keys.PK = "SCORE#{scoreId}"
keys.SK = "SCORE"

[traffic.entities]
Score = { writes_per_second = 1, item_size_bytes = 2000 }
"#;

#[test]
fn a_native_keys_only_entry_is_the_table_keys_and_the_items_own_key_attributes() {
    let model = parse(KEYS_ONLY);
    let score = model.entity("Score").expect("entity");
    let index = model.index("ByBoard").expect("index");
    // PK: 2 + "SCORE#" 6 + 10; SK: 2 + 5; game: 4 + 5; season: 6 + 4; points: 6 + 4.
    assert_eq!(
        index_entry_bytes(&model, score, index, 2000),
        18 + 7 + 9 + 10 + 10
    );
    let put = put_units(&model, score, false);
    assert_eq!(put.table, 2.0);
    assert_eq!(put.index("ByBoard"), 1.0);
    // Changing a native key attribute moves the entry (delete + put); another attribute does not.
    assert_eq!(
        update_units(&model, score, &["points"], false).index("ByBoard"),
        2.0
    );
    assert_eq!(
        update_units(&model, score, &["note"], false).index("ByBoard"),
        0.0
    );
}

#[test]
fn the_shop_against_the_native_shop() {
    let old = parse(SHOP);
    let new = parse(SHOP_NATIVE);
    let comparison = compare(
        "examples/shop/shop.toml",
        &old,
        "examples/shop/shop-native.toml",
        &new,
        &PriceTable::default(),
    );
    let order = comparison
        .entities
        .iter()
        .find(|e| e.entity == "Order")
        .expect("Order compared");
    let (before, after) = (
        order.old.as_ref().expect("old"),
        order.new.as_ref().expect("new"),
    );
    assert!(after.key_copy_bytes < before.key_copy_bytes, "{order:?}");
    assert!(after.indexes.contains(&"ByStatus".to_string()), "{order:?}");
    insta::assert_snapshot!("shop_vs_shop_native_human", comparison.render_human());
    let json: serde_json::Value = serde_json::from_str(&comparison.render_json()).expect("JSON");
    assert_eq!(json["new"]["design"], "single-table");
}

//! Property tests: parsing never panics on any input; templates render, print and extract consistently.

use std::collections::BTreeMap;

use monotable_model::{KeyTemplate, parse, parse_condition};
use proptest::prelude::*;

const SEED: &str = include_str!("../../../../examples/seed-original/model.toml");
const SHOP: &str = include_str!("../../../../examples/shop/shop.toml");

/// TOML-ish fragments that exercise the model's keys and value shapes.
fn tomlish() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "[table]\n",
        "name = \"Things\"\n",
        "partition_key = { name = \"PK\" }\n",
        "sort_key = { name = \"SK\", type = \"S\" }\n",
        "[indexes.GSI1]\n",
        "kind = \"local\"\n",
        "projection = \"INCLUDE\"\n",
        "include = [\"a\"]\n",
        "[entities.E]\n",
        "attributes.a = { type = \"string\" }\n",
        "attributes.n = { type = \"integer\" }\n",
        "keys.PK = \"E#{a}\"\n",
        "keys.SK = \"{n:04}\"\n",
        "keys.GSI1PK = \"{\"\n",
        "key_conditions = { PK = \"a\" }\n",
        "[patterns.p]\n",
        "operation = \"Query\"\n",
        "operation = \"GetItem\"\n",
        "index = \"GSI1\"\n",
        "key = { PK = \"E#{a}\" }\n",
        "key = { SK = \"between({a}, \" }\n",
        "returns = [\"E\", \"X\"]\n",
        "writes = [{ entity = \"E\", count = \"many\" }]\n",
        "[traffic.entities.E]\n",
        "writes_per_second = 1e308\n",
        "item_size_bytes = 18446744073709551615\n",
        "unique = [{ attributes = [\"zz\"], guard = \"Q\" }]\n",
        "relations = [{ entity = \"E\", kind = \"many\" }]\n",
        "version = 2\n",
        "x = \n",
        "]]]\n",
        "\u{feff}",
        "é",
        "\"\"\"\n",
    ]);
    prop::collection::vec(atoms, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #[test]
    fn parse_never_panics_on_arbitrary_strings(s in any::<String>()) {
        let _ = parse(&s);
    }

    #[test]
    fn parse_never_panics_on_tomlish_input(s in tomlish()) {
        let _ = parse(&s);
    }

    #[test]
    fn parse_never_panics_on_mutated_examples(cut in 0usize..6000, insert in any::<String>(), shop in any::<bool>()) {
        let base = if shop { SHOP } else { SEED };
        let mut at = cut.min(base.len());
        while !base.is_char_boundary(at) { at -= 1; }
        let mutated = format!("{}{}{}", &base[..at], insert, &base[at..]);
        let _ = parse(&mutated);
        let _ = parse(&base[..at]);
    }

    #[test]
    fn templates_and_conditions_never_panic(s in any::<String>(), v in any::<String>()) {
        if let Ok(t) = KeyTemplate::parse(&s) {
            let _ = t.render(&|_| Some(v.clone()));
            let _ = t.extract(&v);
            // Display round-trips.
            prop_assert_eq!(KeyTemplate::parse(&t.to_string()).ok(), Some(t));
        }
        let _ = parse_condition(&s);
    }

    #[test]
    fn render_then_extract_round_trips(
        prefix in "[A-Z]{1,8}",
        id in "[A-Za-z0-9]{1,20}",
        n in 0u64..1_000_000,
        width in 6usize..12,
    ) {
        let t = KeyTemplate::parse(&format!("{prefix}#{{id}}#N#{{n:0{width}}}")).unwrap();
        let mut values = BTreeMap::new();
        values.insert("id".to_string(), id.clone());
        values.insert("n".to_string(), n.to_string());
        let key = t.render_map(&values).unwrap();
        prop_assert_eq!(key.len(), prefix.len() + 1 + id.len() + 3 + width);
        let back = t.extract(&key).unwrap();
        prop_assert_eq!(back.get("id"), Some(&id));
        prop_assert_eq!(back.get("n").and_then(|s| s.parse::<u64>().ok()), Some(n));
    }

    #[test]
    fn padded_numbers_sort_numerically(a in 0u64..100_000, b in 0u64..100_000) {
        let t = KeyTemplate::parse("ITEM#{n:06}").unwrap();
        let ra = t.render(&|_| Some(a.to_string())).unwrap();
        let rb = t.render(&|_| Some(b.to_string())).unwrap();
        prop_assert_eq!(ra.cmp(&rb), a.cmp(&b));
    }
}

//! Every number a model states is bounded when it is read: above its limit (DynamoDB's, or the
//! most monotable counts) it is one issue naming the limit; at the limit it is accepted. Values
//! the TOML reader cannot hold in the field (negative, fractional, NaN for a whole number) are
//! refused by the reader.

use monotable_model::{
    MAX_COUNT, MAX_ITEM_SIZE_BYTES, MAX_ITEMS_PER_READ, MAX_LIMIT, MAX_STORED_ITEMS,
    MAX_TRANSACTION_ACTIONS, parse,
};

const BASE: &str = r#"[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.Thing]
attributes.id = { type = "string", required = true, max_length = MAXLENGTH }
attributes.tags = { type = "list", items = "string", max_items = MAXITEMS }
attributes.shard = { type = "integer", required = true, cardinality = CARDINALITY }
attributes.price = { type = "number", required = true, default = PRICEDEFAULT }
keys.PK = "THING#{id}"
keys.SK = "THING"
relations = [{ entity = "Part", kind = "many", max = RELATIONMAX }]

[entities.Part]
attributes.id = { type = "string", required = true }
attributes.n = { type = "string", required = true }
keys.PK = "THING#{id}"
keys.SK = "PART#{n}"

[patterns.parts]
operation = "Query"
key = { PK = "THING#{id}" }
returns = ["Thing", "Part"]
paginate = true
limit = LIMIT

[patterns.put]
operation = "TransactWrite"
writes = [{ entity = "Part", count = COUNT }]

[traffic]
default_item_size_bytes = DEFAULTSIZE

[traffic.entities.Thing]
item_size_bytes = ITEMSIZE
items = ITEMS

[traffic.patterns.parts]
items_per_read = ITEMSPERREAD
"#;

/// Each placeholder, a value that is fine, and the largest accepted.
const FIELDS: [(&str, &str, u64); 10] = [
    ("MAXLENGTH", "max_length", MAX_ITEM_SIZE_BYTES),
    ("MAXITEMS", "max_items", MAX_ITEM_SIZE_BYTES),
    ("CARDINALITY", "cardinality", MAX_COUNT),
    ("RELATIONMAX", "max", MAX_COUNT),
    ("LIMIT", "limit", MAX_LIMIT),
    ("COUNT", "count", MAX_TRANSACTION_ACTIONS),
    (
        "DEFAULTSIZE",
        "default_item_size_bytes",
        MAX_ITEM_SIZE_BYTES,
    ),
    ("ITEMSIZE", "item_size_bytes", MAX_ITEM_SIZE_BYTES),
    ("ITEMS", "items", MAX_STORED_ITEMS),
    ("ITEMSPERREAD", "items_per_read", MAX_ITEMS_PER_READ),
];

/// The model with `place` set to `value` and every other figure a small one.
fn with(place: &str, value: &str) -> String {
    let mut text = BASE.replace("PRICEDEFAULT", "1.5");
    // Longest first: `ITEMSPERREAD` before `ITEMS`.
    let mut places: Vec<&str> = FIELDS.iter().map(|(p, _, _)| *p).collect();
    places.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for p in places {
        text = text.replace(p, if p == place { value } else { "4" });
    }
    text
}

fn messages(source: &str) -> Vec<String> {
    match parse(source) {
        Ok(_) => Vec::new(),
        Err(e) => e.issues.into_iter().map(|i| i.message).collect(),
    }
}

#[test]
fn small_figures_are_accepted() {
    assert_eq!(messages(&with("", "")), Vec::<String>::new());
}

#[test]
fn every_figure_is_accepted_up_to_its_limit_and_refused_above() {
    for (place, field, max) in FIELDS {
        assert_eq!(
            messages(&with(place, &max.to_string())),
            Vec::<String>::new(),
            "{field} = {max}"
        );
        for over in [max + 1, i64::MAX.unsigned_abs()] {
            let got = messages(&with(place, &over.to_string()));
            assert_eq!(got.len(), 1, "{field} = {over}: {got:?}");
            assert!(
                got[0].starts_with(&format!("`{field} = {over}`")),
                "{field}: {got:?}"
            );
            // The limit is named in the message.
            let limit = if max == MAX_TRANSACTION_ACTIONS {
                "100 actions".to_string()
            } else {
                max.to_string()
            };
            assert!(got[0].contains(&limit), "{field}: {got:?}");
        }
    }
}

#[test]
fn what_the_reader_cannot_hold_is_refused_by_it() {
    for (place, field, _) in FIELDS {
        for bad in ["-1", "1e308", "nan", "inf", "18446744073709551615", "0.5"] {
            let got = messages(&with(place, bad));
            assert!(!got.is_empty(), "{field} = {bad} accepted");
        }
        let got = messages(&with(place, "-1"));
        assert!(
            got[0].contains("expected a whole number"),
            "{field}: {got:?}"
        );
    }
}

#[test]
fn a_zero_length_or_element_bound_describes_nothing() {
    for (place, field) in [("MAXLENGTH", "max_length"), ("MAXITEMS", "max_items")] {
        let got = messages(&with(place, "0"));
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(
            got[0].starts_with(&format!("`{field} = 0` on `")),
            "{got:?}"
        );
    }
}

#[test]
fn a_default_is_a_number_dynamodb_stores() {
    for (value, needle) in [
        ("nan", "no NaN or infinity"),
        ("inf", "no NaN or infinity"),
        ("-inf", "no NaN or infinity"),
        ("1e308", "outside the numbers DynamoDB stores"),
        ("-1e-300", "outside the numbers DynamoDB stores"),
    ] {
        let source = with("", "").replace("default = 1.5", &format!("default = {value}"));
        let got = messages(&source);
        assert_eq!(got.len(), 1, "{value}: {got:?}");
        assert!(got[0].contains(needle), "{value}: {got:?}");
    }
    for fine in ["0.0", "-2.5", "1e125", "1e-130", "9223372036854775807"] {
        let source = with("", "").replace("default = 1.5", &format!("default = {fine}"));
        assert_eq!(messages(&source), Vec::<String>::new(), "{fine}");
    }
    let decimal = |digits: usize| {
        with("", "").replace(
            "attributes.price = { type = \"number\", required = true, default = 1.5 }",
            &format!(
                "attributes.price = {{ type = \"decimal\", required = true, default = \"1.{}\" }}",
                "1".repeat(digits)
            ),
        )
    };
    assert_eq!(messages(&decimal(37)), Vec::<String>::new());
    let got = messages(&decimal(38));
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(got[0].contains("39 significant digits"), "{got:?}");
}

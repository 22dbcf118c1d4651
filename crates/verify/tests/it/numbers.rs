//! The generator gives every numeric attribute a number, also once its few sample values are
//! taken: an identity typed `number` past its sample floats, an integer a key zero-pads past
//! the width's values, for the samples and for the fresh items the write checks make.

use monotable_model::AttributeType;
use monotable_verify::generate;
use monotable_verify::generate::Fresh;

const MODEL: &str = r#"
[table]
name = "Numbers"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }

[entities.Fill]
attributes.fillNumber = { type = "number", required = true }
attributes.litres = { type = "decimal", required = true }
keys.PK = "FILL#{fillNumber}"
keys.SK = "FILL"

[entities.Berth]
attributes.berthNumber = { type = "integer", required = true }
keys.PK = "BERTH#{berthNumber:01}"
keys.SK = "BERTH"

[entities.Gauge]
attributes.reading = { type = "decimal", required = true }
keys.PK = "GAUGE#{reading}"
keys.SK = "GAUGE"

[patterns.getFill]
operation = "GetItem"
key = { PK = "FILL#{fillNumber}", SK = "FILL" }
returns = ["Fill"]

[patterns.getBerth]
operation = "GetItem"
key = { PK = "BERTH#{berthNumber:01}", SK = "BERTH" }
returns = ["Berth"]

[patterns.getGauge]
operation = "GetItem"
key = { PK = "GAUGE#{reading}", SK = "GAUGE" }
returns = ["Gauge"]
"#;

fn numeric(ty: AttributeType) -> bool {
    matches!(
        ty,
        AttributeType::Integer
            | AttributeType::Decimal
            | AttributeType::Number
            | AttributeType::Float
    )
}

/// Every numeric value of `sample` parses as a number.
fn assert_numbers(model: &monotable_model::Model, sample: &monotable_verify::Sample) {
    let entity = model.entity(&sample.entity).expect("entity");
    for a in entity.attributes.iter().filter(|a| numeric(a.ty)) {
        let Some(text) = sample.values.get(&a.name) else {
            continue;
        };
        assert!(
            text.parse::<f64>().is_ok(),
            "`{}.{}` is `{text}`, not a number",
            sample.entity,
            a.name
        );
    }
}

#[test]
fn samples_number_every_numeric_identity() {
    let model = monotable_model::parse(MODEL).expect("model");
    for seed in 0..8 {
        let data = generate(&model, seed);
        for s in &data.samples {
            assert_numbers(&model, s);
        }
        // Eight root items each: more than the sample floats and decimals.
        assert_eq!(data.count("Fill"), 8, "seed {seed}");
        assert_eq!(data.count("Gauge"), 8, "seed {seed}");
    }
}

#[test]
fn fresh_items_number_every_numeric_identity() {
    let model = monotable_model::parse(MODEL).expect("model");
    let data = generate(&model, 3);
    let mut fresh = Fresh::for_table(&model, 3, &data);
    let mut made = 0;
    for _ in 0..24 {
        for entity in ["Fill", "Berth", "Gauge"] {
            if let Some(s) = fresh.item(entity) {
                assert_numbers(&model, &s);
                made += 1;
            }
        }
    }
    // `{berthNumber:01}` holds ten values: the fresh berths stop there, the others go on.
    assert!(made >= 48, "{made} fresh items");
}

//! An item against DynamoDB's item size limit (`MA021`): what the audit adds to the access
//! layer's conformance rules, with the size `check::cost` computes.

use monotable_access::conform::{Code, Finding, ItemKind, Subject};
use monotable_access::items::{self, Item};
use monotable_model::Model;

/// DynamoDB's item size limit: 400 KB, names and values.
pub const MAX_ITEM_BYTES: u64 = 400 * 1024;

/// The finding that `item`, an item of `kind`, is over [`MAX_ITEM_BYTES`].
pub(crate) fn check(model: &Model, item: &Item, kind: &ItemKind) -> Option<Finding> {
    let ItemKind::Entity(name) = kind else {
        return None;
    };
    let entity = model.entity(name)?;
    let bytes = monotable_check::cost::item_size(&items::to_json(item))?;
    let s = Subject::new(model, item, entity);
    (bytes > MAX_ITEM_BYTES).then(|| {
        s.finding(
            Code::ItemTooLarge,
            format!("the item is {bytes} bytes, over DynamoDB's 400 KB ({MAX_ITEM_BYTES} bytes)"),
        )
        .found_expected(Some(bytes.to_string()), Some(MAX_ITEM_BYTES.to_string()))
        .span(s.entity.span.clone())
        .note("DynamoDB refuses to write it again: every update of the item fails")
        .help("move large values out of the item (another item, or an object store)")
    })
}

#[cfg(test)]
mod tests {
    use aws_sdk_dynamodb::types::AttributeValue;
    use monotable_access::conform::check_item;

    use super::*;

    #[test]
    fn an_item_over_400_kb_is_too_large() {
        let model = monotable_model::parse(
            r#"
[table]
name = "Tab"
partition_key = { name = "PK" }

[entities.Note]
attributes.id = { type = "string", required = true }
keys.PK = "NOTE#{id}"
"#,
        )
        .unwrap();
        let s = |t: &str| AttributeValue::S(t.to_string());
        let mut item = Item::from([
            ("PK".to_string(), s("NOTE#1")),
            ("entityType".to_string(), s("Note")),
            ("id".to_string(), s("1")),
        ]);
        let fits = check_item(&model, &item);
        assert!(fits.findings.is_empty(), "{:?}", fits.findings);
        assert_eq!(check(&model, &item, &fits.kind), None);
        item.insert("blob".into(), s(&"x".repeat(410 * 1024)));
        let audit = check_item(&model, &item);
        assert!(
            audit.findings.is_empty(),
            "the size is the audit's own rule"
        );
        let f = check(&model, &item, &audit.kind).expect("too large");
        assert_eq!(f.code.code(), "MA021");
        assert!(
            f.diagnostic
                .message
                .starts_with("Note PK=NOTE#1: the item is "),
            "{}",
            f.diagnostic.message
        );
    }
}

//! `migrate --apply` for each kind of change, on the shop's sample data: afterwards the table
//! holds exactly what NEW writes (every item rewritten by NEW's templates), `verify`'s oracle
//! agrees on every pattern of NEW over the migrated data, and running it again does nothing.

use crate::common;

use common::*;
use monotable_access::items::Item;
use monotable_migrate::apply::{self, ApplyOptions, ApplyProgress, Summary};
use monotable_migrate::diff;
use monotable_model::Model;

async fn migrate(client: &aws_sdk_dynamodb::Client, old: &Model, new: &Model) -> Summary {
    let d = diff::diff(old, new);
    let options = ApplyOptions {
        apply: true,
        remove_indexes: true,
        delete_removed: true,
        ..ApplyOptions::default()
    };
    apply::run(client, old, new, &d, &options, &ApplyProgress::default())
        .await
        .expect("migration runs")
}

/// The table fits `new` (`audit` is clean) and every pattern of `new` over its data agrees
/// with verify's oracle.
async fn oracle_agrees(client: &aws_sdk_dynamodb::Client, new: &Model) {
    let audit = monotable_migrate::audit::audit(new, client, &Default::default())
        .await
        .expect("audit runs");
    assert!(
        !audit.has_drift(),
        "{}",
        audit.render(monotable_migrate::audit::ReportFormat::Human)
    );
    let report = monotable_verify::verify_table(new, client, 3)
        .await
        .expect("verify runs");
    assert!(report.passed(), "{}", report.render_human());
}

/// Items of `items` that hold `attribute`.
fn keys_of(items: &[Item], attribute: &str) -> usize {
    items.iter().filter(|i| i.contains_key(attribute)).count()
}

#[test]
fn a_pattern_that_needs_a_new_index_key_backfills_every_order_line() {
    runtime().block_on(async {
        let client = client().await;
        let old = named(SHOP, "MigrateAddPattern");
        let new = named(ORDERS_BY_PRODUCT, "MigrateAddPattern");
        let before = loaded(&client, &old, 11).await;
        let lines = before
            .iter()
            .filter(|i| monotable_access::items::entity_type(i) == Some("OrderItem"))
            .count();
        assert!(lines > 0);

        let summary = migrate(&client, &old, &new).await;
        assert!(summary.complete(), "{}", apply::render_human(&summary));
        assert_eq!(summary.counts.rewritten as usize, lines);
        let after = scan(&client, &new).await;
        assert_eq!(after.len(), before.len(), "no item lost or added");
        assert_eq!(keys_of(&after, "GSI4PK"), lines);
        oracle_agrees(&client, &new).await;

        let again = migrate(&client, &old, &new).await;
        assert_eq!(again.counts.rewritten + again.counts.moved, 0, "idempotent");
        assert_eq!(scan(&client, &new).await, after);
        let _ = client
            .delete_table()
            .table_name(&new.table.name)
            .send()
            .await;
    });
}

/// `source` with the user's table key moved from `USER#` to `CUSTOMER#`.
fn customer_keys(source: &str) -> String {
    source
        .replace(
            "keys.PK = \"USER#{userId}\"",
            "keys.PK = \"CUSTOMER#{userId}\"",
        )
        .replace(
            "key = { PK = \"USER#{userId}\", SK = \"PROFILE\" }",
            "key = { PK = \"CUSTOMER#{userId}\", SK = \"PROFILE\" }",
        )
}

#[test]
fn a_table_key_template_change_moves_every_user() {
    runtime().block_on(async {
        let client = client().await;
        let old = named(SHOP, "MigrateMove");
        let new = named(&customer_keys(SHOP), "MigrateMove");
        let before = loaded(&client, &old, 12).await;
        let users = before
            .iter()
            .filter(|i| monotable_access::items::entity_type(i) == Some("User"))
            .count();
        assert!(users > 0);

        let summary = migrate(&client, &old, &new).await;
        assert!(summary.complete(), "{}", apply::render_human(&summary));
        assert_eq!(summary.counts.moved as usize, users);
        let after = scan(&client, &new).await;
        assert_eq!(
            after.len(),
            before.len(),
            "each user moved, none duplicated"
        );
        let text = |i: &Item, a: &str| i.get(a).and_then(monotable_access::value::template_text);
        assert!(
            after
                .iter()
                .all(|i| !text(i, "PK").unwrap_or_default().starts_with("USER#")),
            "no user left at its old key"
        );
        oracle_agrees(&client, &new).await;
        let again = migrate(&client, &old, &new).await;
        assert_eq!(again.counts.moved + again.counts.rewritten, 0, "idempotent");
        let _ = client
            .delete_table()
            .table_name(&new.table.name)
            .send()
            .await;
    });
}

/// `source` with `EmailGuard` renamed `EmailClaim` and given a required `verified` flag.
fn email_claims(source: &str) -> String {
    source
        .replace(
            "[entities.EmailGuard]",
            "[entities.EmailClaim]\nrenamed_from = \"EmailGuard\"",
        )
        .replace("\"EmailGuard\"", "\"EmailClaim\"")
        .replace("renamed_from = \"EmailClaim\"", "renamed_from = \"EmailGuard\"")
        .replace("EmailGuard = { writes", "EmailClaim = { writes")
        .replace(
            "attributes.userId = { type = \"string\", required = true }\nkeys.PK = \"EMAIL#",
            "attributes.userId = { type = \"string\", required = true }\nattributes.verified = { type = \"boolean\", required = true, default = false }\nkeys.PK = \"EMAIL#",
        )
}

#[test]
fn an_entity_rename_rewrites_its_type_and_writes_the_new_default() {
    runtime().block_on(async {
        let client = client().await;
        let old = named(SHOP, "MigrateRename");
        let new = named(&email_claims(SHOP), "MigrateRename");
        assert!(new.entity("EmailClaim").is_some() && new.entity("EmailGuard").is_none());
        let before = loaded(&client, &old, 13).await;
        let guards = before
            .iter()
            .filter(|i| monotable_access::items::entity_type(i) == Some("EmailGuard"))
            .count();
        assert!(guards > 0);

        let summary = migrate(&client, &old, &new).await;
        assert!(summary.complete(), "{}", apply::render_human(&summary));
        assert_eq!(summary.counts.rewritten as usize, guards);
        let after = scan(&client, &new).await;
        let claims: Vec<&Item> = after
            .iter()
            .filter(|i| monotable_access::items::entity_type(i) == Some("EmailClaim"))
            .collect();
        assert_eq!(claims.len(), guards);
        assert!(claims.iter().all(|i| i.contains_key("verified")));
        oracle_agrees(&client, &new).await;
        let _ = client
            .delete_table()
            .table_name(&new.table.name)
            .send()
            .await;
    });
}

const NATIVE: &str = include_str!("../../../../examples/shop/shop-native.toml");

#[test]
fn native_indexes_need_no_backfill_and_the_synthetic_keys_are_dropped() {
    runtime().block_on(async {
        let client = client().await;
        let old = named(SHOP, "MigrateNative");
        let new = named(NATIVE, "MigrateNative");
        let before = loaded(&client, &old, 14).await;
        let summary = migrate(&client, &old, &new).await;
        assert!(summary.complete(), "{}", apply::render_human(&summary));
        let after = scan(&client, &new).await;
        assert_eq!(after.len(), before.len());
        for gone in ["GSI3PK", "GSI3SK"] {
            assert_eq!(keys_of(&after, gone), 0, "{gone} dropped");
        }
        let described = client
            .describe_table()
            .table_name(&new.table.name)
            .send()
            .await
            .expect("describe");
        let mut names: Vec<String> = described
            .table()
            .map(|t| {
                t.global_secondary_indexes()
                    .iter()
                    .filter_map(|g| g.index_name().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        assert_eq!(names, ["ByCategory", "ByDay", "ByStatus", "GSI1", "GSI2"]);
        oracle_agrees(&client, &new).await;
        let _ = client
            .delete_table()
            .table_name(&new.table.name)
            .send()
            .await;
    });
}

#[test]
fn a_move_onto_a_taken_key_leaves_the_item_and_says_why() {
    runtime().block_on(async {
        let client = client().await;
        let old = named(SHOP, "MigrateTaken");
        let new = named(&customer_keys(SHOP), "MigrateTaken");
        let before = loaded(&client, &old, 15).await;
        let user = before
            .iter()
            .find(|i| monotable_access::items::entity_type(i) == Some("User"))
            .expect("a user");
        let id = user
            .get("userId")
            .and_then(monotable_access::value::template_text)
            .unwrap_or_default();
        let mut squatter = user.clone();
        squatter.insert(
            "PK".into(),
            monotable_access::items::s(format!("CUSTOMER#{id}")),
        );
        squatter.insert("name".into(), monotable_access::items::s("squatter"));
        client
            .put_item()
            .table_name(&old.table.name)
            .set_item(Some(squatter.clone()))
            .send()
            .await
            .expect("put");

        let summary = migrate(&client, &old, &new).await;
        assert!(!summary.complete(), "an item was left");
        assert_eq!(summary.counts.left, 1);
        let text = apply::render_human(&summary);
        assert!(
            text.contains("its new key already holds another item"),
            "{text}"
        );
        let after = scan(&client, &new).await;
        assert!(after.contains(user), "the user is still at its old key");
        assert!(after.contains(&squatter), "the occupant is untouched");
        let _ = client
            .delete_table()
            .table_name(&new.table.name)
            .send()
            .await;
    });
}

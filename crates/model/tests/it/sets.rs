//! `sets = [...]` on an UpdateItem: what the model accepts, with spans, and what it refuses, one
//! issue per mistake, each pointing at the name at fault.

use monotable_model::{IssueKind, parse};

const MODEL: &str = r#"[table]
name = "Tickets"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[indexes.GSI1]
partition_key = { name = "GSI1PK" }
sort_key = { name = "GSI1SK" }

[indexes.ByStatus]
partition_key = { name = "status" }

[indexes.GSI9]
partition_key = { name = "GSI9PK" }

[entities.Ticket]
attributes.ticketId = { type = "string", required = true }
attributes.team = { type = "string", required = true }
attributes.status = { type = "enum", values = ["OPEN", "CLOSED"], required = true }
attributes.open = { type = "boolean", required = true }
attributes.updatedAt = { type = "timestamp", format = "rfc3339-utc-millis", required = true }
keys.PK = "TICKET#{ticketId}"
keys.SK = "TICKET"
keys.GSI1PK = "TEAM#{team}"
keys.GSI1SK = "{status}#{ticketId}"
keys.status = "{status}"
key_conditions = { GSI1PK = "open", GSI1SK = "open" }

[entities.Team]
attributes.team = { type = "string", required = true }
keys.PK = "TEAM#{team}"
keys.SK = "TEAM"
"#;

/// The model with one more pattern: an UpdateItem of `Ticket` declaring `sets`.
fn update(sets: &str) -> String {
    update_returning("[\"Ticket\"]", sets)
}

fn update_returning(returns: &str, sets: &str) -> String {
    format!(
        "{MODEL}\n[patterns.closeTicket]\noperation = \"UpdateItem\"\nkey = {{ PK = \"TICKET#{{ticketId}}\", SK = \"TICKET\" }}\nreturns = {returns}\nsets = {sets}\n"
    )
}

/// Exactly one issue of `kind`, containing `needle`, whose span covers `at` in the source.
fn one_issue(source: &str, kind: IssueKind, needle: &str, at: &str) {
    let err = parse(source).expect_err(needle);
    assert_eq!(err.issues.len(), 1, "{needle}: {:?}", err.issues);
    let issue = &err.issues[0];
    assert_eq!(issue.kind, kind, "{issue:?}");
    assert!(issue.message.contains(needle), "{needle}: {issue:?}");
    let span = issue.span.clone().expect("a span");
    assert_eq!(&source[span], at, "{issue:?}");
}

#[test]
fn an_update_declares_the_attributes_it_changes() {
    let source = update("[\"status\", \"updatedAt\"]");
    let model = parse(&source).expect("valid");
    let sets = model
        .pattern("closeTicket")
        .and_then(|p| p.sets.as_ref())
        .expect("sets");
    let names: Vec<&str> = sets.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["status", "updatedAt"]);
    assert_eq!(&source[sets.span.clone()], "[\"status\", \"updatedAt\"]");
    assert_eq!(&source[sets.attributes[1].span.clone()], "\"updatedAt\"");
    assert!(sets.contains("status") && !sets.contains("team"));
}

#[test]
fn a_pattern_without_sets_declares_nothing() {
    let source = format!(
        "{MODEL}\n[patterns.touch]\noperation = \"UpdateItem\"\nkey = {{ PK = \"TICKET#{{ticketId}}\", SK = \"TICKET\" }}\nreturns = [\"Ticket\"]\n"
    );
    let model = parse(&source).expect("valid");
    assert!(model.pattern("touch").is_some_and(|p| p.sets.is_none()));
}

#[test]
fn key_inputs_are_the_variables_then_the_condition() {
    let model = parse(MODEL).expect("valid");
    let ticket = model.entity("Ticket").unwrap();
    assert_eq!(ticket.primary_key_inputs(), ["ticketId"]);
    let gsi1sk = ticket.key_field("GSI1SK").unwrap();
    assert_eq!(gsi1sk.inputs(), ["status", "ticketId", "open"]);
    let team = model.entity("Team").unwrap();
    assert_eq!(team.primary_key_inputs(), ["team"]);
}

#[test]
fn unknown_and_repeated_attributes() {
    let source = update("[\"status\", \"staus\"]");
    one_issue(
        &source,
        IssueKind::UnknownReference,
        "`staus` in `sets` of `closeTicket` is not an attribute of `Ticket`",
        "\"staus\"",
    );
    let source = update("[\"status\", \"updatedAt\", \"status\"]");
    let err = parse(&source).expect_err("listed twice");
    assert_eq!(err.issues.len(), 1, "{err:?}");
    let span = err.issues[0].span.clone().unwrap();
    assert!(err.issues[0].message.contains("`status` is listed twice"));
    // The second `status`, not the first.
    assert_eq!(span.start, source.rfind("\"status\"").unwrap());
}

#[test]
fn the_primary_key_cannot_change() {
    one_issue(
        &update("[\"ticketId\"]"),
        IssueKind::Invalid,
        "`ticketId` in `sets` of `closeTicket` is part of `Ticket`'s primary key (PK = \"TICKET#{ticketId}\", SK = \"TICKET\")",
        "\"ticketId\"",
    );
    one_issue(
        &update("[\"SK\"]"),
        IssueKind::Invalid,
        "`SK` in `sets` of `closeTicket` is the table's sort key: an update cannot change the key",
        "\"SK\"",
    );
}

#[test]
fn index_keys_are_rendered_not_set() {
    one_issue(
        &update("[\"GSI1PK\"]"),
        IssueKind::Invalid,
        "`GSI1PK` in `sets` of `closeTicket` is the partition key of index `GSI1`, which `Ticket` renders from `TEAM#{team}`",
        "\"GSI1PK\"",
    );
    let err = parse(&update("[\"GSI1SK\"]")).expect_err("rendered");
    assert_eq!(
        err.issues[0].help.as_deref(),
        Some(
            "list the inputs of its template instead (`status`, `ticketId` and `open`): the update renders `GSI1SK` again from them"
        )
    );
    one_issue(
        &update("[\"GSI9PK\"]"),
        IssueKind::Invalid,
        "`GSI9PK` in `sets` of `closeTicket` is the partition key of index `GSI9`, which `Ticket` does not write",
        "\"GSI9PK\"",
    );
    // An index keyed by the attribute itself (`status = "{status}"`): setting it is setting the key.
    assert!(parse(&update("[\"status\"]")).is_ok());
}

#[test]
fn only_an_update_of_one_entity_sets() {
    let put =
        update("[\"status\"]").replace("operation = \"UpdateItem\"", "operation = \"PutItem\"");
    one_issue(
        &put,
        IssueKind::Invalid,
        "`sets` only applies to an UpdateItem, and `closeTicket` is a PutItem",
        "[\"status\"]",
    );
    one_issue(
        &update_returning("[\"Ticket\", \"Team\"]", "[\"status\"]"),
        IssueKind::Invalid,
        "`sets` names attributes of the one entity `closeTicket` updates, and it returns 2 entities",
        "[\"status\"]",
    );
    // Returning nothing, its key variables are unknown too: that is said separately.
    let source = update_returning("[]", "[\"status\"]");
    let err = parse(&source).expect_err("returns none");
    let none = err
        .issues
        .iter()
        .find(|i| i.message.contains("and it returns none"))
        .unwrap_or_else(|| panic!("{err:?}"));
    assert_eq!(&source[none.span.clone().unwrap()], "[\"status\"]");
    one_issue(
        &update("[]"),
        IssueKind::Invalid,
        "`sets = []` on `closeTicket` declares an update that changes nothing",
        "[]",
    );
}

#[test]
fn an_undeclared_entity_is_one_issue() {
    // The returned entity is reported; its attributes are not judged against nothing.
    let source = update_returning("[\"Tiket\"]", "[\"status\", \"nope\"]");
    one_issue(
        &source,
        IssueKind::UnknownReference,
        "returned entity `Tiket` is not a declared entity",
        "\"Tiket\"",
    );
}

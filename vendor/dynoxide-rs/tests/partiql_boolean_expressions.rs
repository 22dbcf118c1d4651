//! Parenthesised grouping, `NOT`, and the operand types an ordering comparison
//! accepts.
//!
//! `compatibility-summary.md` listed `AND`, `OR`, `NOT` and parenthesised
//! grouping as supported. Only `AND` and `OR` were, in a flat OR-of-ANDs with no
//! notion of parentheses: even `WHERE (a='1')` was a parse error. DynamoDB parses
//! all of it, confirmed eu-west-2 2026-08-15 by firing each shape at a table that
//! does not exist and watching it reach table resolution rather than fail to
//! parse.
//!
//! The clause is still flattened to an OR of ANDs for execution, so what is
//! tested here is that the flattening preserves meaning, including operator
//! precedence and De Morgan over a negated group.

use dynoxide::Database;
use dynoxide::actions::execute_statement::ExecuteStatementRequest;
use dynoxide::types::AttributeValue;
use std::collections::HashMap;

const TABLE: &str = "pq_bool";

fn seeded() -> Database {
    let db = Database::memory().unwrap();
    db.create_table(
        serde_json::from_value(serde_json::json!({
            "TableName": TABLE,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST"
        }))
        .unwrap(),
    )
    .unwrap();
    for (pk, a, b) in [("1", "x", "p"), ("2", "y", "q"), ("3", "z", "p")] {
        let mut item = HashMap::new();
        item.insert("pk".to_string(), AttributeValue::S(pk.to_string()));
        item.insert("a".to_string(), AttributeValue::S(a.to_string()));
        item.insert("b".to_string(), AttributeValue::S(b.to_string()));
        db.put_item(
            serde_json::from_value(serde_json::json!({"TableName": TABLE, "Item": item})).unwrap(),
        )
        .unwrap();
    }
    db
}

/// The sorted keys a WHERE clause selects from `table`.
fn selects_in(db: &Database, table: &str, where_clause: &str) -> String {
    let resp = db
        .execute_statement(ExecuteStatementRequest {
            statement: format!("SELECT pk FROM \"{table}\" WHERE {where_clause}"),
            ..Default::default()
        })
        .unwrap_or_else(|e| panic!("{where_clause} failed: {e}"));
    let mut keys: Vec<String> = resp
        .items
        .unwrap_or_default()
        .iter()
        .filter_map(|i| match i.get("pk") {
            Some(AttributeValue::S(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    keys.sort();
    keys.join(",")
}

/// The same, against the table most of these tests share.
fn selects(db: &Database, where_clause: &str) -> String {
    selects_in(db, TABLE, where_clause)
}

#[test]
fn parentheses_are_accepted_and_change_nothing_on_their_own() {
    let db = seeded();
    assert_eq!(selects(&db, "a='x'"), "1");
    assert_eq!(selects(&db, "(a='x')"), "1");
    assert_eq!(selects(&db, "((a='x'))"), "1");
}

#[test]
fn parentheses_override_operator_precedence() {
    let db = seeded();
    // AND binds tighter, so the unparenthesised form is a='x' OR (a='y' AND b='q').
    assert_eq!(selects(&db, "a='x' OR a='y' AND b='q'"), "1,2");
    // Parenthesising the OR distributes it over the AND: only item 1 has b='p'.
    assert_eq!(selects(&db, "(a='x' OR a='y') AND b='p'"), "1");
    assert_eq!(selects(&db, "b='p' AND (a='x' OR a='y')"), "1");
}

#[test]
fn not_negates_a_comparison() {
    let db = seeded();
    assert_eq!(selects(&db, "NOT a='x'"), "2,3");
    assert_eq!(selects(&db, "NOT NOT a='x'"), "1");
}

#[test]
fn not_over_a_group_applies_de_morgan() {
    let db = seeded();
    // NOT (a='x' OR a='y') is a<>'x' AND a<>'y'.
    assert_eq!(selects(&db, "NOT (a='x' OR a='y')"), "3");
    // NOT (a='x' AND b='p') is a<>'x' OR b<>'p', which excludes only item 1.
    assert_eq!(selects(&db, "NOT (a='x' AND b='p')"), "2,3");
}

#[test]
fn not_over_in_and_between_expands_to_the_right_shape() {
    let db = seeded();
    // NOT IN is a conjunction of inequalities.
    assert_eq!(selects(&db, "NOT a IN ['x','y']"), "3");
    // NOT BETWEEN is a disjunction, which a single condition cannot hold.
    assert_eq!(selects(&db, "NOT b BETWEEN 'p' AND 'p'"), "2");
}

/// `a NOT IN [...]` is `NOT a IN [...]`, written the other way round.
/// DynamoDB runs it and returns the item whose value isn't listed (captured
/// eu-west-2 and us-east-1, 2026-10-10, `x NOT IN [1, 2]` against `x = 0`);
/// what it does for an item without the attribute wasn't captured, so here it
/// follows the leading NOT.
#[test]
fn not_in_after_the_path_reads_as_a_leading_not() {
    let db = seeded();
    assert_eq!(selects(&db, "a NOT IN ['x','y']"), "3");
    for (written, leading) in [
        ("a NOT IN ['x','y']", "NOT a IN ['x','y']"),
        ("a NOT IN ['x']", "NOT a IN ['x']"),
        ("nope NOT IN ['x']", "NOT nope IN ['x']"),
        ("a NOT IN [b]", "NOT a IN [b]"),
        ("NOT a NOT IN ['x','y']", "a IN ['x','y']"),
        ("a NOT IN ['x'] AND b = 'p'", "NOT a IN ['x'] AND b = 'p'"),
    ] {
        assert_eq!(selects(&db, written), selects(&db, leading), "{written}");
    }
}

#[test]
fn not_contains_is_the_complement_of_contains() {
    let db = seeded();
    assert_eq!(selects(&db, "CONTAINS(a, 'x')"), "1");
    assert_eq!(selects(&db, "NOT CONTAINS(a, 'x')"), "2,3");
}

#[test]
fn the_condition_level_negations_still_parse_as_themselves() {
    // NOT BEGINS_WITH is a single condition with its own variant, not the
    // boolean operator applied to a function call, and NOT in front of
    // attribute_exists negates it. The boolean NOT must not swallow either.
    // (`EXISTS(path)` is a function DynamoDB doesn't recognise in a WHERE
    // clause, captured eu-west-2 and us-east-1, 2026-10-09.)
    let db = seeded();
    assert_eq!(selects(&db, "NOT attribute_exists(nope)"), "1,2,3");
    assert_eq!(selects(&db, "NOT BEGINS_WITH(a, 'x')"), "2,3");
}

#[test]
fn an_unclosed_parenthesis_is_a_parse_error() {
    let db = seeded();
    let err = db
        .execute_statement(ExecuteStatementRequest {
            statement: format!("SELECT pk FROM \"{TABLE}\" WHERE (a='x'"),
            ..Default::default()
        })
        .expect_err("an unclosed group is malformed")
        .to_string();
    assert!(err.contains("wasn't well formed"), "got {err}");
}

// --- operand types on an ordering comparison ------------------------------

#[test]
fn an_ordering_comparison_rejects_an_operand_with_no_ordering() {
    // DynamoDB orders S, N and B and nothing else, and rejects the statement
    // rather than declining to match. The check fires before the table is
    // resolved. Captured eu-west-2 2026-08-15.
    let db = seeded();
    for (operand, type_name) in [
        (serde_json::json!({"BOOL": true}), "BOOL"),
        (serde_json::json!({"NULL": true}), "NULL"),
        (serde_json::json!({"L": [{"S": "a"}]}), "L"),
        (serde_json::json!({"M": {"k": {"S": "v"}}}), "M"),
        (serde_json::json!({"SS": ["a"]}), "SS"),
        (serde_json::json!({"NS": ["1"]}), "NS"),
        (serde_json::json!({"BS": ["YQ=="]}), "BS"),
    ] {
        for op in ["<", "<=", ">", ">="] {
            let err = db
                .execute_statement(
                    serde_json::from_value(serde_json::json!({
                        "Statement": format!("SELECT pk FROM \"{TABLE}\" WHERE a {op} ?"),
                        "Parameters": [operand]
                    }))
                    .unwrap(),
                )
                .expect_err("an unorderable operand is rejected")
                .to_string();
            assert!(
                err.contains(&format!(
                    "Incorrect operand type for operator or function; \
                     operator or function: {op}, operand type: {type_name}"
                )),
                "for {op} on {type_name}: got {err}"
            );
        }
    }
}

#[test]
fn between_rejects_an_operand_with_no_ordering() {
    let db = seeded();
    let err = db
        .execute_statement(
            serde_json::from_value(serde_json::json!({
                "Statement": format!("SELECT pk FROM \"{TABLE}\" WHERE a BETWEEN ? AND ?"),
                "Parameters": [{"BOOL": true}, {"BOOL": false}]
            }))
            .unwrap(),
        )
        .expect_err("an unorderable operand is rejected")
        .to_string();
    assert!(
        err.contains("operator or function: BETWEEN, operand type: BOOL"),
        "got {err}"
    );
}

#[test]
fn the_orderable_types_are_accepted() {
    // S, N and B all order. Binary in particular: the predicate work found the
    // old comparison never reached a binary arm at all.
    let db = seeded();
    for operand in [
        serde_json::json!({"S": "zz"}),
        serde_json::json!({"N": "1"}),
        serde_json::json!({"B": "YQ=="}),
    ] {
        assert!(
            db.execute_statement(
                serde_json::from_value(serde_json::json!({
                    "Statement": format!("SELECT pk FROM \"{TABLE}\" WHERE a < ?"),
                    "Parameters": [operand]
                }))
                .unwrap(),
            )
            .is_ok(),
            "an orderable operand must be accepted"
        );
    }
}

#[test]
fn equality_accepts_every_operand_type() {
    // `=` and `<>` are defined for every type, so the rejection must not reach
    // them. This is the control that keeps the check narrow.
    let db = seeded();
    for op in ["=", "<>"] {
        assert!(
            db.execute_statement(
                serde_json::from_value(serde_json::json!({
                    "Statement": format!("SELECT pk FROM \"{TABLE}\" WHERE a {op} ?"),
                    "Parameters": [{"BOOL": true}]
                }))
                .unwrap(),
            )
            .is_ok(),
            "{op} must accept any operand type"
        );
    }
}

// --- operand types on begins_with -----------------------------------------

/// The error a statement gets, or a panic naming what came back instead.
fn statement_error(db: &Database, statement: String, parameters: serde_json::Value) -> String {
    // No parameters means no Parameters member: an empty list is a request
    // member error on DynamoDB.
    let mut request = serde_json::json!({ "Statement": statement });
    if parameters.as_array().is_none_or(|list| !list.is_empty()) {
        request["Parameters"] = parameters;
    }
    match db.execute_statement(serde_json::from_value(request).unwrap()) {
        Ok(_) => panic!("{statement} must be rejected"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn begins_with_rejects_an_operand_that_is_not_a_string_or_binary() {
    // As in a condition expression, begins_with takes a string or binary and
    // nothing else, on a key attribute or any other. DynamoDB rejects it before
    // the table is resolved, and a negated begins_with on the same terms.
    // Captured eu-west-2, 2026-10-08.
    let db = seeded();
    let mut checked = 0;
    for (operand, type_name) in [
        (serde_json::json!({"N": "1"}), "N"),
        (serde_json::json!({"BOOL": true}), "BOOL"),
        (serde_json::json!({"NULL": true}), "NULL"),
        (serde_json::json!({"L": [{"S": "a"}]}), "L"),
        (serde_json::json!({"M": {"k": {"S": "v"}}}), "M"),
        (serde_json::json!({"SS": ["a"]}), "SS"),
        (serde_json::json!({"NS": ["1"]}), "NS"),
        (serde_json::json!({"BS": ["YQ=="]}), "BS"),
    ] {
        for statement in [
            format!("SELECT pk FROM \"{TABLE}\" WHERE begins_with(a, ?)"),
            format!("SELECT pk FROM \"{TABLE}\" WHERE NOT begins_with(a, ?)"),
            format!("SELECT pk FROM \"{TABLE}\" WHERE pk = '1' AND begins_with(pk, ?)"),
            "SELECT pk FROM \"no_such_table\" WHERE begins_with(a, ?)".to_string(),
            format!("DELETE FROM \"{TABLE}\" WHERE pk = '1' AND begins_with(a, ?)"),
        ] {
            let err = statement_error(&db, statement.clone(), serde_json::json!([operand]));
            assert!(
                err.contains(&format!(
                    "Incorrect operand type for operator or function; \
                     operator or function: begins_with, operand type: {type_name}"
                )),
                "{statement} with {type_name}: got {err}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 40);
}

#[test]
fn begins_with_rejects_a_literal_operand_that_is_not_a_string() {
    let db = seeded();
    for (literal, type_name) in [("1", "N"), ("true", "BOOL")] {
        let err = statement_error(
            &db,
            format!("SELECT pk FROM \"{TABLE}\" WHERE begins_with(a, {literal})"),
            serde_json::json!([]),
        );
        assert!(
            err.contains(&format!(
                "operator or function: begins_with, operand type: {type_name}"
            )),
            "begins_with(a, {literal}): got {err}"
        );
    }
}

#[test]
fn begins_with_accepts_a_string_or_binary_operand() {
    let db = seeded();
    for operand in [
        serde_json::json!({"S": "x"}),
        serde_json::json!({"B": "YQ=="}),
    ] {
        assert!(
            db.execute_statement(
                serde_json::from_value(serde_json::json!({
                    "Statement": format!("SELECT pk FROM \"{TABLE}\" WHERE begins_with(a, ?)"),
                    "Parameters": [operand]
                }))
                .unwrap(),
            )
            .is_ok(),
            "a string or binary begins_with operand must be accepted"
        );
    }
}

/// begins_with compares a binary attribute with a binary prefix by its bytes,
/// and NOT begins_with keeps everything else: a binary value with another
/// prefix, a string value (a different type), and an item without the
/// attribute. A string prefix matches only the string value. The four
/// statements and the items each returned were captured on eu-west-2 and
/// us-east-1, 2026-10-09 (the regions agree).
#[test]
fn begins_with_matches_a_binary_value_by_its_bytes() {
    let db = Database::memory().unwrap();
    db.create_table(
        serde_json::from_value(serde_json::json!({
            "TableName": "pq_bin",
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST"
        }))
        .unwrap(),
    )
    .unwrap();
    for (pk, b) in [
        ("h1", Some(AttributeValue::B(b"abc".to_vec()))),
        ("h2", Some(AttributeValue::B(b"abd".to_vec()))),
        ("h3", Some(AttributeValue::B(b"xyz".to_vec()))),
        ("h4", Some(AttributeValue::S("abc".to_string()))),
        ("h5", None),
    ] {
        let mut item = HashMap::new();
        item.insert("pk".to_string(), AttributeValue::S(pk.to_string()));
        if let Some(b) = b {
            item.insert("b".to_string(), b);
        }
        db.put_item(
            serde_json::from_value(serde_json::json!({"TableName": "pq_bin", "Item": item}))
                .unwrap(),
        )
        .unwrap();
    }
    let matched = |statement: &str, parameter: serde_json::Value| -> Vec<String> {
        let response = db
            .execute_statement(
                serde_json::from_value(serde_json::json!({
                    "Statement": statement,
                    "Parameters": [parameter]
                }))
                .unwrap(),
            )
            .unwrap();
        let mut pks: Vec<String> = response
            .items
            .unwrap_or_default()
            .iter()
            .map(|item| match item.get("pk") {
                Some(AttributeValue::S(pk)) => pk.clone(),
                other => panic!("unexpected pk {other:?}"),
            })
            .collect();
        pks.sort();
        pks
    };
    let ab = serde_json::json!({"B": "YWI="});
    assert_eq!(
        matched(
            "SELECT pk FROM \"pq_bin\" WHERE begins_with(b, ?)",
            ab.clone()
        ),
        ["h1", "h2"]
    );
    assert_eq!(
        matched(
            "SELECT pk FROM \"pq_bin\" WHERE NOT begins_with(b, ?)",
            ab.clone()
        ),
        ["h3", "h4", "h5"]
    );
    assert_eq!(
        matched(
            "SELECT pk FROM \"pq_bin\" WHERE begins_with(b, ?)",
            serde_json::json!({"S": "ab"})
        ),
        ["h4"]
    );
    assert_eq!(
        matched(
            "SELECT pk FROM \"pq_bin\" WHERE pk = 'h1' AND begins_with(b, ?)",
            ab
        ),
        ["h1"]
    );
}

#[test]
fn operand_types_are_checked_in_the_order_written() {
    // The first offending operand is the one reported, whichever check it
    // belongs to.
    let db = seeded();
    let err = statement_error(
        &db,
        format!("SELECT pk FROM \"{TABLE}\" WHERE a < ? AND begins_with(a, ?)"),
        serde_json::json!([{"BOOL": true}, {"N": "1"}]),
    );
    assert!(
        err.contains("operator or function: <, operand type: BOOL"),
        "got {err}"
    );

    let err = statement_error(
        &db,
        format!("SELECT pk FROM \"{TABLE}\" WHERE begins_with(a, ?) AND a < ?"),
        serde_json::json!([{"N": "1"}, {"BOOL": true}]),
    );
    assert!(
        err.contains("operator or function: begins_with, operand type: N"),
        "got {err}"
    );
}

// --- nesting is bounded ---------------------------------------------------
//
// Both halves of the parser are recursive descents, and neither had a bound.
// A statement nested past the stack's depth overflowed it, and a stack overflow
// is not a rejection: the release profile aborts on panic, so one statement took
// the host process with it rather than failing on its own. These fix the depth
// budget in place, so what used to abort now comes back as a parse error.

/// The parse rejection a statement gets, or a panic naming what came back
/// instead.
fn parse_rejection(db: &Database, statement: String) -> String {
    match db.execute_statement(ExecuteStatementRequest {
        statement,
        ..Default::default()
    }) {
        Ok(_) => panic!("a statement past the parser's budget must be rejected"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_deeply_parenthesised_clause_is_rejected_rather_than_overflowing_the_stack() {
    let db = seeded();
    let err = parse_rejection(
        &db,
        format!(
            "SELECT * FROM \"{TABLE}\" WHERE {}pk='1'{}",
            "(".repeat(500),
            ")".repeat(500)
        ),
    );
    assert!(err.contains("nested too deeply"), "got {err}");
}

#[test]
fn a_clause_nested_within_the_budget_still_parses() {
    // The bound has to leave room for anything anyone would write. Ten levels
    // of parentheses is already far past that and must still run.
    let db = seeded();
    assert_eq!(
        selects(&db, &format!("{}a='x'{}", "(".repeat(10), ")".repeat(10))),
        "1"
    );
}

#[test]
fn the_depth_budget_is_spent_across_both_descents() {
    // The clause parser and the value parser recurse on the same stack, and each
    // used to get the whole budget: a WHERE nested to the limit could hold a
    // value nested to the limit and spend twice as many frames as the bound
    // allows. The depth now carries from one into the other, so a statement
    // splitting it between the two is rejected on the total.
    let db = seeded();
    let err = parse_rejection(
        &db,
        format!(
            "SELECT * FROM \"{TABLE}\" WHERE {}a={}'x'{}{}",
            "(".repeat(40),
            "[".repeat(40),
            "]".repeat(40),
            ")".repeat(40)
        ),
    );
    assert!(err.contains("nested too deeply"), "got {err}");
}

// --- width is bounded too --------------------------------------------------
//
// The depth budget bounds how far the descent recurses; it says nothing about
// how much the flattening then builds. A clause can be shallow and still expand
// enormously, and the flattener used to build the whole expansion before
// noticing it was over the cap.

#[test]
fn a_clause_within_the_width_budget_still_runs() {
    // The budget has to leave room for anything anyone would write. A negated
    // `IN` over a few dozen values is well inside it.
    let db = seeded();
    let values = (0..40)
        .map(|i| format!("'v{i}'"))
        .collect::<Vec<_>>()
        .join(",");
    assert_eq!(selects(&db, &format!("NOT a IN ({values})")), "1,2,3");
}

// --- a negated comparison and a missing attribute --------------------------

const GAP_TABLE: &str = "pq_bool_gap";

/// Three items, one of which carries no `a` at all, so a negation has something
/// to be wrong about.
fn seeded_with_a_gap() -> Database {
    let db = Database::memory().unwrap();
    db.create_table(
        serde_json::from_value(serde_json::json!({
            "TableName": GAP_TABLE,
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
            "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
            "BillingMode": "PAY_PER_REQUEST"
        }))
        .unwrap(),
    )
    .unwrap();
    for (pk, a) in [("1", Some("x")), ("2", Some("y")), ("3", None)] {
        let mut item = HashMap::new();
        item.insert("pk".to_string(), AttributeValue::S(pk.to_string()));
        if let Some(a) = a {
            item.insert("a".to_string(), AttributeValue::S(a.to_string()));
        }
        db.put_item(
            serde_json::from_value(serde_json::json!({"TableName": GAP_TABLE, "Item": item}))
                .unwrap(),
        )
        .unwrap();
    }
    db
}

fn selects_with_a_gap(db: &Database, where_clause: &str) -> String {
    selects_in(db, GAP_TABLE, where_clause)
}

#[test]
fn a_negated_comparison_agrees_with_not_contains_on_a_missing_attribute() {
    // `a = 'x'` is false on an item carrying no `a`, so `NOT a = 'x'` is true
    // and that row belongs in the result. Negating by flipping the operator to
    // `<>` asked a comparison of a value that is not there, which is false
    // again, so the row was dropped: `NOT a='x'` and `NOT CONTAINS(a, 'x')`
    // disagreed about item 3 while meaning the same thing about it.
    let db = seeded_with_a_gap();
    assert_eq!(selects_with_a_gap(&db, "NOT CONTAINS(a, 'x')"), "2,3");
    assert_eq!(selects_with_a_gap(&db, "NOT a='x'"), "2,3");
    // The unnegated form is the control: a missing attribute matches nothing.
    assert_eq!(selects_with_a_gap(&db, "a='x'"), "1");
}

#[test]
fn not_in_and_not_between_keep_a_missing_attribute_too() {
    // Both expand into negated comparisons rather than flipped ones, so the
    // rule holds through the expansion as well as at a single condition.
    let db = seeded_with_a_gap();
    assert_eq!(selects_with_a_gap(&db, "NOT a IN ['x']"), "2,3");
    assert_eq!(selects_with_a_gap(&db, "NOT a BETWEEN 'x' AND 'x'"), "2,3");
    // And a negated group, which reaches the same place through De Morgan.
    assert_eq!(selects_with_a_gap(&db, "NOT (a='x' OR a='y')"), "3");
}

// --- what UPDATE and DELETE refuse ----------------------------------------

#[test]
fn a_not_in_an_update_where_is_not_refused_as_an_or() {
    // UPDATE and DELETE refuse an OR. De Morgan turns a `NOT` over a
    // conjunction into a disjunction, so a clause counted after flattening
    // looked like an OR to the guard and the rejection named something the
    // author never wrote. The clause is now judged on what was written.
    let db = seeded();
    db.execute_statement(ExecuteStatementRequest {
        statement: format!("UPDATE \"{TABLE}\" SET b='z' WHERE pk='1' AND NOT (a='q' AND b='q')"),
        ..Default::default()
    })
    .expect("a NOT in an UPDATE WHERE is not an OR");
    assert_eq!(selects(&db, "b='z'"), "1");
}

#[test]
fn an_or_inside_a_not_in_an_update_where_is_accepted_and_touches_one_row() {
    // The other half of the same point. This clause has an `OR` in it, so a
    // guard reading the syntax refused it, but De Morgan flattens it to two
    // groups that both pin `pk='1'`, so it names exactly one item and can run.
    let db = seeded();
    db.execute_statement(ExecuteStatementRequest {
        statement: format!("UPDATE \"{TABLE}\" SET b='z' WHERE pk='1' AND NOT (a='q' OR a='r')"),
        ..Default::default()
    })
    .expect("a clause naming one item is not an OR the guard should refuse");
    assert_eq!(selects(&db, "b='z'"), "1");
}

#[test]
fn a_not_that_names_two_items_in_an_update_where_is_refused() {
    // The dangerous shape. `NOT (NOT pk='1' AND NOT pk='2')` is `pk='1' OR
    // pk='2'` with no `OR` written anywhere, so a guard reading the syntax let
    // it through and the UPDATE then wrote whichever item the first group
    // happened to name, silently leaving the other one alone.
    let db = seeded();
    let err = db
        .execute_statement(ExecuteStatementRequest {
            statement: format!(
                "UPDATE \"{TABLE}\" SET b='z' WHERE NOT (NOT pk='1' AND NOT pk='2')"
            ),
            ..Default::default()
        })
        .expect_err("a clause naming two items must not run as one write")
        .to_string();
    // DynamoDB's words for a key not pinned by a top-level equality (captured
    // eu-west-2 and us-east-1, 2026-10-09).
    assert!(
        err.contains("Where clause does not contain a mandatory equality on all key attributes"),
        "got {err}"
    );
    // And nothing was written on the way to the refusal.
    assert_eq!(selects(&db, "b='z'"), "");
}

#[test]
fn a_not_that_names_two_items_in_a_delete_where_is_refused() {
    let db = seeded();
    let err = db
        .execute_statement(ExecuteStatementRequest {
            statement: format!("DELETE FROM \"{TABLE}\" WHERE NOT (NOT pk='1' AND NOT pk='2')"),
            ..Default::default()
        })
        .expect_err("a clause naming two items must not run as one delete")
        .to_string();
    assert!(
        err.contains("Where clause does not contain a mandatory equality on all key attributes"),
        "got {err}"
    );
    assert_eq!(selects(&db, "pk='1' OR pk='2'"), "1,2");
}

#[test]
fn an_or_in_an_update_where_is_still_refused() {
    // The control. An OR the author did write is still refused, in DynamoDB's
    // words: a key named only under an OR is not pinned (captured eu-west-2 and
    // us-east-1, 2026-10-09).
    let db = seeded();
    let err = db
        .execute_statement(ExecuteStatementRequest {
            statement: format!("UPDATE \"{TABLE}\" SET b='z' WHERE pk='1' OR pk='2'"),
            ..Default::default()
        })
        .expect_err("an OR in an UPDATE WHERE is refused")
        .to_string();
    assert!(
        err.contains("Where clause does not contain a mandatory equality on all key attributes"),
        "got {err}"
    );
}

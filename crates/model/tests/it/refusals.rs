//! Inputs the model refuses with one clear issue each, and the mistakes that no longer drag
//! follow-on issues behind them.

use monotable_model::{IssueKind, parse};

const TABLE: &str = r#"[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }
"#;

const THING: &str = r#"
[entities.Thing]
attributes.id = { type = "string", required = true }
attributes.shard = { type = "integer", required = true, cardinality = 4 }
keys.PK = "THING#{id}"
keys.SK = "THING"

[patterns.getThing]
operation = "GetItem"
key = { PK = "THING#{id}", SK = "THING" }
returns = ["Thing"]
"#;

/// The messages of every issue of a model made of the table, `Thing`, and `extra`.
fn messages(table: &str, extra: &str) -> Vec<String> {
    match parse(&format!("{table}{THING}{extra}")) {
        Ok(_) => Vec::new(),
        Err(e) => e.issues.into_iter().map(|i| i.message).collect(),
    }
}

/// Exactly one issue, containing `needle`.
fn one_issue(table: &str, extra: &str, needle: &str) {
    let got = messages(table, extra);
    assert!(
        got.len() == 1 && got[0].contains(needle),
        "expected one issue containing {needle:?}, got {got:?}"
    );
}

#[test]
fn the_base_model_is_valid() {
    assert_eq!(messages(TABLE, ""), Vec::<String>::new());
}

#[test]
fn table_and_index_names_dynamodb_refuses() {
    for (name, needle) in [
        (
            "T",
            "table name `T` is not one DynamoDB accepts: it is 1 character long",
        ),
        ("ab", "it is 2 characters long, and DynamoDB needs 3 to 255"),
        ("my table", "contains \" \""),
    ] {
        one_issue(&TABLE.replace("Things", name), "", needle);
    }
    one_issue(
        &TABLE.replace("Things", &"x".repeat(256)),
        "",
        "256 characters",
    );
    for name in ["abc", "A.b-c_9", &"x".repeat(255)] {
        assert_eq!(
            messages(&TABLE.replace("Things", name), ""),
            Vec::<String>::new()
        );
    }
    let index = "[indexes.G1]\npartition_key = { name = \"G1PK\" }\n";
    one_issue(TABLE, index, "index name `G1` is not one DynamoDB accepts");
    let index = "[indexes.\"By owner\"]\npartition_key = { name = \"G1PK\" }\n";
    one_issue(TABLE, index, "index name `By owner`");
}

#[test]
fn zero_counts_and_sizes() {
    let zero_cardinality = THING.replace("cardinality = 4", "cardinality = 0");
    let got: Vec<String> = match parse(&format!("{TABLE}{zero_cardinality}")) {
        Ok(_) => Vec::new(),
        Err(e) => e.issues.into_iter().map(|i| i.message).collect(),
    };
    assert_eq!(
        got,
        ["`cardinality = 0` on `shard`: an attribute has at least one live value"]
    );
    let limit = "[patterns.list]\noperation = \"Query\"\nkey = { PK = \"THING#{id}\" }\nreturns = [\"Thing\"]\nlimit = 0\n";
    one_issue(TABLE, limit, "has `limit = 0`, which DynamoDB refuses");
    one_issue(
        TABLE,
        "[traffic]\ndefault_item_size_bytes = 0\n",
        "`default_item_size_bytes = 0`",
    );
    one_issue(
        TABLE,
        "[traffic.entities.Thing]\nitem_size_bytes = 0\n",
        "`item_size_bytes = 0` for `Thing`",
    );
    one_issue(
        TABLE,
        "[traffic.patterns.getThing]\nitems_per_read = 0\n",
        "`items_per_read = 0` for `getThing`",
    );
    let tx = "[patterns.put]\noperation = \"TransactWrite\"\nwrites = [{ entity = \"Thing\", count = 0 }]\n";
    one_issue(TABLE, tx, "writes `count = 0` of `Thing`");
    let related = THING.replace(
        "keys.SK = \"THING\"",
        "keys.SK = \"THING\"\nrelations = [{ entity = \"Thing\", kind = \"many\", max = 0 }]",
    );
    let got = parse(&format!("{TABLE}{related}")).expect_err("max = 0");
    assert_eq!(got.issues.len(), 1, "{got:?}");
    assert!(got.issues[0].message.contains("has `max = 0`"), "{got:?}");
}

#[test]
fn rates_that_are_not_rates() {
    for (value, needle) in [
        ("nan", "`writes_per_second = nan` for `Thing` is not a rate"),
        ("inf", "`writes_per_second = inf` for `Thing` is not a rate"),
        (
            "-inf",
            "`writes_per_second = -inf` for `Thing` is not a rate",
        ),
        ("-5", "`writes_per_second = -5` for `Thing` is negative"),
        ("1e12", "is more than any table serves"),
    ] {
        let extra = format!("[traffic.entities.Thing]\nwrites_per_second = {value}\n");
        one_issue(TABLE, &extra, needle);
    }
    one_issue(
        TABLE,
        "[traffic]\ndefault_writes_per_second = nan\n",
        "`default_writes_per_second = nan` is not a rate",
    );
    one_issue(
        TABLE,
        "[traffic.patterns.getThing]\nreads_per_second = -0.5\n",
        "`reads_per_second = -0.5` for `getThing` is negative",
    );
    for ok in ["0", "0.25", "1000000000"] {
        let extra = format!("[traffic.entities.Thing]\nwrites_per_second = {ok}\n");
        assert_eq!(messages(TABLE, &extra), Vec::<String>::new(), "{ok}");
    }
}

#[test]
fn a_shard_headroom_is_a_number_from_1_to_100() {
    for (value, needle) in [
        ("nan", "`shard_headroom = nan` is not a number"),
        ("inf", "`shard_headroom = inf` is not a number"),
        ("0.5", "`shard_headroom = 0.5` is below 1"),
        ("-2", "`shard_headroom = -2` is below 1"),
        (
            "101",
            "`shard_headroom = 101` is more than 100 times the declared peak",
        ),
    ] {
        one_issue(
            TABLE,
            &format!("[traffic]\nshard_headroom = {value}\n"),
            needle,
        );
    }
    for ok in ["1", "1.5", "100"] {
        let extra = format!("[traffic]\nshard_headroom = {ok}\n");
        assert_eq!(messages(TABLE, &extra), Vec::<String>::new(), "{ok}");
        let model = parse(&format!("{TABLE}{THING}{extra}")).expect("valid");
        assert_eq!(model.traffic.shard_headroom, ok.parse::<f64>().unwrap());
    }
    let model = parse(&format!("{TABLE}{THING}")).expect("valid");
    assert_eq!(model.traffic.shard_headroom, 2.0);
    let model = parse(&format!("{TABLE}{THING}[traffic]\n")).expect("valid");
    assert_eq!(model.traffic.shard_headroom, 2.0);
}

#[test]
fn a_too_wide_padding_spec_says_so() {
    let wide = THING.replace(
        "keys.SK = \"THING\"",
        "keys.SK = \"N#{shard:0999999999999}\"",
    );
    let err = parse(&format!("{TABLE}{wide}")).expect_err("too wide");
    assert_eq!(err.issues.len(), 1, "{err:?}");
    let message = &err.issues[0].message;
    assert!(
        message
            .contains("`:0999999999999` pads to 999999999999 digits; a padding width is 1 to 40"),
        "{message}"
    );
    assert!(!message.contains("not a padding spec"), "{message}");
}

#[test]
fn a_malformed_template_is_one_issue() {
    // The key is written and the condition is there: only the malformed template is reported.
    let broken = THING
        .replace("keys.PK = \"THING#{id}\"", "keys.PK = \"THING#{id\"")
        .replace("key = { PK = \"THING#{id}\"", "key = { PK = \"THING#{id\"");
    let err = parse(&format!("{TABLE}{broken}")).expect_err("malformed");
    let kinds: Vec<IssueKind> = err.issues.iter().map(|i| i.kind).collect();
    assert_eq!(
        kinds,
        [IssueKind::InvalidTemplate, IssueKind::InvalidTemplate],
        "{err:?}"
    );
    // A returned entity that does not exist is reported once, not once per variable.
    let typo = THING.replace("returns = [\"Thing\"]", "returns = [\"Thnig\"]");
    let err = parse(&format!("{TABLE}{typo}")).expect_err("undeclared entity");
    assert_eq!(err.issues.len(), 1, "{err:?}");
    assert!(
        err.issues[0]
            .message
            .contains("`Thnig` is not a declared entity")
    );
}

#[test]
fn a_global_index_without_a_partition_key_is_one_issue() {
    let extra = r#"
[indexes.GSI1]
sort_key = { name = "GSI1SK" }

[patterns.byIndex]
operation = "Query"
index = "GSI1"
key = { GSI1PK = "THING#{id}" }
returns = ["Thing"]
"#;
    one_issue(TABLE, extra, "global index `GSI1` needs a `partition_key`");
}

#[test]
fn a_pattern_on_an_undeclared_index_is_left_to_the_lint() {
    let extra = r#"
[patterns.byOwner]
operation = "Query"
index = "ByOwner"
key = { OwnerKey = "OWNER#{id}" }
returns = ["Thing"]
"#;
    let model = parse(&format!("{TABLE}{THING}{extra}")).expect("valid");
    let p = model.pattern("byOwner").unwrap();
    assert_eq!(
        p.pk.as_ref().map(|k| k.attribute.as_str()),
        Some("OwnerKey")
    );
}

#[test]
fn sparse_lists_and_key_namespaces() {
    let index = |sparse: &str| {
        format!("[indexes.GSI1]\npartition_key = {{ name = \"GSI1PK\" }}\nsparse = {sparse}\n")
    };
    let writer = THING.replace(
        "keys.SK = \"THING\"",
        "keys.SK = \"THING\"\nkeys.GSI1PK = \"ALL\"",
    );
    let model = parse(&format!("{TABLE}{}{writer}", index("[\"Thing\"]"))).expect("valid");
    let gsi = model.index("GSI1").unwrap();
    assert!(gsi.sparse && gsi.sparse_for("Thing") && !gsi.sparse_for("Other"));
    let model = parse(&format!("{TABLE}{}{writer}", index("true"))).expect("valid");
    assert!(model.index("GSI1").unwrap().sparse_for("Other"));
    one_issue(
        TABLE,
        &index("[\"Nope\"]"),
        "`Nope`, named sparse in index `GSI1`, is not a declared entity",
    );
    one_issue(
        TABLE,
        &index("[\"Thing\"]"),
        "does not write the index's partition key",
    );
    one_issue(TABLE, &index("[]"), "lists no entity");

    let alone = THING.replace(
        "keys.SK = \"THING\"",
        "keys.SK = \"THING\"\nkey_namespace = \"account\"",
    );
    let err = parse(&format!("{TABLE}{alone}")).expect_err("one member");
    assert!(
        err.issues[0]
            .message
            .contains("key namespace `account` is named only by `Thing`")
    );
}

#[test]
fn keys_longer_than_dynamodb_takes() {
    let long = |n: usize| "X".repeat(n);
    let pk = THING.replace(
        "keys.PK = \"THING#{id}\"",
        &format!("keys.PK = \"{}{{id}}\"", long(2049)),
    );
    let err = parse(&format!("{TABLE}{pk}")).expect_err("partition key too long");
    assert_eq!(err.issues.len(), 1, "{err:?}");
    assert!(err.issues[0].message.contains(
        "is at least 2049 bytes long, and DynamoDB takes at most 2048 in a partition key"
    ));
    let sk = THING.replace(
        "keys.SK = \"THING\"",
        &format!("keys.SK = \"{}\"", long(1025)),
    );
    let err = parse(&format!("{TABLE}{sk}")).expect_err("sort key too long");
    assert!(
        err.issues[0].message.contains("at most 1024 in a sort key"),
        "{err:?}"
    );
    let ok = THING.replace(
        "keys.SK = \"THING\"",
        &format!("keys.SK = \"{}\"", long(1024)),
    );
    assert!(parse(&format!("{TABLE}{ok}")).is_ok());
}

#[test]
fn a_number_key_holds_a_number() {
    let table = TABLE.replace(
        "sort_key = { name = \"SK\" }",
        "sort_key = { name = \"SK\", type = \"N\" }",
    );
    let issues = |sk: &str| -> Vec<String> {
        let thing = THING
            .replace("keys.SK = \"THING\"", &format!("keys.SK = \"{sk}\""))
            .replace("SK = \"THING\" }", &format!("SK = \"{sk}\" }}"));
        match parse(&format!("{table}{thing}")) {
            Ok(_) => Vec::new(),
            Err(e) => e.issues.into_iter().map(|i| i.message).collect(),
        }
    };
    for ok in ["{shard}", "{shard:04}", "42", "-1.5e3"] {
        assert_eq!(issues(ok), Vec::<String>::new(), "{ok}");
    }
    for bad in ["THING", "N#{shard}", "{id}", "nan"] {
        let got = issues(bad);
        let needle = format!("is typed N, but `{bad}` renders text, not a number");
        assert!(
            !got.is_empty() && got.iter().all(|m| m.contains(&needle)),
            "{bad}: {got:?}"
        );
    }
}

#[test]
fn defaults_that_do_not_fit_their_attribute() {
    let entity = |attribute: &str| {
        format!(
            "\n[entities.Other]\nattributes.id = {{ type = \"string\", required = true }}\nattributes.x = {attribute}\nkeys.PK = \"OTHER#{{id}}\"\nkeys.SK = \"OTHER\"\n"
        )
    };
    for (attribute, needle) in [
        (
            r#"{ type = "boolean", default = true }"#,
            "`default` on `x`, which is not required",
        ),
        (
            r#"{ type = "integer", required = true, default = "seven" }"#,
            "not a value of type `integer`",
        ),
        (
            r#"{ type = "decimal", required = true, default = 0.1 }"#,
            "write an exact decimal as a string",
        ),
        (
            r#"{ type = "decimal", required = true, default = "1.2.3" }"#,
            "write an exact decimal as a string",
        ),
        (
            r#"{ type = "enum", values = ["A", "B"], required = true, default = "C" }"#,
            "`C` is not one of the enum's `values`",
        ),
        (
            r#"{ type = "string", required = true, max_length = 2, default = "long" }"#,
            "over `max_length = 2`",
        ),
        (
            r#"{ type = "list", items = "string", required = true, default = "a" }"#,
            "only scalar attributes take a default",
        ),
    ] {
        one_issue(TABLE, &entity(attribute), needle);
    }
    assert_eq!(
        messages(
            TABLE,
            &entity(r#"{ type = "decimal", required = true, default = "0.00" }"#)
        ),
        Vec::<String>::new()
    );
}

#[test]
fn renamed_from_an_entity_the_model_still_has() {
    let renamed = "\n[entities.Other]\nrenamed_from = \"Thing\"\nattributes.id = { type = \"string\", required = true }\nkeys.PK = \"OTHER#{id}\"\nkeys.SK = \"OTHER\"\n";
    one_issue(
        TABLE,
        renamed,
        "`Other` is renamed from `Thing`, which is an entity of this model",
    );
    let fine = renamed.replace("\"Thing\"", "\"Gone\"");
    assert_eq!(messages(TABLE, &fine), Vec::<String>::new());
}

//! Write patterns: a write's `condition` and the actions of a `TransactWrite` or `BatchWrite`.
//! What the model accepts, and what it refuses, one issue per mistake, each asserted by its
//! message and by the text its span covers (the clause at fault inside a condition, the pattern
//! name at fault inside `writes`).

use monotable_model::{CompareOp, ConditionClause, IssueKind, Operand, Operation, parse};

const MODEL: &str = r#"[table]
name = "Shop"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.Product]
attributes.productId = { type = "string", required = true }
attributes.name = { type = "string", required = true }
attributes.price = { type = "decimal", required = true }
attributes.stock = { type = "integer" }
attributes.published = { type = "boolean", required = true }
attributes.status = { type = "enum", values = ["DRAFT", "LIVE"], required = true }
attributes.tags = { type = "set", items = "string" }
attributes.version = { type = "integer", required = true }
attributes.updatedAt = { type = "timestamp", format = "rfc3339-utc-millis", required = true }
keys.PK = "PRODUCT#{productId}"
keys.SK = "PRODUCT"

[entities.Order]
attributes.orderId = { type = "string", required = true }
keys.PK = "ORDER#{orderId}"
keys.SK = "ORDER"

[patterns.getProduct]
operation = "GetItem"
key = { PK = "PRODUCT#{productId}", SK = "PRODUCT" }
returns = ["Product"]

[patterns.listProducts]
operation = "Query"
key = { PK = "PRODUCT#{productId}" }
returns = ["Product"]

[patterns.placeOrder]
operation = "PutItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]
condition = "not_exists"

[patterns.putOrder]
operation = "PutItem"
key = { PK = "ORDER#{orderId}", SK = "ORDER" }
returns = ["Order"]

[patterns.putProduct]
operation = "PutItem"
key = { PK = "PRODUCT#{productId}", SK = "PRODUCT" }
returns = ["Product"]

[patterns.dropProduct]
operation = "DeleteItem"
key = { PK = "PRODUCT#{productId}", SK = "PRODUCT" }
returns = ["Product"]

[patterns.takeStock]
operation = "UpdateItem"
key = { PK = "PRODUCT#{productId}", SK = "PRODUCT" }
returns = ["Product"]
sets = ["stock", "version"]
condition = "exists and published = true and stock >= {quantity}"
params.quantity = { type = "integer" }

[patterns.checkProduct]
operation = "ConditionCheck"
key = { PK = "PRODUCT#{productId}", SK = "PRODUCT" }
returns = ["Product"]
condition = "exists and published = true and not_exists(stock)"
"#;

fn with(extra: &str) -> String {
    format!("{MODEL}\n{extra}")
}

/// The model with an UpdateItem `touch` of `Product` whose condition is `condition` (written
/// as TOML, quotes included), and `more` lines after it.
fn update(condition: &str, more: &str) -> String {
    with(&format!(
        "[patterns.touch]\noperation = \"UpdateItem\"\nkey = {{ PK = \"PRODUCT#{{productId}}\", SK = \"PRODUCT\" }}\nreturns = [\"Product\"]\nsets = [\"name\"]\ncondition = {condition}\n{more}"
    ))
}

/// The model with a pattern `t` of `operation` whose `writes` are `writes`.
fn actions(operation: &str, writes: &str) -> String {
    with(&format!(
        "[patterns.t]\noperation = \"{operation}\"\nwrites = {writes}\n"
    ))
}

/// Exactly one issue of `kind`, containing `needle`, whose span covers `at` in the source.
#[track_caller]
fn one_issue(source: &str, kind: IssueKind, needle: &str, at: &str) {
    let err = parse(source).expect_err(needle);
    assert_eq!(err.issues.len(), 1, "{needle}: {:#?}", err.issues);
    let issue = &err.issues[0];
    assert_eq!(issue.kind, kind, "{issue:?}");
    assert!(issue.message.contains(needle), "{needle}: {issue:?}");
    let span = issue.span.clone().expect("a span");
    assert_eq!(&source[span], at, "{issue:?}");
}

/// The help of the only issue of `source`.
fn help(source: &str) -> String {
    let err = parse(source).expect_err("an issue");
    err.issues[0].help.clone().unwrap_or_default()
}

#[test]
fn conditions_parse_into_their_clauses() {
    let model = parse(MODEL).expect("valid");
    let take = model.pattern("takeStock").expect("takeStock");
    let condition = take.condition.as_ref().expect("a condition");
    assert_eq!(
        condition.clauses,
        [
            ConditionClause::ItemExists,
            ConditionClause::Compare {
                attribute: "published".into(),
                op: CompareOp::Eq,
                operand: Operand::Bool(true),
            },
            ConditionClause::Compare {
                attribute: "stock".into(),
                op: CompareOp::Ge,
                operand: Operand::Param("quantity".into()),
            },
        ]
    );
    assert_eq!(
        &MODEL[condition.span.clone()],
        format!("\"{}\"", condition.text)
    );
    assert_eq!(condition.params(), ["quantity"]);
    assert!(condition.requires_item());
    let check = model.pattern("checkProduct").expect("checkProduct");
    assert_eq!(check.operation, Operation::ConditionCheck);
    assert_eq!(
        check.condition.as_ref().map(|c| c.clauses.len()),
        Some(3),
        "{check:?}"
    );
    assert!(model.pattern("putProduct").unwrap().condition.is_none());
}

#[test]
fn every_clause_form_is_accepted_where_it_fits() {
    for condition in [
        r#""not_exists""#,
        r#""exists and version(version)""#,
        r#""version(version) and status = 'LIVE' and price <> 10""#,
        r#""exists(stock) AND stock > 0 and name = 'a and b'""#,
        r#""updatedAt < {before} and status <> {status} and tags = {tags}""#,
        r#""price >= {price} and stock <= {quantity}""#,
        // A literal TOML string, and a key variable compared with its own attribute.
        r#"'productId = {productId}'"#,
    ] {
        let source = update(condition, "params.quantity = { type = \"integer\" }\n");
        parse(&source).unwrap_or_else(|e| panic!("{condition}: {:#?}", e.issues));
    }
}

#[test]
fn a_condition_that_does_not_parse_points_at_the_clause() {
    for (condition, needle, at) in [
        (r#""exists and""#, "an empty clause", "and"),
        (r#""exists and and stock = 1""#, "an empty clause", "and"),
        (
            r#""exists and frobnicate""#,
            "`frobnicate` is not a condition clause",
            "frobnicate",
        ),
        (
            r#""version(version""#,
            "`version(version` lacks its closing `)`",
            "version(version",
        ),
        (
            r#""version()""#,
            "`version()` names no attribute",
            "version()",
        ),
        (r#""stock >= {}""#, "names no parameter", "stock >= {}"),
        (
            r#""exists and stock >= many""#,
            "`many` in `stock >= many` is not",
            "stock >= many",
        ),
        (
            r#""stock >= 99999999999999999999""#,
            "beyond a 64-bit whole number",
            "stock >= 99999999999999999999",
        ),
        (r#""name = 'it's'""#, "quote inside", "name = 'it's'"),
        (r#""a b = 1""#, "`a b` is not an attribute name", "a b = 1"),
    ] {
        let source = update(condition, "");
        one_issue(&source, IssueKind::Invalid, needle, at);
        let message = &parse(&source).unwrap_err().issues[0].message;
        assert!(message.starts_with("condition of `touch`: "), "{message}");
    }
}

#[test]
fn a_condition_written_with_escapes_is_pointed_at_as_a_whole() {
    // The span of an escaped string is not the value's: the whole string is shown.
    let source = update(r#""exists and n\u0061me = 1""#, "");
    one_issue(
        &source,
        IssueKind::Invalid,
        "compares `name`, a string, with a whole number",
        r#""exists and n\u0061me = 1""#,
    );
}

#[test]
fn a_clause_naming_an_unknown_attribute_is_refused() {
    one_issue(
        &update(r#""exists and colour = 'red'""#, ""),
        IssueKind::UnknownReference,
        "condition `colour = 'red'` of `touch` reads `colour`, which is not an attribute of `Product`",
        "colour = 'red'",
    );
    one_issue(
        &update(r#""not_exists(colour)""#, ""),
        IssueKind::UnknownReference,
        "reads `colour`",
        "not_exists(colour)",
    );
    one_issue(
        &update(r#""version(revision)""#, ""),
        IssueKind::UnknownReference,
        "reads `revision`",
        "version(revision)",
    );
}

#[test]
fn a_version_is_a_required_integer() {
    one_issue(
        &update(r#""exists and version(name)""#, ""),
        IssueKind::Invalid,
        "`version(name)` in `touch`: `name` is a string, not a required integer",
        "version(name)",
    );
    one_issue(
        &update(r#""version(updatedAt)""#, ""),
        IssueKind::Invalid,
        "`updatedAt` is a timestamp, not a required integer",
        "version(updatedAt)",
    );
    let optional = update(r#""version(stock)""#, "");
    one_issue(
        &optional,
        IssueKind::Invalid,
        "`stock` is an optional integer, not a required integer",
        "version(stock)",
    );
    assert!(
        help(&optional).contains("required = true"),
        "{}",
        help(&optional)
    );
}

#[test]
fn a_literal_of_another_type_is_refused() {
    for (condition, needle, at, advice) in [
        (
            r#""stock = 'many'""#,
            "compares `stock`, an integer, with text: it can never hold",
            "stock = 'many'",
            "a whole number",
        ),
        (
            r#""exists and published = 1""#,
            "compares `published`, a boolean, with a whole number",
            "published = 1",
            "`true`, `false`",
        ),
        (
            r#""price = false""#,
            "compares `price`, a decimal, with a boolean",
            "price = false",
            "a whole number",
        ),
        (
            r#""name <> 7""#,
            "compares `name`, a string, with a whole number",
            "name <> 7",
            "'text'",
        ),
        (
            r#""updatedAt > '2024'""#,
            "compares `updatedAt`, a timestamp, with text",
            "updatedAt > '2024'",
            "no literal timestamp",
        ),
    ] {
        let source = update(condition, "");
        one_issue(&source, IssueKind::Invalid, needle, at);
        assert!(
            help(&source).contains(advice),
            "{condition}: {}",
            help(&source)
        );
    }
}

#[test]
fn an_enum_literal_is_one_of_its_values() {
    let source = update(r#""exists and status = 'GONE'""#, "");
    one_issue(
        &source,
        IssueKind::Invalid,
        "compares `status` with 'GONE', which is not one of its values",
        "status = 'GONE'",
    );
    assert_eq!(help(&source), "write one of: 'DRAFT', 'LIVE'");
    // Values are compared exactly: another case is another value.
    one_issue(
        &update(r#""status <> 'live'""#, ""),
        IssueKind::Invalid,
        "'live', which is not one of its values",
        "status <> 'live'",
    );
    one_issue(
        &update(r#""status = 1""#, ""),
        IssueKind::Invalid,
        "compares `status`, an enum, with a whole number",
        "status = 1",
    );
}

#[test]
fn a_parameter_has_one_type_that_fits_what_it_is_compared_with() {
    one_issue(
        &update(
            r#""stock >= {quantity}""#,
            "params.quantity = { type = \"string\" }\n",
        ),
        IssueKind::Invalid,
        "compares `stock`, an integer, with `{quantity}`, declared a string",
        "stock >= {quantity}",
    );
    // A key variable is the attribute it names.
    one_issue(
        &update(r#""exists and stock = {productId}""#, ""),
        IssueKind::Invalid,
        "with `{productId}`, a key variable, a string like the attribute `productId`",
        "stock = {productId}",
    );
    // Undeclared, it takes the type of the first attribute it is compared with.
    one_issue(
        &update(r#""stock >= {n} and name = {n}""#, ""),
        IssueKind::Invalid,
        "compares `name`, a string, with `{n}`, an integer, as it is compared with `stock` too",
        "name = {n}",
    );
    // Numbers of any kind compare with one another.
    parse(&update(r#""price >= {n} and stock >= {n}""#, "")).expect("numbers compare");
}

#[test]
fn only_scalars_are_ordered() {
    one_issue(
        &update(r#""published > {flag}""#, ""),
        IssueKind::Invalid,
        "orders `published`, a boolean: DynamoDB compares such values only with `=` and `<>`",
        "published > {flag}",
    );
    one_issue(
        &update(r#""exists and tags <= {tags}""#, ""),
        IssueKind::Invalid,
        "orders `tags`, a set",
        "tags <= {tags}",
    );
}

#[test]
fn clauses_that_repeat_or_contradict_are_refused() {
    one_issue(
        &update(r#""exists and stock > 1 and exists""#, ""),
        IssueKind::Invalid,
        "`exists` is stated twice in the condition of `touch`",
        "exists",
    );
    one_issue(
        &update(r#""not_exists and version(version)""#, ""),
        IssueKind::Invalid,
        "can never hold: `not_exists` and `version(version)` contradict each other",
        "version(version)",
    );
    one_issue(
        &update(r#""exists(stock) and not_exists(stock)""#, ""),
        IssueKind::Invalid,
        "`exists(stock)` and `not_exists(stock)` contradict",
        "not_exists(stock)",
    );
    one_issue(
        &update(r#""stock > 0 and not_exists""#, ""),
        IssueKind::Invalid,
        "`stock > 0` and `not_exists` contradict",
        "not_exists",
    );
    // Two different attributes absent and present hold together.
    parse(&update(r#""exists(stock) and not_exists(tags)""#, "")).expect("valid");
}

#[test]
fn a_condition_belongs_to_a_single_item_write() {
    let query = with(
        "[patterns.q]\noperation = \"Query\"\nkey = { PK = \"PRODUCT#{productId}\" }\nreturns = [\"Product\"]\ncondition = \"exists\"\n",
    );
    one_issue(
        &query,
        IssueKind::Invalid,
        "pattern `q` (Query) cannot have a `condition`",
        "\"exists\"",
    );
    let get = with(
        "[patterns.g]\noperation = \"GetItem\"\nkey = { PK = \"PRODUCT#{productId}\", SK = \"PRODUCT\" }\nreturns = [\"Product\"]\ncondition = \"exists and stock > 1\"\n",
    );
    one_issue(
        &get,
        IssueKind::Invalid,
        "pattern `g` (GetItem) cannot have a `condition`",
        "\"exists and stock > 1\"",
    );
    let transaction = with(
        "[patterns.t]\noperation = \"TransactWrite\"\nwrites = [{ pattern = \"placeOrder\" }]\ncondition = \"exists\"\n",
    );
    one_issue(
        &transaction,
        IssueKind::Invalid,
        "pattern `t` (TransactWrite) cannot have a `condition`",
        "\"exists\"",
    );
}

#[test]
fn a_condition_check_states_its_condition() {
    let bare = with(
        "[patterns.c]\noperation = \"ConditionCheck\"\nkey = { PK = \"PRODUCT#{productId}\", SK = \"PRODUCT\" }\nreturns = [\"Product\"]\n",
    );
    one_issue(
        &bare,
        IssueKind::Invalid,
        "ConditionCheck pattern `c` states no `condition`",
        "\"ConditionCheck\"",
    );
    let with_sets = with(
        "[patterns.c]\noperation = \"ConditionCheck\"\nkey = { PK = \"PRODUCT#{productId}\", SK = \"PRODUCT\" }\nreturns = [\"Product\"]\nsets = [\"stock\"]\ncondition = \"exists\"\n",
    );
    one_issue(
        &with_sets,
        IssueKind::Invalid,
        "`sets` only applies to an UpdateItem, and `c` is a ConditionCheck",
        "[\"stock\"]",
    );
}

#[test]
fn a_condition_reading_attributes_needs_the_entity_written() {
    let source = with(
        "[patterns.w]\noperation = \"DeleteItem\"\nkey = { PK = \"PRODUCT#{productId}\", SK = \"PRODUCT\" }\nreturns = [\"Product\", \"Order\"]\ncondition = \"exists and stock = 0\"\n",
    );
    let err = parse(&source).expect_err("two entities");
    let issue = err
        .issues
        .iter()
        .find(|i| i.message.contains("condition `stock = 0`"))
        .unwrap_or_else(|| panic!("{:#?}", err.issues));
    assert!(
        issue
            .message
            .contains("reads an attribute, but `w` does not name the one entity it writes"),
        "{issue:?}"
    );
    assert_eq!(&source[issue.span.clone().unwrap()], "stock = 0");
}

#[test]
fn transactions_and_batches_name_their_actions() {
    let source = with(
        "[patterns.createOrder]\noperation = \"TransactWrite\"\nwrites = [{ pattern = \"placeOrder\" }, { one_of = [\"takeStock\", \"checkProduct\"], count = 49 }, { entity = \"Product\", count = \"many\" }]\n\n[patterns.load]\noperation = \"BatchWrite\"\nwrites = [{ pattern = \"putProduct\", count = 200 }, { pattern = \"dropProduct\", count = \"many\" }]\n",
    );
    let model = parse(&source).unwrap_or_else(|e| panic!("{:#?}", e.issues));
    let create = model.pattern("createOrder").unwrap();
    let writes: Vec<(&str, Vec<&str>, Option<u64>)> = create
        .writes
        .iter()
        .map(|w| {
            (
                w.entity.as_str(),
                w.patterns.iter().map(String::as_str).collect(),
                w.count,
            )
        })
        .collect();
    assert_eq!(
        writes,
        [
            ("Order", vec!["placeOrder"], Some(1)),
            ("Product", vec!["takeStock", "checkProduct"], Some(49)),
            ("Product", vec![], None),
        ]
    );
    let load = model.pattern("load").unwrap();
    assert_eq!(load.operation, Operation::BatchWrite);
    assert_eq!(load.writes[0].count, Some(200));
    assert_eq!(load.writes[1].count, None);
}

#[test]
fn an_action_naming_an_unknown_pattern_is_refused() {
    let source = actions(
        "TransactWrite",
        r#"[{ pattern = "placeOrder" }, { pattern = "takeStok" }]"#,
    );
    one_issue(
        &source,
        IssueKind::UnknownReference,
        "`t` runs pattern `takeStok`, which the model does not declare",
        "\"takeStok\"",
    );
    assert!(help(&source).contains("takeStock"), "{}", help(&source));
    // A batch's advice names only what a batch can run.
    let batch = actions("BatchWrite", r#"[{ one_of = ["putProduct", "nothing"] }]"#);
    one_issue(
        &batch,
        IssueKind::UnknownReference,
        "runs pattern `nothing`",
        "\"nothing\"",
    );
    assert_eq!(
        help(&batch),
        "declare it under [patterns], or name one of: dropProduct, putOrder, putProduct"
    );
}

#[test]
fn an_action_is_a_single_item_write() {
    one_issue(
        &actions("TransactWrite", r#"[{ pattern = "getProduct" }]"#),
        IssueKind::Invalid,
        "`t` runs `getProduct` (GetItem), but an action of a TransactWrite is a PutItem, UpdateItem, DeleteItem or ConditionCheck pattern",
        "\"getProduct\"",
    );
    one_issue(
        &actions(
            "TransactWrite",
            r#"[{ one_of = ["takeStock", "listProducts"], count = 2 }]"#,
        ),
        IssueKind::Invalid,
        "runs `listProducts` (Query)",
        "\"listProducts\"",
    );
    one_issue(
        &actions(
            "TransactWrite",
            r#"[{ pattern = "placeOrder" }, { pattern = "t" }]"#,
        ),
        IssueKind::Invalid,
        "runs `t` (TransactWrite)",
        "\"t\"",
    );
    one_issue(
        &actions("BatchWrite", r#"[{ pattern = "getProduct" }]"#),
        IssueKind::Invalid,
        "an action of a BatchWrite is a PutItem or DeleteItem pattern",
        "\"getProduct\"",
    );
}

#[test]
fn a_batch_runs_no_condition_and_no_update() {
    let conditional = actions(
        "BatchWrite",
        r#"[{ pattern = "putProduct" }, { pattern = "placeOrder", count = 10 }]"#,
    );
    one_issue(
        &conditional,
        IssueKind::Invalid,
        "`t` runs `placeOrder` (PutItem), but a BatchWrite sends no condition",
        "\"placeOrder\"",
    );
    assert!(help(&conditional).contains("TransactWrite"));
    one_issue(
        &actions("BatchWrite", r#"[{ pattern = "takeStock" }]"#),
        IssueKind::Invalid,
        "runs `takeStock` (UpdateItem), but BatchWriteItem only puts and deletes",
        "\"takeStock\"",
    );
    one_issue(
        &actions(
            "BatchWrite",
            r#"[{ one_of = ["dropProduct", "checkProduct"] }]"#,
        ),
        IssueKind::Invalid,
        "runs `checkProduct` (ConditionCheck), but BatchWriteItem only puts and deletes",
        "\"checkProduct\"",
    );
}

#[test]
fn alternatives_write_one_entity() {
    one_issue(
        &actions(
            "TransactWrite",
            r#"[{ one_of = ["putProduct", "placeOrder"] }]"#,
        ),
        IssueKind::Invalid,
        "the alternatives of an action of `t` write `Product` and `Order`",
        "\"placeOrder\"",
    );
    one_issue(
        &actions(
            "BatchWrite",
            r#"[{ pattern = "putOrder" }, { one_of = ["dropProduct", "putOrder"], count = 3 }]"#,
        ),
        IssueKind::Invalid,
        "write `Product` and `Order`",
        "\"putOrder\"",
    );
}

#[test]
fn a_pattern_is_one_action() {
    let twice = actions(
        "TransactWrite",
        r#"[{ pattern = "placeOrder" }, { pattern = "takeStock" }, { pattern = "placeOrder", count = 2 }]"#,
    );
    one_issue(
        &twice,
        IssueKind::Invalid,
        "`t` lists action `placeOrder` twice",
        "\"placeOrder\"",
    );
    let err = parse(&twice).unwrap_err();
    // The second mention is the one at fault.
    assert!(err.issues[0].span.clone().unwrap().start > twice.find("takeStock\" }").unwrap());
    one_issue(
        &actions(
            "TransactWrite",
            r#"[{ pattern = "takeStock" }, { one_of = ["checkProduct", "takeStock"], count = 5 }]"#,
        ),
        IssueKind::Invalid,
        "lists action `takeStock` twice",
        "\"takeStock\"",
    );
    one_issue(
        &actions(
            "TransactWrite",
            r#"[{ one_of = ["takeStock", "takeStock"] }]"#,
        ),
        IssueKind::Invalid,
        "`takeStock` is listed twice in an action of `t`",
        "\"takeStock\"",
    );
}

#[test]
fn an_entry_names_one_thing_and_at_least_one_item() {
    one_issue(
        &actions(
            "TransactWrite",
            r#"[{ pattern = "placeOrder", entity = "Order" }]"#,
        ),
        IssueKind::Invalid,
        "an action of `t` names more than one of `pattern`, `one_of` and `entity`",
        r#"{ pattern = "placeOrder", entity = "Order" }"#,
    );
    one_issue(
        &actions("TransactWrite", r#"[{ one_of = [] }]"#),
        IssueKind::Invalid,
        "an action of `t` names no write pattern",
        "{ one_of = [] }",
    );
    one_issue(
        &actions("BatchWrite", r#"[{ pattern = "putProduct", count = 0 }]"#),
        IssueKind::Invalid,
        "batch `t` writes `count = 0` of `Product`",
        r#"{ pattern = "putProduct", count = 0 }"#,
    );
    one_issue(
        &actions(
            "TransactWrite",
            r#"[{ pattern = "placeOrder", count = 101 }]"#,
        ),
        IssueKind::Invalid,
        "`count = 101` of `Order` in transaction `t`: a TransactWriteItems call holds at most 100 actions",
        r#"{ pattern = "placeOrder", count = 101 }"#,
    );
}

#[test]
fn only_transactions_and_batches_have_writes() {
    let source = with(
        "[patterns.q]\noperation = \"Query\"\nkey = { PK = \"PRODUCT#{productId}\" }\nreturns = [\"Product\"]\nwrites = [{ pattern = \"putProduct\" }]\n",
    );
    one_issue(
        &source,
        IssueKind::Invalid,
        "`writes` only applies to a TransactWrite or BatchWrite, and `q` is a Query",
        r#"{ pattern = "putProduct" }"#,
    );
    let put = with(
        "[patterns.p]\noperation = \"PutItem\"\nkey = { PK = \"ORDER#{orderId}\", SK = \"ORDER\" }\nreturns = [\"Order\"]\nwrites = [{ entity = \"Order\" }]\n",
    );
    one_issue(
        &put,
        IssueKind::Invalid,
        "and `p` is a PutItem",
        r#"{ entity = "Order" }"#,
    );
}

#[test]
fn a_write_pattern_states_writes_per_second() {
    let traffic = "[traffic.patterns]\nplaceOrder = { writes_per_second = 40 }\ngetProduct = { reads_per_second = 10 }\n";
    let model = parse(&with(traffic)).expect("valid");
    let t = &model.traffic.patterns["placeOrder"];
    assert_eq!(
        (t.writes_per_second, t.reads_per_second),
        (Some(40.0), None)
    );
    let source = with("[traffic.patterns]\nplaceOrder = { reads_per_second = 40 }\n");
    one_issue(
        &source,
        IssueKind::Invalid,
        "`reads_per_second` for `placeOrder`: `placeOrder` is a PutItem, which writes",
        "{ reads_per_second = 40 }",
    );
    assert_eq!(
        help(&source),
        "state its calls per second as `writes_per_second`"
    );
    one_issue(
        &with("[traffic.patterns]\ngetProduct = { writes_per_second = 1 }\n"),
        IssueKind::Invalid,
        "`writes_per_second` for `getProduct`: `getProduct` is a GetItem, which reads",
        "{ writes_per_second = 1 }",
    );
    one_issue(
        &with("[traffic.patterns]\ncheckProduct = { writes_per_second = -1 }\n"),
        IssueKind::Invalid,
        "`writes_per_second = -1` for `checkProduct` is negative",
        "{ writes_per_second = -1 }",
    );
}

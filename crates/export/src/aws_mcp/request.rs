//! An AWS CLI command of `dynamodb_data_model.json` (`aws dynamodb query --table-name T
//! --key-condition-expression '#pk = :pk' ...`) read into a request: operation, table, index,
//! the key it reads with its concrete values, and the attributes it filters, sets or projects.
//! Words are split as a POSIX shell does (`shlex`); nothing is run.

use std::collections::BTreeMap;

use serde_json::Value;

/// A key condition on one attribute, with concrete values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cond {
    /// `=`, `<`, `<=`, `>`, `>=`.
    Compare(String, String),
    BeginsWith(String),
    Between(String, String),
}

/// A request as the command states it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Request {
    /// `GetItem`, `PutItem`, ... as monotable names operations.
    pub operation: &'static str,
    pub table: Option<String>,
    pub index: Option<String>,
    /// Key attribute → condition, in the order written.
    pub key: Vec<(String, Cond)>,
    pub filter: Vec<String>,
    pub sets: Vec<String>,
    pub projection: Vec<String>,
    pub condition: Option<String>,
    pub consistent: bool,
    pub descending: bool,
    pub limit: Option<u32>,
    /// Options read but not mapped, one sentence each.
    pub ignored: Vec<String>,
}

/// The subcommand's operation.
fn operation(subcommand: &str) -> Result<&'static str, String> {
    Ok(match subcommand {
        "get-item" => "GetItem",
        "put-item" => "PutItem",
        "update-item" => "UpdateItem",
        "delete-item" => "DeleteItem",
        "query" => "Query",
        "scan" => "Scan",
        "batch-get-item" | "batch-write-item" | "transact-write-items" | "transact-get-items" => {
            return Err(format!(
                "`aws dynamodb {subcommand}` is not mapped: monotable models each item's request as its own pattern, and a batch or transaction as the patterns it runs"
            ));
        }
        other => {
            return Err(format!(
                "`aws dynamodb {other}` is not a DynamoDB data request"
            ));
        }
    })
}

/// Options that say how the CLI runs, not what it asks.
const ENVIRONMENT: &[&str] = &[
    "--endpoint-url",
    "--region",
    "--profile",
    "--output",
    "--query",
    "--no-cli-pager",
    "--cli-read-timeout",
    "--cli-connect-timeout",
    "--no-verify-ssl",
    "--debug",
    "--return-consumed-capacity",
    "--return-item-collection-metrics",
    "--return-values",
    "--return-values-on-condition-check-failure",
    "--select",
    "--page-size",
    "--max-items",
    "--no-paginate",
    "--starting-token",
];

/// Parses one command.
pub(crate) fn parse(command: &str) -> Result<Request, String> {
    let words = shlex::split(command).ok_or("its quotes do not close")?;
    let mut words = words.into_iter();
    if words.next().as_deref() != Some("aws") || words.next().as_deref() != Some("dynamodb") {
        return Err("it is not an `aws dynamodb` command".to_string());
    }
    let sub = words
        .next()
        .ok_or("it names no `aws dynamodb` subcommand")?;
    let mut request = Request {
        operation: operation(&sub)?,
        ..Request::default()
    };
    let options = options(words)?;
    let names = json_option(&options, "--expression-attribute-names")?;
    let values = json_option(&options, "--expression-attribute-values")?;
    let expr = Expr {
        names: names.as_ref(),
        values: values.as_ref(),
    };
    for (option, value) in &options {
        apply(&mut request, option, value.as_deref(), &expr)?;
    }
    Ok(request)
}

/// `--name value` and `--name=value` pairs, and bare flags.
fn options(words: impl Iterator<Item = String>) -> Result<Vec<(String, Option<String>)>, String> {
    let mut out: Vec<(String, Option<String>)> = Vec::new();
    for word in words {
        if let Some(flag) = word.strip_prefix("--") {
            match flag.split_once('=') {
                Some((name, value)) => out.push((format!("--{name}"), Some(value.to_string()))),
                None => out.push((word.clone(), None)),
            }
            continue;
        }
        match out.last_mut() {
            Some((_, slot @ None)) => *slot = Some(word),
            _ => return Err(format!("`{word}` follows no option")),
        }
    }
    Ok(out)
}

fn json_option(options: &[(String, Option<String>)], name: &str) -> Result<Option<Value>, String> {
    let Some((_, value)) = options.iter().find(|(o, _)| o == name) else {
        return Ok(None);
    };
    let text = value.as_deref().ok_or(format!("{name} has no value"))?;
    serde_json::from_str(text)
        .map(Some)
        .map_err(|e| format!("{name} is not JSON: {e}"))
}

/// The expression attribute names and values a command's expressions refer to.
struct Expr<'a> {
    names: Option<&'a Value>,
    values: Option<&'a Value>,
}

impl Expr<'_> {
    /// `#n` through the names, anything else as written.
    fn name(&self, token: &str) -> Result<String, String> {
        if !token.starts_with('#') {
            return Ok(token.to_string());
        }
        self.names
            .and_then(|n| n.get(token))
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or(format!("`{token}` is not in --expression-attribute-names"))
    }

    /// `:v`'s value as text (a string or a number).
    fn value(&self, token: &str) -> Result<String, String> {
        let v = self
            .values
            .and_then(|v| v.get(token))
            .ok_or(format!("`{token}` is not in --expression-attribute-values"))?;
        scalar(v).ok_or(format!("`{token}` is not a string or number value"))
    }
}

/// A DynamoDB JSON string or number's text.
pub(crate) fn scalar(v: &Value) -> Option<String> {
    v.get("S")
        .or_else(|| v.get("N"))
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn apply(
    r: &mut Request,
    option: &str,
    value: Option<&str>,
    expr: &Expr<'_>,
) -> Result<(), String> {
    let text = || value.ok_or(format!("{option} has no value"));
    match option {
        "--table-name" => r.table = Some(text()?.to_string()),
        "--index-name" => r.index = Some(text()?.to_string()),
        "--key" | "--item" => r.key.extend(item_key(text()?, option)?),
        "--key-condition-expression" => r.key = key_conditions(text()?, expr)?,
        "--filter-expression" => r.filter = attribute_names(text()?, expr)?,
        "--projection-expression" => r.projection = attribute_names(text()?, expr)?,
        "--update-expression" => r.sets = updated(text()?, expr)?,
        "--condition-expression" => r.condition = Some(resolve(text()?, expr)?),
        "--consistent-read" => r.consistent = true,
        "--no-consistent-read" => r.consistent = false,
        "--no-scan-index-forward" => r.descending = true,
        "--scan-index-forward" => r.descending = false,
        "--limit" => {
            r.limit = Some(
                text()?
                    .parse()
                    .map_err(|_| "--limit is not a whole number from 1 to 4294967295")?,
            )
        }
        "--expression-attribute-names" | "--expression-attribute-values" => {}
        other if ENVIRONMENT.contains(&other) => {}
        other => r.ignored.push(format!("option `{other}` is not mapped")),
    }
    Ok(())
}

/// `--key` / `--item`: every attribute's equality (the caller keeps the key attributes).
fn item_key(json: &str, option: &str) -> Result<Vec<(String, Cond)>, String> {
    let value: Value =
        serde_json::from_str(json).map_err(|e| format!("{option} is not JSON: {e}"))?;
    let map = value
        .as_object()
        .ok_or(format!("{option} is not a JSON object"))?;
    Ok(map
        .iter()
        .filter_map(|(k, v)| scalar(v).map(|s| (k.clone(), Cond::Compare("=".to_string(), s))))
        .collect())
}

/// An expression's tokens: names, `#names`, `:values`, operators, parentheses and commas.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
        } else if "(),".contains(c) {
            out.push(c.to_string());
            chars.next();
        } else if "<>=".contains(c) {
            let mut op = String::new();
            while let Some(&c) = chars.peek().filter(|c| "<>=".contains(**c)) {
                op.push(c);
                chars.next();
            }
            out.push(op);
        } else {
            let mut word = String::new();
            while let Some(&c) = chars
                .peek()
                .filter(|c| !c.is_whitespace() && !"(),<>=".contains(**c))
            {
                word.push(c);
                chars.next();
            }
            out.push(word);
        }
    }
    out
}

/// `--key-condition-expression`: `A = :a AND begins_with(B, :b)`, `B BETWEEN :x AND :y`, ...
fn key_conditions(text: &str, expr: &Expr<'_>) -> Result<Vec<(String, Cond)>, String> {
    let t = tokens(text);
    let mut out = Vec::new();
    let mut i = 0;
    let bad = || format!("key condition `{text}` is not of the form DynamoDB takes");
    while i < t.len() {
        if t[i].eq_ignore_ascii_case("begins_with") {
            let [open, name, comma, value, close] = t.get(i + 1..i + 6).ok_or_else(bad)? else {
                return Err(bad());
            };
            if open != "(" || comma != "," || close != ")" {
                return Err(bad());
            }
            out.push((expr.name(name)?, Cond::BeginsWith(expr.value(value)?)));
            i += 6;
        } else if t
            .get(i + 1)
            .is_some_and(|w| w.eq_ignore_ascii_case("between"))
        {
            let [_, _, a, and, b] = t.get(i..i + 5).ok_or_else(bad)? else {
                return Err(bad());
            };
            if !and.eq_ignore_ascii_case("and") {
                return Err(bad());
            }
            out.push((
                expr.name(&t[i])?,
                Cond::Between(expr.value(a)?, expr.value(b)?),
            ));
            i += 5;
        } else {
            let [name, op, value] = t.get(i..i + 3).ok_or_else(bad)? else {
                return Err(bad());
            };
            if !["=", "<", "<=", ">", ">="].contains(&op.as_str()) {
                return Err(bad());
            }
            out.push((
                expr.name(name)?,
                Cond::Compare(op.clone(), expr.value(value)?),
            ));
            i += 3;
        }
        match t.get(i) {
            None => {}
            Some(w) if w.eq_ignore_ascii_case("and") => i += 1,
            Some(_) => return Err(bad()),
        }
    }
    Ok(out)
}

/// Words of an expression that are not attribute names.
const KEYWORDS: &[&str] = &[
    "and",
    "or",
    "not",
    "between",
    "in",
    "set",
    "remove",
    "add",
    "delete",
    "attribute_exists",
    "attribute_not_exists",
    "attribute_type",
    "begins_with",
    "contains",
    "size",
    "if_not_exists",
    "list_append",
];

/// The attribute names an expression refers to (`#names` resolved), each once; a document
/// path's first element (`address.city` is `address`).
fn attribute_names(text: &str, expr: &Expr<'_>) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for token in tokens(text) {
        let word = token.split(['.', '[']).next().unwrap_or_default();
        let is_name = word.starts_with('#')
            || word
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !is_name || KEYWORDS.contains(&word.to_ascii_lowercase().as_str()) {
            continue;
        }
        let name = expr.name(word)?;
        if !out.contains(&name) {
            out.push(name);
        }
    }
    Ok(out)
}

/// `--update-expression`: the attributes each clause changes (the left side of SET, every path
/// of REMOVE, ADD and DELETE).
fn updated(text: &str, expr: &Expr<'_>) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    let mut expect_path = false;
    let mut depth = 0usize;
    for token in tokens(text) {
        let lower = token.to_ascii_lowercase();
        match token.as_str() {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            "," if depth == 0 => expect_path = true,
            _ if depth == 0 && ["set", "remove", "add", "delete"].contains(&lower.as_str()) => {
                expect_path = true;
            }
            _ if expect_path => {
                let word = token.split(['.', '[']).next().unwrap_or_default();
                let name = expr.name(word)?;
                if !out.contains(&name) {
                    out.push(name);
                }
                expect_path = false;
            }
            _ => {}
        }
    }
    Ok(out)
}

/// An expression with `#names` and `:values` written out (`attribute_not_exists(PK)`).
fn resolve(text: &str, expr: &Expr<'_>) -> Result<String, String> {
    let mut words = Vec::new();
    for token in tokens(text) {
        let word = if token.starts_with('#') {
            expr.name(&token)?
        } else if token.starts_with(':') {
            format!("'{}'", expr.value(&token)?)
        } else {
            token
        };
        words.push(word);
    }
    let mut out = String::new();
    for (i, word) in words.iter().enumerate() {
        let tight = i == 0 || ["(", ")", ","].contains(&word.as_str()) || words[i - 1] == "(";
        if !tight {
            out.push(' ');
        }
        out.push_str(word);
    }
    Ok(out)
}

/// The key attributes a request names, by attribute.
pub(crate) fn key_map(r: &Request) -> BTreeMap<&str, &Cond> {
    r.key.iter().map(|(k, c)| (k.as_str(), c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eq(v: &str) -> Cond {
        Cond::Compare("=".to_string(), v.to_string())
    }

    #[test]
    fn a_query_with_names_values_and_a_range() {
        let r = parse(r##"aws dynamodb query --table-name Shop --index-name GSI1 --key-condition-expression "#pk = :pk AND begins_with(#sk, :p)" --expression-attribute-names '{"#pk":"GSI1PK","#sk":"GSI1SK","#st":"status"}' --expression-attribute-values '{":pk":{"S":"USER#u1"},":p":{"S":"ORDER#"},":s":{"S":"PAID"}}' --filter-expression "#st = :s" --no-scan-index-forward --limit 10"##).unwrap();
        assert_eq!(r.operation, "Query");
        assert_eq!(r.table.as_deref(), Some("Shop"));
        assert_eq!(r.index.as_deref(), Some("GSI1"));
        assert_eq!(
            r.key,
            [
                ("GSI1PK".to_string(), eq("USER#u1")),
                ("GSI1SK".to_string(), Cond::BeginsWith("ORDER#".to_string()))
            ]
        );
        assert!(r.descending);
        assert_eq!(r.limit, Some(10));
        // `#st` is not among the names: the filter does not resolve.
        let missing = parse(r##"aws dynamodb scan --table-name T --filter-expression "#st = :s""##);
        assert!(missing.unwrap_err().contains("#st"));
    }

    #[test]
    fn between_and_comparisons_and_native_keys() {
        let r = parse(r#"aws dynamodb query --table-name T --key-condition-expression "tournamentId = :t AND region = :r AND round BETWEEN :a AND :b" --expression-attribute-values '{":t":{"S":"W24"},":r":{"S":"NA"},":a":{"N":"1"},":b":{"N":"3"}}'"#).unwrap();
        assert_eq!(r.key.len(), 3);
        assert_eq!(
            r.key[2],
            (
                "round".to_string(),
                Cond::Between("1".to_string(), "3".to_string())
            )
        );
        let r = parse(r#"aws dynamodb query --table-name T --key-condition-expression "pk = :p and sk >= :s" --expression-attribute-values '{":p":{"S":"A"},":s":{"S":"2024"}}'"#).unwrap();
        assert_eq!(
            r.key[1],
            (
                "sk".to_string(),
                Cond::Compare(">=".to_string(), "2024".to_string())
            )
        );
    }

    #[test]
    fn items_updates_and_conditions() {
        let r = parse(r##"aws dynamodb update-item --table-name T --key '{"PK":{"S":"U#1"},"SK":{"S":"P"}}' --update-expression "SET #n = :n, stock = stock - :q REMOVE old ADD visits :one" --condition-expression "attribute_exists(#pk)" --expression-attribute-names '{"#n":"name","#pk":"PK"}' --expression-attribute-values '{":n":{"S":"x"},":q":{"N":"1"},":one":{"N":"1"}}'"##).unwrap();
        assert_eq!(r.operation, "UpdateItem");
        assert_eq!(r.sets, ["name", "stock", "old", "visits"]);
        assert_eq!(r.condition.as_deref(), Some("attribute_exists(PK)"));
        assert_eq!(key_map(&r).get("PK"), Some(&&eq("U#1")));
        let r = parse(r#"aws dynamodb put-item --table-name T --item '{"PK":{"S":"U#1"},"n":{"N":"2"},"b":{"BOOL":true}}'"#).unwrap();
        assert_eq!(r.key.len(), 2, "{r:?}");
    }

    #[test]
    fn what_is_refused() {
        assert!(parse("aws s3 ls").is_err());
        assert!(
            parse("aws dynamodb query --table-name 'T")
                .unwrap_err()
                .contains("quotes")
        );
        assert!(parse("aws dynamodb batch-write-item --request-items x").is_err());
        assert!(
            parse("aws dynamodb query --table-name T --key-condition-expression 'pk = :p OR x'")
                .is_err()
        );
        assert!(parse("aws dynamodb scan stray").is_err());
        let r = parse("aws dynamodb scan --table-name T --segment 1 --region eu-west-1").unwrap();
        assert_eq!(r.ignored, ["option `--segment` is not mapped"]);
    }
}

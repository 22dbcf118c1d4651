//! `schema.json`'s access patterns (each entity's `access_patterns`, and the top-level
//! `cross_table_access_patterns`) into monotable patterns: operation, index, the key condition
//! built from the entity's templates and the pattern's parameters, filter, returns.
//!
//! A Query's sort-key condition: parameters naming the sort key template's variables, left to
//! right, are equalities; a `range_condition` takes the last one (two for `between`) as its
//! value, which stands in the template where the first variable not given begins
//! (`POST#{timestamp}` with `>=` and `since_date` is `>= POST#{since_date}`). With no range and
//! not every variable given, the constant text before the first missing one scopes the Query
//! (`begins_with(ORDER#)`), as the AWS generator's key prefixes do; an item collection
//! (`mixed_data`) reads the whole partition and returns every entity keyed alike.

use monotable_model::{KeyTemplate, Segment};
use serde_json::Value;

use super::draft::{Param, Pattern};
use super::json::{Names, Notes, Obj, child, identifier, item, shown};
use super::keys::{segment_text, variables};
use super::schema::{Ent, EntityKey, FORMAT, Read};

/// The page size the AWS generator's Query and Scan methods default to (`limit: int = 100`).
pub(super) const GENERATED_PAGE: u32 = 100;

/// One `access_patterns` entry as read.
struct Ap<'a> {
    at: String,
    id: String,
    name: String,
    description: String,
    operation: &'a str,
    index: Option<&'a str>,
    range: Option<&'a str>,
    consistent: bool,
    filter_fields: Vec<String>,
    filter_params: Vec<String>,
    filter_text: Option<String>,
    /// Name and AWS type of every parameter that is not a whole entity.
    params: Vec<(String, String)>,
    return_type: Option<&'a str>,
}

/// Every entity's patterns.
pub(super) fn patterns(read: &Read<'_>, names: &mut Names, notes: &mut Notes) -> Vec<Pattern> {
    let mut out: Vec<Pattern> = Vec::new();
    for e in &read.entities {
        let list = child(&e.origin, "access_patterns");
        for (i, value) in e.patterns.iter().enumerate() {
            let at = item(&list, i);
            let Some(ap) = read_ap(value, at, notes) else {
                continue;
            };
            out.extend(pattern(read, e, &ap, names, notes));
        }
    }
    out
}

fn read_ap<'a>(value: &'a Value, at: String, notes: &mut Notes) -> Option<Ap<'a>> {
    let o = Obj::new(value, &at, notes)?;
    let known = [
        "pattern_id",
        "name",
        "description",
        "operation",
        "index_name",
        "range_condition",
        "consistent_read",
        "filter_expression",
        "parameters",
        "return_type",
    ];
    o.unknown(&known, FORMAT, notes);
    let id = match o.get("pattern_id") {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    let Some(operation) = o.str("operation", notes) else {
        notes.push(&at, "has no `operation`; not imported");
        return None;
    };
    let name = o
        .str("name", notes)
        .map_or_else(|| identifier("ap", &id), str::to_string);
    let params = read_params(o, notes);
    let mut ap = Ap {
        id,
        name,
        description: o.str("description", notes).unwrap_or_default().to_string(),
        operation,
        index: o.str("index_name", notes),
        range: o.str("range_condition", notes),
        consistent: o.bool("consistent_read", notes).unwrap_or(false),
        filter_fields: Vec::new(),
        filter_params: Vec::new(),
        filter_text: None,
        params,
        return_type: o.str("return_type", notes),
        at: String::new(),
    };
    if let Some(f) = o.get("filter_expression") {
        read_filter(f, &child(&at, "filter_expression"), &mut ap, notes);
    }
    ap.at = at;
    Some(ap)
}

/// `parameters`: name and AWS type of each that is not a whole entity; a `default` listed.
fn read_params(o: Obj<'_, '_>, notes: &mut Notes) -> Vec<(String, String)> {
    let mut params = Vec::new();
    for (i, p) in o.array("parameters", notes).iter().enumerate() {
        let p_at = item(&child(o.path, "parameters"), i);
        let Some(p) = Obj::new(p, &p_at, notes) else {
            continue;
        };
        p.unknown(&["name", "type", "entity_type", "default"], FORMAT, notes);
        if p.get("default").is_some() {
            let reason = "a parameter's default value is the caller's; a monotable pattern does not hold one";
            notes.push(&child(&p_at, "default"), reason);
        }
        let (Some(n), Some(t)) = (p.str("name", notes), p.str("type", notes)) else {
            continue;
        };
        if t != "entity" {
            params.push((n.to_string(), t.to_string()));
        }
    }
    params
}

/// `filter_expression`: its fields become `filter`, its text goes in the description.
fn read_filter(value: &Value, at: &str, ap: &mut Ap<'_>, notes: &mut Notes) {
    let Some(f) = Obj::new(value, at, notes) else {
        return;
    };
    f.unknown(&["conditions", "logical_operator"], FORMAT, notes);
    let joiner = f.str("logical_operator", notes).unwrap_or("AND");
    let mut parts = Vec::new();
    for (i, c) in f.array("conditions", notes).iter().enumerate() {
        let c_at = item(&child(at, "conditions"), i);
        let Some(c) = Obj::new(c, &c_at, notes) else {
            continue;
        };
        c.unknown(
            &["field", "operator", "function", "param", "param2", "params"],
            FORMAT,
            notes,
        );
        let Some(field) = c.str("field", notes) else {
            continue;
        };
        if !ap.filter_fields.iter().any(|x| x == field) {
            ap.filter_fields.push(field.to_string());
        }
        let mut used: Vec<String> = ["param", "param2"]
            .iter()
            .filter_map(|k| c.str(k, notes))
            .map(str::to_string)
            .collect();
        used.extend(
            c.array("params", notes)
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string),
        );
        let function = c.str("function", notes);
        let operator = c.str("operator", notes);
        parts.push(condition_text(field, function, operator, &used));
        ap.filter_params.extend(used);
    }
    if !parts.is_empty() {
        ap.filter_text = Some(parts.join(&format!(" {joiner} ")));
    }
}

/// A filter condition as DynamoDB writes it, its parameters as `{name}`.
fn condition_text(
    field: &str,
    function: Option<&str>,
    operator: Option<&str>,
    params: &[String],
) -> String {
    let args: Vec<String> = params.iter().map(|p| format!("{{{p}}}")).collect();
    let subject = match (function, operator) {
        (Some(f), Some(_)) => format!("{f}({field})"),
        (Some(f), None) => {
            let rest: String = args.iter().map(|a| format!(", {a}")).collect();
            return format!("{f}({field}{rest})");
        }
        (None, _) => field.to_string(),
    };
    match (operator, args.as_slice()) {
        (Some("between"), [a, b]) => format!("{subject} BETWEEN {a} AND {b}"),
        (Some("in"), list) => format!("{subject} IN ({})", list.join(", ")),
        (Some(op), list) => format!("{subject} {op} {}", list.join(", ")),
        (None, _) => subject,
    }
}

/// A parameter's type in a model's `params`.
fn param_type(aws: &str) -> &'static str {
    match aws {
        "integer" => "integer",
        "decimal" => "decimal",
        "boolean" => "boolean",
        "array" => "list",
        "object" => "map",
        _ => "string",
    }
}

fn operation(name: &str) -> Option<&'static str> {
    Some(match name {
        "GetItem" => "GetItem",
        "PutItem" => "PutItem",
        "DeleteItem" => "DeleteItem",
        "UpdateItem" => "UpdateItem",
        "Query" => "Query",
        "Scan" => "Scan",
        "BatchGetItem" => "BatchGet",
        "BatchWriteItem" => "BatchWrite",
        _ => return None,
    })
}

/// The pattern(s) of one entry: one, or a BatchWrite and the PutItem it runs.
fn pattern(
    read: &Read<'_>,
    e: &Ent<'_>,
    ap: &Ap<'_>,
    names: &mut Names,
    notes: &mut Notes,
) -> Vec<Pattern> {
    let Some(op) = operation(ap.operation) else {
        notes.push(
            &child(&ap.at, "operation"),
            format!(
                "operation `{}` is not one monotable models; not imported",
                shown(ap.operation)
            ),
        );
        return Vec::new();
    };
    let name = pattern_name(&ap.name, names, &ap.at, notes);
    let mut p = Pattern {
        name,
        description: Some(description(ap)),
        operation: op,
        returns: vec![e.name.clone()],
        filter: ap.filter_fields.clone(),
        origin: ap.at.clone(),
        ..Pattern::default()
    };
    let keyed = match op {
        "Query" | "Scan" => read_pattern(read, e, ap, &mut p, notes),
        _ => item_pattern(read, e, ap, &mut p, notes),
    };
    if !keyed {
        return Vec::new();
    }
    if op != "BatchWrite" {
        return vec![p];
    }
    let mut put = Pattern {
        name: names.claim(format!("{}_put", p.name)),
        description: Some(format!("Each put of `{}` (AWS BatchWriteItem)", p.name)),
        operation: "PutItem",
        key: std::mem::take(&mut p.key),
        returns: p.returns.clone(),
        origin: ap.at.clone(),
        ..Pattern::default()
    };
    put.params = std::mem::take(&mut p.params);
    p.writes = vec![(put.name.clone(), None)];
    vec![p, put]
}

pub(super) fn pattern_name(name: &str, names: &mut Names, at: &str, notes: &mut Notes) -> String {
    let unique = names.claim(identifier("", name));
    if unique != name {
        notes.push(&child(at, "name"), format!("pattern `{}` is named `{unique}` in the model (a name of letters, digits and `_`, unique)", shown(name)));
    }
    unique
}

fn description(ap: &Ap<'_>) -> String {
    let mut d = format!("AWS pattern {}: {}", ap.id, ap.description);
    if let Some(f) = &ap.filter_text {
        d.push_str(&format!(" (filter: {f})"));
    }
    d
}

/// Parameters that are not whole entities, not filter values.
fn key_params<'a>(ap: &'a Ap<'_>) -> Vec<&'a (String, String)> {
    ap.params
        .iter()
        .filter(|(n, _)| !ap.filter_params.contains(n))
        .collect()
}

/// GetItem, PutItem, UpdateItem, DeleteItem, BatchGet, BatchWrite: the full primary key.
fn item_pattern(
    read: &Read<'_>,
    e: &Ent<'_>,
    ap: &Ap<'_>,
    p: &mut Pattern,
    notes: &mut Notes,
) -> bool {
    if let Some(index) = ap.index {
        notes.push(
            &child(&ap.at, "index_name"),
            format!(
                "a {} addresses the table's primary key, not index `{}`; ignored",
                ap.operation,
                shown(index)
            ),
        );
    }
    p.key = vec![(read.table.pk.name.clone(), e.pk.text.clone())];
    let mut vars = e.pk.vars.clone();
    if let (Some(k), Some(t)) = (&read.table.sk, &e.sk) {
        p.key.push((k.name.clone(), t.text.clone()));
        vars.extend(t.vars.iter().cloned());
    }
    for (name, ty) in key_params(ap) {
        if vars.contains(name) {
            continue;
        }
        let field = e.field(name).is_some();
        if p.operation == "UpdateItem" && field {
            p.sets.push(name.clone());
        } else if p.operation == "UpdateItem" {
            notes.push(&ap.at, format!("parameter `{}` ({ty}) is no field of `{}`: an update names the attributes it sets; not mapped", shown(name), shown(&e.name)));
        } else {
            notes.push(
                &ap.at,
                format!(
                    "parameter `{}` is in no key template of `{}`; not mapped",
                    shown(name),
                    shown(&e.name)
                ),
            );
        }
    }
    if ap.consistent && matches!(p.operation, "GetItem" | "BatchGet") {
        p.consistent_read = true;
    } else if ap.consistent {
        notes.push(
            &child(&ap.at, "consistent_read"),
            "a write has no read consistency; ignored",
        );
    }
    true
}

/// The entity's partition and sort key on the table or index `ap` reads; `Err` (noted) when the
/// pattern cannot be imported, `Ok(None)` for a Scan of an index the entity writes no key of.
type Target = Option<(EntityKey, Option<EntityKey>)>;

fn target(read: &Read<'_>, e: &Ent<'_>, ap: &Ap<'_>, notes: &mut Notes) -> Result<Target, ()> {
    let Some(index) = ap.index else {
        let sk = e.sk.clone().map(EntityKey::Template);
        return Ok(Some((EntityKey::Template(e.pk.clone()), sk)));
    };
    if !read.gsis.iter().any(|g| g.name == index) {
        let reason = format!(
            "not imported: it reads index `{}`, which is not imported",
            shown(index)
        );
        notes.push(&ap.at, reason);
        return Err(());
    }
    let found = e
        .gsi
        .iter()
        .find(|(n, _, _)| n == index)
        .map(|(_, pk, sk)| (pk.clone(), sk.clone()));
    if found.is_none() && ap.operation == "Query" {
        let reason = format!(
            "entity `{}` writes no key of index `{}`; not imported",
            shown(&e.name),
            shown(index)
        );
        notes.push(&ap.at, reason);
        return Err(());
    }
    Ok(found)
}

/// Query and Scan: the index, the key condition, paging, uniqueness, returns.
fn read_pattern(
    read: &Read<'_>,
    e: &Ent<'_>,
    ap: &Ap<'_>,
    p: &mut Pattern,
    notes: &mut Notes,
) -> bool {
    p.paginate = true;
    p.limit = Some(GENERATED_PAGE);
    p.index = ap.index.map(str::to_string);
    let Ok(target) = target(read, e, ap, notes) else {
        return false;
    };
    consistency(ap, p, notes);
    if ap.return_type == Some("single_entity") {
        p.unique = true;
    }
    if p.operation == "Scan" {
        for (name, _) in key_params(ap) {
            let reason = format!(
                "parameter `{}` of a Scan is in no filter; not mapped",
                shown(name)
            );
            notes.push(&ap.at, reason);
        }
        return true;
    }
    let Some((pk, sk)) = target else { return false };
    let mixed = ap.return_type == Some("mixed_data");
    if mixed {
        p.returns = collection(read, e, ap.index);
    }
    query_key(read, e, ap, (&pk, sk.as_ref()), mixed, p, notes)
}

fn consistency(ap: &Ap<'_>, p: &mut Pattern, notes: &mut Notes) {
    if !ap.consistent {
        return;
    }
    if ap.index.is_some() {
        notes.push(
            &child(&ap.at, "consistent_read"),
            "a global index is read eventually consistent only; ignored",
        );
    } else {
        p.consistent_read = true;
    }
}

/// The key attributes of the target: (partition, sort) attribute names.
fn key_names(read: &Read<'_>, index: Option<&str>) -> (Vec<String>, Vec<String>) {
    match index.and_then(|i| read.gsis.iter().find(|g| g.name == i)) {
        None => (
            vec![read.table.pk.name.clone()],
            read.table.sk.iter().map(|k| k.name.clone()).collect(),
        ),
        Some(g) => (
            g.pk.names(),
            g.sk.as_ref().map(|s| s.names()).unwrap_or_default(),
        ),
    }
}

/// `range_condition` and how many parameters it takes (2 for `between`, else 1).
fn range_of<'a>(ap: &Ap<'a>, notes: &mut Notes) -> Option<(&'a str, usize)> {
    match ap.range? {
        "between" => Some(("between", 2)),
        r @ ("begins_with" | ">=" | "<=" | ">" | "<") => Some((r, 1)),
        other => {
            let reason = format!("`{}` is not a range condition; ignored", shown(other));
            notes.push(&child(&ap.at, "range_condition"), reason);
            None
        }
    }
}

fn query_key(
    read: &Read<'_>,
    e: &Ent<'_>,
    ap: &Ap<'_>,
    key: (&EntityKey, Option<&EntityKey>),
    mixed: bool,
    p: &mut Pattern,
    notes: &mut Notes,
) -> bool {
    let (pk_names, sk_names) = key_names(read, ap.index);
    let mut params: Vec<&(String, String)> = key_params(ap);
    let range = range_of(ap, notes);
    match key {
        (EntityKey::Template(pk), sk) => {
            p.key.push((pk_names[0].clone(), pk.text.clone()));
            params.retain(|(n, _)| !pk.vars.contains(n));
            if let (Some(EntityKey::Template(t)), Some(attr)) = (sk, sk_names.first()) {
                let condition = templated_sort(t, &mut params, range, mixed, &ap.at, notes);
                p.key.extend(condition.map(|c| (attr.clone(), c)));
            } else if range.is_some() {
                let reason = "the key read has no sort key; ignored";
                notes.push(&child(&ap.at, "range_condition"), reason);
            }
        }
        (EntityKey::Native(pk_attrs), sk) => {
            let sk_attrs = match sk {
                Some(EntityKey::Native(a)) => a.as_slice(),
                _ => &[],
            };
            if !native_key(pk_attrs, sk_attrs, &mut params, range, p, &ap.at, notes) {
                return false;
            }
        }
    }
    declare_params(e, ap, p, &mut params);
    for (name, _) in params {
        let reason = format!(
            "parameter `{}` is in no key template, range condition or filter; not mapped",
            shown(name)
        );
        notes.push(&ap.at, reason);
    }
    true
}

/// Declares the key's variables that are no field of a returned entity, typed from the AWS
/// parameters; those parameters are then used.
fn declare_params(e: &Ent<'_>, ap: &Ap<'_>, p: &mut Pattern, params: &mut Vec<&(String, String)>) {
    let vars: Vec<String> = p.key.iter().flat_map(|(_, cond)| variables(cond)).collect();
    for var in vars {
        if e.field(&var).is_some() || p.params.iter().any(|q| q.name == var) {
            continue;
        }
        let ty = ap
            .params
            .iter()
            .find(|(n, _)| n == &var)
            .map_or("string", |(_, t)| param_type(t));
        p.params.push(Param {
            name: var.clone(),
            ty,
        });
    }
    params.retain(|(n, _)| !p.key.iter().any(|(_, c)| variables(c).contains(n)));
}

/// A templated sort key's condition (see the module's documentation); takes the parameters it
/// uses out of `params`.
fn templated_sort(
    t: &super::template::Translated,
    params: &mut Vec<&(String, String)>,
    range: Option<(&str, usize)>,
    mixed: bool,
    at: &str,
    notes: &mut Notes,
) -> Option<String> {
    let Ok(template) = KeyTemplate::parse(&t.text) else {
        return None;
    };
    let keyed: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
    let (equal, ranged): (Vec<String>, Vec<String>) = match range {
        Some((_, n)) if keyed.len() >= n => {
            let split = keyed.len() - n;
            (keyed[..split].to_vec(), keyed[split..].to_vec())
        }
        Some((op, n)) => {
            notes.push(&child(at, "range_condition"), format!("`{op}` needs {n} parameter(s) after the partition key's, and the pattern has {}; ignored", keyed.len()));
            (keyed, Vec::new())
        }
        None => (keyed, Vec::new()),
    };
    let mut prefix = String::new();
    let mut complete = true;
    for s in template.segments() {
        match s {
            Segment::Var { name, .. } if !equal.contains(name) => {
                complete = false;
                break;
            }
            s => prefix.push_str(&segment_text(s)),
        }
    }
    let used: Vec<String> = equal
        .iter()
        .filter(|n| t.vars.contains(n))
        .cloned()
        .chain(ranged.iter().cloned())
        .collect();
    params.retain(|(n, _)| !used.contains(n));
    let value = |p: &str| format!("{prefix}{{{p}}}");
    match (range, ranged.as_slice()) {
        (None, _) if mixed => None,
        (Some(("begins_with", _)), [v]) => Some(format!("begins_with({})", value(v))),
        (Some(("between", _)), [a, b]) => Some(format!("between({}, {})", value(a), value(b))),
        (Some((op, _)), [v]) => Some(format!("{op} {}", value(v))),
        _ if complete => Some(t.text.clone()),
        _ if !prefix.is_empty() && !mixed => Some(format!("begins_with({prefix})")),
        _ => None,
    }
}

/// A native index's key: every partition attribute equal to a parameter, in order; then sort
/// attributes left to right, the last one given carrying the range.
fn native_key(
    pk: &[String],
    sk: &[String],
    params: &mut Vec<&(String, String)>,
    range: Option<(&str, usize)>,
    p: &mut Pattern,
    at: &str,
    notes: &mut Notes,
) -> bool {
    let needed = pk.len() + range.map_or(0, |(_, n)| n);
    if params.len() < needed {
        notes.push(at, format!("a Query on a native key needs a parameter for each of its {} partition attributes (and the range's); it has {}; not imported", pk.len(), params.len()));
        return false;
    }
    let mut given = std::mem::take(params).into_iter();
    for attr in pk {
        let Some((name, _)) = given.next() else {
            return false;
        };
        p.key.push((attr.clone(), format!("{{{name}}}")));
    }
    let rest: Vec<&(String, String)> = given.collect();
    let range_n = range.map_or(0, |(_, n)| n);
    let equal = rest.len() - range_n;
    if equal + usize::from(range.is_some()) > sk.len() {
        notes.push(
            at,
            format!(
                "gives {} sort-key parameters for {} sort attributes; not imported",
                rest.len(),
                sk.len()
            ),
        );
        return false;
    }
    for (attr, (name, _)) in sk.iter().zip(&rest[..equal]) {
        p.key.push((attr.clone(), format!("{{{name}}}")));
    }
    if let Some((op, _)) = range {
        let values: Vec<String> = rest[equal..]
            .iter()
            .map(|(n, _)| format!("{{{n}}}"))
            .collect();
        let condition = match op {
            "begins_with" => format!("begins_with({})", values[0]),
            "between" => format!("between({}, {})", values[0], values[1]),
            op => format!("{op} {}", values[0]),
        };
        p.key.push((sk[equal].clone(), condition));
    }
    true
}

/// A template's shape: its text with every variable's name left out.
fn shape(text: &str) -> String {
    KeyTemplate::parse(text).map_or_else(
        |_| text.to_string(),
        |t| {
            t.segments()
                .iter()
                .map(|s| match s {
                    Segment::Var { pad, .. } => format!("{{:{}}}", pad.unwrap_or(0)),
                    s => segment_text(s),
                })
                .collect()
        },
    )
}

/// The entities an item-collection Query returns: every one whose partition key on the index
/// read has the same shape as `e`'s.
fn collection(read: &Read<'_>, e: &Ent<'_>, index: Option<&str>) -> Vec<String> {
    let pk_of = |x: &Ent<'_>| -> Option<String> {
        match index {
            None => Some(shape(&x.pk.text)),
            Some(i) => x
                .gsi
                .iter()
                .find(|(n, _, _)| n == i)
                .map(|(_, pk, _)| match pk {
                    EntityKey::Template(t) => shape(&t.text),
                    EntityKey::Native(a) => a.join(","),
                }),
        }
    };
    let mine = pk_of(e);
    read.entities
        .iter()
        .filter(|x| pk_of(x) == mine)
        .map(|x| x.name.clone())
        .collect()
}

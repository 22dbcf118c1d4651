//! `dynamodb_data_model.json`'s `access_patterns`: each AWS CLI command read ([`super::request`])
//! and matched against the entities read off the items. A key value the command gives
//! (`USER#u1`) is matched with each entity's template (`USER#{user_id}`), and the pattern reads
//! the template: the key of every item of that shape, not of the one sample. A sort-key prefix
//! or range value is written in the template's terms as far as it goes (`begins_with(ORDER#2024)`
//! on `ORDER#{placed}#{order_id}` is `begins_with(ORDER#{placed})`).

use monotable_model::{KeyTemplate, Segment};

use super::keys::{self, segment_text, variables};
use serde_json::{Map, Value};

use super::data_model::FORMAT;
use super::draft::{Draft, Entity, Index, Param, Pattern};
use super::json::{Names, Notes, Obj, child, identifier, item, shown};
use super::request::{self, Cond, Request};

/// Every access pattern the draft's table can hold.
pub(super) fn patterns(top: &Map<String, Value>, draft: &Draft, notes: &mut Notes) -> Vec<Pattern> {
    let Some(list) = top.get("access_patterns").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut out: Vec<Pattern> = Vec::new();
    let mut names = Names::default();
    for (i, v) in list.iter().enumerate() {
        let at = item("access_patterns", i);
        let Some(o) = Obj::new(v, &at, notes) else {
            continue;
        };
        o.unknown(
            &[
                "pattern",
                "description",
                "table",
                "index",
                "dynamodb_operation",
                "implementation",
                "reason",
            ],
            FORMAT,
            notes,
        );
        match one(o, draft, &mut names, notes) {
            Ok(p) => out.push(p),
            Err(reason) => notes.push(&at, format!("not imported: {reason}")),
        }
    }
    out
}

fn one(
    o: Obj<'_, '_>,
    draft: &Draft,
    names: &mut Names,
    notes: &mut Notes,
) -> Result<Pattern, String> {
    let id = match o.get("pattern") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => String::new(),
    };
    let r = command(o, draft, notes)?;
    let description = o.str("description", notes).unwrap_or_default();
    let mut p = Pattern {
        name: names.claim(identifier("ap", &id)),
        description: Some(format!("AWS pattern {id}: {description}")),
        operation: r.operation,
        origin: o.path.to_string(),
        ..Pattern::default()
    };
    let index = match r.index.as_deref() {
        None => None,
        Some(name) => Some(
            draft
                .indexes
                .iter()
                .find(|x| x.name == name)
                .ok_or(format!(
                    "it reads index `{}`, which is not imported",
                    shown(name)
                ))?,
        ),
    };
    p.index = index.map(|x| x.name.clone());
    match r.operation {
        "Query" | "Scan" => read(&r, draft, index, &mut p)?,
        _ => single(&r, draft, &mut p, notes)?,
    }
    options(&r, draft, index, &mut p, notes);
    Ok(p)
}

/// The entry's command, read, on the imported table; its options not mapped listed.
fn command(o: Obj<'_, '_>, draft: &Draft, notes: &mut Notes) -> Result<Request, String> {
    let Some(command) = o.str("implementation", notes) else {
        let why = o
            .str("reason", notes)
            .map_or("it has no `implementation` command".to_string(), |r| {
                format!("it is served outside DynamoDB ({r})")
            });
        return Err(why);
    };
    let r = request::parse(command).map_err(|e| format!("its command does not read: {e}"))?;
    let table = r
        .table
        .clone()
        .or_else(|| o.str("table", notes).map(str::to_string));
    if table.as_deref() != Some(draft.table.name.as_str()) {
        return Err(format!(
            "it reads table `{}`, not the one imported",
            shown(table.as_deref().unwrap_or("?"))
        ));
    }
    for ignored in &r.ignored {
        let at = child(o.path, "implementation");
        notes.push(&at, format!("{ignored}; ignored"));
    }
    Ok(r)
}

/// The table's partition and sort key names.
fn table_keys(draft: &Draft) -> (String, Option<String>) {
    (
        draft.table.pk.name.clone(),
        draft.table.sk.as_ref().map(|k| k.name.clone()),
    )
}

fn template(e: &Entity, attribute: &str) -> Option<KeyTemplate> {
    e.keys
        .iter()
        .find(|(k, _)| k == attribute)
        .and_then(|(_, t)| KeyTemplate::parse(t).ok())
}

fn equality<'a>(r: &'a Request, attribute: &str) -> Option<&'a str> {
    match request::key_map(r).get(attribute) {
        Some(Cond::Compare(op, v)) if op == "=" => Some(v.as_str()),
        _ => None,
    }
}

/// GetItem, PutItem, UpdateItem, DeleteItem: the entity whose templates give the full key.
fn single(r: &Request, draft: &Draft, p: &mut Pattern, notes: &mut Notes) -> Result<(), String> {
    let (pk, sk) = table_keys(draft);
    let pk_value = equality(r, &pk).ok_or(format!(
        "it gives no value of the partition key `{}`",
        shown(&pk)
    ))?;
    let sk_value = match &sk {
        Some(s) => Some(
            equality(r, s).ok_or(format!("it gives no value of the sort key `{}`", shown(s)))?,
        ),
        None => None,
    };
    let fits = |e: &&Entity| {
        let part = |attr: &str, v: &str| template(e, attr).is_some_and(|t| t.extract(v).is_some());
        part(&pk, pk_value) && sk.as_deref().zip(sk_value).is_none_or(|(s, v)| part(s, v))
    };
    let matches: Vec<&Entity> = draft.entities.iter().filter(fits).collect();
    let Some(first) = matches.first() else {
        let key = format!(
            "{} = `{}`{}",
            shown(&pk),
            shown(pk_value),
            sk.as_deref()
                .zip(sk_value)
                .map(|(s, v)| format!(", {} = `{}`", shown(s), shown(v)))
                .unwrap_or_default()
        );
        return Err(format!("no entity read off the items is written at {key}"));
    };
    p.key = first
        .keys
        .iter()
        .filter(|(k, _)| *k == pk || Some(k) == sk.as_ref())
        .cloned()
        .collect();
    p.returns = vec![first.name.clone()];
    if matches.len() > 1 {
        let names: Vec<String> = matches
            .iter()
            .map(|e| format!("`{}`", shown(&e.name)))
            .collect();
        notes.push(
            &p.origin,
            format!(
                "its key fits {}; it is read as `{}`'s",
                names.join(", "),
                shown(&first.name)
            ),
        );
    }
    if p.operation == "UpdateItem" {
        update_sets(r, draft, first, p, notes);
    }
    Ok(())
}

/// An update's `sets`: the attributes of the entity it changes, not its primary key's inputs;
/// a name the entity lacks (and no key attribute) is listed.
fn update_sets(r: &Request, draft: &Draft, e: &Entity, p: &mut Pattern, notes: &mut Notes) {
    let (pk, sk) = table_keys(draft);
    for s in &r.sets {
        if e.attributes.iter().any(|a| &a.name == s) {
            if !key_input(e, &pk, sk.as_deref(), s) {
                p.sets.push(s.clone());
            }
        } else if !is_key(draft, s) {
            let reason = format!(
                "it sets `{}`, no attribute of `{}`'s items; left out of `sets`",
                shown(s),
                shown(&e.name)
            );
            notes.push(&p.origin, reason);
        }
    }
}

/// `name` is a variable of the entity's primary key templates.
fn key_input(e: &Entity, pk: &str, sk: Option<&str>, name: &str) -> bool {
    [Some(pk), sk]
        .into_iter()
        .flatten()
        .any(|k| template(e, k).is_some_and(|t| t.variables().any(|v| v == name)))
}

fn is_key(draft: &Draft, name: &str) -> bool {
    draft.table.pk.name == name
        || draft.table.sk.as_ref().is_some_and(|k| k.name == name)
        || draft
            .indexes
            .iter()
            .any(|x| x.pk.iter().chain(&x.sk).any(|k| k.name == name))
}

/// The partition and sort key attributes of the table or index read.
fn target_keys(draft: &Draft, index: Option<&Index>) -> (Vec<String>, Vec<String>) {
    match index {
        None => {
            let (pk, sk) = table_keys(draft);
            (vec![pk], sk.into_iter().collect())
        }
        Some(x) => (
            x.pk.iter().map(|k| k.name.clone()).collect(),
            x.sk.iter().map(|k| k.name.clone()).collect(),
        ),
    }
}

/// The entities whose items are on the table or index read: they write its key attributes
/// (a native index's: hold them).
fn on_target<'d>(draft: &'d Draft, keys: &[String], native: bool) -> Vec<&'d Entity> {
    let holds = |e: &Entity, k: &String| {
        if native {
            e.attributes.iter().any(|a| &a.name == k)
        } else {
            e.keys.iter().any(|(a, _)| a == k)
        }
    };
    draft
        .entities
        .iter()
        .filter(|e| keys.iter().all(|k| holds(e, k)))
        .collect()
}

/// Query and Scan: the entities on the table or index read, narrowed by the key condition.
fn read(r: &Request, draft: &Draft, index: Option<&Index>, p: &mut Pattern) -> Result<(), String> {
    p.paginate = true;
    let (pk, sk) = target_keys(draft, index);
    let native = index.is_some_and(|x| x.native);
    let all: Vec<String> = pk.iter().chain(&sk).cloned().collect();
    let candidates = on_target(draft, &all, native);
    if p.operation == "Scan" {
        p.returns = candidates.iter().map(|e| e.name.clone()).collect();
        return if p.returns.is_empty() {
            Err("no entity read off the items is on what it scans".to_string())
        } else {
            Ok(())
        };
    }
    if let Some((attr, _)) = r.key.iter().find(|(a, _)| !all.contains(a)) {
        return Err(format!(
            "its key condition names `{}`, no key attribute of what it reads",
            shown(attr)
        ));
    }
    if native {
        return native_query(r, &pk, &sk, candidates, draft, p);
    }
    templated_query(r, &pk[0], sk.first(), candidates, p)
}

/// A Query on templated keys: the entities whose partition template gives the value, and whose
/// sort template fits the condition; the pattern reads the first one's templates.
fn templated_query(
    r: &Request,
    pk: &str,
    sk: Option<&String>,
    candidates: Vec<&Entity>,
    p: &mut Pattern,
) -> Result<(), String> {
    let value = equality(r, pk).ok_or(format!(
        "its key condition gives no equality on the partition key `{}`",
        shown(pk)
    ))?;
    let sort = sk.and_then(|s| request::key_map(r).get(s.as_str()).map(|c| (s, *c)));
    let mut found: Vec<(&Entity, Option<String>)> = Vec::new();
    for e in candidates {
        if template(e, pk).is_none_or(|t| t.extract(value).is_none()) {
            continue;
        }
        match sort {
            None => found.push((e, None)),
            Some((s, cond)) => {
                if let Some(c) = template(e, s).and_then(|t| sort_condition(&t, cond)) {
                    found.push((e, Some(c)));
                }
            }
        }
    }
    let Some((first, condition)) = found.first().cloned() else {
        let sort = sort
            .map(|(s, c)| format!(" and {} {}", shown(s), cond_text(c)))
            .unwrap_or_default();
        return Err(format!(
            "no entity read off the items is written at {} = `{}`{sort}",
            shown(pk),
            shown(value)
        ));
    };
    p.key = first
        .keys
        .iter()
        .filter(|(k, _)| k == pk)
        .cloned()
        .collect();
    if let (Some((s, _)), Some(c)) = (sort, condition) {
        p.key.push((s.clone(), c));
    }
    p.returns = found.iter().map(|(e, _)| e.name.clone()).collect();
    declare_ranges(first, p);
    Ok(())
}

/// A condition as a message quotes it.
fn cond_text(c: &Cond) -> String {
    match c {
        Cond::Compare(op, v) => format!("{op} `{}`", shown(v)),
        Cond::BeginsWith(v) => format!("begins_with `{}`", shown(v)),
        Cond::Between(a, b) => format!("between `{}` and `{}`", shown(a), shown(b)),
    }
}

/// A native index's key condition, each attribute read as itself.
fn native_query(
    r: &Request,
    pk: &[String],
    sk: &[String],
    on_target: Vec<&Entity>,
    draft: &Draft,
    p: &mut Pattern,
) -> Result<(), String> {
    for k in pk {
        equality(r, k).ok_or(format!(
            "its key condition gives no equality on `{}`",
            shown(k)
        ))?;
        p.key.push((k.clone(), format!("{{{k}}}")));
    }
    for k in sk {
        let Some(cond) = request::key_map(r).get(k.as_str()).copied() else {
            break;
        };
        let value = |suffix: &str| format!("{{{k}{suffix}}}");
        p.key.push((
            k.clone(),
            match cond {
                Cond::Compare(op, _) if op == "=" => value(""),
                Cond::Compare(op, _) => format!("{op} {}", value("")),
                Cond::BeginsWith(_) => format!("begins_with({})", value("")),
                Cond::Between(_, _) => format!("between({}, {})", value("_from"), value("_to")),
            },
        ));
    }
    p.returns = on_target.iter().map(|e| e.name.clone()).collect();
    if p.returns.is_empty() {
        return Err(
            "no entity read off the items holds every key attribute of the index".to_string(),
        );
    }
    if let Some(first) = draft.entities.iter().find(|e| p.returns.contains(&e.name)) {
        declare_ranges(first, p);
    }
    Ok(())
}

/// A key value, or the start of one, in the template's terms: literal text matched, each
/// variable's value replaced by the variable; `None` when the text departs from the template.
fn in_terms_of(t: &KeyTemplate, value: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = value;
    let segments = t.segments();
    for (i, s) in segments.iter().enumerate() {
        if rest.is_empty() {
            break;
        }
        match s {
            Segment::Literal(l) if rest.starts_with(l.as_str()) => rest = &rest[l.len()..],
            Segment::Literal(l) if l.starts_with(rest) => rest = "",
            Segment::Literal(_) => return None,
            Segment::Var { .. } => {
                let end = match segments.get(i + 1) {
                    Some(Segment::Literal(next)) => rest.find(next.as_str()).unwrap_or(rest.len()),
                    _ => rest.len(),
                };
                rest = &rest[end..];
            }
        }
        out.push_str(&segment_text(s));
    }
    rest.is_empty().then_some(out)
}

/// The sort key's condition in the template's terms; `None` when the value does not fit it.
fn sort_condition(t: &KeyTemplate, cond: &Cond) -> Option<String> {
    match cond {
        Cond::Compare(op, v) if op == "=" => t.extract(v).map(|_| t.to_string()),
        Cond::Compare(op, v) => in_terms_of(t, v).map(|x| format!("{op} {x}")),
        Cond::BeginsWith(v) => in_terms_of(t, v).map(|x| format!("begins_with({x})")),
        Cond::Between(a, b) => {
            let (a, b) = (in_terms_of(t, a)?, in_terms_of(t, b)?);
            let last = |x: &str| {
                x.rfind('{')
                    .map(|i| (i, x[i..].find('}').map_or(x.len(), |j| i + j)))
            };
            let rename = |x: &str, suffix: &str| match last(x) {
                Some((i, j)) if a == b => format!(
                    "{}{}{suffix}{}",
                    &x[..i],
                    &x[i..j].split(':').next().unwrap_or_default(),
                    &x[j..]
                ),
                _ => x.to_string(),
            };
            Some(format!(
                "between({}, {})",
                rename(&a, "_from"),
                rename(&b, "_to")
            ))
        }
    }
}

/// Declares the `_from` / `_to` variables a between introduced, typed as their attribute.
fn declare_ranges(e: &Entity, p: &mut Pattern) {
    for (_, cond) in p.key.clone() {
        for var in variables(&cond) {
            let Some(base) = var
                .strip_suffix("_from")
                .or_else(|| var.strip_suffix("_to"))
            else {
                continue;
            };
            if e.attributes.iter().any(|a| a.name == var) || p.params.iter().any(|q| q.name == var)
            {
                continue;
            }
            let ty = e
                .attributes
                .iter()
                .find(|a| a.name == base)
                .map_or("string", |a| a.ty);
            p.params.push(Param { name: var, ty });
        }
    }
}

/// Filter, projection, order, consistency, limit and condition.
fn options(r: &Request, draft: &Draft, index: Option<&Index>, p: &mut Pattern, notes: &mut Notes) {
    let returned: Vec<&Entity> = draft
        .entities
        .iter()
        .filter(|e| p.returns.contains(&e.name))
        .collect();
    let known = |a: &String| {
        returned
            .iter()
            .any(|e| e.attributes.iter().any(|x| &x.name == a))
    };
    for a in r.filter.iter().chain(&r.projection) {
        if !known(a) && !is_key(draft, a) {
            notes.push(
                &p.origin,
                format!(
                    "it reads `{}`, no attribute of what it returns; left out",
                    shown(a)
                ),
            );
        }
    }
    p.filter = r.filter.iter().filter(|a| known(a)).cloned().collect();
    p.reads = r.projection.iter().filter(|a| known(a)).cloned().collect();
    p.descending = r.descending;
    p.limit = r.limit;
    if r.consistent && index.is_some_and(|x| !x.local) {
        notes.push(
            &p.origin,
            "a global index is read eventually consistent only; --consistent-read ignored",
        );
    } else {
        p.consistent_read = r.consistent && matches!(p.operation, "GetItem" | "Query" | "Scan");
    }
    if let Some(c) = &r.condition {
        p.condition = keys::write_condition(c, &draft.table);
        if p.condition.is_none() {
            notes.push(&p.origin, keys::unmapped_condition(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> KeyTemplate {
        KeyTemplate::parse(s).unwrap()
    }

    #[test]
    fn values_in_the_templates_terms() {
        let order = t("ORDER#{placed}#{order_id}");
        assert_eq!(in_terms_of(&order, "ORDER#").as_deref(), Some("ORDER#"));
        assert_eq!(in_terms_of(&order, "ORD").as_deref(), Some("ORDER#"));
        assert_eq!(
            in_terms_of(&order, "ORDER#2024").as_deref(),
            Some("ORDER#{placed}")
        );
        assert_eq!(
            in_terms_of(&order, "ORDER#2024-01-01#o1").as_deref(),
            Some("ORDER#{placed}#{order_id}")
        );
        assert_eq!(in_terms_of(&order, "ITEM#1"), None);
        let c = |cond: Cond| sort_condition(&order, &cond);
        assert_eq!(
            c(Cond::BeginsWith("ORDER#".into())).as_deref(),
            Some("begins_with(ORDER#)")
        );
        assert_eq!(
            c(Cond::Compare(">=".into(), "ORDER#2024".into())).as_deref(),
            Some(">= ORDER#{placed}")
        );
        assert_eq!(
            c(Cond::Between(
                "ORDER#2024-01".into(),
                "ORDER#2024-12".into()
            ))
            .as_deref(),
            Some("between(ORDER#{placed_from}, ORDER#{placed_to})")
        );
        assert_eq!(
            c(Cond::Compare("=".into(), "ORDER#x#y".into())).as_deref(),
            Some("ORDER#{placed}#{order_id}")
        );
        assert_eq!(c(Cond::Compare("=".into(), "PROFILE".into())), None);
    }
}

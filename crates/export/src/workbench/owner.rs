//! Which entity an exported item belongs to: the one whose table key templates match its keys,
//! found through an index of the templates' literal prefixes rather than by trying every entity.

use std::collections::{BTreeSet, HashMap};

use monotable_model::{EntityDecl, KeyTemplate, Model, Segment};
use serde_json::Value;

/// The scalar text of a key attribute of an item in DynamoDB JSON.
fn key_value<'a>(item: &'a Value, name: &str) -> Option<&'a str> {
    let value = item.get(name)?;
    value
        .get("S")
        .or_else(|| value.get("N"))
        .or_else(|| value.get("B"))
        .and_then(Value::as_str)
}

fn literal_len(template: &KeyTemplate) -> usize {
    template
        .segments()
        .iter()
        .map(|s| match s {
            Segment::Literal(t) => t.len(),
            Segment::Var { .. } => 0,
        })
        .sum()
}

/// The literal text a template starts with (`USER#` of `USER#{id}`).
fn literal_prefix(template: &KeyTemplate) -> &str {
    match template.segments().first() {
        Some(Segment::Literal(t)) => t,
        _ => "",
    }
}

/// One table key shape: the entity it stands for and how specific it is.
struct Candidate<'m> {
    pk: &'m KeyTemplate,
    sk: Option<&'m KeyTemplate>,
    /// Literal characters of both templates: the most specific match wins.
    score: usize,
    /// Place in the model's entity list: of equally specific matches, the last wins.
    order: usize,
    entity: &'m EntityDecl,
}

/// The model's entities by the literal prefix of their partition key template. Entities with
/// the same key templates are one candidate (the last in the model's list):
/// they cannot be told apart by their keys.
pub(super) struct Owners<'m> {
    by_prefix: HashMap<&'m str, Vec<Candidate<'m>>>,
    /// The distinct prefix lengths, each tried once per item.
    lengths: BTreeSet<usize>,
    pk_name: &'m str,
    sk_name: Option<&'m str>,
}

impl<'m> Owners<'m> {
    pub(super) fn new(model: &'m Model) -> Self {
        let mut shapes: HashMap<(String, Option<String>), usize> = HashMap::new();
        let mut candidates: Vec<Candidate<'m>> = Vec::new();
        for (order, e) in model.entities.iter().enumerate() {
            let Some(keys) = e.key(None) else { continue };
            let (pk, sk) = (&keys.pk.template, keys.sk.as_ref().map(|k| &k.template));
            let shape = (pk.to_string(), sk.map(ToString::to_string));
            let candidate = Candidate {
                pk,
                sk,
                score: literal_len(pk) + sk.map_or(0, literal_len),
                order,
                entity: e,
            };
            match shapes.get(&shape) {
                Some(&at) => candidates[at] = candidate,
                None => {
                    shapes.insert(shape, candidates.len());
                    candidates.push(candidate);
                }
            }
        }
        let mut by_prefix: HashMap<&'m str, Vec<Candidate<'m>>> = HashMap::new();
        let mut lengths = BTreeSet::new();
        for c in candidates {
            let prefix = literal_prefix(c.pk);
            lengths.insert(prefix.len());
            by_prefix.entry(prefix).or_default().push(c);
        }
        Owners {
            by_prefix,
            lengths,
            pk_name: &model.table.partition_key.name,
            sk_name: model.table.sort_key.as_ref().map(|k| k.name.as_str()),
        }
    }

    /// The entity `item` belongs to, the most specific (most literal text) first; of equally
    /// specific ones, the last in the model's list.
    pub(super) fn of(&self, item: &Value) -> Option<&'m EntityDecl> {
        let pk = key_value(item, self.pk_name)?;
        let sk = self.sk_name.map(|name| key_value(item, name));
        let mut best: Option<(usize, usize, &'m EntityDecl)> = None;
        for &len in &self.lengths {
            let Some(prefix) = pk.get(..len) else {
                continue;
            };
            for c in self.by_prefix.get(prefix).into_iter().flatten() {
                if c.pk.extract(pk).is_none() {
                    continue;
                }
                match (c.sk, sk) {
                    (Some(t), Some(Some(sk))) if t.extract(sk).is_some() => {}
                    (None, None) => {}
                    _ => continue,
                }
                if best.is_none_or(|(score, order, _)| (c.score, c.order) > (score, order)) {
                    best = Some((c.score, c.order, c.entity));
                }
            }
        }
        best.map(|(_, _, e)| e)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Every entity tried, as the export did before the index: the reference.
    fn scanned<'m>(model: &'m Model, item: &Value) -> Option<&'m EntityDecl> {
        let pk = key_value(item, &model.table.partition_key.name)?;
        let sk = model
            .table
            .sort_key
            .as_ref()
            .map(|k| key_value(item, &k.name));
        model
            .entities
            .iter()
            .filter_map(|e| {
                let keys = e.key(None)?;
                keys.pk.template.extract(pk)?;
                let mut score = literal_len(&keys.pk.template);
                match (&keys.sk, sk) {
                    (Some(t), Some(Some(sk))) => {
                        t.template.extract(sk)?;
                        score += literal_len(&t.template);
                    }
                    (None, None) => {}
                    _ => return None,
                }
                Some((score, e))
            })
            .max_by_key(|(score, _)| *score)
            .map(|(_, e)| e)
    }

    const MODEL: &str = r#"
[table]
name = "Things"
partition_key = { name = "PK" }
sort_key = { name = "SK" }

[entities.A]
attributes.id = { type = "string", required = true }
keys.PK = "USER#{id}"
keys.SK = "A"

[entities.B]
attributes.id = { type = "string", required = true }
attributes.sk = { type = "string", required = true }
keys.PK = "USER#{id}"
keys.SK = "{sk}"

[entities.C]
attributes.id = { type = "string", required = true }
attributes.sk = { type = "string", required = true }
keys.PK = "USER#{id}"
keys.SK = "{sk}"

[entities.D]
attributes.id = { type = "string", required = true }
keys.PK = "{id}"
keys.SK = "D"

[entities.E]
attributes.id = { type = "string", required = true }
keys.PK = "U{id}"
keys.SK = "A"
"#;

    /// The prefix index finds what trying every entity finds, on overlapping templates,
    /// identical ones (the last in the list wins), an empty prefix and a shorter one.
    #[test]
    fn the_index_finds_the_entity_a_scan_finds() {
        let model = monotable_model::parse(MODEL).expect("model");
        let owners = Owners::new(&model);
        let texts = ["USER#1", "USER#", "U1", "UX", "1", "", "USER#A#B", "D"];
        for pk in texts {
            for sk in ["A", "D", "x", ""] {
                let item = json!({ "PK": { "S": pk }, "SK": { "S": sk } });
                let got = owners.of(&item).map(|e| e.name.as_str());
                let want = scanned(&model, &item).map(|e| e.name.as_str());
                assert_eq!(got, want, "{pk} / {sk}");
            }
        }
        let without_sk = json!({ "PK": { "S": "USER#1" } });
        assert_eq!(owners.of(&without_sk).map(|e| e.name.as_str()), None);
        let item = json!({ "PK": { "S": "USER#1" }, "SK": { "S": "B" } });
        assert_eq!(owners.of(&item).map(|e| e.name.as_str()), Some("C"));
    }
}

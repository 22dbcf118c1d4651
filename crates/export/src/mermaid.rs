//! The Markdown export's Mermaid diagram: entities, their relations and the indexes they write keys for.
//!
//! A `flowchart LR` that GitHub renders: one box per entity, one cylinder for the table and for
//! each secondary index, an edge entity → index labelled with the key templates the entity writes
//! there (dotted when written only while a flag is true, for native indexes which items are
//! in it), and a thick edge per relation labelled `many`/`one`. Node ids are derived from names
//! ([`node_id`]) and every label is quoted with Mermaid's entity codes ([`label`]); the output
//! follows the model's order, so it is deterministic.

use monotable_model::{EntityDecl, Index, IndexKind, KeyField, Model, RelationKind};

/// Text safe inside a quoted Mermaid label (`"..."`): characters Mermaid or the HTML label would
/// read (quotes, `#`, braces, angle brackets, `|`, `&`, `;`, backticks) become `#code;` entity
/// codes, line breaks become spaces.
pub(crate) fn label(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '{' => out.push_str("#123;"),
            '}' => out.push_str("#125;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '|' => out.push_str("#124;"),
            '&' => out.push_str("#amp;"),
            ';' => out.push_str("#59;"),
            '`' => out.push_str("#96;"),
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A node id from a name: `prefix` and `_`, then ASCII letters and digits as they are and every
/// other character as `_` + its hex code point + `_`. Distinct names give distinct ids, and the
/// prefix keeps ids clear of Mermaid's keywords (`end`) and edge syntax (`o`, `x`).
pub(crate) fn node_id(prefix: &str, name: &str) -> String {
    let mut out = format!("{prefix}_");
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else {
            out.push_str(&format!("_{:x}_", u32::from(c)));
        }
    }
    out
}

fn table_id(model: &Model) -> String {
    node_id("t", &model.table.name)
}

fn index_id(name: &str) -> String {
    node_id("i", name)
}

fn entity_id(name: &str) -> String {
    node_id("e", name)
}

/// `GSI1PK = USER#{userId}`, with ` if flag` when the key is written only while a flag is true.
fn key_text(field: &KeyField) -> String {
    let text = format!("{} = {}", field.attribute, field.template);
    match &field.condition {
        Some(flag) => format!("{text} if {flag}"),
        None => text,
    }
}

/// The edges from `entity` to the table and the indexes it appears in, in the model's order.
fn index_edges(model: &Model, entity: &EntityDecl, out: &mut String) {
    let from = entity_id(&entity.name);
    for keys in &entity.index_keys {
        let to = match &keys.index {
            None => table_id(model),
            Some(name) => {
                if model.indexes.iter().any(|i| &i.name == name && i.native) {
                    continue;
                }
                index_id(name)
            }
        };
        let lines: Vec<String> = std::iter::once(&keys.pk)
            .chain(keys.sk.as_ref())
            .map(|k| label(&key_text(k)))
            .collect();
        let arrow = if keys.is_conditional() { "-.->" } else { "-->" };
        out.push_str(&format!(
            "    {from} {arrow}|\"{}\"| {to}\n",
            lines.join("<br/>")
        ));
    }
    for index in model.indexes.iter().filter(|i| i.native_member(entity)) {
        let (arrow, text) = if index.native_always(entity) {
            ("-->", "every item".to_string())
        } else {
            let optional: Vec<&str> = index
                .key_attributes()
                .filter(|k| entity.attribute(&k.name).is_some_and(|a| !a.required))
                .map(|k| k.name.as_str())
                .collect();
            ("-.->", format!("items holding {}", optional.join(", ")))
        };
        out.push_str(&format!(
            "    {from} {arrow}|\"{}\"| {}\n",
            label(&text),
            index_id(&index.name)
        ));
    }
}

fn index_node(index: &Index) -> String {
    let kind = match (index.kind, index.native) {
        (IndexKind::Global, false) => "global index",
        (IndexKind::Global, true) => "global index, native",
        (IndexKind::Local, _) => "local index",
    };
    format!(
        "    {}[(\"{}<br/>{kind}\")]\n",
        index_id(&index.name),
        label(&index.name)
    )
}

/// The diagram as a fenced ```` ```mermaid ```` block (trailing newline), or `None` for a model
/// without entities.
pub(crate) fn diagram(model: &Model) -> Option<String> {
    if model.entities.is_empty() {
        return None;
    }
    let mut out = String::from("```mermaid\nflowchart LR\n");
    for entity in &model.entities {
        out.push_str(&format!(
            "    {}[\"{}\"]\n",
            entity_id(&entity.name),
            label(&entity.name)
        ));
    }
    out.push_str(&format!(
        "    {}[(\"{}<br/>table\")]\n",
        table_id(model),
        label(&model.table.name)
    ));
    for index in &model.indexes {
        out.push_str(&index_node(index));
    }
    for entity in &model.entities {
        index_edges(model, entity, &mut out);
    }
    for entity in &model.entities {
        for relation in &entity.relations {
            let mut text = match relation.kind {
                RelationKind::One => "one".to_string(),
                RelationKind::Many => "many".to_string(),
            };
            if let Some(max) = relation.max {
                text.push_str(&format!(", max {max}"));
            }
            if let Some(index) = &relation.index {
                text.push_str(&format!(", in {index}"));
            }
            out.push_str(&format!(
                "    {} ==>|\"{}\"| {}\n",
                entity_id(&entity.name),
                label(&text),
                entity_id(&relation.entity)
            ));
        }
    }
    out.push_str("```\n");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(source: &str) -> Model {
        match monotable_model::parse(source) {
            Ok(model) => model,
            Err(e) => panic!("model does not parse: {e:?}"),
        }
    }

    #[test]
    fn label_escapes_key_template_hash_and_braces() {
        assert_eq!(
            label("GSI1PK = USER#{userId}"),
            "GSI1PK = USER#35;#123;userId#125;"
        );
        assert_eq!(
            label("say \"hi\" <b> a|b & c; `x`\nnext"),
            "say #quot;hi#quot; #lt;b#gt; a#124;b #amp; c#59; #96;x#96; next"
        );
    }

    #[test]
    fn label_leaves_plain_text_alone() {
        assert_eq!(label("Order (many, max 49)"), "Order (many, max 49)");
    }

    #[test]
    fn node_ids_are_safe_and_distinct() {
        assert_eq!(node_id("e", "OrderItem"), "e_OrderItem");
        assert_eq!(node_id("e", "Order Item"), "e_Order_20_Item");
        assert_eq!(node_id("e", "end"), "e_end");
        assert_eq!(node_id("e", "Line-Item#2"), "e_Line_2d_Item_23_2");
        assert_eq!(node_id("e", "Größe"), "e_Gr_f6__df_e");
        assert_ne!(node_id("e", "a_b"), node_id("e", "a-b"));
        assert_ne!(node_id("e", "a_2d_"), node_id("e", "a-"));
        for id in [node_id("i", "GSI #1 {x}"), node_id("e", "\"quoted\"")] {
            assert!(
                id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
                "{id}"
            );
        }
    }

    #[test]
    fn entity_names_needing_escapes_get_safe_ids_and_quoted_labels() {
        let model = parse(
            r#"version = 1
[table]
name = "Things"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }
[entities."Line Item"]
attributes.id = { type = "string", required = true }
keys.PK = "LINE#{id}"
keys.SK = "<LINE>"
"#,
        );
        let text = diagram(&model).expect("a diagram");
        assert!(
            text.contains("    e_Line_20_Item[\"Line Item\"]\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "    e_Line_20_Item -->|\"PK = LINE#35;#123;id#125;<br/>SK = #lt;LINE#gt;\"| t_Things\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn shop_diagram_names_every_entity_and_every_gsi() {
        let model = parse(include_str!("../../../examples/shop/shop.toml"));
        let text = diagram(&model).expect("a diagram");
        assert!(text.starts_with("```mermaid\nflowchart LR\n"));
        assert!(text.ends_with("\n```\n"));
        assert_eq!(model.entities.len(), 8);
        for entity in &model.entities {
            let node = format!("    {}[\"{}\"]\n", entity_id(&entity.name), entity.name);
            assert!(text.contains(&node), "no node for {}", entity.name);
        }
        let gsis: Vec<&str> = model.indexes.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(gsis, ["GSI1", "GSI2", "GSI3"]);
        for gsi in gsis {
            assert!(
                text.contains(&format!("    i_{gsi}[(\"{gsi}<br/>global index\")]\n")),
                "no node for {gsi}"
            );
            assert!(text.contains(&format!("| i_{gsi}\n")), "no edge to {gsi}");
        }
        assert!(text.contains("e_Order ==>|\"many, max 49\"| e_OrderItem\n"));
        assert!(text.contains("e_Order -->|\"GSI1PK = USER#35;#123;userId#125;"));
        // Product is in GSI2 only while published: a dotted edge.
        assert!(text.contains("e_Product -.->|\"GSI2PK = PUBLISHED if published<br/>"));
    }

    #[test]
    fn seed_diagram_shows_its_entities_gsi1_and_relation() {
        let model = parse(include_str!("../../../examples/seed-original/model.toml"));
        let text = diagram(&model).expect("a diagram");
        for name in ["Order", "OrderItem", "Product", "User"] {
            assert!(
                text.contains(&format!("    e_{name}[\"{name}\"]\n")),
                "{name}"
            );
        }
        assert!(text.contains("    t_AppTable[(\"AppTable<br/>table\")]\n"));
        assert!(text.contains(
            "    e_User -->|\"GSI1PK = USEREMAIL#35;#123;email#125;<br/>GSI1SK = USER#35;#123;userId#125;\"| i_GSI1\n"
        ));
        assert!(text.contains("    e_Order ==>|\"many\"| e_OrderItem\n"));
    }

    #[test]
    fn no_entities_no_diagram() {
        let model = parse(
            r#"version = 1
[table]
name = "Things"
partition_key = { name = "PK", type = "S" }
"#,
        );
        assert_eq!(diagram(&model), None);
    }
}

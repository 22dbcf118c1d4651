//! Names and key text with hidden characters (controls, bidirectional and invisible format
//! characters, see [`crate::text`]): refused before anything else is validated, so that no
//! other message quotes them and one mistake gives one error.
//!
//! Every text of the model is a name or key text except descriptions, which are free text: a
//! renderer escapes them.

use std::ops::Range;

use super::Validator;
use crate::error::{IssueKind, ModelIssue};
use crate::raw::{self, RawAttribute, RawIndexKey, RawModel, Sp};
use crate::text::{code_point, escape, first_hidden, hidden_kind};

impl Validator {
    /// One issue for `text` (`what` says which name it is) when it holds a hidden character.
    fn visible(&mut self, what: &str, text: &str, span: &Range<usize>) {
        let Some((at, c)) = first_hidden(text) else {
            return;
        };
        let message = format!(
            "{what} `{}` holds {} at character {}: {}",
            escape(text),
            code_point(c),
            at + 1,
            hidden_kind(c)
        );
        self.issues.push(
            ModelIssue::new(IssueKind::HiddenCharacter, message, span.clone()).help(
                "names and key text may not hold control, bidirectional or invisible characters: \
                 write it with the characters it shows",
            ),
        );
    }

    fn visible_spanned(&mut self, what: &str, text: &Sp<String>) {
        self.visible(what, &text.value, &text.span);
    }

    fn key_names(&mut self, what: &str, key: &Sp<RawIndexKey>) {
        match &key.value {
            RawIndexKey::One(k) => self.visible_spanned(what, &k.name),
            RawIndexKey::Many(list) => {
                for k in list {
                    self.visible_spanned(what, &k.value.name);
                }
            }
        }
    }

    fn attribute_text(&mut self, what: &str, name: &str, a: &Sp<RawAttribute>) {
        self.visible(what, name, &a.span);
        for value in &a.value.values {
            self.visible("enum value", value, &a.span);
        }
        if let Some(d) = &a.value.default
            && let raw::DefaultValue::String(text) = &d.value
        {
            self.visible("default", text, &d.span);
        }
    }

    /// Reports every name and key text of `raw` that holds a hidden character.
    pub(super) fn hidden_characters(&mut self, raw: &RawModel) {
        let t = &raw.table.value;
        self.visible_spanned("table name", &t.name);
        self.key_names("key attribute", &t.partition_key);
        if let Some(k) = &t.sort_key {
            self.key_names("key attribute", k);
        }
        if let Some(ttl) = &t.ttl_attribute {
            self.visible_spanned("ttl_attribute", ttl);
        }
        for (name, index) in &raw.indexes {
            self.index_text(name, index);
        }
        for (name, entity) in &raw.entities {
            self.entity_text(name, entity);
        }
        for (name, pattern) in &raw.patterns {
            self.pattern_text(name, pattern);
        }
        for (name, consumer) in &raw.consumers {
            self.consumer_text(name, consumer);
        }
        if let Some(traffic) = &raw.traffic {
            for (name, e) in &traffic.value.entities {
                self.visible("entity name", name, &e.span);
            }
            for (name, p) in &traffic.value.patterns {
                self.visible("pattern name", name, &p.span);
            }
        }
    }

    fn index_text(&mut self, name: &str, index: &Sp<raw::RawIndex>) {
        let i = &index.value;
        self.visible("index name", name, &index.span);
        for key in [&i.partition_key, &i.sort_key].into_iter().flatten() {
            self.key_names("key attribute", key);
        }
        for attribute in &i.include {
            self.visible_spanned("attribute name", attribute);
        }
        if let Some(sparse) = &i.sparse
            && let raw::RawSparse::Entities(names) = &sparse.value
        {
            for entity in names {
                self.visible("entity name", entity, &sparse.span);
            }
        }
    }

    fn entity_text(&mut self, name: &str, entity: &Sp<raw::RawEntity>) {
        let e = &entity.value;
        self.visible("entity name", name, &entity.span);
        for (attribute, a) in &e.attributes {
            self.attribute_text("attribute name", attribute, a);
        }
        for (attribute, template) in e.keys.iter().chain(&e.key_conditions) {
            self.visible("key attribute", attribute, &template.span);
            self.visible_spanned("key text", template);
        }
        for unique in &e.unique {
            for attribute in &unique.value.attributes {
                self.visible("attribute name", attribute, &unique.span);
            }
            if let Some(guard) = &unique.value.guard {
                self.visible_spanned("entity name", guard);
            }
        }
        for relation in &e.relations {
            self.visible_spanned("entity name", &relation.value.entity);
            if let Some(index) = &relation.value.index {
                self.visible_spanned("index name", index);
            }
        }
        if let Some(namespace) = &e.key_namespace {
            self.visible_spanned("key_namespace", namespace);
        }
        if let Some(old) = &e.renamed_from {
            self.visible_spanned("renamed_from", old);
        }
    }

    fn pattern_text(&mut self, name: &str, pattern: &Sp<raw::RawPattern>) {
        let p = &pattern.value;
        self.visible("pattern name", name, &pattern.span);
        if let Some(index) = &p.index {
            self.visible_spanned("index name", index);
        }
        for (attribute, condition) in &p.key {
            self.visible("key attribute", attribute, &condition.span);
            self.visible_spanned("key condition", condition);
        }
        for (param, a) in &p.params {
            self.attribute_text("parameter name", param, a);
        }
        for entity in &p.returns {
            self.visible_spanned("entity name", entity);
        }
        let reads = p.reads.iter().flatten();
        let sets = p.sets.iter().flat_map(|s| &s.value);
        for attribute in p.filter.iter().chain(reads).chain(sets) {
            self.visible_spanned("attribute name", attribute);
        }
        for write in &p.writes {
            if let Some(entity) = &write.value.entity {
                self.visible_spanned("entity name", entity);
            }
            for pattern in write.value.pattern.iter().chain(&write.value.one_of) {
                self.visible_spanned("pattern name", pattern);
            }
        }
        if let Some(condition) = &p.condition {
            self.visible_spanned("condition", condition);
        }
    }

    fn consumer_text(&mut self, name: &str, consumer: &Sp<raw::RawConsumer>) {
        let c = &consumer.value;
        self.visible("consumer name", name, &consumer.span);
        for entity in &c.entities.value {
            self.visible_spanned("entity name", entity);
        }
        for (attribute, values) in &c.filter {
            self.visible("attribute name", attribute, &values.span);
            for v in &values.value {
                if let raw::RawFilterValue::String(text) = &v.value {
                    self.visible("filter value", text, &v.span);
                }
            }
        }
        for pattern in c.writes.iter().chain(&c.reads) {
            self.visible_spanned("pattern name", pattern);
        }
    }
}

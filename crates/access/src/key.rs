//! Keys as the typed layer handles them: a key template compiled to static segments (the derive
//! writes them from the model), rendered from the key text of its inputs, into an attribute value
//! of the key attribute's declared type. Entities render their own keys in generated code; this is
//! for what only knows some inputs: updates, conditions, and pattern requests.

use std::collections::HashMap;
use std::marker::PhantomData;
use std::sync::Arc;

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;

use crate::items::Item;
use crate::value::ValueError;

/// One piece of a compiled key template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seg {
    /// Constant text.
    Lit(&'static str),
    /// An input's key text, zero-padded to the width when there is one.
    Var(&'static str, Option<usize>),
}

/// The declared type of a key attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// `S`.
    S,
    /// `N`.
    N,
    /// `B`: the rendered text's bytes.
    B,
}

impl KeyKind {
    /// `text` as an attribute value of this type.
    pub fn value(self, text: String) -> AttributeValue {
        match self {
            KeyKind::S => AttributeValue::S(text),
            KeyKind::N => AttributeValue::N(text),
            KeyKind::B => AttributeValue::B(Blob::new(text.into_bytes())),
        }
    }
}

/// Appends a value's key text, zero-padded to the width given.
type WriteKey = dyn Fn(&mut String, Option<usize>) + Send + Sync;

/// A value's key text, written on demand with the template's padding, and, when known, the
/// attribute value the item stores it as.
#[derive(Clone)]
pub struct KeyArg {
    write: Arc<WriteKey>,
    stored: Option<AttributeValue>,
}

impl std::fmt::Debug for KeyArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut text = String::new();
        (self.write)(&mut text, None);
        write!(f, "KeyArg({text:?})")
    }
}

impl KeyArg {
    fn new(write: Arc<WriteKey>) -> KeyArg {
        KeyArg {
            write,
            stored: None,
        }
    }

    /// The key text of `value`.
    pub fn of<T: crate::value::KeyText + Send + Sync + 'static>(value: T) -> KeyArg {
        KeyArg::new(Arc::new(move |out, pad| value.write_key(out, pad)))
    }

    /// The key text of a timestamp in `format`.
    pub fn time<T: crate::value::Timestamp + Send + Sync + 'static>(
        value: T,
        format: monotable_model::TimestampFormat,
    ) -> KeyArg {
        KeyArg::new(Arc::new(move |out, _| value.write_key(out, format)))
    }

    /// Text taken as is.
    pub fn text(text: impl Into<String>) -> KeyArg {
        let text = text.into();
        KeyArg::new(Arc::new(move |out, _| out.push_str(&text)))
    }

    /// The same argument, knowing the attribute value the item holds it as: an update that
    /// renders a key from this input without changing it then requires the item to still hold
    /// it (`Entity::key_args` gives them).
    pub fn stored(mut self, value: AttributeValue) -> KeyArg {
        self.stored = Some(value);
        self
    }

    /// The attribute value the item holds it as, when known.
    pub fn stored_value(&self) -> Option<&AttributeValue> {
        self.stored.as_ref()
    }

    /// Append the text to `out`.
    pub fn write(&self, out: &mut String, pad: Option<usize>) {
        (self.write)(out, pad)
    }
}

/// Render `template` from `args`; the name of the first input with no argument when one lacks.
pub fn render(
    template: &[Seg],
    args: &HashMap<&'static str, KeyArg>,
) -> Result<String, &'static str> {
    let mut out = String::new();
    for seg in template {
        match seg {
            Seg::Lit(text) => out.push_str(text),
            Seg::Var(name, pad) => args.get(name).ok_or(*name)?.write(&mut out, *pad),
        }
    }
    Ok(out)
}

/// The inputs of `template`, in order.
pub fn inputs(template: &[Seg]) -> impl Iterator<Item = &'static str> + '_ {
    template.iter().filter_map(|s| match s {
        Seg::Var(name, _) => Some(*name),
        Seg::Lit(_) => None,
    })
}

/// The table key of one item of entity `E`: what get, delete, update and condition checks
/// address.
pub struct Key<E> {
    item: Item,
    _entity: PhantomData<fn() -> E>,
}

impl<E> Clone for Key<E> {
    fn clone(&self) -> Self {
        Key {
            item: self.item.clone(),
            _entity: PhantomData,
        }
    }
}

impl<E> std::fmt::Debug for Key<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&describe_key(&self.item))
    }
}

impl<E> Key<E> {
    /// A key from its attributes (the derive's key functions build it).
    pub fn from_item(item: Item) -> Key<E> {
        Key {
            item,
            _entity: PhantomData,
        }
    }

    /// The key attributes.
    pub fn item(&self) -> &Item {
        &self.item
    }

    /// The key attributes, owned.
    pub fn into_item(self) -> Item {
        self.item
    }
}

/// A pattern's parameter that cannot be rendered into its key exactly (a time finer than its
/// format holds): the request carries it and returns it from `send`, sending nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pattern `{pattern}`: `{parameter}` cannot be rendered into its key: {source}")]
pub struct ParameterError {
    /// The access pattern.
    pub pattern: &'static str,
    /// The key template variable.
    pub parameter: &'static str,
    /// What the value is, and what its format holds.
    pub source: ValueError,
}

/// Support for derived code: `result`, the check of `parameter` of `pattern`, as a
/// [`ParameterError`].
#[doc(hidden)]
pub fn parameter(
    pattern: &'static str,
    parameter: &'static str,
    result: Result<(), ValueError>,
) -> Result<(), ParameterError> {
    result.map_err(|source| ParameterError {
        pattern,
        parameter,
        source,
    })
}

/// `PK=ORDER#01J…, SK=ORDER`: a key for messages, attributes in name order.
pub fn describe_key(item: &Item) -> String {
    let mut parts: Vec<String> = item
        .iter()
        .map(|(name, value)| {
            let text = match value {
                AttributeValue::S(s) | AttributeValue::N(s) => s.clone(),
                other => format!("{other:?}"),
            };
            format!("{name}={text}")
        })
        .collect();
    parts.sort();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_render_from_their_inputs_or_name_the_missing_one() {
        let template = [
            Seg::Lit("ITEM#"),
            Seg::Var("lineNo", Some(3)),
            Seg::Lit("#"),
            Seg::Var("tag", None),
        ];
        let mut args = HashMap::from([("lineNo", KeyArg::of(7u32))]);
        assert_eq!(render(&template, &args), Err("tag"));
        args.insert("tag", KeyArg::text("x"));
        assert_eq!(render(&template, &args).unwrap(), "ITEM#007#x");
        assert_eq!(inputs(&template).collect::<Vec<_>>(), ["lineNo", "tag"]);
        assert_eq!(KeyKind::N.value("5".into()), AttributeValue::N("5".into()));
    }
}

//! What a field's Rust type can hold, read from its syntax, against what the model's attribute
//! type needs: a sure mismatch is a compile error naming the model file, the line and the fix; a
//! type the syntax cannot tell (an alias, a newtype, an enum) is left to a trait bound instead.

pub use monotable_model::names::closest;
use monotable_model::{Attribute, AttributeType, TimestampFormat};
use syn::{GenericArgument, PathArguments, PathSegment, Type};

/// What a Rust type is, as far as its last path segment tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RustKind {
    Str,
    Int,
    Float,
    Decimal,
    Bool,
    DateTime,
    Date,
    List,
    Map,
    Set,
    Other,
}

fn last_segment(ty: &Type) -> Option<&syn::PathSegment> {
    match ty {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last(),
        Type::Group(g) => last_segment(&g.elem),
        Type::Paren(p) => last_segment(&p.elem),
        _ => None,
    }
}

/// `T` of `Option<T>`, when `ty` is an Option.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    let segment = last_segment(ty)?;
    if segment.ident != "Option" {
        return None;
    }
    first_type_argument(segment)
}

/// `T` of `Name<T, ...>`: the first type argument.
fn first_type_argument(segment: &PathSegment) -> Option<&Type> {
    match &segment.arguments {
        PathArguments::AngleBracketed(args) => args.args.iter().find_map(|a| match a {
            GenericArgument::Type(t) => Some(t),
            _ => None,
        }),
        _ => None,
    }
}

/// What `ty` is.
pub fn kind(ty: &Type) -> RustKind {
    let Some(segment) = last_segment(ty) else {
        return RustKind::Other;
    };
    match segment.ident.to_string().as_str() {
        "String" => RustKind::Str,
        "i8" | "i16" | "i32" | "i64" | "i128" | "u8" | "u16" | "u32" | "u64" | "u128" | "isize"
        | "usize" => RustKind::Int,
        "f32" | "f64" => RustKind::Float,
        "Decimal" => RustKind::Decimal,
        "bool" => RustKind::Bool,
        "OffsetDateTime" => RustKind::DateTime,
        "Date" => RustKind::Date,
        "Vec" => RustKind::List,
        "HashMap" | "BTreeMap" => RustKind::Map,
        "HashSet" | "BTreeSet" => RustKind::Set,
        _ => RustKind::Other,
    }
}

/// The model type's name, for messages.
pub fn type_name(a: &Attribute) -> String {
    let base = format!("{:?}", a.ty).to_ascii_lowercase();
    match (&a.ty, a.format, a.items) {
        (AttributeType::Timestamp, Some(f), _) => format!("timestamp ({})", f.name()),
        (AttributeType::List | AttributeType::Set, _, Some(items)) => {
            format!("{base} of {}", format!("{items:?}").to_ascii_lowercase())
        }
        _ => base,
    }
}

/// The Rust type to use for the model type, for the fix in a message (true whatever else the
/// struct derives: a `number` in an `f64` cannot be `Eq`).
pub fn suggestion(a: &Attribute) -> String {
    let element = |fallback: &str| {
        a.items
            .map(element_suggestion)
            .filter(|e| !e.contains(' '))
            .unwrap_or(fallback)
            .to_string()
    };
    match a.ty {
        AttributeType::String => "String".into(),
        AttributeType::Integer => "i64".into(),
        AttributeType::Decimal => "rust_decimal::Decimal".into(),
        AttributeType::Number | AttributeType::Float => {
            "f64, or rust_decimal::Decimal in a struct that derives `Eq` or `Hash` (which `f64` does not implement)".into()
        }
        AttributeType::Boolean => "bool".into(),
        AttributeType::Timestamp if a.format == Some(TimestampFormat::Date) => "time::Date".into(),
        AttributeType::Timestamp => "time::OffsetDateTime".into(),
        AttributeType::Enum => format!(
            "an enum with #[derive(monotable::Enum)] whose variants are {}",
            a.values.join(", ")
        ),
        AttributeType::List => format!("Vec<{}>", element("T")),
        AttributeType::Map => "HashMap<String, T>".into(),
        AttributeType::Set => format!("BTreeSet<{}>", element("String")),
    }
}

/// `T` of `Vec<T>`, `BTreeSet<T>`, `HashSet<T>`: the element type of a list or set field.
pub fn element(ty: &Type) -> Option<&Type> {
    let segment = last_segment(ty)?;
    if !matches!(kind(ty), RustKind::List | RustKind::Set) {
        return None;
    }
    first_type_argument(segment)
}

/// The Rust element type to use for a list's or set's `items`, for the fix in a message.
pub fn element_suggestion(items: AttributeType) -> &'static str {
    match items {
        AttributeType::String => "String",
        AttributeType::Integer => "i64",
        AttributeType::Decimal => "rust_decimal::Decimal",
        AttributeType::Number | AttributeType::Float => "f64",
        AttributeType::Boolean => "bool",
        AttributeType::Timestamp => "time::OffsetDateTime",
        AttributeType::Enum => "an enum with #[derive(monotable::Enum)]",
        AttributeType::List => "Vec<T>",
        AttributeType::Map => "HashMap<String, T>",
        AttributeType::Set => "BTreeSet<T>",
    }
}

/// Whether elements of `rust` kind can hold `items` (see [`compatible`]).
pub fn element_compatible(items: AttributeType, rust: RustKind) -> Option<bool> {
    compatible_type(items, None, rust)
}

/// Whether a field of `rust` kind can hold `a`: `Some(true)` sure, `Some(false)` surely not,
/// `None` for the trait bound to decide.
pub fn compatible(a: &Attribute, rust: RustKind) -> Option<bool> {
    compatible_type(a.ty, a.format, rust)
}

fn compatible_type(
    ty: AttributeType,
    format: Option<TimestampFormat>,
    rust: RustKind,
) -> Option<bool> {
    use RustKind as K;
    let sure = |ok: &[RustKind]| Some(ok.contains(&rust));
    if rust == K::Other {
        return None;
    }
    match ty {
        AttributeType::String => sure(&[K::Str]),
        AttributeType::Integer => sure(&[K::Int]),
        AttributeType::Decimal => sure(&[K::Decimal]),
        AttributeType::Number | AttributeType::Float => sure(&[K::Float, K::Decimal, K::Int]),
        AttributeType::Boolean => sure(&[K::Bool]),
        AttributeType::Timestamp if format == Some(TimestampFormat::Date) => {
            sure(&[K::Date, K::DateTime])
        }
        AttributeType::Timestamp => sure(&[K::DateTime]),
        // An enum is a Rust enum: any concrete known type is wrong.
        AttributeType::Enum => Some(false),
        AttributeType::List => sure(&[K::List]),
        AttributeType::Map => sure(&[K::Map]),
        AttributeType::Set => sure(&[K::Set]),
    }
}

/// `order_id` → `orderId`.
pub fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.trim_start_matches("r#").chars() {
        if c == '_' {
            upper = !out.is_empty();
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `orderId` / `listUserOrders` / `Order` → `order_id` / `list_user_orders` / `order`.
pub fn snake(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Words whose plural English does not form by adding `s` or `es`.
const IRREGULAR: [(&str, &str); 16] = [
    ("person", "people"),
    ("child", "children"),
    ("man", "men"),
    ("woman", "women"),
    ("mouse", "mice"),
    ("foot", "feet"),
    ("tooth", "teeth"),
    ("leaf", "leaves"),
    ("half", "halves"),
    ("life", "lives"),
    ("knife", "knives"),
    ("shelf", "shelves"),
    ("wife", "wives"),
    ("hero", "heroes"),
    ("potato", "potatoes"),
    ("criterion", "criteria"),
];

/// Words that are their own plural.
const UNCHANGED: [&str; 11] = [
    "data",
    "metadata",
    "information",
    "equipment",
    "feedback",
    "staff",
    "series",
    "species",
    "news",
    "media",
    "sheep",
];

/// The plural of a snake_case name, as a user writes it: the last word made plural by
/// English's rules (`order_item` → `order_items`, `category` → `categories`, `address` →
/// `addresses`, `box` → `boxes`, `person` → `people`), left as it is when it already reads as a
/// plural (`opening_hours`, `settings`) or has none (`staff`, `data`). The name of a
/// collection's field of many items of an entity (`patterns!`).
pub fn plural(snake: &str) -> String {
    let (head, word) = match snake.rfind('_') {
        Some(at) => snake.split_at(at + 1),
        None => ("", snake),
    };
    let vowel = |c: char| "aeiou".contains(c);
    let plural = if let Some((_, p)) = IRREGULAR.iter().find(|(one, _)| *one == word) {
        (*p).to_string()
    } else if UNCHANGED.contains(&word) {
        word.to_string()
    } else if let Some(stem) = word.strip_suffix("is").filter(|s| !s.is_empty()) {
        // analysis → analyses, axis → axes
        format!("{stem}es")
    } else if word.ends_with("ss") || word.ends_with("us") {
        format!("{word}es")
    } else if word.ends_with('s') {
        // Already a plural: hours, settings, goods.
        word.to_string()
    } else if ["x", "z", "ch", "sh"].iter().any(|e| word.ends_with(e)) {
        format!("{word}es")
    } else if let Some(stem) = word
        .strip_suffix('y')
        .filter(|s| s.chars().last().is_some_and(|c| !vowel(c)))
    {
        format!("{stem}ies")
    } else {
        format!("{word}s")
    };
    format!("{head}{plural}")
}

/// `listUserOrders` → `ListUserOrders`.
pub fn pascal(camel: &str) -> String {
    let mut chars = camel.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_convert_between_cases() {
        assert_eq!(camel("order_id"), "orderId");
        assert_eq!(camel("r#type"), "type");
        assert_eq!(snake("listUserOrders"), "list_user_orders");
        assert_eq!(snake("OrderItem"), "order_item");
        assert_eq!(pascal("getUser"), "GetUser");
    }

    #[test]
    fn plurals_are_what_a_user_writes() {
        for (one, many) in [
            ("order_item", "order_items"),
            ("category", "categories"),
            ("address", "addresses"),
            ("box", "boxes"),
            ("opening_hours", "opening_hours"),
            ("settings", "settings"),
            ("day", "days"),
            ("status", "statuses"),
            ("match", "matches"),
            ("wish", "wishes"),
            ("analysis", "analyses"),
            ("sales_person", "sales_people"),
            ("child", "children"),
            ("staff", "staff"),
            ("audit_data", "audit_data"),
            ("photo", "photos"),
            ("line", "lines"),
            ("order", "orders"),
        ] {
            assert_eq!(plural(one), many, "{one}");
        }
    }

    #[test]
    fn kinds_read_from_syntax() {
        let t = |s: &str| syn::parse_str::<Type>(s).unwrap();
        assert_eq!(kind(&t("rust_decimal::Decimal")), RustKind::Decimal);
        assert_eq!(kind(&t("Vec<String>")), RustKind::List);
        assert_eq!(kind(&t("Status")), RustKind::Other);
        assert!(option_inner(&t("Option<i64>")).is_some());
        assert!(option_inner(&t("i64")).is_none());
        assert_eq!(kind(element(&t("Vec<i64>")).unwrap()), RustKind::Int);
        assert_eq!(
            kind(element(&t("BTreeSet<String>")).unwrap()),
            RustKind::Str
        );
        assert!(element(&t("HashMap<String, i64>")).is_none());
    }
}

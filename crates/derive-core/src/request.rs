//! What a pattern's request is built from, for reads and writes alike: the variables of its key
//! conditions typed as the entities' fields (or its `params`), and the statements rendering its
//! key templates and key values from them.

use monotable_model::{
    AttributeType, KeyAttributeType, KeyTemplate, Model, Pattern, Segment, TimestampFormat,
};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Ident, Path};

use crate::codegen::time_format;
use crate::types;

/// A key template variable of a pattern: its name, the field it becomes, and how to render it.
pub(crate) struct Var<'a> {
    pub(crate) name: String,
    pub(crate) field: Ident,
    pub(crate) ty: TokenStream,
    pub(crate) timestamp: Option<Option<TimestampFormat>>,
    _pattern: &'a Pattern,
}

/// The variables of `pattern`'s key conditions, in order, typed.
pub(crate) fn variables<'a>(
    pattern: &'a Pattern,
    paths: &[(&str, &Path)],
    model: &Model,
) -> syn::Result<Vec<Var<'a>>> {
    pattern
        .key_variables()
        .into_iter()
        .map(str::to_string)
        .map(|name| {
            let field = format_ident!("{}", types::snake(&name));
            if let Some(param) = pattern.param(&name) {
                let ty = param_type(param.ty, param.format);
                let timestamp = (param.ty == AttributeType::Timestamp).then_some(param.format);
                return Ok(Var { name, field, ty, timestamp, _pattern: pattern });
            }
            let owner = paths.iter().find_map(|(entity, path)| {
                let a = model.entity(entity)?.attribute(&name)?;
                Some((path, a))
            });
            let Some((path, a)) = owner else {
                return Err(syn::Error::new(
                    Span::call_site(),
                    format!("pattern `{}`: `{name}` is neither a parameter nor an attribute of what it returns", pattern.name),
                ));
            };
            let ty = alias(path, &name);
            let timestamp = (a.ty == AttributeType::Timestamp).then_some(a.format);
            Ok(Var { name, field, ty, timestamp, _pattern: pattern })
        })
        .collect()
}

pub(crate) fn param_type(ty: AttributeType, format: Option<TimestampFormat>) -> TokenStream {
    match ty {
        AttributeType::Integer => quote!(i64),
        AttributeType::Decimal => quote!(::monotable::__private::Decimal),
        AttributeType::Boolean => quote!(bool),
        AttributeType::Timestamp if format == Some(TimestampFormat::Date) => {
            quote!(::monotable::__private::time::Date)
        }
        AttributeType::Timestamp => quote!(::monotable::__private::time::OffsetDateTime),
        _ => quote!(::std::string::String),
    }
}

/// `crate::entities::__monotable_Order_status`: the field type the entity derive named.
pub(crate) fn alias(path: &Path, attribute: &str) -> TokenStream {
    let mut path = path.clone();
    let last = path
        .segments
        .pop()
        .expect("a path has a segment")
        .into_value();
    let name = format_ident!("__monotable_{}_{}", last.ident, attribute);
    if path.segments.is_empty() {
        quote!(#name)
    } else {
        let prefix = path.segments.iter();
        let leading = path.leading_colon;
        quote!(#leading #(#prefix)::* :: #name)
    }
}

/// Statements building the text of `template` from the request's fields into `s`.
pub(crate) fn render(template: &KeyTemplate, vars: &[Var]) -> TokenStream {
    let pushes = template.segments().iter().map(|s| match s {
        Segment::Literal(t) => quote!(s.push_str(#t);),
        Segment::Var { name, pad } => {
            let var = vars.iter().find(|v| &v.name == name).expect("collected");
            let field = &var.field;
            match var.timestamp {
                Some(format) => {
                    let fmt = time_format(format);
                    quote!(::monotable::__private::Timestamp::write_key(&self.#field, &mut s, #fmt);)
                }
                None => {
                    let pad = match pad {
                        Some(p) => quote!(::core::option::Option::Some(#p)),
                        None => quote!(::core::option::Option::None),
                    };
                    quote!(::monotable::__private::KeyText::write_key(&self.#field, &mut s, #pad);)
                }
            }
        }
    });
    quote! {{
        let mut s = ::std::string::String::new();
        #(#pushes)*
        s
    }}
}

/// The key attribute's value of rendered `text`, typed as the model declares the attribute.
pub(crate) fn key_value(model: &Model, attribute: &str, text: TokenStream) -> TokenStream {
    match model
        .key_attribute_type(attribute)
        .unwrap_or(KeyAttributeType::S)
    {
        KeyAttributeType::S => quote!(::monotable::__private::AttributeValue::S(#text)),
        KeyAttributeType::N => quote!(::monotable::__private::AttributeValue::N(#text)),
        KeyAttributeType::B => {
            quote!(::monotable::__private::AttributeValue::B(::monotable::__private::Blob::new(#text.into_bytes())))
        }
    }
}

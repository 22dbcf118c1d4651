//! Code the derives share: how a field of a model attribute type is converted (value, key text,
//! key argument, the trait bound that checks an opaque type), and key templates compiled into
//! string building.

use monotable_model::{
    Attribute, AttributeType, KeyAttributeType, KeyField, Segment, TimestampFormat,
};
use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::Type;
use syn::spanned::Spanned;

use crate::entity::Field;
use crate::model_file::Loaded;

/// How values of one attribute are converted.
pub struct Conv<'a> {
    attribute: &'a Attribute,
    ty: &'a Type,
}

/// The model's timestamp format as the generated code names it: the variant's name is its
/// `Debug` text (a fieldless enum), so a new format needs no edit here.
pub fn time_format(format: Option<TimestampFormat>) -> TokenStream {
    let variant = quote::format_ident!("{}", format!("{:?}", format.unwrap_or_default()));
    quote!(::monotable::__private::TimestampFormat::#variant)
}

impl<'a> Conv<'a> {
    /// Conversions of `attribute` held in Rust type `ty` (the type inside an Option).
    pub fn new(attribute: &'a Attribute, ty: &'a Type) -> Conv<'a> {
        Conv { attribute, ty }
    }

    fn timestamp(&self) -> Option<TokenStream> {
        (self.attribute.ty == AttributeType::Timestamp).then(|| time_format(self.attribute.format))
    }

    /// The attribute value of `value` (a reference).
    pub fn to_value(&self, value: TokenStream) -> TokenStream {
        match self.timestamp() {
            Some(fmt) => quote!(::monotable::__private::Timestamp::to_value(#value, #fmt)),
            None => quote!(::monotable::Value::to_value(#value)),
        }
    }

    /// A function from `&AttributeValue` to the value.
    pub fn reader(&self) -> TokenStream {
        let ty = self.ty;
        match self.timestamp() {
            Some(fmt) => {
                quote!(|v| <#ty as ::monotable::__private::Timestamp>::from_value(v, #fmt))
            }
            None => quote!(<#ty as ::monotable::Value>::from_value),
        }
    }

    /// A statement appending `value`'s key text (a reference) to `out`.
    pub fn key_text(
        &self,
        value: TokenStream,
        pad: Option<usize>,
        out: TokenStream,
    ) -> TokenStream {
        match self.timestamp() {
            Some(fmt) => {
                quote!(::monotable::__private::Timestamp::write_key(#value, &mut #out, #fmt);)
            }
            None => {
                let pad = match pad {
                    Some(p) => quote!(::core::option::Option::Some(#p)),
                    None => quote!(::core::option::Option::None),
                };
                quote!(::monotable::__private::KeyText::write_key(#value, &mut #out, #pad);)
            }
        }
    }

    /// A `KeyArg` owning `value`.
    pub fn key_arg(&self, value: TokenStream) -> TokenStream {
        match self.timestamp() {
            Some(fmt) => quote!(::monotable::KeyArg::time(#value, #fmt)),
            None => quote!(::monotable::KeyArg::of(#value)),
        }
    }

    /// A compile-time check, at the field's type, that `ty` can hold the attribute: the trait's
    /// message says which model type it failed.
    pub fn bound(&self, ty: &Type) -> TokenStream {
        let traits = match self.attribute.ty {
            AttributeType::Timestamp => quote!(::monotable::__private::Timestamp),
            AttributeType::Integer => quote!(::monotable::__private::Integer),
            AttributeType::Decimal => quote!(::monotable::__private::ExactDecimal),
            AttributeType::Enum => quote!(::monotable::EnumValue),
            _ => quote!(::monotable::Value),
        };
        quote_spanned! { ty.span()=>
            const _: () = {
                fn field_type_holds_the_model_attribute<T: #traits>() {}
                let _ = field_type_holds_the_model_attribute::<#ty>;
            };
        }
    }
}

/// `AttributeValue::S(text)` (or N, or B) for a key attribute's declared type.
fn key_value(ty: KeyAttributeType, text: TokenStream) -> TokenStream {
    match ty {
        KeyAttributeType::S => quote!(::monotable::__private::AttributeValue::S(#text)),
        KeyAttributeType::N => quote!(::monotable::__private::AttributeValue::N(#text)),
        KeyAttributeType::B => {
            quote!(::monotable::__private::AttributeValue::B(::monotable::__private::Blob::new(#text.into_bytes())))
        }
    }
}

/// Statements inserting key `k`, rendered from the fields, into `item` (under `if` its sparse
/// condition); `access` gives a reference to a field's value (`&self.order_id`, `&order_id`).
pub fn render_key(
    k: &KeyField,
    fields: &[&Field],
    loaded: &Loaded,
    item: TokenStream,
    access: &dyn Fn(&Field) -> TokenStream,
) -> TokenStream {
    let literal: usize = k
        .template
        .segments()
        .iter()
        .map(|s| match s {
            Segment::Literal(t) => t.len(),
            Segment::Var { pad, .. } => pad.unwrap_or(8),
        })
        .sum();
    let pushes = k.template.segments().iter().map(|s| match s {
        Segment::Literal(text) => quote!(s.push_str(#text);),
        Segment::Var { name, pad } => {
            let f = field(fields, name);
            super_conv(f).key_text(access(f), *pad, quote!(s))
        }
    });
    let ty = loaded
        .model
        .key_attribute_type(&k.attribute)
        .unwrap_or(KeyAttributeType::S);
    let value = key_value(ty, quote!(s));
    let attr = &k.attribute;
    let insert = quote! {
        {
            let mut s = ::std::string::String::with_capacity(#literal);
            #(#pushes)*
            #item.insert(#attr.to_string(), #value);
        }
    };
    match &k.condition {
        Some(flag) => {
            let flag = access(field(fields, flag));
            quote! { if *#flag { #insert } }
        }
        None => insert,
    }
}

fn field<'a>(fields: &[&'a Field], name: &str) -> &'a Field<'a> {
    fields
        .iter()
        .copied()
        .find(|f| f.name == name)
        .expect("key inputs were checked to be fields")
}

fn super_conv<'a>(f: &'a Field) -> Conv<'a> {
    Conv::new(f.attribute.expect("checked"), &f.inner)
}

/// The `KeySpec` of one key attribute.
pub fn key_spec(key: crate::entity::KeyUse, loaded: &Loaded) -> TokenStream {
    let k = key.field;
    let primary = key.primary;
    let attribute = &k.attribute;
    let index = match key.index {
        Some(i) => quote!(::core::option::Option::Some(#i)),
        None => quote!(::core::option::Option::None),
    };
    let template = segments(&k.template);
    let kind = match loaded
        .model
        .key_attribute_type(&k.attribute)
        .unwrap_or(KeyAttributeType::S)
    {
        KeyAttributeType::S => quote!(S),
        KeyAttributeType::N => quote!(N),
        KeyAttributeType::B => quote!(B),
    };
    let condition = match &k.condition {
        Some(c) => quote!(::core::option::Option::Some(#c)),
        None => quote!(::core::option::Option::None),
    };
    quote! {
        ::monotable::KeySpec {
            attribute: #attribute,
            index: #index,
            primary: #primary,
            template: #template,
            kind: ::monotable::KeyKind::#kind,
            condition: #condition,
        }
    }
}

/// `&[Seg::Lit("ORDER#"), Seg::Var("orderId", None)]`.
pub fn segments(template: &monotable_model::KeyTemplate) -> TokenStream {
    let segs = template.segments().iter().map(|s| match s {
        Segment::Literal(t) => quote!(::monotable::Seg::Lit(#t)),
        Segment::Var { name, pad } => {
            let pad = match pad {
                Some(p) => quote!(::core::option::Option::Some(#p)),
                None => quote!(::core::option::Option::None),
            };
            quote!(::monotable::Seg::Var(#name, #pad))
        }
    });
    quote!(&[#(#segs),*])
}

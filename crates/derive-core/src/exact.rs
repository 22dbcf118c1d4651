//! Exact values in generated code: the check of one field's value against its model attribute
//! (a timestamp at its format's precision, a number DynamoDB holds, the model's bounds, an
//! optional set given empty), which the entity's `validate` and the update builder's setters
//! run before anything is written. A field whose Rust type cannot hold a value that fails (a
//! `String` with no `max_length`, an `i64`, a `Decimal`, a `bool`) gets no check at all.

use monotable_model::{Attribute, AttributeType, TimestampFormat};
use proc_macro2::TokenStream;
use quote::quote;
use syn::Type;

use crate::codegen::time_format;
use crate::field::Field;
use crate::types::{self, RustKind};

/// Whether every value of `ty` is stored exactly as an attribute with no bounds: strings,
/// booleans, decimals and integers of at most 64 bits (a wider one may pass DynamoDB's 38
/// digits).
fn always_exact(ty: &Type) -> bool {
    match types::kind(ty) {
        RustKind::Str | RustKind::Bool | RustKind::Decimal => true,
        RustKind::Int => !matches!(written(ty).as_str(), "i128" | "u128"),
        _ => false,
    }
}

fn written(ty: &Type) -> String {
    quote!(#ty).to_string().replace(' ', "")
}

fn bounded(a: &Attribute) -> bool {
    a.max_length.is_some() || a.max_items.is_some() || a.cardinality.is_some()
}

/// Whether a value of field `f` needs no check.
fn needs_none(f: &Field, a: &Attribute) -> bool {
    if bounded(a) {
        return false;
    }
    match a.ty {
        AttributeType::Boolean | AttributeType::Enum => true,
        // An optional set given empty would read back as `None`.
        AttributeType::Set if f.optional => false,
        AttributeType::List | AttributeType::Set => {
            types::element(&f.inner).is_some_and(always_exact)
        }
        _ => always_exact(&f.inner),
    }
}

fn option(n: Option<u64>) -> TokenStream {
    match n {
        Some(n) => quote!(::core::option::Option::Some(#n)),
        None => quote!(::core::option::Option::None),
    }
}

/// The check of `value` (a reference to a value of `f`'s type, inside its Option), an
/// expression of type `Result<(), monotable::ValueError>`; `None` when nothing can fail.
pub fn check(f: &Field, value: TokenStream) -> Option<TokenStream> {
    let a = f.attribute?;
    if a.ty == AttributeType::Timestamp {
        let format = time_format(a.format);
        return Some(quote!(::monotable::__private::Timestamp::check(#value, #format)));
    }
    if needs_none(f, a) {
        return None;
    }
    if let (AttributeType::String, RustKind::Str, Some(max), None, None) = (
        a.ty,
        types::kind(&f.inner),
        a.max_length,
        a.max_items,
        a.cardinality,
    ) {
        return Some(quote!(::monotable::__private::within_length(#value, #max)));
    }
    let (max_length, max_items, cardinality) = (
        option(a.max_length),
        option(a.max_items),
        option(a.cardinality),
    );
    // A required set is absent while empty and reads back empty.
    let empty_set = !f.optional;
    Some(quote! {
        ::monotable::__private::storable(
            &::monotable::Value::to_value(#value),
            &::monotable::__private::Limits {
                max_length: #max_length,
                max_items: #max_items,
                cardinality: #cardinality,
                empty_set_reads_back: #empty_set,
            },
        )
    })
}

/// The check of a number `delta` added to field `f` in the write (`add_x`): a number DynamoDB
/// holds; `None` for a type whose every value is one.
pub fn check_delta(f: &Field, delta: TokenStream) -> Option<TokenStream> {
    (!always_exact(&f.inner)).then(|| {
        quote! {
            ::monotable::__private::storable(
                &::monotable::Value::to_value(#delta),
                &::monotable::__private::Limits::default(),
            )
        }
    })
}

/// `update` (an expression of type `monotable::Update<E>`), refused when `check` fails: what a
/// setter of `f` sends.
pub fn guarded(f: &Field, update: TokenStream, check: Option<TokenStream>) -> TokenStream {
    match check {
        Some(check) => {
            let attr = &f.name;
            quote!(#update.checked(#attr, #check))
        }
        None => update,
    }
}

/// `.checked(...)` of a pattern request, for key variable `name` of `pattern` held in field
/// `field` of the request: a timestamp finer than its `format` is refused; `None` for any other
/// variable (its key text is exact).
pub fn parameter_check(
    pattern: &str,
    name: &str,
    field: &syn::Ident,
    timestamp: Option<Option<TimestampFormat>>,
) -> Option<TokenStream> {
    let format = time_format(timestamp?);
    Some(quote! {
        .checked(::monotable::__private::parameter(
            #pattern,
            #name,
            ::monotable::__private::Timestamp::check(&self.#field, #format),
        ))
    })
}

/// `fn validate` of the `Entity` impl: each stored field's check, or nothing (the trait's
/// default) when no field needs one.
pub fn validate(entity: &str, stored: &[&Field]) -> TokenStream {
    let checks: Vec<TokenStream> = stored
        .iter()
        .filter_map(|f| {
            let (field, attr) = (&f.ident, &f.name);
            let value = if f.optional {
                quote!(v)
            } else {
                quote!(&self.#field)
            };
            let check = check(f, value)?;
            let stored = quote!(::monotable::__private::stored_exactly(#entity, #attr, #check)?;);
            Some(if f.optional {
                quote! { if let ::core::option::Option::Some(v) = &self.#field { #stored } }
            } else {
                stored
            })
        })
        .collect();
    if checks.is_empty() {
        return TokenStream::new();
    }
    quote! {
        fn validate(&self) -> ::core::result::Result<(), ::monotable::EntityError> {
            #(#checks)*
            ::core::result::Result::Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use crate::testing::{functions, items};

    #[test]
    fn only_fields_that_can_fail_are_checked() {
        let out = crate::derive_entity(quote! {
            #[monotable(model = "testdata/orders.toml", version = "version")]
            struct Order {
                order_id: String,
                user_id: String,
                status: Status,
                total: Decimal,
                created_at: OffsetDateTime,
                note: Option<String>,
                version: i64,
            }
        });
        let file = items(&out);
        assert!(functions(&file).iter().any(|f| f == "validate"));
        let text = out.to_string().replace(' ', "");
        let checked =
            |attribute: &str| text.contains(&format!("stored_exactly(\"Order\",\"{attribute}\","));
        // The timestamp at its format's precision, the note within its max_length.
        assert!(checked("createdAt"), "{text}");
        assert!(checked("note"), "{text}");
        assert!(text.contains("within_length(v,200u64)"), "{text}");
        // Nothing of these can fail.
        for attribute in ["orderId", "userId", "status", "total", "version"] {
            assert!(!checked(attribute), "{attribute}");
        }
        // The setters check what they set.
        assert!(text.contains("self.0.checked(\"createdAt\""), "{text}");
    }
}

//! What a failed derive emits besides its errors, so that one mistake is one error: the traits
//! the code using the type needs (the code `patterns!` generates, the entity's own checks),
//! with bodies that are never run (the crate does not compile), and the field type aliases
//! `patterns!` names, typed as the model needs where the struct's own type is wrong.

use monotable_model::{Attribute, AttributeType, EntityDecl, TimestampFormat};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{DeriveInput, Type};

/// What stands for the field of one attribute in the stub: the struct's own type, when it is
/// right, or `None`.
pub struct Alias<'a> {
    pub attribute: &'a Attribute,
    pub ty: Option<&'a Type>,
}

/// The Rust type of a model attribute, when the struct has none that holds it.
fn model_type(a: &Attribute) -> TokenStream {
    match a.ty {
        AttributeType::Integer => quote!(i64),
        AttributeType::Decimal => quote!(::monotable::__private::Decimal),
        AttributeType::Number | AttributeType::Float => quote!(f64),
        AttributeType::Boolean => quote!(bool),
        AttributeType::Timestamp if a.format == Some(TimestampFormat::Date) => {
            quote!(::monotable::__private::time::Date)
        }
        AttributeType::Timestamp => quote!(::monotable::__private::time::OffsetDateTime),
        // An enum's type is the struct's to name: its text stands in.
        _ => quote!(::std::string::String),
    }
}

/// The body of a stub's method: never run, since the crate does not compile.
fn never() -> TokenStream {
    quote!(::core::unreachable!(
        "the derive reported an error: the crate does not compile"
    ))
}

/// `impl Entity` for a struct whose derive failed, and the type aliases of `entity`'s
/// attributes (every one, so that `patterns!` finds each it names).
pub fn entity(input: &DeriveInput, entity: Option<&EntityDecl>, aliases: &[Alias]) -> TokenStream {
    let ident = &input.ident;
    let vis = &input.vis;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let name = entity.map_or_else(|| ident.to_string(), |e| e.name.clone());
    let never = never();
    let aliases = entity.into_iter().flat_map(|e| &e.attributes).map(|a| {
        let alias = format_ident!("__monotable_{}_{}", ident, a.name);
        let ty = aliases
            .iter()
            .find(|f| f.attribute.name == a.name)
            .and_then(|f| f.ty)
            .map_or_else(|| model_type(a), |ty| quote!(#ty));
        quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis type #alias = #ty;
        }
    });
    let builder = entity.map(|e| update_builder(input, e)).unwrap_or_default();
    quote! {
        #(#aliases)*
        #builder
        impl #impl_generics ::monotable::Entity for #ident #ty_generics #where_clause {
            const NAME: &'static str = #name;
            const KEYS: &'static [::monotable::KeySpec] = &[];
            fn to_item(&self) -> ::monotable::__private::Item { #never }
            fn from_item(_: &::monotable::__private::Item) -> ::core::result::Result<Self, ::monotable::EntityError> { #never }
            fn key(&self) -> ::monotable::Key<Self> { #never }
            fn key_args(&self) -> ::std::collections::HashMap<&'static str, ::monotable::KeyArg> { #never }
        }
    }
}

/// `EnumValue`, `Value` and `KeyText` for an enum whose derive failed, marked `INVALID` so that
/// the entities holding it do not assert its texts again.
pub fn enumeration(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, ty_generics, where_clause) = input.generics.split_for_impl();
    let never = never();
    quote! {
        impl #impl_generics ::monotable::EnumValue for #ident #ty_generics #where_clause {
            const VALUES: &'static [&'static str] = &[];
            const INVALID: bool = true;
            fn as_str(&self) -> &'static str { #never }
            fn from_text(_: &str) -> ::core::option::Option<Self> { #never }
        }
        impl #impl_generics ::monotable::Value for #ident #ty_generics #where_clause {
            fn to_value(&self) -> ::monotable::__private::AttributeValue { #never }
            fn from_value(_: &::monotable::__private::AttributeValue) -> ::core::result::Result<Self, ::monotable::ValueError> { #never }
        }
        impl #impl_generics ::monotable::__private::KeyText for #ident #ty_generics #where_clause {
            fn write_key(&self, _: &mut ::std::string::String, _: ::core::option::Option<usize>) { #never }
        }
    }
}

/// The inherent items the code `patterns!` generates for an UpdateItem pattern calls
/// (`unchecked_update_key`, the update builder and its per-attribute setters), never run.
fn update_builder(input: &DeriveInput, entity: &EntityDecl) -> TokenStream {
    let ident = &input.ident;
    let vis = &input.vis;
    let builder = format_ident!("{}Update", ident);
    let never = never();
    let alias = |name: &str| format_ident!("__monotable_{}_{}", ident, name);
    let params = crate::writes::primary_inputs(entity)
        .into_iter()
        .map(|name| {
            let (field, ty) = (
                format_ident!("{}", crate::types::snake(&name)),
                alias(&name),
            );
            quote!(#field: impl ::core::convert::Into<#ty>)
        });
    let setters = entity.attributes.iter().map(|a| {
        let ty = alias(&a.name);
        let set = format_ident!("__monotable_set_{}", a.name);
        let add = format_ident!("__monotable_add_{}", a.name);
        let value = if a.required {
            quote!(impl ::core::convert::Into<#ty>)
        } else {
            quote!(::core::option::Option<#ty>)
        };
        quote! {
            #[doc(hidden)]
            #[allow(non_snake_case)]
            pub fn #set(self, _: #value) -> Self { #never }
            #[doc(hidden)]
            #[allow(non_snake_case)]
            pub fn #add(self, _: #ty) -> Self { #never }
        }
    });
    quote! {
        #[doc(hidden)]
        #vis struct #builder(::core::marker::PhantomData<#ident>);

        impl #ident {
            #[doc(hidden)]
            #[allow(unused_variables)]
            #vis fn unchecked_update_key(#(#params),*) -> #builder { #never }
        }

        impl #builder {
            #(#setters)*
            #[doc(hidden)]
            pub fn __monotable_reject(self, _: ::monotable::WriteError) -> Self { #never }
            #[doc(hidden)]
            pub fn when(self, _: ::monotable::unchecked::Condition) -> Self { #never }
            #[doc(hidden)]
            pub fn expect_version(self, _: i64) -> Self { #never }
            #[doc(hidden)]
            pub fn bump_version(self) -> Self { #never }
            #[doc(hidden)]
            pub fn into_update(self) -> ::monotable::unchecked::Update<#ident> { #never }
            #[doc(hidden)]
            pub async fn send(self, _: &::monotable::Table) -> ::core::result::Result<(), ::monotable::WriteError> { #never }
        }
    }
}

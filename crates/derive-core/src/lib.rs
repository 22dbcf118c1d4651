//! The logic behind the `monotable` derives, as a plain library: the attributes parsed, the
//! model file read and checked, the struct, enum or pattern call checked against it, and the
//! tokens generated. `monotable-derive` is the proc-macro shim that calls it once per macro, so
//! all of this is tested here as ordinary code (`quote!` in, tokens out).
//!
//! Modules depend one way: `types` (Rust types and names) and `model_file` (the model read at
//! compile time) at the bottom; `field` (a struct field and the key attributes an entity
//! writes); `codegen` (conversions and key rendering); `exact` (each value checked before it is
//! written); `request` (a pattern request's typed key variables and key rendering); `update`
//! (the update builder); `writes`, `update_pattern` and `transactions` (write patterns'
//! requests); `entity`, `enums` and `patterns`, one per macro, at the top.

extern crate proc_macro;

mod codegen;
mod consumers;
mod entity;
mod enums;
mod exact;
mod field;
mod model_file;
mod once;
mod patterns;
mod request;
mod stub;
mod transactions;
mod types;
mod update;
mod update_pattern;
mod writes;

#[cfg(test)]
mod testing;

use proc_macro2::TokenStream;
use syn::DeriveInput;

/// `#[derive(Entity)]` on `input`: the generated code, or the errors as `compile_error!`s.
pub fn derive_entity(input: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(input) {
        Ok(input) => entity::derive(input),
        Err(e) => e.to_compile_error(),
    }
}

/// `#[derive(Enum)]` on `input`: the generated code, or the errors as `compile_error!`s.
pub fn derive_enum(input: TokenStream) -> TokenStream {
    match syn::parse2::<DeriveInput>(input) {
        Ok(input) => enums::derive(input),
        Err(e) => e.to_compile_error(),
    }
}

/// `patterns! { ... }` on `input`: the generated code, or the errors as `compile_error!`s.
pub fn patterns(input: TokenStream) -> TokenStream {
    match syn::parse2::<patterns::Input>(input) {
        Ok(input) => patterns::expand(input),
        Err(e) => e.to_compile_error(),
    }
}

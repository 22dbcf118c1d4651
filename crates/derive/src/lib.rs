//! The compile-time half of the `monotable` library: `#[derive(Entity)]`, `#[derive(Enum)]` and
//! `patterns!`, each reading the model file while the crate compiles, so a struct, an enum or a
//! pattern call that disagrees with the model is a compile error that names the model's line.
//!
//! This crate is the proc-macro shim: each macro is one call into `monotable-derive-core`, which
//! holds the logic and its tests. Use them through the `monotable` crate, which re-exports them
//! beside the runtime they expand to.

use proc_macro::TokenStream;

/// A struct as one entity of the model: checked field by field against the entity's attributes
/// and key templates, with the item conversion, compiled key rendering and a typed update
/// builder generated from the model.
///
/// ```ignore
/// #[derive(monotable::Entity)]
/// #[monotable(model = "shop.toml", entity = "Order", version = "version")]
/// struct Order { order_id: String, status: Status, total: Decimal, version: i64 }
/// ```
#[proc_macro_derive(Entity, attributes(monotable))]
pub fn derive_entity(input: TokenStream) -> TokenStream {
    monotable_derive_core::derive_entity(input.into()).into()
}

/// An enum of unit variants as a model `enum` attribute (`rename_all` and `rename` as in serde);
/// the `Entity` derive checks its texts against the model's values.
#[proc_macro_derive(Enum, attributes(monotable))]
pub fn derive_enum(input: TokenStream) -> TokenStream {
    monotable_derive_core::derive_enum(input.into()).into()
}

/// Every read access pattern of the model as a typed request:
///
/// ```ignore
/// monotable::patterns! {
///     model = "shop.toml";
///     entities { Order => crate::orders::Order, OrderItem => crate::orders::OrderItem }
/// }
/// ```
#[proc_macro]
pub fn patterns(input: TokenStream) -> TokenStream {
    monotable_derive_core::patterns(input.into()).into()
}

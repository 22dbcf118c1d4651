//! The compile-time half of the `monotable` library: `#[derive(Entity)]`, `#[derive(Enum)]` and
//! `patterns!`, each reading the model file while the crate compiles, so a struct, an enum or a
//! pattern call that disagrees with the model is a compile error that names the model's line.
//!
//! Use them through the `monotable` crate, which re-exports them beside the runtime they expand
//! to.

mod codegen;
mod entity;
mod enums;
mod model_file;
mod patterns;
mod types;
mod update;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

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
    entity::derive(parse_macro_input!(input as DeriveInput)).into()
}

/// An enum of unit variants as a model `enum` attribute (`rename_all` and `rename` as in serde);
/// the `Entity` derive checks its texts against the model's values.
#[proc_macro_derive(Enum, attributes(monotable))]
pub fn derive_enum(input: TokenStream) -> TokenStream {
    enums::derive(parse_macro_input!(input as DeriveInput)).into()
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
    patterns::expand(parse_macro_input!(input as patterns::Input)).into()
}

//! `patterns!` for an UpdateItem pattern: a struct of its key's variables and its condition's
//! values (`UpdateOrderStatus { order_id, expected_version, current }`) whose `set_*` methods, one
//! per attribute of the pattern's `sets` and no other, start the update; index keys those
//! attributes feed are rendered again by the entity's update builder, which this wraps.

use monotable_model::AttributeType;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Path;

use crate::types;
use crate::writes::{WriteGen, is_key_input, primary_inputs, unsupported};

/// `crate::entities::OrderUpdate`: the entity derive's update builder.
fn builder_path(path: &Path) -> TokenStream {
    let mut path = path.clone();
    let last = path
        .segments
        .pop()
        .expect("a path has a segment")
        .into_value();
    let name = format_ident!("{}Update", last.ident);
    if path.segments.is_empty() {
        quote!(#name)
    } else {
        let prefix = path.segments.iter();
        let leading = path.leading_colon;
        quote!(#leading #(#prefix)::* :: #name)
    }
}

/// One settable attribute: the wrapper's `set_*` (and `add_*`) methods.
fn setters(g: &WriteGen<'_>, attribute: &str, start: bool) -> TokenStream {
    let Some(a) = g.entity.attribute(attribute) else {
        return TokenStream::new();
    };
    let field = format_ident!("{}", types::snake(attribute));
    let set = format_ident!("set_{}", field);
    let hidden_set = format_ident!("__monotable_set_{}", attribute);
    let hidden_add = format_ident!("__monotable_add_{}", attribute);
    let ty = crate::request::alias(g.path, attribute);
    let call = if start {
        quote!(self.begin())
    } else {
        quote!(self.0)
    };
    let wrap = |inner: TokenStream| {
        if start { inner } else { quote!(Self(#inner)) }
    };
    let ret = if start {
        let set_ident = format_ident!("{}Set", g.ident);
        quote!(#set_ident)
    } else {
        quote!(Self)
    };
    let doc = format!("Set `{attribute}` (listed in the pattern's `sets`).");
    let set_body = wrap(if start {
        quote!(#call.#set(value))
    } else {
        quote!(#call.#hidden_set(value))
    });
    let set_fn = if a.required {
        quote! {
            #[doc = #doc]
            pub fn #set(self, value: impl ::core::convert::Into<#ty>) -> #ret { #set_body }
        }
    } else {
        quote! {
            #[doc = #doc]
            pub fn #set(self, value: ::core::option::Option<#ty>) -> #ret { #set_body }
        }
    };
    let numeric = matches!(
        a.ty,
        AttributeType::Integer
            | AttributeType::Decimal
            | AttributeType::Number
            | AttributeType::Float
    );
    let add_fn = (numeric && !is_key_input(g.entity, attribute)).then(|| {
        let add = format_ident!("add_{}", field);
        let doc = format!("Add `delta` to `{attribute}` in the write itself.");
        let body = wrap(if start {
            quote!(#call.#add(delta))
        } else {
            quote!(#call.#hidden_add(delta))
        });
        quote! {
            #[doc = #doc]
            pub fn #add(self, delta: #ty) -> #ret { #body }
        }
    });
    quote!(#set_fn #add_fn)
}

/// The UpdateItem pattern's tokens.
pub(crate) fn tokens(g: &WriteGen<'_>) -> TokenStream {
    let (ident, path) = (g.ident, g.path);
    let set_ident = format_ident!("{}Set", ident);
    let builder = builder_path(path);
    let Some(sets) = &g.pattern.sets else {
        return unsupported(
            g.pattern,
            "an UpdateItem pattern lists what it changes in `sets`; without it no setter can be generated",
        );
    };
    let versions = g.model.version_attributes(&g.entity.name);
    let own_version = g.pattern.condition.as_ref().and_then(|c| c.version());
    let settable: Vec<&str> = sets
        .attributes
        .iter()
        .map(|a| a.name.as_str())
        .filter(|a| !versions.iter().any(|v| v == a))
        .collect();
    let bumps = sets
        .attributes
        .iter()
        .any(|a| versions.iter().any(|v| v == &a.name));
    let mut args = Vec::new();
    for input in primary_inputs(g.entity) {
        let Some(var) = g.vars.iter().find(|v| v.name == input) else {
            return unsupported(
                g.pattern,
                &format!(
                    "its key does not give `{input}`, an input of `{}`'s table key",
                    g.entity.name
                ),
            );
        };
        let field = &var.field;
        args.push(quote!(::core::clone::Clone::clone(&self.#field)));
    }
    let condition = g.condition_without_version();
    let version = match own_version {
        Some(v) => {
            let field = format_ident!("expected_{}", types::snake(v));
            quote!(.expect_version(self.#field))
        }
        None if bumps => quote!(.bump_version()),
        None => TokenStream::new(),
    };
    let doc = &g.doc;
    let fields = g.struct_fields();
    let key_fn = g.key_fn_tokens();
    let check_fn = g.check_fn();
    let starts = settable.iter().map(|a| setters(g, a, true));
    let then = settable.iter().map(|a| setters(g, a, false));
    let set_doc = format!(
        "Pattern `{}` being built: set what its `sets` lists, then `send` it (or pass it to a transaction).",
        g.pattern.name
    );
    let module = format_ident!("__monotable_{}", ident);
    let debug = crate::writes::debug_impl(ident, false);
    quote! {
        #[doc = #doc]
        #[derive(Clone)]
        pub struct #ident { #fields }

        #debug

        pub use #module::#set_ident;

        /// The builder's field stays private to this module: an app sets only what the
        /// pattern's `sets` lists.
        #[doc(hidden)]
        #[allow(non_snake_case)]
        mod #module {
            #[allow(unused_imports)]
            use super::*;

            #[doc = #set_doc]
            #[must_use = "an update does nothing until it is sent"]
            pub struct #set_ident(#builder);

            impl #set_ident {
                #[doc(hidden)]
                pub fn __monotable_new(builder: #builder) -> Self {
                    Self(builder)
                }

                #(#then)*

                /// The update, for a transaction.
                #[doc(hidden)]
                pub fn into_update(self) -> ::monotable::unchecked::Update<#path> {
                    self.0.into_update()
                }

                /// Send it.
                pub async fn send(self, table: &::monotable::Table) -> ::core::result::Result<(), ::monotable::WriteError> {
                    self.0.send(table).await
                }
            }
        }

        impl #ident {
            #key_fn

            /// The model's condition on the stored item (its version clause is applied by the
            /// update, which also bumps the version).
            pub fn condition(&self) -> ::monotable::unchecked::Condition {
                #condition
            }

            #check_fn

            fn begin(self) -> #set_ident {
                let builder = #path::unchecked_update_key(#(#args),*).when(self.condition()) #version;
                #set_ident::__monotable_new(match self.__monotable_check() {
                    ::core::result::Result::Ok(()) => builder,
                    ::core::result::Result::Err(e) => builder.__monotable_reject(::core::convert::From::from(e)),
                })
            }

            #(#starts)*
        }
    }
}

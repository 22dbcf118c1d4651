//! What `#[derive(Entity)]` adds besides the trait: `key_of` (the table key from its inputs), and
//! a typed update builder (`order.unchecked_update().set_status(..)`,
//! `Order::unchecked_update_key(id)`) whose setters feed the index-key sync of
//! `monotable::unchecked::Update`: the generic update, for tools, that write patterns wrap.

use monotable_model::{AttributeType, EntityDecl};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::DeriveInput;

use crate::codegen::{self, Conv};
use crate::exact;
use crate::field::{Field, key_inputs, table_keys};
use crate::model_file::Loaded;

fn conv<'a>(f: &'a Field) -> Conv<'a> {
    Conv::new(f.attribute.expect("checked"), &f.inner)
}

/// Attributes the table key's templates read.
fn primary_inputs(entity: &EntityDecl) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for k in table_keys(entity) {
        for v in k.template.variables() {
            if !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        }
    }
    out
}

/// `key_of`, `unchecked_update`, `unchecked_update_key` and the update builder.
pub fn generate(
    input: &DeriveInput,
    entity: &EntityDecl,
    fields: &[&Field],
    loaded: &Loaded,
    version: Option<&str>,
) -> TokenStream {
    let ident = &input.ident;
    let vis = &input.vis;
    let builder = format_ident!("{}Update", ident);
    let primary = primary_inputs(entity);
    let key_fields: Vec<&Field> = primary
        .iter()
        .filter_map(|name| fields.iter().copied().find(|f| &f.name == name))
        .collect();
    let params = key_fields.iter().map(|f| {
        let (field, inner) = (&f.ident, &f.inner);
        quote!(#field: impl ::core::convert::Into<#inner>)
    });
    let params2 = params.clone();
    let bind = key_fields.iter().map(|f| {
        let (field, inner) = (&f.ident, &f.inner);
        quote!(let #field: #inner = ::core::convert::Into::into(#field);)
    });
    let bind2 = bind.clone();
    let names: Vec<_> = key_fields.iter().map(|f| &f.ident).collect();
    let local = |f: &Field| {
        let field = &f.ident;
        quote!(&#field)
    };
    let renders = table_keys(entity)
        .into_iter()
        .map(|k| codegen::render_key(k, fields, loaded, quote!(item), &local));
    let args = key_fields.iter().map(|f| {
        let (field, attr) = (&f.ident, &f.name);
        let arg = conv(f).key_arg(quote!(::core::clone::Clone::clone(&#field)));
        quote!(args.insert(#attr, #arg);)
    });
    let key_checks = key_fields.iter().map(|f| {
        let field = &f.ident;
        crate::exact::guarded(f, quote!(update), crate::exact::check(f, quote!(&#field)))
    });
    let inputs = key_inputs(entity);
    let setters = fields
        .iter()
        .filter(|f| !primary.contains(&f.name) && Some(f.name.as_str()) != version)
        .map(|f| setter(f, inputs.contains(&f.name)));
    let doc_builder = format!(
        "An update of one {} item: set attributes; index keys whose templates read them are re-rendered in the same write.",
        entity.name
    );
    quote! {
        #[doc = #doc_builder]
        #[must_use = "an update does nothing until it is sent"]
        #vis struct #builder(::monotable::unchecked::Update<#ident>);

        impl #ident {
            /// The table key of the item with these key inputs.
            #vis fn key_of(#(#params),*) -> ::monotable::Key<#ident> {
                #(#bind)*
                let mut item = ::monotable::__private::Item::new();
                #(#renders)*
                ::monotable::Key::from_item(item)
            }

            /// An update of this item that no model pattern names (for tools; an app updates
            /// through its UpdateItem patterns): every key input known; under optimistic
            /// locking when the entity has a version attribute.
            #vis fn unchecked_update(&self) -> #builder {
                #builder(::monotable::unchecked::Update::of(self))
            }

            /// An update of the item with these key inputs, in the order of the table key's
            /// templates, that no model pattern names (attributes of index keys it changes
            /// must then be set together).
            #vis fn unchecked_update_key(#(#params2),*) -> #builder {
                #(#bind2)*
                let mut args = ::std::collections::HashMap::new();
                #(#args)*
                let key = Self::key_of(#(::core::clone::Clone::clone(&#names)),*);
                let update = ::monotable::unchecked::Update::by_key(key, args);
                #(let update = #key_checks;)*
                #builder(update)
            }
        }

        impl #builder {
            #(#setters)*

            #[doc(hidden)]
            #vis fn __monotable_reject(self, error: ::monotable::WriteError) -> Self {
                Self(self.0.reject(error))
            }

            /// Require `condition` too.
            #vis fn when(self, condition: ::monotable::unchecked::Condition) -> Self {
                Self(self.0.when(condition))
            }

            /// Update only if the item is at `version` (and bump it); a stale one fails with
            /// `WriteError::VersionMismatch`.
            #vis fn expect_version(self, version: i64) -> Self {
                Self(self.0.expect_version(version))
            }

            /// Add one to the version without requiring one (see `Update::bump_version`).
            #vis fn bump_version(self) -> Self {
                Self(self.0.bump_version())
            }

            /// The untyped update (for a transaction).
            #vis fn into_update(self) -> ::monotable::unchecked::Update<#ident> {
                self.0
            }

            /// Send it.
            #vis async fn send(self, table: &::monotable::Table) -> ::core::result::Result<(), ::monotable::WriteError> {
                self.0.send(table).await
            }
        }
    }
}

/// `set_x` (and `add_x` for a number that no key reads).
fn setter(f: &Field, key_input: bool) -> TokenStream {
    let (attr, inner) = (&f.name, &f.inner);
    let set = format_ident!("set_{}", f.ident);
    let value = conv(f).to_value(quote!(&value));
    let arg = if key_input {
        let a = conv(f).key_arg(quote!(::core::clone::Clone::clone(&value)));
        quote!(::core::option::Option::Some(#a))
    } else {
        quote!(::core::option::Option::None)
    };
    let doc = format!("Set `{attr}`.");
    let update = exact::guarded(f, quote!(self.0), exact::check(f, quote!(&value)));
    // What `patterns!` calls: named by the attribute, whatever the field is called.
    let hidden_set = format_ident!("__monotable_set_{}", attr);
    let hidden_add = format_ident!("__monotable_add_{}", attr);
    let set_param = if f.optional {
        quote!(::core::option::Option<#inner>)
    } else {
        quote!(impl ::core::convert::Into<#inner>)
    };
    let hidden = quote! {
        #[doc(hidden)]
        #[allow(non_snake_case)]
        pub fn #hidden_set(self, value: #set_param) -> Self {
            self.#set(value)
        }
    };
    let set_fn = if f.optional {
        quote! {
            #[doc = #doc]
            pub fn #set(self, value: ::core::option::Option<#inner>) -> Self {
                match value {
                    ::core::option::Option::Some(value) => Self(#update.set(#attr, #value, #arg)),
                    ::core::option::Option::None => Self(self.0.remove(#attr)),
                }
            }
        }
    } else {
        quote! {
            #[doc = #doc]
            pub fn #set(self, value: impl ::core::convert::Into<#inner>) -> Self {
                let value: #inner = ::core::convert::Into::into(value);
                Self(#update.set(#attr, #value, #arg))
            }
        }
    };
    let numeric = matches!(
        f.attribute.map(|a| a.ty),
        Some(
            AttributeType::Integer
                | AttributeType::Decimal
                | AttributeType::Number
                | AttributeType::Float
        )
    );
    let add_fn = (numeric && !key_input).then(|| {
        let add = format_ident!("add_{}", f.ident);
        let update = exact::guarded(f, quote!(self.0), exact::check_delta(f, quote!(&delta)));
        let doc =
            format!("Add `delta` to `{attr}` in the write itself (`SET {attr} = {attr} + delta`).");
        quote! {
            #[doc = #doc]
            pub fn #add(self, delta: #inner) -> Self {
                Self(#update.add(#attr, ::monotable::Value::to_value(&delta)))
            }

            #[doc(hidden)]
            #[allow(non_snake_case)]
            pub fn #hidden_add(self, delta: #inner) -> Self {
                self.#add(delta)
            }
        }
    });
    quote! { #set_fn #hidden #add_fn }
}

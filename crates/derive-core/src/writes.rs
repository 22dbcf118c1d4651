//! `patterns!` for single-item writes: each PutItem, UpdateItem, DeleteItem and ConditionCheck
//! pattern of the model as a typed request. Its fields are what the pattern's key and condition
//! take (`UpdateOrderStatus { order_id, expected_version, current }`); its condition is the
//! model's, each clause labelled by its text so a failure names it; an update offers a setter for
//! exactly the attributes its `sets` lists.

use monotable_model::{
    AttributeType, ConditionClause, EntityDecl, KeyTest, Model, Operand, Pattern,
};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{Ident, Path};

use crate::codegen::Conv;
use crate::field::{key_inputs, table_keys};
use crate::request::{Var, alias, key_value, param_type, render};
use crate::types;

/// What one write pattern's request is generated from.
pub(crate) struct WriteGen<'a> {
    pub ident: &'a Ident,
    pub pattern: &'a Pattern,
    pub entity: &'a EntityDecl,
    pub path: &'a Path,
    pub vars: &'a [Var<'a>],
    pub model: &'a Model,
    pub doc: String,
}

/// A field a condition takes: `expected_version: i64`, `current: <Order's status type>`.
struct CondField {
    field: Ident,
    ty: TokenStream,
    doc: String,
}

impl WriteGen<'_> {
    /// The fields the condition takes beyond the key's variables, in order.
    fn condition_fields(&self) -> Vec<CondField> {
        let Some(condition) = &self.pattern.condition else {
            return Vec::new();
        };
        let mut out: Vec<CondField> = Vec::new();
        for clause in &condition.clauses {
            let (field, ty, doc) = match clause {
                ConditionClause::Version(a) => (
                    format_ident!("expected_{}", types::snake(a)),
                    quote!(i64),
                    format!(
                        "The `{a}` the stored item must be at (the write fails with `VersionMismatch` otherwise)."
                    ),
                ),
                ConditionClause::Compare {
                    attribute,
                    operand: Operand::Param(p),
                    ..
                } => {
                    let ty = match self.pattern.param(p) {
                        Some(param) => param_type(param.ty, param.format),
                        None => alias(self.path, attribute),
                    };
                    (
                        format_ident!("{}", types::snake(p)),
                        ty,
                        format!("`{{{p}}}` in the condition `{clause}`."),
                    )
                }
                _ => continue,
            };
            let taken =
                out.iter().any(|f| f.field == field) || self.vars.iter().any(|v| v.field == field);
            if !taken {
                out.push(CondField { field, ty, doc });
            }
        }
        out
    }

    /// The struct's fields: `leading` (the entity, for a put), the key's variables, then the
    /// condition's.
    fn fields(&self, leading: TokenStream) -> TokenStream {
        let keys = self.vars.iter().map(|v| {
            let (field, ty) = (&v.field, &v.ty);
            let doc = format!("`{}`.", v.name);
            quote!(#[doc = #doc] pub #field: #ty,)
        });
        let conds = self.condition_fields().into_iter().map(|c| {
            let (field, ty, doc) = (c.field, c.ty, c.doc);
            quote!(#[doc = #doc] pub #field: #ty,)
        });
        quote!(#leading #(#keys)* #(#conds)*)
    }

    /// The struct's fields for a request that takes no entity.
    pub(crate) fn struct_fields(&self) -> TokenStream {
        self.fields(TokenStream::new())
    }

    /// `key()`.
    pub(crate) fn key_fn_tokens(&self) -> TokenStream {
        self.key_fn()
    }

    /// `__monotable_check()`: each key variable that must render exactly (a time no finer than
    /// its key's format), else the write is refused before anything is sent.
    pub(crate) fn check_fn(&self) -> TokenStream {
        let name = &self.pattern.name;
        let checks = self.vars.iter().filter_map(|v| {
            let format = crate::codegen::time_format(v.timestamp?);
            let (field, var) = (&v.field, &v.name);
            Some(quote! {
                ::monotable::__private::parameter(
                    #name,
                    #var,
                    ::monotable::__private::Timestamp::check(&self.#field, #format),
                )?;
            })
        });
        quote! {
            #[doc(hidden)]
            pub fn __monotable_check(&self) -> ::core::result::Result<(), ::monotable::ParameterError> {
                #(#checks)*
                ::core::result::Result::Ok(())
            }
        }
    }

    /// The condition without its `version(attr)` clause (an update applies that itself).
    pub(crate) fn condition_without_version(&self) -> TokenStream {
        self.condition_of(false)
    }

    /// `::monotable::unchecked::Condition` of the model's clauses, from `self`'s fields.
    pub(crate) fn condition(&self) -> TokenStream {
        self.condition_of(true)
    }

    fn condition_of(&self, with_version: bool) -> TokenStream {
        let path = self.path;
        let Some(condition) = &self.pattern.condition else {
            return quote!(::monotable::unchecked::Condition::none());
        };
        let clauses = condition.clauses.iter().filter(|c| with_version || !matches!(c, ConditionClause::Version(_))).map(|clause| {
            let text = clause.text();
            match clause {
                ConditionClause::ItemExists => {
                    quote!(::monotable::unchecked::Condition::item_exists::<#path>())
                }
                ConditionClause::ItemAbsent => {
                    quote!(::monotable::unchecked::Condition::item_absent::<#path>())
                }
                ConditionClause::Version(a) => {
                    let field = format_ident!("expected_{}", types::snake(a));
                    quote!(::monotable::unchecked::Condition::version(#a, self.#field))
                }
                ConditionClause::AttributeExists(a) => {
                    quote!(::monotable::unchecked::Condition::exists(#a).named(#text))
                }
                ConditionClause::AttributeAbsent(a) => {
                    quote!(::monotable::unchecked::Condition::not_exists(#a).named(#text))
                }
                ConditionClause::Compare {
                    attribute,
                    op,
                    operand,
                } => {
                    let value = self.operand_value(attribute, operand);
                    let op = format_ident!("{op:?}");
                    quote!(::monotable::unchecked::Condition::compare(::monotable::model::CompareOp::#op, #attribute, #value).named(#text))
                }
            }
        });
        quote!(::monotable::unchecked::Condition::none() #(.and(#clauses))*)
    }

    /// The attribute value a comparison's operand stands for, converted as the entity converts
    /// `attribute`.
    fn operand_value(&self, attribute: &str, operand: &Operand) -> TokenStream {
        match operand {
            Operand::Bool(b) => quote!(::monotable::__private::AttributeValue::Bool(#b)),
            Operand::Integer(i) => {
                let text = i.to_string();
                quote!(::monotable::__private::AttributeValue::N(::std::string::String::from(#text)))
            }
            Operand::Text(t) => {
                quote!(::monotable::__private::AttributeValue::S(::std::string::String::from(#t)))
            }
            Operand::Param(p) => {
                let field = format_ident!("{}", types::snake(p));
                let declared = self.pattern.param(p);
                let attr = declared.or_else(|| self.entity.attribute(attribute));
                match attr {
                    Some(a) if a.ty == AttributeType::Timestamp => {
                        let ty: syn::Type = syn::parse_quote!(());
                        Conv::new(a, &ty).to_value(quote!(&self.#field))
                    }
                    _ => quote!(::monotable::Value::to_value(&self.#field)),
                }
            }
        }
    }

    /// `key()`: the item's table key from the key's variables.
    fn key_fn(&self) -> TokenStream {
        let path = self.path;
        let keys = self.pattern.key.iter().filter_map(|c| match &c.condition {
            KeyTest::Eq(t) => {
                let attr = &c.attribute;
                let value = key_value(self.model, attr, render(t, self.vars));
                Some(quote!(item.insert(#attr.to_string(), #value);))
            }
            _ => None,
        });
        quote! {
            /// The key of the item it writes.
            pub fn key(&self) -> ::monotable::Key<#path> {
                let mut item = ::monotable::__private::Item::new();
                #(#keys)*
                ::monotable::Key::from_item(item)
            }
        }
    }

    /// A PutItem's request.
    pub(crate) fn put(&self) -> TokenStream {
        let (ident, path) = (self.ident, self.path);
        let field = format_ident!("{}", types::snake(&self.entity.name));
        let doc = &self.doc;
        let entity_doc = format!("The `{}` written.", self.entity.name);
        let fields = self.fields(quote!(#[doc = #entity_doc] pub #field: &'a #path,));
        let condition = self.condition();
        let debug = debug_impl(ident, true);
        quote! {
            #[doc = #doc]
            #[derive(Clone)]
            pub struct #ident<'a> { #fields }

            #debug

            impl #ident<'_> {
                /// The model's condition on the stored item.
                pub fn condition(&self) -> ::monotable::unchecked::Condition {
                    #condition
                }

                /// The PutItem, as a transaction action.
                pub fn action(&self) -> ::monotable::unchecked::WriteAction {
                    ::monotable::unchecked::WriteAction::Put(
                        ::monotable::unchecked::PutSpec::put(self.#field).when(self.condition()),
                    )
                }

                /// Write it.
                pub async fn send(&self, table: &::monotable::Table) -> ::core::result::Result<(), ::monotable::WriteError> {
                    ::monotable::unchecked::PutSpec::put(self.#field).when(self.condition()).send(table).await
                }
            }
        }
    }

    /// A DeleteItem (or, `check`, a ConditionCheck) by the key's variables.
    pub(crate) fn keyed(&self, check: bool) -> TokenStream {
        let ident = self.ident;
        let doc = &self.doc;
        let fields = self.fields(TokenStream::new());
        let condition = self.condition();
        let key_fn = self.key_fn();
        let check_fn = self.check_fn();
        let request = if check {
            quote!(::monotable::unchecked::WriteAction::Check(
                ::monotable::unchecked::CheckItem::of(self.key(), self.condition())
            ))
        } else {
            quote!(::monotable::unchecked::WriteAction::Delete(
                ::monotable::unchecked::DeleteItem::of(self.key()).when(self.condition())
            ))
        };
        let action = quote! {
            self.__monotable_check()?;
            ::core::result::Result::Ok(#request)
        };
        let send = (!check).then(|| quote! {
            /// Delete it.
            pub async fn send(&self, table: &::monotable::Table) -> ::core::result::Result<(), ::monotable::WriteError> {
                self.__monotable_check()?;
                ::monotable::unchecked::DeleteItem::of(self.key()).when(self.condition()).send(table).await
            }
        });
        let debug = debug_impl(ident, false);
        quote! {
            #[doc = #doc]
            #[derive(Clone)]
            pub struct #ident { #fields }

            #debug

            impl #ident {
                #key_fn

                /// The model's condition on the stored item.
                pub fn condition(&self) -> ::monotable::unchecked::Condition {
                    #condition
                }

                /// The request, as a transaction action (refused when a key value cannot be
                /// rendered exactly).
                pub fn action(&self) -> ::core::result::Result<::monotable::unchecked::WriteAction, ::monotable::WriteError> {
                    #action
                }

                #check_fn

                #send
            }
        }
    }
}

/// `Debug` of a generated request that shows its name only: its fields' types need not be
/// `Debug` (an entity, an enum of the app's), so deriving it could fail in generated code.
pub(crate) fn debug_impl(ident: &Ident, lifetime: bool) -> TokenStream {
    let name = ident.to_string();
    let generics = if lifetime {
        quote!(<'_>)
    } else {
        TokenStream::new()
    };
    quote! {
        impl ::core::fmt::Debug for #ident #generics {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#name).finish_non_exhaustive()
            }
        }
    }
}

/// The attributes of `entity`'s table key templates, in order: what `unchecked_update_key` takes.
pub(crate) fn primary_inputs(entity: &EntityDecl) -> Vec<String> {
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

/// Whether `attribute` feeds one of `entity`'s keys.
pub(crate) fn is_key_input(entity: &EntityDecl, attribute: &str) -> bool {
    key_inputs(entity).iter().any(|k| k == attribute)
}

/// An error at the macro call for a write pattern the macro cannot generate.
pub(crate) fn unsupported(pattern: &Pattern, why: &str) -> TokenStream {
    syn::Error::new(
        Span::call_site(),
        format!("write pattern `{}`: {why}", pattern.name),
    )
    .to_compile_error()
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use crate::testing::{functions, items, structs};

    #[test]
    fn each_write_pattern_becomes_a_request_with_its_own_fields_and_setters() {
        let out = crate::patterns(quote! {
            model = "testdata/orders.toml";
            entities { Order => crate::orders::Order }
        });
        let file = items(&out);
        assert_eq!(
            structs(&file),
            [
                "DropOrder",
                "GetOrder",
                "ListUserOrders",
                "OrderIsOpen",
                "PlaceOrder",
                "ReplaceOrders",
                "ShipOrder",
            ]
        );
        let text = out.to_string();
        for expected in [
            "pub order : & 'a crate :: orders :: Order",
            "pub expected_version : i64",
            "pub current : crate :: orders :: __monotable_Order_status",
            "pub fn set_status",
            "pub fn set_note",
            "Condition :: item_absent :: < crate :: orders :: Order > ()",
            ". named (\"status = 'OPEN'\")",
            "pub const SHIP_ORDER : & 'static str = \"shipOrder\"",
            "pub struct ShipOrderSet (crate :: orders :: OrderUpdate)",
            "pub use __monotable_ShipOrder :: ShipOrderSet",
        ] {
            assert!(text.contains(expected), "{expected} in {text}");
        }
        let fns = functions(&file);
        assert!(!fns.iter().any(|f| f == "set_version"), "{fns:?}");
        assert!(!fns.iter().any(|f| f == "set_total"), "{fns:?}");
        for f in ["drop_order", "place_order", "ship_order", "order_is_open"] {
            assert!(fns.iter().any(|n| n == f), "{f} in {fns:?}");
        }
    }
}

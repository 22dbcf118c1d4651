//! `patterns!` for multi-item writes: a TransactWrite pattern as a builder with one method per
//! action the model declares (named after the action's write pattern, taking that pattern's
//! request), each entry's `count` enforced, and its failures named by action; a BatchWrite
//! pattern likewise, over its put and delete patterns.

use monotable_model::{Model, Operation, Pattern};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Ident;

use crate::types;

/// One action method: the write pattern it runs and the entry (count slot) it belongs to.
struct Action<'a> {
    name: &'a str,
    entry: usize,
    operation: Operation,
}

fn actions<'a>(pattern: &'a Pattern, model: &'a Model) -> Vec<Action<'a>> {
    let mut out = Vec::new();
    for (entry, w) in pattern.writes.iter().enumerate() {
        for name in &w.patterns {
            let operation = model
                .patterns
                .iter()
                .find(|p| &p.name == name)
                .map_or(Operation::PutItem, |p| p.operation);
            out.push(Action {
                name,
                entry,
                operation,
            });
        }
    }
    out
}

/// The request type a write pattern's method takes, and how it becomes an action.
fn argument(action: &Action<'_>) -> (TokenStream, TokenStream) {
    let ident = format_ident!("{}", types::pascal(action.name));
    match action.operation {
        Operation::UpdateItem => {
            let set = format_ident!("{}Set", ident);
            (
                quote!(#set),
                quote!(::monotable::__private::update_action(request.into_update())),
            )
        }
        Operation::PutItem => (
            quote!(#ident<'_>),
            quote!(::core::result::Result::Ok(request.action())),
        ),
        _ => (quote!(#ident), quote!(request.action())),
    }
}

/// The TransactWrite or BatchWrite pattern's builder.
pub(crate) fn tokens(ident: &Ident, pattern: &Pattern, model: &Model, doc: &str) -> TokenStream {
    if pattern.writes.iter().any(|w| w.patterns.is_empty()) {
        // The older form names entities, not the write patterns it runs: nothing to type.
        return TokenStream::new();
    }
    let batch = pattern.operation == Operation::BatchWrite;
    let pattern_name = &pattern.name;
    let actions = actions(pattern, model);
    let entries = pattern.writes.len();
    let maxima = pattern.writes.iter().map(|w| {
        w.count.map_or(quote!(usize::MAX), |c| {
            let c = usize::try_from(c).unwrap_or(usize::MAX);
            quote!(#c)
        })
    });
    let methods = actions.iter().map(|a| {
        let method = format_ident!("{}", types::snake(a.name));
        let (arg, into) = argument(a);
        let entry = a.entry;
        let name = a.name;
        let doc = format!("Add action `{name}` (the model's write pattern of that name).");
        quote! {
            #[doc = #doc]
            pub fn #method(mut self, request: #arg) -> Self {
                let action = #into;
                self.push(#entry, #name, action);
                self
            }
        }
    });
    let consts = actions.iter().map(|a| {
        let c = format_ident!("{}", types::snake(a.name).to_uppercase());
        let name = a.name;
        let doc = format!("The name failures give action `{name}`.");
        quote!(#[doc = #doc] pub const #c: &'static str = #name;)
    });
    let (send, error) = if batch {
        (
            quote!(::monotable::__private::batch_write(table, self.actions).await),
            quote!(::monotable::BatchError),
        )
    } else {
        (
            quote!(::monotable::__private::transact(table, self.actions).await),
            quote!(::monotable::TransactError),
        )
    };
    let invalid = if batch {
        quote!(::monotable::__private::batch_invalid(e))
    } else {
        quote!(::monotable::__private::transact_invalid(e))
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Default)]
        #[must_use = "a write does nothing until it is sent"]
        pub struct #ident {
            actions: ::std::vec::Vec<(&'static str, ::monotable::unchecked::WriteAction)>,
            counts: [usize; #entries],
            refused: ::core::option::Option<::monotable::WriteError>,
        }

        impl #ident {
            #(#consts)*

            /// No action yet.
            pub fn new() -> Self {
                Self::default()
            }

            fn push(
                &mut self,
                entry: usize,
                name: &'static str,
                action: ::core::result::Result<::monotable::unchecked::WriteAction, ::monotable::WriteError>,
            ) {
                const MAX: [usize; #entries] = [#(#maxima),*];
                if self.refused.is_some() {
                    return;
                }
                self.counts[entry] += 1;
                if self.counts[entry] > MAX[entry] {
                    self.refused = ::core::option::Option::Some(::monotable::__private::too_many(#pattern_name, name, MAX[entry]));
                    return;
                }
                match action {
                    ::core::result::Result::Ok(a) => self.actions.push((name, a)),
                    ::core::result::Result::Err(e) => self.refused = ::core::option::Option::Some(e),
                }
            }

            #(#methods)*

            /// Send it: every action or none.
            pub async fn send(self, table: &::monotable::Table) -> ::core::result::Result<(), #error> {
                if let ::core::option::Option::Some(e) = self.refused {
                    return ::core::result::Result::Err(#invalid);
                }
                #send
            }
        }
    }
}

//! `patterns!`'s stream consumers: for each `[consumers.NAME]` whose entities are all mapped, a
//! type `<Name>Consumer` (implementing `monotable::stream::Consumer`: its settings and Lambda
//! filters as constants, computed here with the model's `Consumer::lambda_filters`, the function
//! the SAM export renders) and an enum `<Name>Change` with one variant per entity it handles.
//! The type carries the `Consumer` suffix because a consumer and a pattern may share a name.

use monotable_model::{
    Consumer, FailureDestination, FilterValue, LambdaFilter, Model, StartingPosition, StreamEvent,
    StreamImage, StreamView,
};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::Path;

use crate::model_file::Loaded;
use crate::types;

/// Every consumer whose entities `mapped` all maps.
pub fn tokens<'p>(loaded: &Loaded, mapped: &impl Fn(&str) -> Option<&'p Path>) -> TokenStream {
    let model = &loaded.model;
    let Some(view) = model.table.stream else {
        return TokenStream::new();
    };
    model
        .consumers
        .iter()
        .filter_map(|c| {
            let paths: Option<Vec<(&str, &Path)>> = c
                .entities
                .iter()
                .map(|e| mapped(e).map(|p| (e.as_str(), p)))
                .collect();
            paths.map(|paths| consumer(loaded, c, view, &paths))
        })
        .collect()
}

fn consumer(
    loaded: &Loaded,
    c: &Consumer,
    view: StreamView,
    paths: &[(&str, &Path)],
) -> TokenStream {
    let pascal = types::pascal(&c.name);
    let ident = format_ident!("{pascal}Consumer");
    let change = format_ident!("{pascal}Change");
    let doc = format!(
        "Stream consumer `{}` ({}): {}",
        c.name,
        loaded.place(&c.span),
        c.description.as_deref().unwrap_or("")
    );
    let change_doc = format!("A change `{}` handles: one variant per entity.", c.name);
    // Generic with the entities as defaults (as a collection's row enum is), so that its
    // derives hold only where the entities implement the traits.
    let generics: Vec<_> = (0..paths.len())
        .map(|i| format_ident!("__Monotable{i}"))
        .collect();
    let defaults = generics
        .iter()
        .zip(paths)
        .map(|(g, (_, p))| quote!(#g = #p));
    let variants = paths.iter().zip(&generics).map(|((name, _), g)| {
        let variant = format_ident!("{}", types::pascal(name));
        let doc = format!("A change of `{name}`.");
        quote!(#[doc = #doc] #variant(::monotable::stream::Change<#g>))
    });
    let arms = paths.iter().map(|(name, path)| {
        let variant = format_ident!("{}", types::pascal(name));
        quote! {
            ::core::option::Option::Some(#name) => ::monotable::stream::decode::<#path>(record)
                .map(|c| ::core::option::Option::Some(#change::#variant(c))),
        }
    });
    let settings = settings(&loaded.model, c, view);
    let name = &c.name;
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone, Copy, Default)]
        pub struct #ident;

        #[doc = #change_doc]
        #[derive(Debug, Clone)]
        pub enum #change<#(#defaults),*> { #(#variants),* }

        impl ::monotable::stream::Consumer for #ident {
            type Change = #change;
            const SETTINGS: ::monotable::stream::ConsumerSettings = #settings;
            fn change(
                record: &::monotable::stream::StreamRecord,
            ) -> ::core::result::Result<::core::option::Option<#change>, ::monotable::stream::DecodeError> {
                match ::monotable::stream::entity_type(record) {
                    #(#arms)*
                    _ => ::core::result::Result::Ok(::core::option::Option::None),
                }
            }
        }

        impl #ident {
            /// Its name in the model.
            pub const NAME: &'static str = #name;

            /// The records of a Lambda DynamoDB event that are its (its filters and entities),
            /// each decoded or its `DecodeError`, in order.
            pub fn decode(
                event: &::monotable::stream::Event,
            ) -> ::std::vec::Vec<::core::result::Result<::monotable::stream::Delivered<#change>, ::monotable::stream::DecodeError>> {
                ::monotable::stream::decode_event::<Self>(event)
            }

            /// Decode `event` and call `handler` with its changes; a record that does not
            /// decode is reported failed (`ReportBatchItemFailures`).
            pub async fn handle<F, Fut>(event: &::monotable::stream::Event, handler: F) -> ::monotable::stream::BatchResponse
            where
                F: ::core::ops::FnOnce(::std::vec::Vec<::monotable::stream::Delivered<#change>>) -> Fut,
                Fut: ::core::future::Future<Output = ::monotable::stream::BatchResponse>,
            {
                ::monotable::stream::handle::<Self, F, Fut>(event, handler).await
            }
        }
    }
}

fn settings(model: &Model, c: &Consumer, view: StreamView) -> TokenStream {
    let name = &c.name;
    let entities = &c.entities;
    let events = c.events.iter().map(|e| event(*e));
    let filters = c.lambda_filters(model, view);
    let filters = filters.iter().map(filter);
    let (batch_size, retries, bisect) = (c.batch_size, c.retries, c.bisect_on_error);
    let on_failure = match c.on_failure {
        None => quote!(::core::option::Option::None),
        Some(FailureDestination::Queue) => {
            quote!(::core::option::Option::Some(
                ::monotable::model::FailureDestination::Queue
            ))
        }
        Some(FailureDestination::Topic) => {
            quote!(::core::option::Option::Some(
                ::monotable::model::FailureDestination::Topic
            ))
        }
    };
    let start = match c.starting_position {
        StartingPosition::TrimHorizon => quote!(TrimHorizon),
        StartingPosition::Latest => quote!(Latest),
    };
    let view = match view {
        StreamView::KeysOnly => quote!(KeysOnly),
        StreamView::NewImage => quote!(NewImage),
        StreamView::OldImage => quote!(OldImage),
        StreamView::NewAndOldImages => quote!(NewAndOldImages),
    };
    quote! {
        ::monotable::stream::ConsumerSettings {
            name: #name,
            view: ::monotable::model::StreamView::#view,
            entities: &[#(#entities),*],
            events: &[#(#events),*],
            filters: &[#(#filters),*],
            batch_size: #batch_size,
            retries: #retries,
            bisect_on_error: #bisect,
            on_failure: #on_failure,
            starting_position: ::monotable::model::StartingPosition::#start,
        }
    }
}

fn event(e: StreamEvent) -> TokenStream {
    match e {
        StreamEvent::Insert => quote!(::monotable::model::StreamEvent::Insert),
        StreamEvent::Modify => quote!(::monotable::model::StreamEvent::Modify),
        StreamEvent::Remove => quote!(::monotable::model::StreamEvent::Remove),
    }
}

fn filter(f: &LambdaFilter) -> TokenStream {
    let events = f.events.iter().map(|e| event(*e));
    let image = match f.image {
        None => quote!(::core::option::Option::None),
        Some(StreamImage::New) => {
            quote!(::core::option::Option::Some(
                ::monotable::model::StreamImage::New
            ))
        }
        Some(StreamImage::Old) => {
            quote!(::core::option::Option::Some(
                ::monotable::model::StreamImage::Old
            ))
        }
    };
    let entities = &f.entities;
    let attributes = f.attributes.iter().map(|(attribute, values)| {
        let values = values.iter().map(|v| match v {
            FilterValue::String(s) => quote!(::monotable::stream::FilterMatch::S(#s)),
            FilterValue::Number(n) => quote!(::monotable::stream::FilterMatch::N(#n)),
            FilterValue::Bool(b) => quote!(::monotable::stream::FilterMatch::Bool(#b)),
        });
        quote!((#attribute, &[#(#values),*]))
    });
    quote! {
        ::monotable::stream::Filter {
            events: &[#(#events),*],
            image: #image,
            entities: &[#(#entities),*],
            attributes: &[#(#attributes),*],
        }
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use crate::testing::{items, structs, trait_impls};

    fn enums(file: &syn::File) -> Vec<(String, Vec<String>)> {
        file.items
            .iter()
            .filter_map(|item| match item {
                syn::Item::Enum(e) => Some((
                    e.ident.to_string(),
                    e.variants.iter().map(|v| v.ident.to_string()).collect(),
                )),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_consumer_of_mapped_entities_becomes_a_type_and_an_enum_of_exactly_its_entities() {
        let out = crate::patterns(quote! {
            model = "../../examples/streams/sales.toml";
            entities {
                Order => crate::Order,
                OrderItem => crate::OrderItem,
                Product => crate::Product,
            }
        });
        let file = items(&out);
        assert!(structs(&file).contains(&"ProductSalesConsumer".to_string()));
        let changes: Vec<_> = enums(&file)
            .into_iter()
            .filter(|(name, _)| name == "ProductSalesChange")
            .collect();
        assert_eq!(
            changes,
            [(
                "ProductSalesChange".to_string(),
                vec!["OrderItem".to_string(), "Order".to_string()]
            )]
        );
        assert!(
            trait_impls(&file)
                .iter()
                .any(|(t, ty)| t.ends_with("Consumer") && ty == "ProductSalesConsumer"),
            "{:?}",
            trait_impls(&file)
        );
        // The Lambda filters the SAM export renders, as constants: INSERT and MODIFY on the new
        // image, the status filter only where the entity has the attribute (Order).
        let text = out.to_string();
        for part in [
            r#"name : "productSales""#,
            r#"entities : & ["OrderItem"]"#,
            r#"entities : & ["Order"]"#,
            r#"attributes : & [("status" , & [:: monotable :: stream :: FilterMatch :: S ("CANCELLED")])]"#,
            "batch_size : 100u32",
            "retries : 3i32",
            "bisect_on_error : true",
        ] {
            assert!(text.contains(part), "{part} not in {text}");
        }
    }

    #[test]
    fn a_consumer_with_an_unmapped_entity_is_left_out() {
        let out = crate::patterns(quote! {
            model = "../../examples/streams/sales.toml";
            entities { Order => crate::Order }
        });
        let file = items(&out);
        assert!(
            !enums(&file)
                .iter()
                .any(|(name, _)| name == "ProductSalesChange")
        );
        assert!(!structs(&file).contains(&"ProductSalesConsumer".to_string()));
    }
}

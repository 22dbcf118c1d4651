//! The entity derive on the test model's `Order`: what a matching struct gets, and each refusal.

use proc_macro2::TokenStream;
use quote::quote;

use crate::testing::{errors, functions, items, structs, trait_impls};

/// The derive on `Order` of the test model, with `fields` and `#[monotable(...)]` options.
fn derive(options: TokenStream, fields: TokenStream) -> TokenStream {
    crate::derive_entity(quote! {
        #[monotable(model = "testdata/orders.toml", #options)]
        pub struct Order { #fields }
    })
}

fn order_fields() -> TokenStream {
    quote! {
        order_id: String,
        user_id: String,
        status: Status,
        total: Decimal,
        created_at: OffsetDateTime,
        note: Option<String>,
        version: i64,
    }
}

#[test]
fn a_matching_struct_gets_the_trait_the_key_and_the_update_builder() {
    let file = items(&derive(quote!(version = "version"), order_fields()));
    assert!(trait_impls(&file).contains(&("::monotable::Entity".into(), "Order".into())));
    assert_eq!(structs(&file), ["OrderUpdate"]);
    let fns = functions(&file);
    for f in [
        "to_item",
        "from_item",
        "key",
        "key_args",
        "version",
        "key_of",
        "unchecked_update",
        "unchecked_update_key",
    ] {
        assert!(fns.iter().any(|n| n == f), "{f} in {fns:?}");
    }
    // Setters for what is not a table-key input nor the version; `add_` for numbers no key reads.
    for f in [
        "set_status",
        "set_total",
        "add_total",
        "set_note",
        "set_created_at",
    ] {
        assert!(fns.iter().any(|n| n == f), "{f} in {fns:?}");
    }
    for f in [
        "set_order_id",
        "set_version",
        "add_version",
        "update",
        "update_key",
    ] {
        assert!(!fns.iter().any(|n| n == f), "{f} in {fns:?}");
    }
}

#[test]
fn key_templates_are_compiled_into_string_building() {
    let text = derive(quote!(version = "version"), order_fields()).to_string();
    assert!(text.contains(r#"s . push_str ("ORDER#")"#), "{text}");
    assert!(text.contains(r#"s . push_str ("USER#")"#), "{text}");
    // Every key the entity writes is inserted, GSI1 included.
    for key in ["\"PK\"", "\"SK\"", "\"GSI1PK\"", "\"GSI1SK\""] {
        assert!(
            text.contains(&format!("insert ({key} . to_string ()")),
            "{key}"
        );
    }
    // Without a version option there is no version method.
    let file = items(&derive(quote!(), order_fields()));
    assert!(!functions(&file).iter().any(|f| f == "version"));
}

#[test]
fn a_field_the_entity_lacks_is_named_with_the_model_line() {
    let mut fields = order_fields();
    fields.extend(quote!(colour: String,));
    let errors = errors(&derive(quote!(), fields));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(
            "`colour` is not an attribute of entity Order (testdata/orders.toml:17); "
        ),
        "{}",
        errors[0]
    );
}

#[test]
fn every_problem_is_reported_at_once() {
    // `note` made required, `total` a float, `version` missing.
    let fields = quote! {
        order_id: String,
        user_id: String,
        status: Status,
        total: f64,
        created_at: OffsetDateTime,
        note: String,
    };
    let errors = errors(&derive(quote!(), fields));
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors[0].starts_with("`total` is a model `decimal`"),
        "{}",
        errors[0]
    );
    assert!(
        errors[0].contains("(a float would round money"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].starts_with("`note` is optional in the model"),
        "{}",
        errors[1]
    );
    assert!(
        errors[2].starts_with("entity Order requires attribute `version`"),
        "{}",
        errors[2]
    );
}

#[test]
fn an_unknown_entity_is_refused_with_a_guess() {
    let out = crate::derive_entity(quote! {
        #[monotable(model = "testdata/orders.toml", entity = "Ordr")]
        struct Anything { order_id: String }
    });
    assert_eq!(
        errors(&out),
        [
            "the model `testdata/orders.toml` has no entity `Ordr` (did you mean `Order`?); it has Order: name one of them in #[monotable(entity = \"...\")]"
        ]
    );
}

#[test]
fn a_version_that_is_not_a_required_integer_is_refused() {
    let errors = errors(&derive(quote!(version = "total"), order_fields()));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("the version attribute must be a required `integer` attribute of the entity, which every write checks and bumps: `total` is a model `decimal` (testdata/orders.toml:"),
        "{}",
        errors[0]
    );
    assert!(
        errors[0].ends_with("name one of Order's required integer attributes instead: version")
    );
}

#[test]
fn a_skipped_key_input_and_bad_options_are_refused() {
    let fields = quote! {
        order_id: String,
        #[monotable(skip)]
        user_id: String,
        status: Status,
        total: Decimal,
        created_at: OffsetDateTime,
        note: Option<String>,
        version: i64,
    };
    let skipped = errors(&derive(quote!(), fields));
    assert_eq!(skipped.len(), 1, "{skipped:?}");
    assert!(
        skipped[0].starts_with(
            "`user_id` is #[monotable(skip)], but key template `GSI1PK` = \"USER#{userId}\""
        ),
        "{}",
        skipped[0]
    );
    let option = errors(&derive(quote!(table = "x"), order_fields()));
    assert_eq!(
        option,
        ["expected `model = \"...\"`, `entity = \"...\"` or `version = \"...\"`"]
    );
    let on_enum = errors(&crate::derive_entity(quote!(
        enum Order {
            A,
        }
    )));
    assert_eq!(
        on_enum,
        ["#[derive(Entity)] works on structs with named fields"]
    );
}

#[test]
fn a_failed_derive_stands_in_with_a_stub_so_one_mistake_is_one_error() {
    // `order_id` of the wrong type: one error, and the `Entity` impl and the aliases
    // `patterns!` names, the broken field's typed as the model needs.
    let out = derive(
        quote!(),
        quote! {
            order_id: i64,
            user_id: String,
            status: Status,
            total: Decimal,
            created_at: OffsetDateTime,
            note: Option<String>,
            version: i64,
        },
    );
    assert_eq!(errors(&out).len(), 1, "{:?}", errors(&out));
    let file: syn::File = syn::parse2(out.clone()).unwrap();
    assert!(trait_impls(&file).contains(&("::monotable::Entity".into(), "Order".into())));
    let text = out.to_string().replace(' ', "");
    for alias in [
        "type__monotable_Order_orderId=::std::string::String;",
        "type__monotable_Order_userId=String;",
        "type__monotable_Order_status=Status;",
    ] {
        assert!(text.contains(alias), "{alias} in {text}");
    }
    // The stub renders no key and converts nothing.
    assert!(!text.contains("push_str"), "{text}");
    // A derive that cannot even read its model stands in too, with no alias.
    let lost = crate::derive_entity(quote! {
        #[monotable(model = "testdata/nowhere.toml")]
        struct Order { order_id: String }
    });
    assert_eq!(errors(&lost).len(), 1);
    assert!(
        lost.to_string()
            .contains(":: monotable :: Entity for Order")
    );
}

//! `#[derive(Entity)]`: the struct checked against the model's entity (every required attribute
//! a field of a compatible type, every key template input a field, nothing the model does not
//! know), then the item conversion both ways, the key templates compiled into string building,
//! and a typed update builder.

use monotable_model::{Attribute, AttributeType, EntityDecl, KeyField};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Ident, LitStr, Type, Visibility};

use crate::codegen::{self, Conv};
use crate::field::{Field, key_fields, key_inputs, table_keys};
use crate::model_file::{self, Loaded};
use crate::types::{self, RustKind};
use crate::{once, stub};

/// The container's `#[monotable(...)]`.
#[derive(Default)]
struct Options {
    model: Option<String>,
    entity: Option<(String, Span)>,
    version: Option<(String, Span)>,
}

fn parse_options(input: &DeriveInput) -> syn::Result<Options> {
    let mut options = Options::default();
    for attr in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("monotable"))
    {
        attr.parse_nested_meta(|meta| {
            let value = || -> syn::Result<LitStr> { meta.value()?.parse() };
            if meta.path.is_ident("model") {
                options.model = Some(value()?.value());
            } else if meta.path.is_ident("entity") {
                let lit = value()?;
                options.entity = Some((lit.value(), lit.span()));
            } else if meta.path.is_ident("version") {
                let lit = value()?;
                options.version = Some((lit.value(), lit.span()));
            } else {
                return Err(meta.error(
                    "expected `model = \"...\"`, `entity = \"...\"` or `version = \"...\"`",
                ));
            }
            Ok(())
        })?;
    }
    Ok(options)
}

fn field_options(field: &syn::Field) -> syn::Result<(Option<String>, Option<Span>)> {
    let (mut rename, mut skip) = (None, None);
    for attr in field
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("monotable"))
    {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                rename = Some(meta.value()?.parse::<LitStr>()?.value());
            } else if meta.path.is_ident("skip") {
                skip = Some(meta.path.span());
            } else {
                return Err(meta.error("expected `rename = \"attribute\"` or `skip`"));
            }
            Ok(())
        })?;
    }
    Ok((rename, skip))
}

/// The derive's output; or its errors, with a stub standing in for the code it would have
/// generated, so that code using the struct does not fail again ([`stub`]).
pub fn derive(input: DeriveInput) -> TokenStream {
    match expand(&input) {
        Ok(tokens) => tokens,
        Err(Failed { errors, stub }) => {
            let mut out = once::compile_error(errors);
            out.extend(stub);
            out
        }
    }
}

/// A derive that failed: its errors (none when the model's own error is another invocation's
/// to report, [`once`]), and what stands in for the code it would have generated.
struct Failed {
    errors: Option<syn::Error>,
    stub: TokenStream,
}

impl Failed {
    /// `errors` about `input`, with a stub of no entity.
    fn alone(input: &DeriveInput, errors: Option<syn::Error>) -> Failed {
        Failed {
            errors,
            stub: stub::entity(input, None, &[]),
        }
    }
}

fn combine(errors: impl IntoIterator<Item = syn::Error>) -> Option<syn::Error> {
    let mut iter = errors.into_iter();
    let mut first = iter.next()?;
    first.extend(iter);
    Some(first)
}

fn expand(input: &DeriveInput) -> Result<TokenStream, Failed> {
    let options = parse_options(input).map_err(|e| Failed::alone(input, Some(e)))?;
    let named = named_fields(input).map_err(|e| Failed::alone(input, Some(e)))?;
    let (entity_name, entity_span) = options
        .entity
        .clone()
        .unwrap_or_else(|| (input.ident.to_string(), input.ident.span()));
    let loaded = model_file::load(options.model.as_deref(), entity_span)
        .map_err(|e| Failed::alone(input, once::model_error(e, entity_span)))?;
    // What `check` refuses in the model is reported once per crate; the code is still
    // generated from the model, which is valid data.
    let refused = loaded
        .refused
        .as_ref()
        .and_then(|m| once::model_error(syn::Error::new(entity_span, m), entity_span));
    let Some(entity) = loaded.model.entity(&entity_name) else {
        let known = loaded.model.entities.iter().map(|e| e.name.as_str());
        let guess = types::closest(&entity_name, known.clone());
        let error = unknown_entity(&entity_name, entity_span, guess, &options, &loaded);
        return Err(Failed {
            errors: combine(refused.into_iter().chain([error])),
            stub: stub::entity(input, guess.and_then(|g| loaded.model.entity(g)), &[]),
        });
    };
    let mut errors = Vec::new();
    let mut fields = Vec::new();
    for f in &named.named {
        match field(f, entity, &loaded, &fields, &mut errors) {
            Ok(field) => fields.push(field),
            Err(e) => errors.push(e),
        }
    }
    check_required(entity, &fields, &loaded, &input.ident, &mut errors);
    check_keys(entity, &fields, &loaded, &input.ident, &mut errors);
    let version = match &options.version {
        Some((name, span)) => check_version(name, *span, entity, &fields, &loaded, &mut errors),
        None => None,
    };
    if !errors.is_empty() {
        let aliases: Vec<stub::Alias> = fields
            .iter()
            .filter(|f| !f.skip)
            .filter_map(|f| {
                Some(stub::Alias {
                    attribute: f.attribute?,
                    ty: (!f.broken).then_some(&f.inner),
                })
            })
            .collect();
        return Err(Failed {
            errors: combine(refused.into_iter().chain(errors)),
            stub: stub::entity(input, Some(entity), &aliases),
        });
    }
    let mut out = generate(input, entity, &fields, &loaded, version);
    out.extend(once::compile_error(refused));
    Ok(out)
}

/// The named fields of the struct `input` is.
fn named_fields(input: &DeriveInput) -> syn::Result<&syn::FieldsNamed> {
    let Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(Entity)] works on structs with named fields",
        ));
    };
    match &data.fields {
        Fields::Named(named) => Ok(named),
        _ => Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(Entity)] needs named fields",
        )),
    }
}

/// The model has no entity `name`: the ones it has, and the closest.
fn unknown_entity(
    name: &str,
    span: Span,
    guess: Option<&str>,
    options: &Options,
    loaded: &Loaded,
) -> syn::Error {
    let known: Vec<&str> = loaded
        .model
        .entities
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    let guess = guess
        .map(|g| format!(" (did you mean `{g}`?)"))
        .unwrap_or_default();
    let fix = if options.entity.is_some() {
        "name one of them in #[monotable(entity = \"...\")]"
    } else {
        "name the struct after one of them, or map it with #[monotable(entity = \"...\")]"
    };
    syn::Error::new(
        span,
        format!(
            "the model `{}` has no entity `{name}`{guess}; it has {}: {fix}",
            loaded.shown,
            known.join(", ")
        ),
    )
}

/// Map one struct field to its attribute and check its type. A type that cannot hold the
/// attribute is reported in `errors`, and the field still maps to it (so it is not reported
/// missing too).
fn field<'a>(
    f: &syn::Field,
    entity: &'a EntityDecl,
    loaded: &Loaded,
    before: &[Field],
    errors: &mut Vec<syn::Error>,
) -> syn::Result<Field<'a>> {
    let ident = f
        .ident
        .clone()
        .ok_or_else(|| syn::Error::new_spanned(f, "unnamed field"))?;
    let (rename, skip_span) = field_options(f)?;
    let name = rename.unwrap_or_else(|| types::camel(&ident.to_string()));
    let (optional, inner) = match types::option_inner(&f.ty) {
        Some(inner) => (true, inner.clone()),
        None => (false, f.ty.clone()),
    };
    let mut out = Field {
        ident,
        ty: f.ty.clone(),
        inner,
        optional,
        attribute: None,
        name,
        skip: skip_span.is_some(),
        skip_span,
        broken: false,
    };
    if out.skip {
        out.attribute = entity.attribute(&out.name);
        return Ok(out);
    }
    let place = loaded.place(&entity.span);
    let Some(attribute) = entity.attribute(&out.name) else {
        let unmapped = entity
            .attributes
            .iter()
            .map(|a| a.name.as_str())
            .filter(|a| !before.iter().any(|f| f.name == *a));
        let guess = types::closest(&out.name, unmapped)
            .map(|g| format!("map it with #[monotable(rename = \"{g}\")] if it is `{g}`, "))
            .unwrap_or_default();
        return Err(syn::Error::new_spanned(
            &f.ty,
            format!(
                "`{}` is not an attribute of entity {} ({place}); {guess}add it to the model, map the field to an attribute with #[monotable(rename = \"attribute\")], or leave it out of the item with #[monotable(skip)]",
                out.name, entity.name
            ),
        ));
    };
    out.attribute = Some(attribute);
    if let Err(e) = check_type(&out, attribute, entity, loaded) {
        errors.push(e);
        out.broken = true;
    }
    Ok(out)
}

/// `Option<String>` as written.
fn written(ty: &Type) -> String {
    quote!(#ty).to_string().replace(' ', "")
}

/// Whether field `f` can hold attribute `a`. Each advice holds for the model at hand: a key
/// template input must stay required (a key is written on every item), so neither advice
/// offers to make one optional.
fn check_type(f: &Field, a: &Attribute, entity: &EntityDecl, loaded: &Loaded) -> syn::Result<()> {
    let place = loaded.place(&a.span);
    let key = key_reading(entity, &a.name).map(|k| {
        format!(
            "key template `{}` = \"{}\" ({}) reads it",
            k.attribute,
            k.template,
            loaded.place(&k.span)
        )
    });
    if a.required && f.optional {
        let message = match &key {
            Some(key) => format!(
                "`{}` is required in the model ({place}), so every item has it, and {key}: make the field `{}`, not an Option",
                a.name,
                written(&f.inner)
            ),
            None => format!(
                "`{}` is required in the model ({place}), so every item has it: make the field `{}`, not an Option (or make the attribute optional in the model)",
                a.name,
                written(&f.inner)
            ),
        };
        return Err(syn::Error::new_spanned(&f.ty, message));
    }
    if !a.required && !f.optional {
        let message = match &key {
            Some(key) => format!(
                "`{}` is optional in the model ({place}), but {key}, and a key is written on every item: make the attribute `required = true` in the model",
                a.name
            ),
            None => format!(
                "`{}` is optional in the model ({place}), so an item may lack it: make the field `Option<{}>` (or make the attribute `required = true` in the model)",
                a.name,
                written(&f.inner)
            ),
        };
        return Err(syn::Error::new_spanned(&f.ty, message));
    }
    if types::compatible(a, types::kind(&f.inner)) == Some(false) {
        let why = match (a.ty, types::kind(&f.inner)) {
            (AttributeType::Decimal, RustKind::Float) => {
                " (a float would round money; `decimal` is exact both ways)"
            }
            (AttributeType::Enum, _) => {
                " (an enum attribute is a Rust enum whose variants are the model's values)"
            }
            _ => "",
        };
        return Err(syn::Error::new_spanned(
            &f.inner,
            format!(
                "`{}` is a model `{}` ({place}), which `{}` cannot hold{why}; use {}",
                a.name,
                types::type_name(a),
                written(&f.inner),
                types::suggestion(a)
            ),
        ));
    }
    if let (Some(items), Some(element)) = (a.items, types::element(&f.inner))
        && types::element_compatible(items, types::kind(element)) == Some(false)
    {
        let fix = match items {
            AttributeType::Enum => format!(
                "an enum with #[derive(monotable::Enum)] for the elements, `{}<YourEnum>`",
                written(&f.inner).split('<').next().unwrap_or("Vec")
            ),
            _ => types::suggestion(a),
        };
        return Err(syn::Error::new_spanned(
            element,
            format!(
                "`{}` is a model `{}` ({place}), whose `{}` elements `{}` cannot hold; use {fix}",
                a.name,
                types::type_name(a),
                format!("{items:?}").to_ascii_lowercase(),
                written(element),
            ),
        ));
    }
    Ok(())
}

/// The first key template that reads `attribute` (as a variable or as its sparse condition).
fn key_reading<'a>(entity: &'a EntityDecl, attribute: &str) -> Option<&'a KeyField> {
    key_fields(entity).into_iter().map(|k| k.field).find(|k| {
        k.template.variables().any(|v| v == attribute) || k.condition.as_deref() == Some(attribute)
    })
}

fn check_required(
    entity: &EntityDecl,
    fields: &[Field],
    loaded: &Loaded,
    ident: &Ident,
    errors: &mut Vec<syn::Error>,
) {
    for a in entity.attributes.iter().filter(|a| a.required) {
        let place = loaded.place(&a.span);
        match fields.iter().find(|f| f.name == a.name) {
            Some(f) if !f.skip => {}
            Some(f) => {
                let at = f.skip_span.unwrap_or_else(|| f.ident.span());
                let message = match key_reading(entity, &a.name) {
                    Some(k) => format!(
                        "`{}` is #[monotable(skip)], but key template `{}` = \"{}\" ({}) reads `{}`, a required attribute of {} ({place}): remove #[monotable(skip)] so the item carries it and the key can be rendered",
                        f.ident,
                        k.attribute,
                        k.template,
                        loaded.place(&k.span),
                        a.name,
                        entity.name
                    ),
                    None => format!(
                        "`{}` is #[monotable(skip)], but `{}` is a required attribute of {} ({place}) that every item carries: remove #[monotable(skip)], or make the attribute optional in the model",
                        f.ident, a.name, entity.name
                    ),
                };
                errors.push(syn::Error::new(at, message));
            }
            None => errors.push(syn::Error::new_spanned(
                ident,
                format!(
                    "entity {} requires attribute `{}` ({place}, a model `{}`): add a field `{}: {}`, or map one to it with #[monotable(rename = \"{}\")]",
                    entity.name,
                    a.name,
                    types::type_name(a),
                    types::snake(&a.name),
                    types::suggestion(a),
                    a.name
                ),
            )),
        }
    }
}

fn check_keys(
    entity: &EntityDecl,
    fields: &[Field],
    loaded: &Loaded,
    ident: &Ident,
    errors: &mut Vec<syn::Error>,
) {
    let mut reported: Vec<&str> = Vec::new();
    for key in key_fields(entity).into_iter().map(|k| k.field) {
        let inputs = key.template.variables().chain(key.condition.as_deref());
        for name in inputs {
            let attribute = entity.attribute(name);
            // A required attribute without a (stored) field is reported once, as such.
            if attribute.is_some_and(|a| a.required)
                && !fields.iter().any(|f| f.name == name && !f.skip)
                || reported.contains(&name)
            {
                continue;
            }
            // Past the test above, the attribute is optional in the model: the fix makes it
            // required as well.
            let required = if attribute.is_some() {
                "make it `required = true` in the model and "
            } else {
                ""
            };
            let field = fields.iter().find(|f| f.name == name);
            let (at, problem) = match field {
                None => (
                    ident.span(),
                    format!(
                        "an optional attribute that comes from no field, but a key is written on every item: {required}add a field `{}: {}`",
                        types::snake(name),
                        attribute.map_or_else(|| "T".to_string(), types::suggestion)
                    ),
                ),
                Some(f) if f.skip => (
                    f.skip_span.unwrap_or_else(|| f.ident.span()),
                    format!(
                        "an optional attribute whose field `{}` is #[monotable(skip)], but a key is written on every item: {required}remove the skip",
                        f.ident
                    ),
                ),
                // An attribute the model requires, in an Option, is reported as such.
                Some(f) if f.optional && !attribute.is_some_and(|a| a.required) => (
                    f.ty.span(),
                    "an optional attribute, but a key is written on every item: make it `required = true` in the model and the field a plain value"
                        .to_string(),
                ),
                Some(_) => continue,
            };
            reported.push(name);
            errors.push(syn::Error::new(
                at,
                format!(
                    "key template `{}` = \"{}\" ({}) reads `{name}`, {problem}",
                    key.attribute,
                    key.template,
                    loaded.place(&key.span)
                ),
            ));
        }
    }
}

fn check_version(
    name: &str,
    span: Span,
    entity: &EntityDecl,
    fields: &[Field],
    loaded: &Loaded,
    errors: &mut Vec<syn::Error>,
) -> Option<String> {
    let counters: Vec<&str> = entity
        .attributes
        .iter()
        .filter(|a| a.required && a.ty == AttributeType::Integer)
        .map(|a| a.name.as_str())
        .collect();
    let candidates = match counters.as_slice() {
        [] => format!(
            "; declare one, e.g. `attributes.version = {{ type = \"integer\", required = true }}` under [entities.{}]",
            entity.name
        ),
        some => format!(
            "; name one of {}'s required integer attributes instead: {}",
            entity.name,
            some.join(", ")
        ),
    };
    let problem = match entity.attribute(name) {
        None => format!(
            "`{name}` is not an attribute of entity {} ({})",
            entity.name,
            loaded.place(&entity.span)
        ),
        Some(a) if a.ty != AttributeType::Integer => format!(
            "`{name}` is a model `{}` ({})",
            types::type_name(a),
            loaded.place(&a.span)
        ),
        Some(a) if !a.required => format!(
            "`{name}` is optional in the model ({})",
            loaded.place(&a.span)
        ),
        // A missing or mistyped field is reported as such.
        Some(_) => {
            return fields
                .iter()
                .any(|f| f.name == name && !f.skip)
                .then(|| name.to_string());
        }
    };
    errors.push(syn::Error::new(
        span,
        format!(
            "the version attribute must be a required `integer` attribute of the entity, which every write checks and bumps: {problem}{candidates}"
        ),
    ));
    None
}

fn conv<'a>(f: &'a Field) -> Conv<'a> {
    Conv::new(f.attribute.expect("checked"), &f.inner)
}

fn generate(
    input: &DeriveInput,
    entity: &EntityDecl,
    fields: &[Field],
    loaded: &Loaded,
    version: Option<String>,
) -> TokenStream {
    let ident = &input.ident;
    let vis = &input.vis;
    let name = &entity.name;
    let stored: Vec<&Field> = fields.iter().filter(|f| !f.skip).collect();
    let to_item = stored.iter().map(|f| {
        let (field, attr) = (&f.ident, &f.name);
        let value = conv(f).to_value(quote!(v));
        if f.optional {
            quote! { if let ::core::option::Option::Some(v) = &self.#field { ::monotable::__private::insert(&mut item, #attr, #value); } }
        } else {
            quote! { { let v = &self.#field; ::monotable::__private::insert(&mut item, #attr, #value); } }
        }
    });
    let from_item = fields.iter().map(|f| {
        let field = &f.ident;
        if f.skip {
            return quote! { #field: ::core::default::Default::default() };
        }
        let (attr, read) = (&f.name, conv(f).reader());
        // A set is absent when empty: a required one reads back empty.
        let set = f.attribute.is_some_and(|a| a.ty == AttributeType::Set);
        let how = match (f.optional, set) {
            (true, _) => quote!(optional),
            (false, true) => quote!(required_set),
            (false, false) => quote!(required),
        };
        quote! { #field: ::monotable::__private::#how(item, #name, #attr, #read)? }
    });
    let on_self = |f: &Field| {
        let field = &f.ident;
        quote!(&self.#field)
    };
    let key_items = key_fields(entity)
        .into_iter()
        .map(|k| codegen::render_key(k.field, stored.as_slice(), loaded, quote!(item), &on_self));
    let primary = table_keys(entity)
        .into_iter()
        .map(|k| codegen::render_key(k, stored.as_slice(), loaded, quote!(item), &on_self));
    let specs = key_fields(entity)
        .into_iter()
        .map(|k| codegen::key_spec(k, loaded));
    let inputs = key_inputs(entity);
    let args = stored.iter().filter(|f| inputs.contains(&f.name)).map(|f| {
        let (field, attr) = (&f.ident, &f.name);
        let arg = conv(f).key_arg(quote!(::core::clone::Clone::clone(&self.#field)));
        let value = conv(f).to_value(quote!(&self.#field));
        quote! { args.insert(#attr, #arg.stored(#value)); }
    });
    let version_const = version.as_ref().map(|v| quote! { const VERSION: ::core::option::Option<&'static str> = ::core::option::Option::Some(#v); });
    let version_fn = version.as_ref().and_then(|v| stored.iter().find(|f| &f.name == v)).map(|f| {
        let field = &f.ident;
        quote! { fn version(&self) -> ::core::option::Option<i64> { ::core::convert::TryFrom::try_from(self.#field).ok() } }
    });
    let cardinalities = entity.attributes.iter().filter_map(|a| {
        a.cardinality.map(|c| {
            let n = &a.name;
            quote! { (#n, #c) }
        })
    });
    let checks = stored.iter().map(|f| {
        let bound = conv(f).bound(&f.inner);
        let values = enum_values_check(f, entity, loaded);
        quote! { #bound #values }
    });
    let aliases = stored.iter().map(|f| alias(vis, ident, f));
    let tracking = loaded.tracking();
    let update = crate::update::generate(input, entity, &stored, loaded, version.as_deref());
    let validate = crate::exact::validate(name, &stored);
    quote! {
        #tracking
        #(#checks)*
        #(#aliases)*
        impl ::monotable::Entity for #ident {
            const NAME: &'static str = #name;
            const KEYS: &'static [::monotable::KeySpec] = &[#(#specs),*];
            const CARDINALITIES: &'static [(&'static str, u64)] = &[#(#cardinalities),*];
            #version_const
            fn to_item(&self) -> ::monotable::__private::Item {
                let mut item = ::monotable::__private::Item::new();
                #(#to_item)*
                #(#key_items)*
                item.insert(::monotable::__private::ENTITY_TYPE.to_string(), ::monotable::__private::AttributeValue::S(#name.to_string()));
                item
            }
            fn from_item(item: &::monotable::__private::Item) -> ::core::result::Result<Self, ::monotable::EntityError> {
                ::core::result::Result::Ok(Self { #(#from_item),* })
            }
            fn key(&self) -> ::monotable::Key<Self> {
                let mut item = ::monotable::__private::Item::new();
                #(#primary)*
                ::monotable::Key::from_item(item)
            }
            fn key_args(&self) -> ::std::collections::HashMap<&'static str, ::monotable::KeyArg> {
                let mut args = ::std::collections::HashMap::new();
                #(#args)*
                args
            }
            #version_fn
            #validate
        }
        #update
    }
}

/// For an enum attribute: compile-time assertions that the Rust enum's texts are the model's
/// values (the derive cannot see the enum itself, so a const evaluates it), one per model value
/// the enum lacks, and one for texts the model does not have.
fn enum_values_check(f: &Field, entity: &EntityDecl, loaded: &Loaded) -> TokenStream {
    let Some(a) = f.attribute.filter(|a| a.ty == AttributeType::Enum) else {
        return TokenStream::new();
    };
    let values = &a.values;
    let inner = &f.inner;
    let listed = values.join(", ");
    let place = loaded.place(&a.span);
    let enum_name = written(inner);
    let lacks = values.iter().map(|v| {
        let message = format!(
            "the enum `{enum_name}` of field `{}` has no variant for `{v}`, a value of {}.{} ({place}: {listed}): add a variant whose text is `{v}` (#[monotable(rename = \"{v}\")] sets a variant's text)",
            f.ident, entity.name, a.name,
        );
        quote_spanned! { f.inner.span()=>
            const _: () = ::core::assert!(
                <#inner as ::monotable::EnumValue>::INVALID
                    || ::monotable::__private::has_value(<#inner as ::monotable::EnumValue>::VALUES, #v),
                #message
            );
        }
    });
    let extra = format!(
        "the enum `{enum_name}` of field `{}` has a variant whose text is not a value of {}.{} ({place}): its texts must be exactly {listed}; remove the others, or give them one of these texts with #[monotable(rename = \"...\")]",
        f.ident, entity.name, a.name,
    );
    quote_spanned! { f.inner.span()=>
        #(#lacks)*
        const _: () = {
            const MODEL: &[&str] = &[#(#values),*];
            const VALUES: &[&str] = <#inner as ::monotable::EnumValue>::VALUES;
            ::core::assert!(
                // Reported above when a model value lacks; by the enum's derive when it failed.
                <#inner as ::monotable::EnumValue>::INVALID
                    || !::monotable::__private::has_all(VALUES, MODEL)
                    || ::monotable::__private::same_values(VALUES, MODEL),
                #extra
            );
        };
    }
}

/// `type __monotable_Order_status = Status;`: a field's type, named for `patterns!`.
fn alias(vis: &Visibility, ident: &Ident, f: &Field) -> TokenStream {
    let name = format_ident!("__monotable_{}_{}", ident, f.name);
    let inner = &f.inner;
    quote_spanned! { f.inner.span()=>
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis type #name = #inner;
    }
}

#[cfg(test)]
mod tests;

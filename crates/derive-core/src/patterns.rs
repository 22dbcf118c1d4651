//! `patterns!`: every read access pattern of the model as a typed request, for the Rust entity
//! types the invocation maps the model's entities to. A GetItem pattern reads an
//! `Option<Entity>`; a Query pattern pages of its entity, or, when it returns several entities
//! (an item collection), rows of an enum and a collection struct of all of them. Parameters are
//! typed: an entity attribute by its field's type, a pattern parameter by its model type. Each
//! stream consumer becomes a typed decoder of its changes (`consumers`).

use monotable_model::{KeyTemplate, KeyTest, Model, Operation, Pattern};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Path, Token, braced};

use crate::model_file::{self, Loaded};
use crate::request::{Var, key_value, render, variables};
use crate::types;
use crate::{exact, once};

/// `model = "...";` (optional) and `entities { Name => path, ... }`.
pub struct Input {
    model: Option<LitStr>,
    entities: Vec<(Ident, Path)>,
    span: Span,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let span = input.span();
        let mut model = None;
        let mut entities = Vec::new();
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            if key == "model" {
                input.parse::<Token![=]>()?;
                model = Some(input.parse()?);
                input.parse::<Option<Token![;]>>()?;
            } else if key == "entities" {
                let body;
                braced!(body in input);
                while !body.is_empty() {
                    let name: Ident = body.parse()?;
                    body.parse::<Token![=>]>()?;
                    let path: Path = body.parse()?;
                    entities.push((name, path));
                    body.parse::<Option<Token![,]>>()?;
                }
            } else {
                return Err(syn::Error::new_spanned(
                    key,
                    "expected `model = \"...\";` or `entities { Model => path::to::Type, ... }`",
                ));
            }
        }
        Ok(Input {
            model,
            entities,
            span,
        })
    }
}

/// The macro's output.
pub fn expand(input: Input) -> TokenStream {
    match generate(&input) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    }
}

fn generate(input: &Input) -> syn::Result<TokenStream> {
    let span = input.model.as_ref().map_or(input.span, LitStr::span);
    // The model's own errors are reported once per crate ([`crate::once`]).
    let loaded = match model_file::load(input.model.as_ref().map(LitStr::value).as_deref(), span) {
        Ok(loaded) => loaded,
        Err(e) => return Ok(once::compile_error(once::model_error(e, span))),
    };
    let refused = loaded
        .refused
        .as_ref()
        .and_then(|m| once::model_error(syn::Error::new(span, m), span));
    let names = || loaded.model.entities.iter().map(|e| e.name.as_str());
    let errors: Vec<syn::Error> = input
        .entities
        .iter()
        .map(|(name, _)| name)
        .filter(|name| loaded.model.entity(&name.to_string()).is_none())
        .map(|name| {
            let guess = types::closest(&name.to_string(), names())
                .map(|g| format!(" (did you mean `{g}`?)"))
                .unwrap_or_default();
            syn::Error::new_spanned(
                name,
                format!(
                    "the model `{}` has no entity `{name}`{guess}; it has {}: map each of its entities you use by its model name, `Name => path::to::Type`",
                    loaded.shown,
                    names().collect::<Vec<_>>().join(", ")
                ),
            )
        })
        .collect();
    // An entity the model lacks is reported; the patterns of the others are still generated,
    // so that code using them does not fail again.
    let unknown: TokenStream = errors.iter().map(syn::Error::to_compile_error).collect();
    let mapped = |entity: &str| {
        input
            .entities
            .iter()
            .find(|(n, _)| n == entity)
            .map(|(_, p)| p)
    };
    let mut out = Vec::new();
    for pattern in &loaded.model.patterns {
        if pattern.is_write() {
            out.extend(write_tokens(pattern, &mapped, &loaded));
            continue;
        }
        if !matches!(pattern.operation, Operation::GetItem | Operation::Query) {
            continue;
        }
        let paths: Option<Vec<(&str, &Path)>> = pattern
            .returns
            .iter()
            .map(|r| mapped(&r.name).map(|p| (r.name.as_str(), p)))
            .collect();
        let Some(paths) = paths.filter(|p| !p.is_empty()) else {
            continue;
        };
        out.push(pattern_tokens(pattern, &paths, &loaded));
    }
    out.push(crate::consumers::tokens(&loaded, &mapped));
    let tracking = loaded.tracking();
    let source = loaded.path.to_string_lossy().into_owned();
    let table = &loaded.model.table.name;
    let refused = once::compile_error(refused);
    Ok(quote! {
        #refused
        #unknown
        #tracking
        /// The model file these patterns were compiled from.
        pub const MODEL_SOURCE: &str = include_str!(#source);
        /// The table the model names (an app may run on another name: `Table::renamed`).
        pub const TABLE_NAME: &str = #table;
        #(#out)*
    })
}

/// A write pattern's request, when every entity it writes is mapped.
fn write_tokens<'p>(
    pattern: &Pattern,
    mapped: &impl Fn(&str) -> Option<&'p Path>,
    loaded: &Loaded,
) -> Option<TokenStream> {
    let model = &loaded.model;
    let ident = format_ident!("{}", types::pascal(&pattern.name));
    let doc = format!(
        "Write pattern `{}` ({}): {}",
        pattern.name,
        loaded.place(&pattern.span),
        pattern.description.as_deref().unwrap_or("")
    );
    if matches!(
        pattern.operation,
        Operation::TransactWrite | Operation::BatchWrite
    ) {
        let all_mapped = !pattern.writes.is_empty()
            && pattern.writes.iter().all(|w| mapped(&w.entity).is_some());
        return all_mapped.then(|| crate::transactions::tokens(&ident, pattern, model, &doc));
    }
    let entity_name = pattern.returns.first()?;
    let path = mapped(&entity_name.name)?;
    let entity = model.entity(&entity_name.name)?;
    let paths = [(entity_name.name.as_str(), path)];
    let vars = if pattern.operation == Operation::PutItem {
        Vec::new()
    } else {
        match variables(pattern, &paths, model) {
            Ok(v) => v,
            Err(e) => return Some(e.to_compile_error()),
        }
    };
    let g = crate::writes::WriteGen {
        ident: &ident,
        pattern,
        entity,
        path,
        vars: &vars,
        model,
        doc,
    };
    Some(match pattern.operation {
        Operation::PutItem => g.put(),
        Operation::UpdateItem => crate::update_pattern::tokens(&g),
        Operation::DeleteItem => g.keyed(false),
        _ => g.keyed(true),
    })
}

/// The request's refusal of each variable that cannot be rendered exactly (a timestamp finer
/// than its format).
fn parameter_checks(pattern: &Pattern, vars: &[Var]) -> Vec<TokenStream> {
    vars.iter()
        .filter_map(|v| exact::parameter_check(&pattern.name, &v.name, &v.field, v.timestamp))
        .collect()
}

/// Whether an upper bound rendered from `bound` stops inside the sort keys the pattern's entities
/// write (`{to}` over `{createdAt}#{orderId}`): then it must take in whatever follows it.
fn bound_is_prefix(pattern: &Pattern, bound: &KeyTemplate, model: &Model, attribute: &str) -> bool {
    pattern.returns.iter().any(|r| {
        model
            .entity(&r.name)
            .and_then(|e| e.key(pattern.index_name()))
            .and_then(|k| k.sk.as_ref())
            .is_some_and(|sk| {
                sk.attribute == attribute && sk.template.segments().len() > bound.segments().len()
            })
    })
}

fn sort_condition(pattern: &Pattern, vars: &[Var], model: &Model) -> TokenStream {
    let Some(sk) = &pattern.sk else {
        return quote!(::core::option::Option::None);
    };
    let attr = &sk.attribute;
    let v = |t: &KeyTemplate| key_value(model, attr, render(t, vars));
    let upper = |t: &KeyTemplate| {
        let text = render(t, vars);
        if bound_is_prefix(pattern, t, model, attr) {
            key_value(
                model,
                attr,
                quote!({ let mut s = #text; s.push(char::MAX); s }),
            )
        } else {
            key_value(model, attr, text)
        }
    };
    let (operator, value) = match &sk.condition {
        KeyTest::Eq(t) => (quote!(Eq), v(t)),
        KeyTest::BeginsWith(t) => (quote!(BeginsWith), v(t)),
        KeyTest::Between(a, b) => {
            let (a, b) = (v(a), upper(b));
            (quote!(Between), quote!(#a, #b))
        }
        KeyTest::Lt(t) => (quote!(Lt), v(t)),
        KeyTest::Le(t) => (quote!(Le), upper(t)),
        KeyTest::Gt(t) => (quote!(Gt), v(t)),
        KeyTest::Ge(t) => (quote!(Ge), v(t)),
    };
    quote!(::core::option::Option::Some((::std::borrow::Cow::Borrowed(#attr), ::monotable::SortCondition::#operator(#value))))
}

/// What a pattern's request is generated from: its struct's name, the pattern, the mapped
/// entities' paths, its parameters and the model.
struct Generated<'a> {
    ident: &'a Ident,
    pattern: &'a Pattern,
    paths: &'a [(&'a str, &'a Path)],
    vars: &'a [Var<'a>],
    model: &'a Model,
}

fn pattern_tokens(pattern: &Pattern, paths: &[(&str, &Path)], loaded: &Loaded) -> TokenStream {
    let model = &loaded.model;
    let vars = match variables(pattern, paths, model) {
        Ok(v) => v,
        Err(e) => return e.to_compile_error(),
    };
    let ident = format_ident!("{}", types::pascal(&pattern.name));
    let fields = vars.iter().map(|v| {
        let (field, ty) = (&v.field, &v.ty);
        let doc = format!("`{}`.", v.name);
        quote!(#[doc = #doc] pub #field: #ty)
    });
    let doc = format!(
        "Access pattern `{}` ({}): {}",
        pattern.name,
        loaded.place(&pattern.span),
        pattern.description.as_deref().unwrap_or("")
    );
    let generated = Generated {
        ident: &ident,
        pattern,
        paths,
        vars: &vars,
        model,
    };
    let body = match pattern.operation {
        Operation::GetItem => get_impl(&generated),
        _ => query_impl(&generated),
    };
    quote! {
        #[doc = #doc]
        #[derive(Debug, Clone)]
        pub struct #ident { #(#fields),* }
        #body
    }
}

fn get_impl(g: &Generated<'_>) -> TokenStream {
    let (ident, pattern, paths, vars, model) = (g.ident, g.pattern, g.paths, g.vars, g.model);
    let entity = paths[0].1;
    let consistent = pattern.consistent_read;
    let checks = parameter_checks(pattern, vars);
    let keys = pattern.key.iter().filter_map(|c| match &c.condition {
        KeyTest::Eq(t) => {
            let attr = &c.attribute;
            let value = key_value(model, attr, render(t, vars));
            Some(quote!(item.insert(#attr.to_string(), #value);))
        }
        _ => None,
    });
    quote! {
        impl #ident {
            /// The key it reads.
            pub fn key(&self) -> ::monotable::Key<#entity> {
                let mut item = ::monotable::__private::Item::new();
                #(#keys)*
                ::monotable::Key::from_item(item)
            }

            /// The item, or `None`.
            pub async fn send(&self, table: &::monotable::Table) -> ::core::result::Result<::core::option::Option<#entity>, ::monotable::GetError> {
                ::monotable::GetRequest::new(self.key(), #consistent)#(#checks)*.send(table).await
            }
        }
    }
}

/// The table's key attributes, then the index's: what resumes a query after an item.
fn resume(pattern: &Pattern, model: &Model) -> Vec<String> {
    let table = &model.table;
    let mut names: Vec<&str> = vec![table.partition_key.name.as_str()];
    names.extend(table.sort_key.as_ref().map(|k| k.name.as_str()));
    if let Some(index) = pattern.index_name().and_then(|i| model.index(i)) {
        names.extend(index.key_attributes().map(|k| k.name.as_str()));
    }
    let mut out: Vec<String> = Vec::new();
    for name in names {
        if !out.iter().any(|o| o == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// `(attribute, value)` for each equality of a native key beyond the first partition
/// attribute's, in key schema order: every condition but the first and the sort condition the
/// pattern ends with.
fn equalities(pattern: &Pattern, vars: &[Var], model: &Model) -> Vec<TokenStream> {
    let last = pattern.sk.as_ref().map(|sk| sk.attribute.as_str());
    pattern
        .key
        .iter()
        .skip(1)
        .filter_map(|c| match &c.condition {
            KeyTest::Eq(t) if Some(c.attribute.as_str()) != last => {
                let attr = &c.attribute;
                let value = key_value(model, attr, render(t, vars));
                Some(quote!((::std::borrow::Cow::Borrowed(#attr), #value)))
            }
            _ => None,
        })
        .collect()
}

fn query_impl(g: &Generated<'_>) -> TokenStream {
    let (ident, pattern, paths, vars, model) = (g.ident, g.pattern, g.paths, g.vars, g.model);
    let (row, collection) = if paths.len() == 1 {
        let entity = paths[0].1;
        (quote!(#entity), TokenStream::new())
    } else {
        let members: Vec<Member> = paths
            .iter()
            .map(|(name, path)| Member {
                name,
                path,
                single: is_single(pattern, name, model),
            })
            .collect();
        collection_types(ident, &members)
    };
    let Some(pk) = &pattern.pk else {
        return syn::Error::new(
            Span::call_site(),
            format!("pattern `{}` has no partition key", pattern.name),
        )
        .to_compile_error();
    };
    let pk_attr = &pk.attribute;
    let pk_value = match &pk.condition {
        KeyTest::Eq(t) => key_value(model, pk_attr, render(t, vars)),
        _ => {
            return syn::Error::new(
                Span::call_site(),
                "a partition key condition is an equality",
            )
            .to_compile_error();
        }
    };
    let sort = sort_condition(pattern, vars, model);
    let equalities = equalities(pattern, vars, model);
    let index = match pattern.index_name() {
        Some(i) => quote!(::core::option::Option::Some(#i)),
        None => quote!(::core::option::Option::None),
    };
    let resume = resume(pattern, model);
    let (descending, consistent) = (pattern.descending, pattern.consistent_read);
    let limit = usize::try_from(pattern.limit.unwrap_or(20)).unwrap_or(20);
    let name = &pattern.name;
    let checks = parameter_checks(pattern, vars);
    let all = if paths.len() > 1 {
        let all_ident = format_ident!("{}All", ident);
        quote! {
            /// Every item, page after page, gathered by entity.
            pub async fn all(&self, table: &::monotable::Table) -> ::core::result::Result<#all_ident, ::monotable::QueryError> {
                let rows = self.request().all(table).await?;
                ::core::result::Result::Ok(#all_ident::from(rows))
            }
        }
    } else {
        quote! {
            /// Every item, page after page.
            pub async fn all(&self, table: &::monotable::Table) -> ::core::result::Result<::std::vec::Vec<#row>, ::monotable::QueryError> {
                self.request().all(table).await
            }
        }
    };
    quote! {
        #collection
        impl #ident {
            /// The query, to page through (`limit`, `cursor`, `send`, `stream`).
            pub fn request(&self) -> ::monotable::QueryRequest<#row> {
                let partition = #pk_value;
                let condition = ::monotable::KeyCondition {
                    partition: (::std::borrow::Cow::Borrowed(#pk_attr), partition),
                    equalities: ::std::vec![#(#equalities),*],
                    sort: #sort,
                };
                let scope = condition.scope(#name);
                ::monotable::QueryRequest::new(::monotable::QuerySpec {
                    scope,
                    index: #index,
                    condition,
                    resume: &[#(#resume),*],
                    descending: #descending,
                    consistent: #consistent,
                    limit: #limit,
                })#(#checks)*
            }

            /// A page of `limit` items.
            pub fn limit(&self, limit: usize) -> ::monotable::QueryRequest<#row> {
                self.request().limit(limit)
            }

            /// The first page (the pattern's own page size).
            pub async fn send(&self, table: &::monotable::Table) -> ::core::result::Result<::monotable::Page<#row>, ::monotable::QueryError> {
                self.request().send(table).await
            }

            #all
        }
    }
}

/// One entity of a collection pattern.
struct Member<'a> {
    name: &'a str,
    path: &'a Path,
    /// At most one item of it in the collection: its key in the pattern's index is the
    /// partition alone, or a sort key of constant text (`ORDER#{orderId}` / `ORDER`).
    single: bool,
}

/// Whether the collection holds at most one item of `entity`.
fn is_single(pattern: &Pattern, entity: &str, model: &Model) -> bool {
    let Some(keys) = model
        .entity(entity)
        .and_then(|e| e.key(pattern.index_name()))
    else {
        return false;
    };
    let same_partition = match (&pattern.pk, &keys.pk) {
        (Some(p), k) => {
            matches!(&p.condition, KeyTest::Eq(t) if t.to_string() == k.template.to_string())
        }
        (None, _) => false,
    };
    let constant_sort = keys
        .sk
        .as_ref()
        .is_none_or(|sk| sk.template.variables().next().is_none());
    same_partition && constant_sort
}

/// The row enum and the collection struct of a pattern returning several entities: one field per
/// entity, an `Option` for an entity of at most one item (the order header), a `Vec` otherwise
/// (its lines), in key order.
fn collection_types(ident: &Ident, members: &[Member]) -> (TokenStream, TokenStream) {
    let row = format_ident!("{}Row", ident);
    let all = format_ident!("{}All", ident);
    let variants: Vec<Ident> = members
        .iter()
        .map(|m| format_ident!("{}", m.name))
        .collect();
    let types: Vec<&Path> = members.iter().map(|m| m.path).collect();
    let fields: Vec<Ident> = members
        .iter()
        .map(|m| {
            let snake = types::snake(m.name);
            format_ident!(
                "{}",
                if m.single {
                    snake
                } else {
                    types::plural(&snake)
                }
            )
        })
        .collect();
    // Generic over its members' types, each defaulting to the mapped entity: `Debug` and
    // `Clone` then hold when the entities have them, and an entity without them is no error in
    // generated code.
    let params: Vec<Ident> = (0..members.len())
        .map(|i| format_ident!("__Monotable{}", i))
        .collect();
    let generic_fields = members.iter().zip(&params).map(|(m, p)| {
        if m.single {
            quote!(::core::option::Option<#p>)
        } else {
            quote!(::std::vec::Vec<#p>)
        }
    });
    let empty = members.iter().zip(&fields).map(|(m, f)| {
        if m.single {
            quote!(#f: ::core::option::Option::None)
        } else {
            quote!(#f: ::std::vec::Vec::new())
        }
    });
    let gather = members.iter().zip(&variants).zip(&fields).map(|((m, v), f)| {
        if m.single {
            quote!(#row::#v(e) => { if all.#f.is_none() { all.#f = ::core::option::Option::Some(e); } })
        } else {
            quote!(#row::#v(e) => all.#f.push(e))
        }
    });
    let tokens = quote! {
        /// One item of the collection.
        #[derive(Debug, Clone)]
        pub enum #row<#(#params = #types),*> { #( #[allow(missing_docs)] #variants(#params) ),* }

        impl ::monotable::Row for #row {
            fn from_item(item: &::monotable::__private::Item) -> ::core::result::Result<::core::option::Option<Self>, ::monotable::EntityError> {
                #(
                    if ::monotable::__private::is::<#types>(item) {
                        return ::core::result::Result::Ok(::core::option::Option::Some(Self::#variants(<#types as ::monotable::Entity>::from_item(item)?)));
                    }
                )*
                ::core::result::Result::Ok(::core::option::Option::None)
            }
        }

        /// The whole collection, by entity.
        #[derive(Debug, Clone)]
        pub struct #all<#(#params = #types),*> { #( #[allow(missing_docs)] pub #fields: #generic_fields ),* }

        impl<#(#params),*> ::core::default::Default for #all<#(#params),*> {
            fn default() -> Self {
                Self { #(#empty),* }
            }
        }

        impl ::core::convert::From<::std::vec::Vec<#row>> for #all {
            fn from(rows: ::std::vec::Vec<#row>) -> Self {
                let mut all = Self::default();
                for row in rows {
                    match row { #( #gather ),* }
                }
                all
            }
        }
    };
    (quote!(#row), tokens)
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use crate::testing::{errors, functions, items, structs};

    #[test]
    fn each_read_pattern_of_a_mapped_entity_becomes_a_request() {
        let out = crate::patterns(quote! {
            model = "testdata/orders.toml";
            entities { Order => crate::orders::Order }
        });
        let file = items(&out);
        let reads: Vec<String> = structs(&file)
            .into_iter()
            .filter(|s| s.starts_with("Get") || s.starts_with("List"))
            .collect();
        assert_eq!(reads, ["GetOrder", "ListUserOrders"]);
        let fns = functions(&file);
        for f in ["key", "send", "all", "request", "limit"] {
            assert!(fns.iter().any(|n| n == f), "{f} in {fns:?}");
        }
        let text = out.to_string();
        assert!(
            text.contains(r#"pub const TABLE_NAME : & str = "Orders""#),
            "{text}"
        );
    }

    #[test]
    fn a_pattern_whose_entity_is_not_mapped_is_left_out() {
        let file = items(&crate::patterns(quote!(model = "testdata/orders.toml";)));
        assert_eq!(structs(&file), Vec::<String>::new());
    }

    #[test]
    fn an_unknown_entity_or_key_is_refused() {
        let unknown = crate::patterns(quote! {
            model = "testdata/orders.toml";
            entities { Ordr => crate::Order, Parcel => crate::Parcel }
        });
        assert_eq!(
            errors(&unknown),
            [
                "the model `testdata/orders.toml` has no entity `Ordr` (did you mean `Order`?); it has Order: map each of its entities you use by its model name, `Name => path::to::Type`",
                "the model `testdata/orders.toml` has no entity `Parcel`; it has Order: map each of its entities you use by its model name, `Name => path::to::Type`",
            ]
        );
        let key = crate::patterns(quote!(table = "Orders";));
        assert_eq!(
            errors(&key),
            ["expected `model = \"...\";` or `entities { Model => path::to::Type, ... }`"]
        );
    }
}

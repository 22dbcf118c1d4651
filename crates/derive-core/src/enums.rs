//! `#[derive(Enum)]`: a Rust enum as a model `enum` attribute: its variants' texts (renamed like
//! serde's `rename_all` / `rename`), stored as a string, written into keys as its text. The
//! `Entity` derive checks at compile time that the variant texts are exactly the model's values.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields, LitStr};

/// `Pending` under `rename_all`.
fn renamed(variant: &str, rule: Option<&str>) -> Result<String, String> {
    let snake = crate::types::snake(variant);
    Ok(match rule {
        None => variant.to_string(),
        Some("SCREAMING_SNAKE_CASE") => snake.to_ascii_uppercase(),
        Some("snake_case") => snake,
        Some("kebab-case") => snake.replace('_', "-"),
        Some("SCREAMING-KEBAB-CASE") => snake.replace('_', "-").to_ascii_uppercase(),
        Some("lowercase") => variant.to_ascii_lowercase(),
        Some("UPPERCASE") => variant.to_ascii_uppercase(),
        Some("camelCase") => {
            let mut c = variant.chars();
            c.next()
                .map(|f| f.to_lowercase().chain(c).collect())
                .unwrap_or_default()
        }
        Some(other) => {
            return Err(format!(
                "unknown rename_all rule `{other}`; expected SCREAMING_SNAKE_CASE, snake_case, kebab-case, SCREAMING-KEBAB-CASE, lowercase, UPPERCASE or camelCase"
            ));
        }
    })
}

fn rename_all(input: &DeriveInput) -> syn::Result<Option<String>> {
    let mut rule = None;
    for attr in input
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("monotable"))
    {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename_all") {
                rule = Some(meta.value()?.parse::<LitStr>()?.value());
                Ok(())
            } else {
                Err(meta.error("expected `rename_all = \"...\"`"))
            }
        })?;
    }
    Ok(rule)
}

fn variant_rename(v: &syn::Variant) -> syn::Result<Option<String>> {
    let mut rename = None;
    for attr in v.attrs.iter().filter(|a| a.path().is_ident("monotable")) {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                rename = Some(meta.value()?.parse::<LitStr>()?.value());
                Ok(())
            } else {
                Err(meta.error("expected `rename = \"VALUE\"`"))
            }
        })?;
    }
    Ok(rename)
}

/// The derive's output; or its error, with a stub of the traits an entity holding the enum
/// needs, so that the mistake is reported once ([`crate::stub::enumeration`]).
pub fn derive(input: DeriveInput) -> TokenStream {
    expand(&input).unwrap_or_else(|e| {
        let mut out = e.to_compile_error();
        out.extend(crate::stub::enumeration(&input));
        out
    })
}

fn expand(input: &DeriveInput) -> syn::Result<TokenStream> {
    let Data::Enum(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "#[derive(Enum)] works on enums of unit variants",
        ));
    };
    let rule = rename_all(input)?;
    let mut variants = Vec::new();
    for v in &data.variants {
        if !matches!(v.fields, Fields::Unit) {
            return Err(syn::Error::new_spanned(
                &v.fields,
                format!(
                    "a model enum's variants carry no data: make `{}` a unit variant (its text is the model's value)",
                    v.ident
                ),
            ));
        }
        let text = match variant_rename(v)? {
            Some(text) => text,
            None => renamed(&v.ident.to_string(), rule.as_deref())
                .map_err(|e| syn::Error::new_spanned(&input.ident, e))?,
        };
        variants.push((v.ident.clone(), text));
    }
    let ident = &input.ident;
    let texts: Vec<&String> = variants.iter().map(|(_, t)| t).collect();
    let to_text = variants.iter().map(|(v, t)| quote!(Self::#v => #t));
    let from_text = variants
        .iter()
        .map(|(v, t)| quote!(#t => ::core::option::Option::Some(Self::#v)));
    let listed = texts
        .iter()
        .map(|t| t.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    Ok(quote! {
        impl ::monotable::EnumValue for #ident {
            const VALUES: &'static [&'static str] = &[#(#texts),*];
            fn as_str(&self) -> &'static str {
                match self { #(#to_text),* }
            }
            fn from_text(text: &str) -> ::core::option::Option<Self> {
                match text { #(#from_text,)* _ => ::core::option::Option::None }
            }
        }
        impl ::monotable::Value for #ident {
            fn to_value(&self) -> ::monotable::__private::AttributeValue {
                ::monotable::__private::AttributeValue::S(::monotable::EnumValue::as_str(self).to_string())
            }
            fn from_value(value: &::monotable::__private::AttributeValue) -> ::core::result::Result<Self, ::monotable::ValueError> {
                let text = <::std::string::String as ::monotable::Value>::from_value(value)?;
                <Self as ::monotable::EnumValue>::from_text(&text).ok_or_else(|| {
                    ::monotable::ValueError::NotOneOf { text, values: #listed }
                })
            }
        }
        impl ::monotable::__private::KeyText for #ident {
            fn write_key(&self, out: &mut ::std::string::String, _pad: ::core::option::Option<usize>) {
                out.push_str(::monotable::EnumValue::as_str(self));
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::renamed;
    use crate::testing::{errors, functions, items, trait_impls};

    #[test]
    fn variants_are_renamed_as_serde_does() {
        let rename = |rule| renamed("InProgress", Some(rule)).unwrap();
        assert_eq!(rename("SCREAMING_SNAKE_CASE"), "IN_PROGRESS");
        assert_eq!(rename("snake_case"), "in_progress");
        assert_eq!(rename("kebab-case"), "in-progress");
        assert_eq!(rename("camelCase"), "inProgress");
        assert_eq!(renamed("InProgress", None).unwrap(), "InProgress");
        assert!(
            renamed("A", Some("Title"))
                .unwrap_err()
                .starts_with("unknown rename_all rule `Title`")
        );
    }

    #[test]
    fn an_enum_gets_its_texts_and_value_conversions() {
        let out = crate::derive_enum(quote! {
            #[monotable(rename_all = "SCREAMING_SNAKE_CASE")]
            enum Status { Open, #[monotable(rename = "SENT")] Shipped }
        });
        let file = items(&out);
        let traits: Vec<String> = trait_impls(&file)
            .into_iter()
            .map(|(t, ty)| format!("{t} for {ty}"))
            .collect();
        assert_eq!(
            traits,
            [
                "::monotable::EnumValue for Status",
                "::monotable::Value for Status",
                "::monotable::__private::KeyText for Status"
            ]
        );
        let fns = functions(&file);
        for f in ["as_str", "from_text", "to_value", "from_value", "write_key"] {
            assert!(fns.iter().any(|n| n == f), "{f} in {fns:?}");
        }
        let text = out.to_string();
        assert!(text.contains(r#"["OPEN" , "SENT"]"#), "{text}");
    }

    #[test]
    fn what_is_not_an_enum_of_unit_variants_is_refused() {
        let on_struct = crate::derive_enum(quote!(
            struct Status {
                a: u8,
            }
        ));
        assert_eq!(
            errors(&on_struct),
            ["#[derive(Enum)] works on enums of unit variants"]
        );
        let bad_rule = crate::derive_enum(quote! {
            #[monotable(rename_all = "Title")]
            enum Status { Open }
        });
        let with_data = crate::derive_enum(quote!(
            enum Status {
                Open(u8),
            }
        ));
        assert_eq!(
            errors(&with_data),
            [
                "a model enum's variants carry no data: make `Open` a unit variant (its text is the model's value)"
            ]
        );
        // The traits an entity needs stand in, marked invalid: the mistake is reported once.
        let text = with_data.to_string();
        assert!(text.contains("const INVALID : bool = true"), "{text}");
        let bad_rule = errors(&bad_rule);
        assert_eq!(bad_rule.len(), 1);
        assert!(
            bad_rule[0].starts_with("unknown rename_all rule `Title`"),
            "{bad_rule:?}"
        );
    }
}

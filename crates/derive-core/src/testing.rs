//! What the unit tests share: a macro's output read back as Rust (`syn::parse2`), its
//! `compile_error!` messages, and the functions and impls in it.

use proc_macro2::TokenStream;
use syn::visit::Visit;

/// The `compile_error!` messages in `tokens`, in order.
pub fn errors(tokens: &TokenStream) -> Vec<String> {
    let file: syn::File = syn::parse2(tokens.clone()).expect("the output parses as Rust items");
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(m)
                if m.mac
                    .path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "compile_error") =>
            {
                Some(
                    syn::parse2::<syn::LitStr>(m.mac.tokens.clone())
                        .expect("a message")
                        .value(),
                )
            }
            _ => None,
        })
        .collect()
}

/// `tokens` as Rust items, asserting they hold no `compile_error!`.
pub fn items(tokens: &TokenStream) -> syn::File {
    assert_eq!(errors(tokens), Vec::<String>::new(), "no compile errors");
    syn::parse2(tokens.clone()).expect("the output parses as Rust items")
}

/// The names of every function in `file` (in impls and free), in order.
pub fn functions(file: &syn::File) -> Vec<String> {
    struct Names(Vec<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            self.0.push(f.sig.ident.to_string());
        }
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            self.0.push(f.sig.ident.to_string());
        }
    }
    let mut names = Names(Vec::new());
    names.visit_file(file);
    names.0
}

/// `(trait, type)` of every trait impl in `file`, as written (`::monotable::Entity`, `Order`).
pub fn trait_impls(file: &syn::File) -> Vec<(String, String)> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Impl(i) => i.trait_.as_ref().map(|(_, path, _)| {
                let ty = &i.self_ty;
                (
                    quote::quote!(#path).to_string().replace(' ', ""),
                    quote::quote!(#ty).to_string().replace(' ', ""),
                )
            }),
            _ => None,
        })
        .collect()
}

/// The names of the structs in `file`.
pub fn structs(file: &syn::File) -> Vec<String> {
    file.items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(s) => Some(s.ident.to_string()),
            _ => None,
        })
        .collect()
}

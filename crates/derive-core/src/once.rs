//! A model's own errors reported once per crate: every derive and every `patterns!` of a crate
//! reads the same model file, and a problem in it (a file that cannot be read, an `MT000`, an
//! error `monotable check` reports) is one mistake. The first macro invocation that meets it in
//! a compilation reports it, naming the model's file and line; the others stay silent (and emit
//! what keeps the code using them from failing again), since the crate fails to compile anyway.
//! An invocation is known by where it is, so one expanded again (by an editor) reports again.

use std::collections::HashMap;
use std::sync::Mutex;

use proc_macro2::Span;

/// Each model error reported in this compiler process, by the crate and the message, with
/// where the invocation that reported it is.
static REPORTED: Mutex<Option<HashMap<(String, String), String>>> = Mutex::new(None);

/// Where the macro invocation at `span` is (`src/lib.rs:12:8`), when the compiler says: inside
/// a macro, not in a unit test.
fn place(span: Span) -> Option<String> {
    if !proc_macro::is_available() {
        return None;
    }
    let span = span.unwrap();
    Some(format!("{}:{}:{}", span.file(), span.line(), span.column()))
}

/// The crate being compiled.
fn krate() -> String {
    let var = |name| std::env::var(name).unwrap_or_default();
    format!("{}@{}", var("CARGO_CRATE_NAME"), var("CARGO_MANIFEST_DIR"))
}

/// `error`, a problem of the model itself, when the invocation at `span` is the one to report
/// it: the first of the crate to meet it (or one whose place the compiler does not give).
pub fn model_error(error: syn::Error, span: Span) -> Option<syn::Error> {
    let Some(here) = place(span) else {
        return Some(error);
    };
    let mut reported = REPORTED.lock().unwrap_or_else(|e| e.into_inner());
    let owner = reported
        .get_or_insert_with(HashMap::new)
        .entry((krate(), error.to_string()))
        .or_insert_with(|| here.clone());
    (*owner == here).then_some(error)
}

/// `error` as a `compile_error!`, or nothing.
pub fn compile_error(error: Option<syn::Error>) -> proc_macro2::TokenStream {
    error.map(|e| e.to_compile_error()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_a_macro_every_error_is_reported() {
        let error = || syn::Error::new(Span::call_site(), "the model is broken");
        assert!(model_error(error(), Span::call_site()).is_some());
        assert!(model_error(error(), Span::call_site()).is_some());
    }
}

//! The verdict on an answer: whether what a read returned is what the oracle expects, the same
//! items (each once) and, for a Query, in the index's order.

use monotable_access::items::Item;

use crate::generate::Sample;
use crate::keys::key_text;
use crate::oracle::{Ident, KeyLayout};

/// A problem when `got` does not hold exactly the items of `expected`, each once (in any order):
/// how many are missing and how many are not expected.
pub fn members(expected: &[Ident], got: &[Ident]) -> Option<String> {
    let mut want = expected.to_vec();
    let mut have = got.to_vec();
    want.sort();
    have.sort();
    if want == have {
        return None;
    }
    let missing = want.iter().filter(|w| !have.contains(w)).count();
    let extra = have.iter().filter(|h| !want.contains(h)).count();
    Some(match (missing, extra) {
        (0, 0) => "returned some items more than once".to_string(),
        (m, 0) => format!("{m} expected item{} missing", if m == 1 { "" } else { "s" }),
        (0, e) => format!("{e} unexpected item{}", if e == 1 { "" } else { "s" }),
        (m, e) => format!(
            "{m} expected item{} missing, {e} unexpected item{}",
            if m == 1 { "" } else { "s" },
            if e == 1 { "" } else { "s" }
        ),
    })
}

/// A problem when `got` does not come back in the order of `expected`: compared on every sort
/// attribute of the index, each as its type orders (`12.5` is `12.50`).
pub fn order(
    descending: bool,
    shape: &KeyLayout,
    expected: &[&Sample],
    got: &[Item],
) -> Option<String> {
    let same = |s: &Sample, i: &Item| {
        shape.sort.iter().all(|(a, ty)| {
            let want = s.key(a).unwrap_or_default();
            let have = i.get(a).map(key_text).unwrap_or_default();
            crate::order::compare(want, &have, *ty).is_eq()
        })
    };
    let in_order = expected.len() == got.len() && expected.iter().zip(got).all(|(s, i)| same(s, i));
    let direction = if descending {
        "descending"
    } else {
        "ascending"
    };
    (!in_order).then(|| format!("the items came back out of {direction} sort-key order"))
}

#[cfg(test)]
mod tests;

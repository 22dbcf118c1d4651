//! Conformance: whether what a table holds fits the model. [`value`] says whether one value fits
//! its attribute (type, exactness, enum values, timestamp format, bounds), for stored values and
//! for typed text (a pattern's parameter); [`check_item`] checks one whole item (its entity
//! type, table key, index keys and attributes) and names each misfit as a [`Finding`] with its
//! stable `MA` [`Code`]. Pure: `monotable audit` runs it over a scanned table, the table view
//! over each item it shows.

mod attributes;
pub mod finding;
pub mod item;
pub mod value;

pub use finding::{Code, Finding, ItemKey};
pub use item::{ItemAudit, ItemKind, Rules, Subject, check_item, item_key, shown};
pub use value::{Problem, over, problem, text_problem};

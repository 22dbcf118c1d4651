//! monotable-model: a whole DynamoDB single-table design as data — parse, validate, render keys.
//!
//! The model is a TOML file (see `docs/model.md`). [`parse`] turns its source
//! into a validated [`Model`]; entities carry [`KeyTemplate`]s that render the
//! exact key strings the application writes. This crate does no I/O.
//!
//! ```
//! let model = monotable_model::parse(r#"
//! [table]
//! name = "Shop"
//! partition_key = { name = "PK" }
//! sort_key = { name = "SK" }
//!
//! [entities.OrderItem]
//! attributes.orderId = { type = "string", required = true }
//! attributes.lineNo = { type = "integer", required = true }
//! keys.PK = "ORDER#{orderId}"
//! keys.SK = "ITEM#{lineNo:03}"
//! "#).expect("valid model");
//! let item = model.entity("OrderItem").expect("declared");
//! let keys = item.key(None).expect("on the table");
//! let values = |name: &str| match name {
//!     "orderId" => Some("01HZX3".to_string()),
//!     "lineNo" => Some("7".to_string()),
//!     _ => None,
//! };
//! assert_eq!(keys.pk.template.render(&values).unwrap(), "ORDER#01HZX3");
//! assert_eq!(keys.sk.as_ref().unwrap().template.render(&values).unwrap(), "ITEM#007");
//! ```

mod consumer;
pub mod definition;
pub mod diagnostic;
mod error;
mod lambda_filter;
pub mod limits;
mod model;
pub mod names;
pub mod raw;
mod template;
pub mod text;
mod validate;
mod write_condition;

pub use consumer::*;
pub use definition::{TableDefinition, table_definition};
pub use error::{
    IssueKind, ModelError, ModelIssue, RenderError, TemplateError, line_col, line_text,
};
pub use lambda_filter::{ENTITY_TYPE_ATTRIBUTE, LambdaFilter, MAX_LAMBDA_FILTERS, StreamImage};
pub use model::*;
pub use template::{KeyTemplate, MAX_PAD, Segment};
pub use validate::{parse, parse_condition, validate};
pub use write_condition::{
    CompareOp, ConditionClause, Operand, WriteCondition, parse_write_condition,
};

/// The JSON Schema of the model file format, pretty-printed, with a trailing newline.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(raw::RawModel);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

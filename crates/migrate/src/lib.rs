//! monotable-migrate: changing a live single-table design.
//!
//! - [`diff`] compares two model files and classifies each change: what DynamoDB does online
//!   (a new index), what needs a backfill (an entity starts writing an index key), what moves
//!   items (a table key template changes), and what cannot be done in place. Pure: no I/O.
//! - [`rewrite`] turns one item written under the old model into the item the new model
//!   writes. Pure, and idempotent: an item already rewritten is left alone.
//! - [`apply`] runs a plan on a live table: index changes, a parallel segmented scan,
//!   conditional rewrites that never clobber a concurrent write, and a checkpoint in the table
//!   itself so a killed migration resumes.
//! - [`audit`] scans a live table and reports every item, and the table's own description,
//!   that does not fit a model.

pub mod apply;
pub mod audit;
pub mod diff;
pub mod rewrite;
pub mod segment;

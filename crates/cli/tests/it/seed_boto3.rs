//! The seed document's own boto3 code (examples/seed-boto3) against a fresh `monotable serve`:
//! every access pattern, the transaction, the conditional update, the sparse GSI, the date-range
//! query and pagination, each checked; then a table's stream read with boto3's DynamoDB Streams
//! client from the same endpoint. Needs python3 with boto3 (`requirements-dev.txt`).

use crate::common;

#[test]
fn the_seed_documents_boto3_code_runs_against_serve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("examples/seed-boto3/check_seed.py");
    common::boto3::run_against_serve(&script);
}

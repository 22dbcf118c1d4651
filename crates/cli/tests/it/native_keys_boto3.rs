//! boto3 against a fresh `monotable serve`: a global index on native multi-attribute keys
//! (status + shard HASH, createdAt + orderId RANGE) is created, filled and queried, in order,
//! with numbers compared as numbers, and a query missing a partition equality is refused with a
//! ValidationException (tests/boto3/native_keys.py). Needs python3 with boto3
//! (`requirements-dev.txt`).

use crate::common;

#[test]
fn boto3_creates_and_queries_a_native_multi_attribute_index_on_serve() {
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/boto3/native_keys.py");
    let stdout = common::boto3::run_against_serve(&script);
    for check in [
        "ok - ascending by createdAt then orderId",
        "ok - shard 3.0 is shard 3",
        "ok - a query without the shard equality is a ValidationException",
    ] {
        assert!(stdout.contains(check), "{check}\n{stdout}");
    }
}

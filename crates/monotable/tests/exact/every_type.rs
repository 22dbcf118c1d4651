//! The property over every type: a random `Sample`, valid or not (times at any nanosecond and
//! year, NaN and numbers beyond DynamoDB's, strings over `max_length`, optional sets given
//! empty, empty sets and names inside maps, shards past the cardinality), either passes
//! `validate` and comes back from its item (and from the table) exactly, or is refused naming an
//! attribute an independent oracle finds wrong; `validate` passes exactly when the oracle finds
//! nothing.

use std::cell::Cell;

use proptest::strategy::ValueTree;

use super::*;

/// A time whole in `step` nanoseconds (a day: midnight UTC) most of the time, else at any
/// nanosecond; in years 0000 to 9999 most of the time, else back to -9999; seen at a random
/// offset.
fn time_at(step: i128) -> impl Strategy<Value = OffsetDateTime> {
    let seconds = prop_oneof![
        24 => -62_167_219_200i64..=253_402_300_799,
        1 => -377_705_116_800i64..=253_402_300_799,
    ];
    let aligned = prop_oneof![12 => Just(true), 1 => Just(false)];
    (
        seconds,
        0i128..1_000_000_000,
        aligned,
        -86_399i32..=86_399,
        any::<bool>(),
    )
        .prop_map(move |(seconds, nanos, aligned, offset, local)| {
            let mut nanos = i128::from(seconds) * 1_000_000_000 + nanos;
            if aligned {
                nanos -= nanos.rem_euclid(step);
            }
            let t = OffsetDateTime::from_unix_timestamp_nanos(nanos).expect("in range");
            let offset = UtcOffset::from_whole_seconds(offset).expect("under a day");
            if local {
                t.checked_to_offset(offset).unwrap_or(t)
            } else {
                t
            }
        })
}

/// An optional value: absent half of the time.
fn maybe<S: Strategy>(s: S) -> impl Strategy<Value = Option<S::Value>> {
    prop::option::of(s)
}

/// `valid` most of the time, `invalid` now and then.
fn mostly<T: std::fmt::Debug + Clone + 'static>(
    valid: impl Strategy<Value = T> + 'static,
    invalid: impl Strategy<Value = T> + 'static,
) -> BoxedStrategy<T> {
    prop_oneof![20 => valid, 1 => invalid].boxed()
}

fn any_float() -> impl Strategy<Value = f64> {
    mostly(
        prop_oneof![-1e6f64..1e6, Just(0.1), Just(1e-130), Just(-9.5e125)],
        prop_oneof![
            any::<f64>(),
            Just(f64::NAN),
            Just(f64::INFINITY),
            Just(1e-200)
        ],
    )
}

/// `min` to `max - 1` characters of one to four bytes.
fn text(min: usize, max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof!["[a-z]", "[é漢🦀]"], min..max).prop_map(|c| c.concat())
}

fn any_sample() -> impl Strategy<Value = Sample> {
    const SECOND: i128 = 1_000_000_000;
    const DAY: i128 = 86_400 * SECOND;
    let scalars = (
        mostly("[a-z]{0,12}", text(4, 16)),
        any::<i64>(),
        maybe(mostly(-10i128.pow(38) + 1..10i128.pow(38), any::<i128>())),
        mostly(0u8..8, 8u8..12),
        (any::<i64>(), 0u32..=28).prop_map(|(m, s)| Decimal::new(m, s)),
        maybe(any_float()),
        maybe(mostly(-1e30f32..1e30, any::<f32>())),
        any::<bool>(),
    );
    let times = (
        time_at(SECOND / 1000),
        maybe(time_at(SECOND)),
        maybe(time_at(1)),
        maybe(time_at(1000)),
        maybe(time_at(SECOND)),
        maybe(time_at(SECOND / 1000)),
        time_at(DAY).prop_map(|t| t.date()),
        maybe(time_at(DAY)),
    );
    let key = mostly("[a-z]{1,4}", Just(String::new()));
    let collections = (
        mostly(
            prop::collection::vec(text(0, 3), 0..4),
            prop::collection::vec(text(0, 3), 4..6),
        ),
        maybe(prop::collection::vec(any_float(), 0..3)),
        maybe(prop::collection::hash_map(key.clone(), any_float(), 0..3)),
        maybe(prop::collection::hash_map(
            key,
            mostly(
                prop::collection::btree_set(text(1, 3), 1..3),
                Just(BTreeSet::new()),
            ),
            0..3,
        )),
        prop::collection::btree_set(text(1, 4), 0..3),
        maybe(mostly(
            prop::collection::btree_set(any::<i64>(), 1..3),
            Just(BTreeSet::new()),
        )),
        maybe(mostly(
            prop::collection::btree_set(
                (any::<i32>(), 0u32..=6).prop_map(|(m, s)| Decimal::new(i64::from(m), s)),
                1..3,
            ),
            Just(BTreeSet::new()),
        )),
    );
    (scalars, times, collections).prop_map(|(s, t, c)| Sample {
        id: "s".into(),
        label: s.0,
        quantity: s.1,
        big: s.2,
        shard: s.3,
        price: s.4,
        score: s.5,
        ratio: s.6,
        flag: s.7,
        kind: if s.7 { Kind::A } else { Kind::B },
        at: t.0,
        at_seconds: t.1,
        at_offset: t.2,
        at_naive: t.3,
        at_epoch: t.4,
        at_epoch_ms: t.5,
        day: t.6,
        day_time: t.7,
        words: c.0,
        readings: c.1,
        weights: c.2,
        groups: c.3,
        tags: c.4,
        votes: c.5,
        amounts: c.6,
    })
}

/// Whether DynamoDB holds `f`: finite, zero or a magnitude from 1e-130 to under 1e126 (read
/// from its scientific text).
fn storable_float(f: f64) -> bool {
    let exponent: i32 = format!("{f:e}")
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    f.is_finite() && (f == 0.0 || (-130..=125).contains(&exponent))
}

/// Whether `t` is a whole multiple of `step` nanoseconds and its year one a text format writes.
fn holds(t: OffsetDateTime, step: i128, text: bool) -> bool {
    let year = t.to_offset(UtcOffset::UTC).year();
    t.unix_timestamp_nanos() % step == 0 && (!text || (0..=9999).contains(&year))
}

/// The attributes of `s` that cannot be stored exactly, by the model's rules restated.
fn wrong(s: &Sample) -> Vec<&'static str> {
    let time = |t: Option<OffsetDateTime>, step, text| t.is_some_and(|t| !holds(t, step, text));
    let offset_ok = |t: OffsetDateTime| {
        let years = 0..=9999;
        years.contains(&t.year()) || years.contains(&t.to_offset(UtcOffset::UTC).year())
    };
    let nested_empty =
        |g: &HashMap<String, BTreeSet<String>>| g.iter().any(|(k, v)| k.is_empty() || v.is_empty());
    let checks = [
        ("label", s.label.len() > 12),
        (
            "big",
            // Significant digits: trailing zeros are the exponent's.
            s.big.is_some_and(|b| {
                let digits = b.unsigned_abs().to_string();
                digits.trim_end_matches('0').len() > 38
            }),
        ),
        ("shard", s.shard >= 8),
        ("score", s.score.is_some_and(|f| !storable_float(f))),
        ("ratio", s.ratio.is_some_and(|f| !f.is_finite())),
        ("at", time(Some(s.at), 1_000_000, true)),
        ("atSeconds", time(s.at_seconds, 1_000_000_000, true)),
        ("atOffset", s.at_offset.is_some_and(|t| !offset_ok(t))),
        ("atNaive", time(s.at_naive, 1_000, true)),
        ("atEpoch", time(s.at_epoch, 1_000_000_000, false)),
        ("atEpochMs", time(s.at_epoch_ms, 1_000_000, false)),
        ("day", !(0..=9999).contains(&s.day.year())),
        ("dayTime", time(s.day_time, 86_400_000_000_000, true)),
        ("words", s.words.len() > 3),
        (
            "readings",
            s.readings
                .as_ref()
                .is_some_and(|r| !r.iter().all(|f| storable_float(*f))),
        ),
        (
            "weights",
            s.weights
                .as_ref()
                .is_some_and(|w| w.iter().any(|(k, f)| k.is_empty() || !storable_float(*f))),
        ),
        ("groups", s.groups.as_ref().is_some_and(nested_empty)),
        ("votes", s.votes.as_ref().is_some_and(BTreeSet::is_empty)),
        (
            "amounts",
            s.amounts.as_ref().is_some_and(BTreeSet::is_empty),
        ),
    ];
    checks
        .into_iter()
        .filter(|(_, bad)| *bad)
        .map(|(a, _)| a)
        .collect()
}

#[test]
fn every_type_round_trips_exactly_or_is_refused() {
    let (valid, refused) = (Cell::new(0), Cell::new(0));
    runner(1024)
        .run(&any_sample(), |s| {
            let wrong = wrong(&s);
            match s.validate() {
                Ok(()) => {
                    prop_assert_eq!(&wrong, &Vec::<&str>::new());
                    prop_assert_eq!(Sample::from_item(&s.to_item()), Ok(s));
                    valid.set(valid.get() + 1);
                }
                Err(EntityError::Unstorable { attribute, .. }) => {
                    prop_assert!(
                        wrong.contains(&attribute),
                        "{} not in {:?}",
                        attribute,
                        wrong
                    );
                    refused.set(refused.get() + 1);
                }
                Err(other) => prop_assert!(false, "{}", other),
            }
            Ok(())
        })
        .unwrap();
    // Both sides are exercised.
    let (valid, refused) = (valid.get(), refused.get());
    assert!(
        valid > 50 && refused > 50,
        "{valid} valid, {refused} refused"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn every_type_comes_back_from_the_table_or_nothing_is_written() {
    let t = TestTable::of(VALUES).await;
    let samples: Vec<Sample> = {
        let mut runner = runner(64);
        (0..64)
            .map(|i| {
                let mut s = any_sample().new_tree(&mut runner).unwrap().current();
                s.id = format!("s{i}");
                s
            })
            .collect()
    };
    for s in samples {
        match t.put(&s).await {
            Ok(()) => {
                assert_eq!(wrong(&s), Vec::<&str>::new());
                assert_eq!(t.get(s.key(), true).await.unwrap(), Some(s));
            }
            Err(WriteError::Invalid { .. }) => {
                assert_ne!(wrong(&s), Vec::<&str>::new());
                assert_eq!(t.raw(s.key()).await, None);
            }
            Err(other) => panic!("{other}"),
        }
    }
}

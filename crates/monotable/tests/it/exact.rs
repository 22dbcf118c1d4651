//! Exact values: every model type either comes back from its item exactly or is refused with a
//! typed error naming the attribute, before anything is written (a time finer than its format,
//! a number DynamoDB does not hold, a string over its `max_length`, an optional set given
//! empty, ...); a number the Rust type cannot hold is refused on read, never wrapped or
//! rounded; a pattern's parameter finer than its key is refused, never truncated; and the
//! clinic of issue 25's trial, whose booking at 10:00:00.5 on a whole-second
//! sort key was stored as 10:00:00, so that 10:00:00.7 then failed as a taken slot.

use crate::common;

use std::collections::{BTreeSet, HashMap};

use common::TestTable;
use monotable::sdk::types::AttributeValue;
use monotable::{
    Entity, EntityError, GetError, ParameterError, QueryError, TransactError, ValueError,
    WriteError,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rust_decimal::Decimal;
use time::macros::datetime;
use time::{Date, Duration, OffsetDateTime, UtcOffset};

const VALUES: &str = include_str!("../model/values.toml");
const CLINIC: &str = include_str!("../model/clinic.toml");

/// The values model's one entity: every attribute type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, monotable::Enum)]
pub enum Kind {
    A,
    B,
}

#[derive(Debug, Clone, PartialEq, monotable::Entity)]
#[monotable(model = "tests/model/values.toml")]
pub struct Sample {
    pub id: String,
    pub label: String,
    pub quantity: i64,
    pub big: Option<i128>,
    pub shard: u8,
    pub price: Decimal,
    pub score: Option<f64>,
    pub ratio: Option<f32>,
    pub flag: bool,
    pub kind: Kind,
    pub at: OffsetDateTime,
    pub at_seconds: Option<OffsetDateTime>,
    pub at_offset: Option<OffsetDateTime>,
    pub at_naive: Option<OffsetDateTime>,
    pub at_epoch: Option<OffsetDateTime>,
    pub at_epoch_ms: Option<OffsetDateTime>,
    pub day: Date,
    pub day_time: Option<OffsetDateTime>,
    pub words: Vec<String>,
    pub readings: Option<Vec<f64>>,
    pub weights: Option<HashMap<String, f64>>,
    pub groups: Option<HashMap<String, BTreeSet<String>>>,
    pub tags: BTreeSet<String>,
    pub votes: Option<BTreeSet<i64>>,
    pub amounts: Option<BTreeSet<Decimal>>,
}

/// The clinic's entities and patterns.
mod clinic {
    #[derive(Debug, Clone, PartialEq, monotable::Entity)]
    #[monotable(model = "tests/model/clinic.toml")]
    pub struct Doctor {
        pub doctor_id: String,
        pub name: String,
    }

    #[derive(Debug, Clone, PartialEq, monotable::Entity)]
    #[monotable(model = "tests/model/clinic.toml")]
    pub struct OpeningHours {
        pub doctor_id: String,
        pub weekday: u8,
        pub opens: String,
        pub closes: String,
    }

    #[derive(Debug, Clone, PartialEq, monotable::Entity)]
    #[monotable(model = "tests/model/clinic.toml")]
    pub struct Appointment {
        pub doctor_id: String,
        pub starts_at: time::OffsetDateTime,
        pub patient_id: String,
        pub remind_at: Option<time::OffsetDateTime>,
    }

    monotable::patterns! {
        model = "tests/model/clinic.toml";
        entities {
            Doctor => crate::exact::clinic::Doctor,
            OpeningHours => crate::exact::clinic::OpeningHours,
            Appointment => crate::exact::clinic::Appointment,
        }
    }
}

use clinic::{
    Appointment, Book, Doctor, GetAppointment, GetDoctorSchedule, ListAppointments, OpeningHours,
};
use monotable::unchecked::{PutSpec, Transaction, UncheckedWrites};

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

// ---- the clinic ----

fn booking(starts_at: OffsetDateTime, patient: &str) -> Appointment {
    Appointment {
        doctor_id: "d1".into(),
        starts_at,
        patient_id: patient.into(),
        remind_at: None,
    }
}

/// The attribute and the format of a refusal for a time finer than its format.
fn too_fine(e: &WriteError) -> Option<(&'static str, &'static str)> {
    match e {
        WriteError::Invalid {
            source:
                EntityError::Unstorable {
                    attribute,
                    source: ValueError::TooFine { format, .. },
                    ..
                },
            ..
        } => Some((*attribute, format.name())),
        _ => None,
    }
}

#[tokio::test]
async fn a_booking_finer_than_its_slot_is_refused_and_takes_no_slot() {
    let t = TestTable::of(CLINIC).await;
    let ten = datetime!(2026-03-02 10:00 UTC);
    let first = booking(ten + Duration::milliseconds(500), "p1");
    let e = Book {
        appointment: &first,
    }
    .send(&t)
    .await
    .unwrap_err();
    assert_eq!(too_fine(&e), Some(("startsAt", "rfc3339-utc")), "{e}");
    assert_eq!(
        e.to_string(),
        "Appointment (PK=DOCTOR#d1, SK=SLOT#2026-03-02T10:00:00Z) was not written: Appointment attribute `startsAt` cannot be stored: `2026-03-02T10:00:00.5Z` is finer than `rfc3339-utc` holds (whole seconds): it would be stored as `2026-03-02T10:00:00Z`; truncate it first, or declare a finer format in the model"
    );
    // Nothing was stored: the 10:00:00 slot is free.
    assert_eq!(t.raw(booking(ten, "p1").key()).await, None);
    // The second is refused the same way, not as a taken slot.
    let second = booking(ten + Duration::milliseconds(700), "p2");
    let e = Book {
        appointment: &second,
    }
    .send(&t)
    .await
    .unwrap_err();
    assert_eq!(too_fine(&e), Some(("startsAt", "rfc3339-utc")), "{e}");
    assert!(!matches!(e, WriteError::AlreadyExists { .. }));
    // At the format's precision a booking is stored, and the slot is then taken.
    Book {
        appointment: &booking(ten, "p1"),
    }
    .send(&t)
    .await
    .unwrap();
    let taken = Book {
        appointment: &booking(ten, "p2"),
    }
    .send(&t)
    .await
    .unwrap_err();
    assert!(matches!(taken, WriteError::AlreadyExists { .. }), "{taken}");
}

#[tokio::test]
async fn every_typed_write_refuses_a_time_finer_than_its_format() {
    let t = TestTable::of(CLINIC).await;
    let ten = datetime!(2026-03-02 10:00 UTC);
    let half = Duration::milliseconds(500);
    let stored = booking(ten, "p1");
    t.create(&stored).await.unwrap();

    // A transaction: nothing of it is written.
    let tx = Transaction::new()
        .create(&booking(ten + Duration::hours(1), "p2"))
        .create(&booking(ten + half, "p3"));
    match tx.send(&t).await {
        Err(TransactError::Invalid(e)) => {
            assert_eq!(too_fine(&e), Some(("startsAt", "rfc3339-utc")))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        t.raw(booking(ten + Duration::hours(1), "p2").key()).await,
        None
    );

    // A batch: none of it is written.
    let batch = [
        booking(ten + Duration::hours(2), "p4"),
        booking(ten + half, "p5"),
    ];
    match t.batch_put(&batch).await {
        Err(monotable::BatchError::Entity(EntityError::Unstorable { attribute, .. })) => {
            assert_eq!(attribute, "startsAt");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(t.raw(batch[0].key()).await, None);

    // An update's setter (epoch-seconds holds whole seconds too), and its key.
    let e = stored
        .unchecked_update()
        .set_remind_at(Some(ten - half))
        .send(&t)
        .await
        .unwrap_err();
    assert_eq!(too_fine(&e), Some(("remindAt", "epoch-seconds")), "{e}");
    let e = Appointment::unchecked_update_key("d1", ten + half)
        .set_patient_id("p9")
        .send(&t)
        .await
        .unwrap_err();
    assert_eq!(too_fine(&e), Some(("startsAt", "rfc3339-utc")), "{e}");
    // An update from an entity holding one.
    let e = booking(ten + half, "p1")
        .unchecked_update()
        .set_patient_id("p9")
        .send(&t)
        .await
        .unwrap_err();
    assert_eq!(too_fine(&e), Some(("startsAt", "rfc3339-utc")), "{e}");
    // Nothing changed.
    assert_eq!(
        t.get(stored.key(), true).await.unwrap(),
        Some(stored.clone())
    );
    stored
        .unchecked_update()
        .set_remind_at(Some(ten - Duration::hours(1)))
        .send(&t)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_pattern_refuses_a_parameter_finer_than_its_key() {
    let t = TestTable::of(CLINIC).await;
    let ten = datetime!(2026-03-02 10:00 UTC);
    t.create(&booking(ten, "p1")).await.unwrap();
    let half = ten + Duration::milliseconds(500);
    let refused = |e: &ParameterError| {
        (
            e.pattern,
            e.parameter,
            matches!(e.source, ValueError::TooFine { .. }),
        )
    };
    let get = GetAppointment {
        doctor_id: "d1".into(),
        starts_at: half,
    };
    match get.send(&t).await {
        Err(GetError::Parameter(e)) => {
            assert_eq!(refused(&e), ("getAppointment", "startsAt", true));
            assert_eq!(
                e.to_string(),
                "pattern `getAppointment`: `startsAt` cannot be rendered into its key: `2026-03-02T10:00:00.5Z` is finer than `rfc3339-utc` holds (whole seconds): it would be stored as `2026-03-02T10:00:00Z`; truncate it first, or declare a finer format in the model"
            );
        }
        other => panic!("{other:?}"),
    }
    // Truncated, `from` would take in the 10:00:00 booking, which starts before it.
    let list = ListAppointments {
        doctor_id: "d1".into(),
        from: half,
        to: ten + Duration::hours(1),
    };
    for result in [list.send(&t).await.map(drop), list.all(&t).await.map(drop)] {
        match result {
            Err(QueryError::Parameter(e)) => {
                assert_eq!(refused(&e), ("listAppointments", "from", true));
            }
            other => panic!("{other:?}"),
        }
    }
    let whole = ListAppointments { from: ten, ..list };
    assert_eq!(whole.all(&t).await.unwrap().len(), 1);
    let get = GetAppointment {
        doctor_id: "d1".into(),
        starts_at: ten,
    };
    assert!(get.send(&t).await.unwrap().is_some());
}

#[tokio::test]
async fn a_collection_names_its_fields_as_a_user_would() {
    let t = TestTable::of(CLINIC).await;
    t.create(&Doctor {
        doctor_id: "d1".into(),
        name: "Dr Ada".into(),
    })
    .await
    .unwrap();
    for weekday in 0..5 {
        t.create(&OpeningHours {
            doctor_id: "d1".into(),
            weekday,
            opens: "08:00".into(),
            closes: "17:00".into(),
        })
        .await
        .unwrap();
    }
    t.create(&booking(datetime!(2026-03-02 10:00 UTC), "p1"))
        .await
        .unwrap();
    let all = GetDoctorSchedule {
        doctor_id: "d1".into(),
    }
    .all(&t)
    .await
    .unwrap();
    assert_eq!(all.doctor.map(|d| d.name), Some("Dr Ada".to_string()));
    assert_eq!(all.opening_hours.len(), 5);
    assert_eq!(all.appointments.len(), 1);
    // A weekday past the model's cardinality names no day.
    let e = t
        .create(&OpeningHours {
            doctor_id: "d1".into(),
            weekday: 7,
            opens: "08:00".into(),
            closes: "17:00".into(),
        })
        .await
        .unwrap_err();
    assert!(e.to_string().contains("`7` is outside 0..7"), "{e}");
}

// ---- reads ----

fn sample() -> Sample {
    Sample {
        id: "s1".into(),
        label: "a label".into(),
        quantity: 3,
        big: None,
        shard: 1,
        price: Decimal::new(1250, 2),
        score: None,
        ratio: None,
        flag: true,
        kind: Kind::A,
        at: datetime!(2026-03-02 10:00:00.123 UTC),
        at_seconds: None,
        at_offset: None,
        at_naive: None,
        at_epoch: None,
        at_epoch_ms: None,
        day: time::macros::date!(2026 - 03 - 02),
        day_time: None,
        words: vec![],
        readings: None,
        weights: None,
        groups: None,
        tags: BTreeSet::new(),
        votes: None,
        amounts: None,
    }
}

/// `sample()`'s item with `attribute` set to the number `text`.
fn read_with(attribute: &str, text: &str) -> Result<Sample, EntityError> {
    let mut item = sample().to_item();
    item.insert(attribute.into(), AttributeValue::N(text.into()));
    Sample::from_item(&item)
}

fn out_of_range(result: Result<Sample, EntityError>) -> Option<(&'static str, &'static str)> {
    match result {
        Err(EntityError::Value {
            attribute,
            source: ValueError::OutOfRange { ty, .. },
            ..
        }) => Some((attribute, ty)),
        _ => None,
    }
}

#[test]
fn a_number_the_rust_type_cannot_hold_is_refused_on_read() {
    assert_eq!(
        out_of_range(read_with("quantity", "9223372036854775808")),
        Some(("quantity", "i64"))
    );
    let e = read_with("quantity", "9223372036854775808").unwrap_err();
    assert_eq!(
        e.to_string(),
        "Sample item attribute `quantity`: `9223372036854775808` does not fit `i64`, which holds -9223372036854775808 to 9223372036854775807: reading it would change it"
    );
    assert_eq!(
        out_of_range(read_with("price", "12345678901234567890123456789012345678")),
        Some(("price", "rust_decimal::Decimal"))
    );
    assert_eq!(
        out_of_range(read_with("price", "0.12345678901234567890123456789")),
        Some(("price", "rust_decimal::Decimal")),
        "29 places would be rounded to 28"
    );
    assert_eq!(
        out_of_range(read_with("shard", "256")),
        Some(("shard", "u8"))
    );
    assert_eq!(
        out_of_range(read_with("score", "0.1000000000000000000001")),
        Some(("score", "f64"))
    );
    assert_eq!(
        read_with("big", "9223372036854775808").unwrap().big,
        Some(1 << 63)
    );
    assert_eq!(read_with("quantity", "1E3").unwrap().quantity, 1000);
}

#[test]
fn integers_and_decimals_read_exactly_or_are_refused() {
    // Up to 38 digits (what DynamoDB holds), a point anywhere, either sign.
    let number = ("-?", "[0-9]{1,38}", 0usize..=38).prop_map(|(sign, digits, point)| {
        let point = point.min(digits.len());
        let (whole, fraction) = digits.split_at(digits.len() - point);
        let whole = if whole.is_empty() { "0" } else { whole };
        match fraction.is_empty() {
            true => format!("{sign}{whole}"),
            false => format!("{sign}{whole}.{fraction}"),
        }
    });
    runner(512)
        .run(&number, |text| {
            // The number as an i128 mantissa and a scale, trailing zeros of the fraction gone.
            let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
            let fraction = fraction.trim_end_matches('0');
            let mut mantissa: i128 = format!("{whole}{fraction}").parse().unwrap();
            let mut scale = u32::try_from(fraction.len()).unwrap();
            while scale > 0 && mantissa % 10 == 0 {
                mantissa /= 10;
                scale -= 1;
            }
            let holds = mantissa.unsigned_abs() < (1u128 << 96) && scale <= 28;
            match read_with("price", &text) {
                Ok(s) => {
                    prop_assert!(holds, "{} read as {}", text, s.price);
                    let back = s.price.normalize();
                    prop_assert_eq!((back.mantissa(), back.scale()), (mantissa, scale));
                }
                Err(e) => {
                    prop_assert!(!holds, "{}: {}", text, e);
                    prop_assert!(out_of_range(Err(e)).is_some());
                }
            }
            if scale == 0 {
                match read_with("quantity", &text) {
                    Ok(s) => prop_assert_eq!(i128::from(s.quantity), mantissa),
                    Err(e) => {
                        prop_assert!(i64::try_from(mantissa).is_err(), "{}", e);
                        prop_assert!(out_of_range(Err(e)).is_some());
                    }
                }
            }
            Ok(())
        })
        .unwrap();
}

#[tokio::test]
async fn a_get_refuses_an_item_it_cannot_read_exactly() {
    let t = TestTable::of(VALUES).await;
    let mut item = sample().to_item();
    item.insert("quantity".into(), AttributeValue::N("1E+30".into()));
    PutSpec::item(item, &[]).send(&t).await.unwrap();
    match t.get(sample().key(), true).await {
        Err(GetError::Entity(e)) => assert_eq!(out_of_range(Err(e)), Some(("quantity", "i64"))),
        other => panic!("{other:?}"),
    }
}

#[path = "../exact/every_type.rs"]
mod every_type;

//! Wrong answers from a native index, each caught: numbers ordered as text, an item that lacks a
//! key attribute, an item of another partition, sort attributes compared in the wrong order.

use std::collections::BTreeMap;

use aws_sdk_dynamodb::types::AttributeValue;
use monotable_model::KeyAttributeType::{self, N, S};

use super::{members, order};
use crate::generate::Sample;
use crate::oracle::{self, Ident, KeyLayout, KeyQuery, query};

/// `ByBoard`: (game S, season N) HASH, (points N, player S) RANGE.
fn by_board() -> KeyLayout {
    let own = |keys: &[(&str, KeyAttributeType)]| -> Vec<(String, KeyAttributeType)> {
        keys.iter().map(|(n, t)| (n.to_string(), *t)).collect()
    };
    KeyLayout {
        index: Some("ByBoard".into()),
        pk: "game".into(),
        sk: Some("points".into()),
        sk_type: N,
        partition: own(&[("game", S), ("season", N)]),
        sort: own(&[("points", N), ("player", S)]),
    }
}

/// A score; `points` absent when `None` (then it is not in the index).
fn score(id: &str, season: &str, points: Option<&str>, player: &str) -> Sample {
    let mut keys: BTreeMap<String, String> = [("PK", id), ("game", "go"), ("season", season)]
        .into_iter()
        .chain([("player", player)])
        .map(|(a, v)| (a.to_string(), v.to_string()))
        .collect();
    if let Some(p) = points {
        keys.insert("points".into(), p.into());
    }
    Sample {
        entity: "Score".into(),
        values: BTreeMap::new(),
        item: Default::default(),
        keys,
    }
}

/// What the engine would send back for a sample: its keys, numbers as `N`.
fn item(s: &Sample) -> monotable_access::items::Item {
    s.keys
        .iter()
        .map(|(a, v)| {
            let value = if a == "season" || a == "points" {
                AttributeValue::N(v.clone())
            } else {
                AttributeValue::S(v.clone())
            };
            (a.clone(), value)
        })
        .collect()
}

fn ident(s: &Sample) -> Ident {
    Ident {
        pk: s.key("PK").unwrap_or_default().to_string(),
        sk: String::new(),
        entity: s.entity.clone(),
    }
}

fn samples() -> Vec<Sample> {
    vec![
        score("s1", "3", Some("10"), "ann"),
        score("s2", "3", Some("9"), "bob"),
        score("s3", "3", Some("9"), "amy"),
        score("s4", "3", None, "cat"),
        score("s5", "03.0", Some("100"), "dan"),
        score("s6", "4", Some("1"), "eve"),
    ]
}

fn season_3() -> KeyQuery {
    KeyQuery {
        equalities: vec![("game".into(), "go".into()), ("season".into(), "3".into())],
        sort: None,
    }
}

#[test]
fn the_right_answer_passes() {
    let samples = samples();
    let expected = query(&samples, &by_board(), &season_3(), false);
    let pks: Vec<&str> = expected.iter().filter_map(|s| s.key("PK")).collect();
    // Season 03.0 is season 3; 9 before 10 before 100; amy before bob at 9; s4 has no points.
    assert_eq!(pks, ["s3", "s2", "s1", "s5"]);
    let got: Vec<_> = expected.iter().map(|s| item(s)).collect();
    let ids: Vec<Ident> = expected.iter().map(|s| ident(s)).collect();
    assert_eq!(members(&ids, &ids), None);
    assert_eq!(order(false, &by_board(), &expected, &got), None);
}

#[test]
fn numbers_ordered_as_text_are_caught() {
    let samples = samples();
    let expected = query(&samples, &by_board(), &season_3(), false);
    // An engine comparing N as bytes: "10" < "100" < "9".
    let mut wrong = expected.clone();
    wrong.sort_by(|a, b| a.key("points").cmp(&b.key("points")));
    let got: Vec<_> = wrong.iter().map(|s| item(s)).collect();
    let problem = order(false, &by_board(), &expected, &got);
    assert_eq!(
        problem.as_deref(),
        Some("the items came back out of ascending sort-key order")
    );
}

#[test]
fn sort_attributes_compared_right_to_left_are_caught() {
    let samples = samples();
    let expected = query(&samples, &by_board(), &season_3(), true);
    // Ordered by player, then points: not the index's order.
    let mut wrong = expected.clone();
    wrong.sort_by(|a, b| b.key("player").cmp(&a.key("player")));
    let got: Vec<_> = wrong.iter().map(|s| item(s)).collect();
    assert!(order(true, &by_board(), &expected, &got).is_some());
}

#[test]
fn an_item_lacking_a_key_attribute_or_of_another_partition_is_caught() {
    let samples = samples();
    let expected = query(&samples, &by_board(), &season_3(), false);
    let ids: Vec<Ident> = expected.iter().map(|s| ident(s)).collect();
    // s4 lacks `points`: a sparse engine never indexes it.
    let mut with_unindexed = ids.clone();
    with_unindexed.push(ident(&samples[3]));
    assert_eq!(
        members(&ids, &with_unindexed).as_deref(),
        Some("1 unexpected item")
    );
    // s6 is season 4; and an engine matching "03.0" as text would miss s5.
    let mut wrong = ids.clone();
    wrong.retain(|i| i.pk != "s5");
    wrong.push(ident(&samples[5]));
    assert_eq!(
        members(&ids, &wrong).as_deref(),
        Some("1 expected item missing, 1 unexpected item")
    );
    assert_eq!(
        oracle::partition_size(&samples, &by_board(), &season_3()),
        4
    );
}

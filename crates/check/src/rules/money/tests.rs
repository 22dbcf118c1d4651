//! MT010's vocabulary and context, name by name.

use monotable_model::{Attribute, AttributeType};

use super::{Why, money, words};

fn float(name: &str) -> Attribute {
    Attribute {
        name: name.to_string(),
        ty: AttributeType::Number,
        required: true,
        values: Vec::new(),
        format: None,
        items: None,
        max_items: None,
        max_length: None,
        cardinality: None,
        money: false,
        description: None,
        default: None,
        span: 0..0,
        type_span: 0..0,
    }
}

fn alone(name: &str) -> Option<Why> {
    money(&float(name), &[])
}

#[test]
fn names_split_at_case_separators_acronyms_and_digits() {
    assert_eq!(words("grossPay"), ["gross", "pay"]);
    assert_eq!(words("amount_due"), ["amount", "due"]);
    assert_eq!(words("late-fee"), ["late", "fee"]);
    assert_eq!(words("totalUSDAmount"), ["total", "usd", "amount"]);
    assert_eq!(words("HourlyRate"), ["hourly", "rate"]);
    assert_eq!(words("fee2024"), ["fee", "2024"]);
    assert_eq!(words("__x__"), ["x"]);
    assert!(words("").is_empty());
}

#[test]
fn the_issue_names_are_money() {
    for name in [
        "pay",
        "salary",
        "wage",
        "hourlyRate",
        "premium",
        "deductible",
        "payout",
        "deposit",
        "rent",
        "income",
        "fare",
        "tip",
        "owed",
        "budget",
        "spend",
        "earnings",
        "bonus",
        "commission",
        "grossPay",
        "amountDue",
        "charge",
        "unitPrice",
    ] {
        assert!(alone(name).is_some(), "{name} should be money");
    }
}

#[test]
fn more_shapes_are_money() {
    for name in [
        "late_fee",
        "monthly-rent",
        "nightlyRate",
        "payRate",
        "cashbackEarned",
        "copayAmount",
        "rewardBalance",
        "taxes",
        "pricePerKm",
        "totalprice",
        "amountdue",
        "priceInCents",
        "balanceUSD",
        "interestAccrued",
        "weeklySpend",
        "PAYOUT_TOTAL",
    ] {
        assert!(alone(name).is_some(), "{name} should be money");
    }
}

#[test]
fn counts_rates_scores_and_measures_are_not() {
    for name in [
        "distanceKm",
        "ratingAvg",
        "quantity",
        "qty",
        "tipCount",
        "interestRate",
        "heartRate",
        "taxRate",
        "exchangeRate",
        "rate",
        "numTips",
        "numberOfPayments",
        "paymentCount",
        "discountPct",
        "totalDistanceKm",
        "totalScore",
        "rewardPoints",
        "feePercent",
        "totalcount",
        "latitude",
        "weightKg",
        "durationMs",
        "temperature",
        "bonusMultiplier",
    ] {
        assert_eq!(alone(name), None, "{name} should not be money");
    }
}

#[test]
fn a_currency_sibling_makes_amounts_money_but_not_measures() {
    let siblings = [float("value"), float("fxRate"), float("distanceKm"), {
        let mut c = float("currencyCode");
        c.ty = AttributeType::String;
        c
    }];
    assert_eq!(
        money(&siblings[0], &siblings),
        Some(Why::Currency("currencyCode".to_string()))
    );
    assert_eq!(money(&siblings[1], &siblings), None);
    assert_eq!(money(&siblings[2], &siblings), None);
    assert_eq!(money(&float("value"), &[float("value")]), None);
}

#[test]
fn a_description_naming_a_currency_makes_money() {
    let mut a = float("value");
    for (text, word) in [
        ("what the customer owes, in EUR", "eur"),
        ("Settled amount ($)", "$"),
        ("whole cents", "cent"),
    ] {
        a.description = Some(text.to_string());
        assert_eq!(
            money(&a, &[]),
            Some(Why::Description(word.to_string())),
            "{text}"
        );
    }
    a.description = Some("how many visits this month".to_string());
    assert_eq!(money(&a, &[]), None);
}

#[test]
fn the_flag_is_money_whatever_the_name() {
    let mut a = float("points");
    a.money = true;
    assert_eq!(money(&a, &[]), Some(Why::Declared));
}

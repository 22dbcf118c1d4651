//! MT010's sense of money: an attribute's name read word by word against a vocabulary of money,
//! and its context (a `currency` sibling, a description naming a currency).

use monotable_model::Attribute;

/// Words that name an amount of money, in the singular (a name's `fees`, `earnings`, `taxes`
/// are read as `fee`, `earning`, `tax`). One word of a name is enough: `unitPrice`,
/// `grossPay`, `amountDue`, unless the name's head says it counts or measures (below).
const MONEY_WORDS: &[&str] = &[
    // prices, charges and fees
    "price",
    "cost",
    "charge",
    "fee",
    "fare",
    "toll",
    "tariff",
    "rent",
    "rental",
    "subtotal",
    "total",
    "amount",
    "tax",
    "vat",
    "duty",
    "surcharge",
    "discount",
    "rebate",
    "markup",
    "msrp",
    // pay and income
    "pay",
    "paid",
    "payment",
    "payout",
    "payable",
    "receivable",
    "salary",
    "wage",
    "earning",
    "income",
    "revenue",
    "bonus",
    "commission",
    "tip",
    "gratuity",
    "stipend",
    "pension",
    "payroll",
    "compensation",
    "reimbursement",
    "dividend",
    "royalty",
    "profit",
    "gross",
    // balances, transfers and budgets
    "balance",
    "deposit",
    "withdrawal",
    "refund",
    "credit",
    "debit",
    "owed",
    "owing",
    "debt",
    "loan",
    "mortgage",
    "interest",
    "penalty",
    "money",
    "cash",
    "fund",
    "spend",
    "spent",
    "spending",
    "expense",
    "budget",
    "allowance",
    "invoice",
    // insurance
    "premium",
    "deductible",
    "copay",
    "coinsurance",
    "payoff",
    // rewards
    "cashback",
    "reward",
    "prize",
    "jackpot",
    "bounty",
    "voucher",
    // currency units
    "cent",
    "dollar",
    "euro",
    "pence",
    "penny",
    "usd",
    "eur",
    "gbp",
    "jpy",
    "chf",
    "cad",
    "aud",
    "inr",
    "cny",
];

/// Head words that make a name a count, a ratio, a score or a measurement, not money, even
/// beside a money word: `tipCount`, `taxRate`, `totalDistanceKm`, `priceScore`, `rewardPoints`.
const NOT_MONEY_WORDS: &[&str] = &[
    // counts
    "count",
    "num",
    "number",
    "qty",
    "quantity",
    "item",
    "unit",
    "point",
    "mile",
    "visit",
    // ratios and scores
    "rate",
    "ratio",
    "percent",
    "pct",
    "percentage",
    "fraction",
    "share",
    "factor",
    "multiplier",
    "score",
    "rating",
    "rank",
    "level",
    "probability",
    "confidence",
    "weighting",
    // measurements
    "km",
    "mi",
    "meter",
    "metre",
    "kg",
    "gram",
    "lb",
    "weight",
    "distance",
    "duration",
    "second",
    "sec",
    "ms",
    "minute",
    "hour",
    "day",
    "week",
    "month",
    "year",
    "age",
    "lat",
    "lng",
    "latitude",
    "longitude",
    "temperature",
    "speed",
    "size",
    "length",
    "width",
    "height",
    "volume",
    "litre",
    "liter",
    "byte",
];

/// Words before `rate` that make it a price of time or work: `hourlyRate`, `nightlyRate`,
/// `payRate`. Any other rate (`taxRate`, `interestRate`, `heartRate`) is a ratio.
const PRICED_RATE: &[&str] = &[
    "hourly", "daily", "weekly", "monthly", "yearly", "annual", "nightly", "hour", "day", "night",
    "week", "month", "year", "pay", "wage", "billing", "room",
];

/// First words that make a name a count: `numTips`, `countPayments`.
const COUNT_PREFIX: &[&str] = &["num", "number", "count", "qty", "no", "n"];

/// Words of a description that name a currency or money itself.
const CURRENCY_WORDS: &[&str] = &[
    "currency", "money", "monetary", "cent", "dollar", "euro", "pence", "penny", "usd", "eur",
    "gbp", "jpy", "chf", "cad", "aud", "inr", "cny",
];

/// Why an attribute holds money, for the diagnostic's note.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Why {
    /// `money = true`.
    Declared,
    /// A word of its name, e.g. `pay` in `grossPay`.
    Name(String),
    /// Its owner has this `currency` attribute.
    Currency(String),
    /// Its description names this currency word or symbol.
    Description(String),
}

impl Why {
    pub(crate) fn note(&self, owner: &str, name: &str) -> String {
        match self {
            Why::Declared => format!("`{name}` is declared with `money = true`"),
            Why::Name(word) if name.eq_ignore_ascii_case(word) => {
                format!("`{name}` is a word for money")
            }
            Why::Name(word) => format!("`{name}` names money by its word `{word}`"),
            Why::Currency(sibling) => format!(
                "`{owner}` has a `{sibling}` attribute, so its amounts are money; `{name}` is not a count, rate, score or measurement"
            ),
            Why::Description(word) => {
                format!("the description of `{name}` names money: `{word}`")
            }
        }
    }
}

/// A name's words: split at `_`, `-` and any other separator, at a lower-to-upper change
/// (`grossPay`), before the last capital of an acronym (`totalUSDAmount`), and between letters
/// and digits; lower-case.
pub(crate) fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            out.extend((!word.is_empty()).then(|| std::mem::take(&mut word)));
            continue;
        }
        let prev = i.checked_sub(1).and_then(|p| chars.get(p)).copied();
        let next = chars.get(i + 1).copied();
        let cut = prev.is_some_and(|p| {
            (p.is_ascii_lowercase() && c.is_ascii_uppercase())
                || (p.is_ascii_digit() != c.is_ascii_digit() && p.is_ascii_alphanumeric())
                || (p.is_ascii_uppercase()
                    && c.is_ascii_uppercase()
                    && next.is_some_and(|n| n.is_ascii_lowercase()))
        });
        if cut && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        word.push(c.to_ascii_lowercase());
    }
    out.extend((!word.is_empty()).then_some(word));
    out
}

/// The word of `list` that `word` is, in the singular: `fees` is `fee`, `taxes` is `tax`.
fn find(list: &[&'static str], word: &str) -> Option<&'static str> {
    let singular = [Some(word), word.strip_suffix('s'), word.strip_suffix("es")];
    singular
        .into_iter()
        .flatten()
        .find_map(|w| list.iter().copied().find(|x| *x == w))
}

/// The money word in one run-together lower-case word (`unitprice`, `amountdue`): one of five
/// letters or more that it starts or ends with, unless it ends with a count or measure.
fn run_together(word: &str) -> Option<&'static str> {
    if NOT_MONEY_WORDS
        .iter()
        .any(|w| w.len() > 1 && word.len() > w.len() && word.ends_with(w))
    {
        return None;
    }
    MONEY_WORDS.iter().copied().find(|w| {
        w.len() >= 5 && word.len() > w.len() && (word.starts_with(w) || word.ends_with(w))
    })
}

/// The words up to the first `per`, `of` or `in`: `pricePerKm` is a price, `numberOfTips` a
/// number.
fn head(words: &[String]) -> &[String] {
    let end = words
        .iter()
        .position(|w| matches!(w.as_str(), "per" | "of" | "in"))
        .filter(|&i| i > 0)
        .unwrap_or(words.len());
    &words[..end]
}

/// Whether the name counts, rates, scores or measures: its head (the last word before `per`,
/// `of` or `in`: `pricePerKm` is a price) is such a word, or its first word is a count
/// (`numTips`). A `rate` after a word of time or pay is a price (`hourlyRate`).
fn counts_or_measures(words: &[String]) -> bool {
    let head = head(words);
    if head
        .first()
        .is_some_and(|w| head.len() > 1 && COUNT_PREFIX.contains(&w.as_str()))
    {
        return true;
    }
    let Some(last) = head.last() else {
        return false;
    };
    match find(NOT_MONEY_WORDS, last) {
        Some("rate") => !head
            .iter()
            .rev()
            .nth(1)
            .is_some_and(|w| PRICED_RATE.contains(&w.as_str())),
        Some(_) => true,
        None => false,
    }
}

/// The money word of a name, unless the name counts, rates, scores or measures.
fn name_says_money(name: &str) -> Option<String> {
    let words = words(name);
    if counts_or_measures(&words) {
        return None;
    }
    if let [.., prev, last] = head(&words)
        && find(NOT_MONEY_WORDS, last) == Some("rate")
    {
        // Not a ratio, so a priced rate: `hourlyRate`.
        return Some(format!("{prev} rate"));
    }
    if let Some(w) = words.iter().find_map(|w| find(MONEY_WORDS, w)) {
        return Some(w.to_string());
    }
    match words.as_slice() {
        [one] => run_together(one).map(str::to_string),
        _ => None,
    }
}

/// The currency word or symbol a description names.
fn description_says_money(text: &str) -> Option<String> {
    if let Some(symbol) = text
        .chars()
        .find(|c| matches!(c, '$' | '€' | '£' | '¥' | '₹'))
    {
        return Some(symbol.to_string());
    }
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .map(str::to_ascii_lowercase)
        .find_map(|w| find(CURRENCY_WORDS, &w))
        .map(str::to_string)
}

/// Whether `name` is a currency code's attribute: `currency`, `currencyCode`, `priceCurrency`.
fn is_currency(name: &str) -> bool {
    words(name).iter().any(|w| w == "currency")
}

/// Why `a`, among `siblings` (its entity's attributes or its pattern's parameters), holds
/// money, if it does.
pub(crate) fn money(a: &Attribute, siblings: &[Attribute]) -> Option<Why> {
    if a.money {
        return Some(Why::Declared);
    }
    if let Some(word) = a.description.as_deref().and_then(description_says_money) {
        return Some(Why::Description(word));
    }
    if let Some(word) = name_says_money(&a.name) {
        return Some(Why::Name(word));
    }
    // Beside a currency, any word of a count, rate, score or measure keeps it silent
    // (`ratingAvg`, `fxRate`).
    let words = words(&a.name);
    if is_currency(&a.name) || words.iter().any(|w| find(NOT_MONEY_WORDS, w).is_some()) {
        return None;
    }
    siblings
        .iter()
        .find(|s| s.name != a.name && is_currency(&s.name))
        .map(|s| Why::Currency(s.name.clone()))
}

#[cfg(test)]
mod tests;

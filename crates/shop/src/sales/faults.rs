//! Faults injected into the `productSales` handler, for the tests that check the aggregate
//! survives retries and bisection (crates/shop-server/tests/it/sales_stream.rs, on `serve`).
//! Compiled only with the `sales-faults` feature, which the shop-server package's tests turn
//! on and a build of the binary for use does not; on only when `MONOTABLE_SHOP_SALES_FAULTS` is
//! set.
//!
//! `MONOTABLE_SHOP_SALES_FAULTS=PERCENT[,SEED]`: each sale of a batch fails with that chance,
//! half the time before it is applied and half the time after (its answer lost: the record is
//! reported failed although it counted, so its redelivery must count nothing). A sale fails at
//! most [`MAX_FAILURES_PER_SALE`] times, fewer than the consumer's retries, so every record is
//! applied in the end and none goes to the failure destination.

use std::collections::HashMap;
use std::sync::Mutex;

use monotable::stream::{BatchResponse, Delivered};

use super::consumer::{self, ProductSalesChange, SaleBatch};
use super::{Failed, SaleEvent, apply_all};
use crate::{Shop, ShopError};

/// The variable that turns the faults on.
pub const FAULTS_ENV: &str = "MONOTABLE_SHOP_SALES_FAULTS";
/// How often one sale may fail: below the consumer's 3 retries.
pub const MAX_FAILURES_PER_SALE: u32 = 2;

/// Where a fault strikes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum When {
    /// The sale is not applied.
    Before,
    /// The sale is applied, and reported failed.
    After,
}

/// The faults: their chance, a seeded generator, and how often each sale failed.
#[derive(Debug)]
pub struct Faults {
    percent: u64,
    seed: u64,
    state: Mutex<(u64, HashMap<String, u32>)>,
}

impl Faults {
    /// The faults `MONOTABLE_SHOP_SALES_FAULTS` asks for; `None` when it is unset.
    pub fn from_env() -> Result<Option<Faults>, String> {
        match std::env::var(FAULTS_ENV) {
            Ok(text) => Faults::parse(&text).map(Some),
            Err(_) => Ok(None),
        }
    }

    /// `PERCENT[,SEED]`.
    fn parse(text: &str) -> Result<Faults, String> {
        let (percent, seed) = text.split_once(',').unwrap_or((text, "1"));
        let (Ok(percent), Ok(seed)) = (percent.trim().parse::<u64>(), seed.trim().parse::<u64>())
        else {
            return Err(format!(
                "{FAULTS_ENV} is `{text}`: expected PERCENT[,SEED], e.g. `20,7`"
            ));
        };
        if percent > 100 {
            return Err(format!(
                "{FAULTS_ENV} is `{text}`: the percentage is at most 100"
            ));
        }
        Ok(Faults {
            percent,
            seed,
            state: Mutex::new((seed, HashMap::new())),
        })
    }

    /// The banner's line.
    pub fn describe(&self) -> String {
        format!(
            "{} fails {}% of its sales at random, each at most {MAX_FAILURES_PER_SALE} times ({FAULTS_ENV}, seed {}; a test build)",
            consumer::NAME,
            self.percent,
            self.seed
        )
    }

    /// [`consumer::handle`], with a fault where the draw puts one.
    pub async fn handle(
        &self,
        shop: &Shop,
        changes: Vec<Delivered<ProductSalesChange>>,
    ) -> BatchResponse {
        let batch = SaleBatch::new(&changes);
        let outcome = match self.pick(&batch.events) {
            None => apply_all(shop, &batch.events).await,
            Some((at, when)) => {
                let upto = if when == When::After { at + 1 } else { at };
                let applied = apply_all(shop, batch.events.get(..upto).unwrap_or_default());
                match applied.await {
                    Ok(_) => Err(Failed {
                        at,
                        error: ShopError::busy(format!("a fault injected {when:?} ({FAULTS_ENV})")),
                    }),
                    Err(failed) => Err(failed),
                }
            }
        };
        consumer::report(&batch, &outcome);
        batch.response(&outcome)
    }

    /// The first of `events` the draw fails, and when.
    fn pick(&self, events: &[SaleEvent]) -> Option<(usize, When)> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let (rng, failures) = &mut *state;
        for (at, event) in events.iter().enumerate() {
            if next(rng) % 100 >= self.percent {
                continue;
            }
            let count = failures.entry(event.sale_id()).or_default();
            if *count < MAX_FAILURES_PER_SALE {
                *count += 1;
                let when = if next(rng).is_multiple_of(2) {
                    When::Before
                } else {
                    When::After
                };
                return Some((at, when));
            }
        }
        None
    }
}

/// splitmix64: a small, seeded, good-enough generator.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setting_is_a_percentage_and_an_optional_seed() {
        assert_eq!(
            Faults::parse("10,7").map(|f| (f.percent, f.seed)),
            Ok((10, 7))
        );
        assert_eq!(Faults::parse("0").map(|f| (f.percent, f.seed)), Ok((0, 1)));
        for bad in ["", "ten", "101", "10,x", "-1"] {
            let e = Faults::parse(bad).err().unwrap_or_default();
            assert!(e.contains(FAULTS_ENV), "{bad}: {e}");
        }
    }

    #[test]
    fn a_sale_fails_at_most_twice_so_the_retries_always_suffice() {
        let faults = Faults::parse("100").unwrap();
        let events: Vec<SaleEvent> = (0..3)
            .map(|i| SaleEvent::OrderCancelled {
                order_id: format!("O{i}"),
            })
            .collect();
        let mut picked = Vec::new();
        while let Some((at, _)) = faults.pick(&events) {
            picked.push(at);
        }
        assert_eq!(picked, [0, 0, 1, 1, 2, 2]);
        assert_eq!(Faults::parse("0").unwrap().pick(&events), None);
    }
}

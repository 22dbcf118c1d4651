//! The `productSales` consumer's handler, the same on Lambda ([`handle_event`]) and under local
//! delivery (`monotable::stream::runner` calling [`Handler::handle`]): each delivered change as the
//! [`SaleEvent`] it makes (an `OrderItem` created, an `Order` created or updated), a batch's
//! events applied together with [`apply_all`] (the first failure in batch order found), and Lambda's partial batch response naming the
//! record that failed and every record after it, so the retry starts there and order holds.

use monotable::stream::{self, BatchResponse, Change, Delivered, Event};

use super::{Failed, SaleEvent, apply_all};
use crate::Shop;
pub use crate::patterns::{ProductSalesChange, ProductSalesConsumer};

/// The consumer's name in the model (`MONOTABLE_CONSUMER` on Lambda).
pub const NAME: &str = ProductSalesConsumer::NAME;

/// The change a delivered record makes to the aggregate: a new line adds, an order moving into
/// CANCELLED takes its lines away ([`SaleEvent::order_changed`]); anything else counts nothing.
pub fn sale_event(change: &ProductSalesChange) -> Option<SaleEvent> {
    match change {
        ProductSalesChange::OrderItem(Change::Created(line)) => Some(SaleEvent::line_added(line)),
        ProductSalesChange::Order(Change::Created(order)) => SaleEvent::order_changed(None, order),
        ProductSalesChange::Order(Change::Updated { old, new }) => {
            SaleEvent::order_changed(Some(old), new)
        }
        // A line never changes once placed, and the consumer takes no REMOVE.
        ProductSalesChange::OrderItem(_) | ProductSalesChange::Order(Change::Removed(_)) => None,
    }
}

/// A batch as the aggregate sees it: its records' sequence numbers, and the sale events they
/// make, each with the record it came from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SaleBatch {
    /// The events, in delivery order: what [`apply_all`] takes.
    pub events: Vec<SaleEvent>,
    /// Each record's sequence number, in delivery order.
    sequences: Vec<String>,
    /// For each event, the index in `sequences` of its record.
    records: Vec<usize>,
}

impl SaleBatch {
    /// The events `changes` make.
    pub fn new(changes: &[Delivered<ProductSalesChange>]) -> SaleBatch {
        let mut batch = SaleBatch::default();
        for (at, delivered) in changes.iter().enumerate() {
            batch.sequences.push(delivered.sequence.clone());
            if let Some(event) = sale_event(&delivered.change) {
                batch.events.push(event);
                batch.records.push(at);
            }
        }
        batch
    }

    /// The partial batch response once applying [`SaleBatch::events`] gave `outcome`: success,
    /// or the record of the event that failed and every later record of the batch.
    pub fn response(&self, outcome: &Result<usize, Failed>) -> BatchResponse {
        match outcome {
            Ok(_) => stream::success(),
            Err(failed) => {
                // An index past the events (none is) fails the whole batch: retried, not lost.
                let from = self.records.get(failed.at).copied().unwrap_or(0);
                let rest = self.sequences.get(from..).unwrap_or_default();
                stream::failed(rest.iter().cloned())
            }
        }
    }
}

/// Handle one batch of delivered changes: apply its events, find the first in batch order that
/// fails, and answer which records failed.
pub async fn handle(shop: &Shop, changes: Vec<Delivered<ProductSalesChange>>) -> BatchResponse {
    let batch = SaleBatch::new(&changes);
    let outcome = apply_all(shop, &batch.events).await;
    report(&batch, &outcome);
    batch.response(&outcome)
}

/// The handler as a program runs it: [`handle`], or, in a build with the `sales-faults` feature
/// (the shop-server package's tests only) and `MONOTABLE_SHOP_SALES_FAULTS` set, with faults
/// injected at random (`sales/faults.rs`).
#[derive(Debug, Clone, Default)]
pub struct Handler {
    #[cfg(feature = "sales-faults")]
    faults: Option<std::sync::Arc<super::faults::Faults>>,
}

impl Handler {
    /// The handler the environment asks for: an error names a fault setting it cannot read.
    pub fn from_env() -> Result<Handler, String> {
        Ok(Handler {
            #[cfg(feature = "sales-faults")]
            faults: super::faults::Faults::from_env()?.map(std::sync::Arc::new),
        })
    }

    /// What it injects, when it does (a line of `serve`'s banner).
    pub fn faults(&self) -> Option<String> {
        #[cfg(feature = "sales-faults")]
        if let Some(faults) = &self.faults {
            return Some(faults.describe());
        }
        None
    }

    /// Handle one batch ([`handle`], with faults when on).
    pub async fn handle(
        &self,
        shop: &Shop,
        changes: Vec<Delivered<ProductSalesChange>>,
    ) -> BatchResponse {
        #[cfg(feature = "sales-faults")]
        if let Some(faults) = &self.faults {
            return faults.handle(shop, changes).await;
        }
        handle(shop, changes).await
    }
}

/// The Lambda function's body: decode `event` as the consumer's changes (a record that does not
/// decode is reported failed) and [`handle`] them.
pub async fn handle_event(shop: &Shop, event: &Event) -> BatchResponse {
    ProductSalesConsumer::handle(event, |changes| handle(shop, changes)).await
}

/// One log line per batch: what it counted, or where it failed and why.
pub fn report(batch: &SaleBatch, outcome: &Result<usize, Failed>) {
    match outcome {
        Ok(counted) => tracing::debug!(
            consumer = NAME,
            records = batch.sequences.len(),
            counted,
            "batch applied"
        ),
        Err(failed) => tracing::warn!(
            consumer = NAME,
            records = batch.sequences.len(),
            failed_at = failed.at,
            sale = %batch.events.get(failed.at).map(SaleEvent::sale_id).unwrap_or_default(),
            "a sale was not applied; its record and the later ones are retried: {}",
            failed.error
        ),
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;
    use time::macros::datetime;

    use super::*;
    use crate::entities::{Order, OrderLine, Status};
    use crate::error::ShopError;

    fn order(status: Status) -> Order {
        let at = datetime!(2026-12-02 10:00 UTC);
        Order {
            order_id: "O1".into(),
            user_id: "u".into(),
            status,
            total: Decimal::new(330, 2),
            currency: "USD".into(),
            item_count: 1,
            created_at: at,
            day: at.date(),
            shard: 0,
            updated_at: at,
            version: 1,
            items: None,
        }
    }

    fn line(line_no: i64) -> OrderLine {
        OrderLine {
            order_id: "O1".into(),
            line_no,
            product_id: "P".into(),
            product_name: "p".into(),
            quantity: 3,
            unit_price: Decimal::new(110, 2),
            line_total: Decimal::new(330, 2),
            stock_tracked: false,
            day: datetime!(2026-12-02 10:00 UTC).date(),
        }
    }

    fn delivered(n: u32, change: ProductSalesChange) -> Delivered<ProductSalesChange> {
        Delivered {
            sequence: format!("{n:03}"),
            event_id: format!("e{n}"),
            change,
        }
    }

    /// Records 0..=5: a line, a pending order, a line updated, a cancellation, a MODIFY of the
    /// order already cancelled, a second line.
    fn batch() -> Vec<Delivered<ProductSalesChange>> {
        use ProductSalesChange as C;
        vec![
            delivered(0, C::OrderItem(Change::Created(line(1)))),
            delivered(1, C::Order(Change::Created(order(Status::Pending)))),
            delivered(
                2,
                C::OrderItem(Change::Updated {
                    old: line(1),
                    new: line(1),
                }),
            ),
            delivered(
                3,
                C::Order(Change::Updated {
                    old: order(Status::Paid),
                    new: order(Status::Cancelled),
                }),
            ),
            delivered(
                4,
                C::Order(Change::Updated {
                    old: order(Status::Cancelled),
                    new: order(Status::Cancelled),
                }),
            ),
            delivered(5, C::OrderItem(Change::Created(line(2)))),
        ]
    }

    fn failed_at(at: usize) -> Result<usize, Failed> {
        Err(Failed {
            at,
            error: ShopError::internal("boom"),
        })
    }

    fn named(response: &BatchResponse) -> Vec<&str> {
        response
            .batch_item_failures
            .iter()
            .filter_map(|f| f.item_identifier.as_deref())
            .collect()
    }

    #[test]
    fn only_new_lines_and_moves_into_cancelled_make_events() {
        let b = SaleBatch::new(&batch());
        let ids: Vec<String> = b.events.iter().map(SaleEvent::sale_id).collect();
        assert_eq!(ids, ["LINE#O1#001", "CANCEL#O1", "LINE#O1#002"]);
    }

    #[test]
    fn a_failure_names_its_record_and_every_later_one() {
        let b = SaleBatch::new(&batch());
        assert!(b.response(&Ok(3)).batch_item_failures.is_empty());
        // The cancellation (event 1) is record 3: records 3, 4 and 5 are retried.
        assert_eq!(named(&b.response(&failed_at(1))), ["003", "004", "005"]);
        assert_eq!(named(&b.response(&failed_at(0))).len(), 6);
        // An index no event has fails the whole batch rather than lose a record.
        assert_eq!(named(&b.response(&failed_at(9))).len(), 6);
    }
}

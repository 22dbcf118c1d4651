//! Per-product daily sales: the logic of the `productSales` stream consumer (a new order line
//! adds its units and total to its product's day, an order's cancellation takes its lines away),
//! each change applied exactly once however often its record comes, and the admin's read of a
//! product's days. docs/streams.md, "The shop's sales aggregate", explains the design.
//!
//! The consumer's handler ([`consumer`]) turns each record delivered into a [`SaleEvent`]
//! ([`SaleEvent::line_added`] for an `OrderItem` INSERT, [`SaleEvent::order_changed`] for an
//! `Order` INSERT or MODIFY) and hands them to [`apply_all`], which applies several at once and
//! reports the first, in batch order, that failed.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::Serialize;
use time::{Date, Duration};

use crate::Shop;
use crate::entities::{Order, OrderLine, Status};
pub use crate::entities::{ProductDailySales, SaleApplied};
use crate::error::ShopError;
use crate::money::ser_money;
use crate::patterns::{
    AddSales, ApplySale, GetOrderWithItems, GetProductSales, MarkSaleApplied, OpenSalesDay,
};
use crate::time_util::{self, Bound};

pub mod consumer;
#[cfg(feature = "sales-faults")]
mod faults;

/// How long a [`SaleApplied`] marker is kept: well past the 24 hours a stream keeps a record, so
/// every redelivery of a record meets its marker.
pub const MARKER_TTL_DAYS: i64 = 7;
/// The longest range `GET /products/{productId}/sales` reads, in days: one Query of at most one
/// item per day (the model's `getProductSales` pages hold 366).
pub const MAX_SALES_DAYS: i64 = 366;
/// Rounds of "open the missing days, apply again" before [`apply`] gives up: a day created
/// once stays, so a second round only fails when the table is being emptied under it.
const OPEN_ROUNDS: usize = 3;

/// One change the aggregate counts, built from the entity a stream record carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaleEvent {
    /// A new order line: its quantity and total add to its product's day.
    LineAdded {
        /// The line's order.
        order_id: String,
        /// The line's number in its order.
        line_no: i64,
        /// The product sold.
        product_id: String,
        /// The order's UTC day.
        day: Date,
        /// Units sold.
        units: i64,
        /// The line's total.
        revenue: Decimal,
    },
    /// An order became CANCELLED: every line of it is taken away from its product's day.
    OrderCancelled {
        /// The order.
        order_id: String,
    },
}

impl SaleEvent {
    /// The change an `OrderItem` INSERT makes.
    pub fn line_added(line: &OrderLine) -> SaleEvent {
        SaleEvent::LineAdded {
            order_id: line.order_id.clone(),
            line_no: line.line_no,
            product_id: line.product_id.clone(),
            day: line.day,
            units: line.quantity,
            revenue: line.line_total,
        }
    }

    /// The change an `Order` record makes: a cancellation when `new` is CANCELLED and `old` (the
    /// old image; `None` for an INSERT, an order written cancelled) was not. Any other change,
    /// including a later MODIFY of an order already cancelled (Lambda's filter on
    /// `status = CANCELLED` lets it through), counts nothing.
    pub fn order_changed(old: Option<&Order>, new: &Order) -> Option<SaleEvent> {
        let was_cancelled = old.is_some_and(|o| o.status == Status::Cancelled);
        (new.status == Status::Cancelled && !was_cancelled).then(|| SaleEvent::OrderCancelled {
            order_id: new.order_id.clone(),
        })
    }

    /// What the marker records as applied: `LINE#<orderId>#<lineNo>` or `CANCEL#<orderId>`. It
    /// names the business change, not the stream record, so the same change in two records
    /// (a second reader, a replay) is counted once too.
    pub fn sale_id(&self) -> String {
        match self {
            SaleEvent::LineAdded {
                order_id, line_no, ..
            } => format!("LINE#{order_id}#{line_no:03}"),
            SaleEvent::OrderCancelled { order_id } => format!("CANCEL#{order_id}"),
        }
    }
}

/// What [`apply`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applied {
    /// The change was counted now.
    Counted,
    /// Its marker exists: an earlier delivery counted it; nothing was written.
    AlreadyCounted,
}

/// One product-day's change.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Delta {
    product_id: String,
    day: Date,
    units: i64,
    revenue: Decimal,
}

/// The changes `lines` make to their products' days, `sign` 1 to add and -1 to take away;
/// lines of one product and day are merged (a transaction writes an item once).
fn deltas<'a>(
    lines: impl IntoIterator<Item = (&'a str, Date, i64, Decimal)>,
    sign: i64,
) -> Result<Vec<Delta>, ShopError> {
    let mut merged: BTreeMap<(&str, Date), (i64, Decimal)> = BTreeMap::new();
    for (product_id, day, units, revenue) in lines {
        let slot = merged.entry((product_id, day)).or_default();
        let units = units.checked_mul(sign).and_then(|u| slot.0.checked_add(u));
        let revenue = revenue
            .checked_mul(Decimal::from(sign))
            .and_then(|r| slot.1.checked_add(r));
        match (units, revenue) {
            (Some(u), Some(r)) => *slot = (u, r),
            _ => return Err(ShopError::internal("a sale's units or revenue overflow")),
        }
    }
    Ok(merged
        .into_iter()
        .map(|((product_id, day), (units, revenue))| Delta {
            product_id: product_id.to_string(),
            day,
            units,
            revenue,
        })
        .collect())
}

/// What `event` changes: its line, or every line of the cancelled order (read consistently; an
/// order's lines never change after it is placed).
async fn changes(shop: &Shop, event: &SaleEvent) -> Result<Vec<Delta>, ShopError> {
    match event {
        SaleEvent::LineAdded {
            product_id,
            day,
            units,
            revenue,
            ..
        } => deltas([(product_id.as_str(), *day, *units, *revenue)], 1),
        SaleEvent::OrderCancelled { order_id } => {
            let order_id = order_id.clone();
            let lines = GetOrderWithItems { order_id }
                .all(shop.db())
                .await?
                .order_items;
            deltas(
                lines
                    .iter()
                    .map(|l| (l.product_id.as_str(), l.day, l.quantity, l.line_total)),
                -1,
            )
        }
    }
}

/// Apply one change exactly once: the model's `applySale`, its marker created only if absent
/// and each product-day's units and revenue added in the same transaction. A marker that exists
/// means an earlier delivery counted the change: [`Applied::AlreadyCounted`], nothing written.
/// A product-day not yet there is opened at zero (`openSalesDay`) and the transaction sent again.
pub async fn apply(shop: &Shop, event: &SaleEvent) -> Result<Applied, ShopError> {
    let deltas = changes(shop, event).await?;
    let marker = SaleApplied {
        sale_id: event.sale_id(),
        expires_at: time_util::whole_seconds(shop.now() + Duration::days(MARKER_TTL_DAYS)),
    };
    for _ in 0..OPEN_ROUNDS {
        let mut tx = ApplySale::new().mark_sale_applied(MarkSaleApplied {
            sale_applied: &marker,
        });
        for d in &deltas {
            let add = AddSales {
                product_id: d.product_id.clone(),
                day: d.day,
            };
            tx = tx.add_sales(add.add_units(d.units).add_revenue(d.revenue));
        }
        match tx.send(shop.db()).await {
            Ok(()) => return Ok(Applied::Counted),
            Err(e) if e.failed(ApplySale::MARK_SALE_APPLIED) => return Ok(Applied::AlreadyCounted),
            Err(e) if e.failed(ApplySale::ADD_SALES) => open_days(shop, &deltas).await?,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ShopError::busy(format!(
        "sale {} found its product days missing {OPEN_ROUNDS} times",
        marker.sale_id
    )))
}

/// Create each product-day of `deltas` at zero, unless it exists.
async fn open_days(shop: &Shop, deltas: &[Delta]) -> Result<(), ShopError> {
    for d in deltas {
        let day = ProductDailySales {
            product_id: d.product_id.clone(),
            day: d.day,
            units: 0,
            revenue: Decimal::ZERO,
        };
        match (OpenSalesDay {
            product_daily_sales: &day,
        })
        .send(shop.db())
        .await
        {
            Ok(()) => {}
            Err(monotable::WriteError::AlreadyExists { .. }) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// A batch's first failure: the index of the event that failed, and why. Events after it may
/// have been applied too ([`apply_all`] runs several at once); a runner reports this one (and,
/// by Lambda's rule, every later one) as failed, and the retry starts there, where the markers
/// of those already applied make them count nothing again.
#[derive(Debug)]
pub struct Failed {
    /// Index in the batch of the event that failed.
    pub at: usize,
    /// Why.
    pub error: ShopError,
}

/// How many of a batch's events [`apply_all`] has in flight at once. Sales commute (each adds
/// to or takes from product-days) and each is guarded by its own marker, so their order does
/// not matter; running them together lets the transactions' commits share the table's flushes
/// instead of each waiting for its own. Two sales of one product-day at once are two
/// transactions on one item: the engine serialises them, DynamoDB cancels one with
/// `TransactionConflict`, which the transaction retries with backoff.
pub const APPLY_CONCURRENCY: usize = 16;

/// Apply a batch's events, at most [`APPLY_CONCURRENCY`] at once, and report the first (in
/// batch order) that failed; returns how many were counted now (the others were counted by an
/// earlier delivery).
pub async fn apply_all(shop: &Shop, events: &[SaleEvent]) -> Result<usize, Failed> {
    // By index, not by `&SaleEvent`: a closure taking a reference makes the future not `Send`
    // for every lifetime, which the runner's spawned task needs.
    each_at_once(events.len(), |at| async move {
        match events.get(at) {
            Some(event) => apply(shop, event).await,
            None => Ok(Applied::AlreadyCounted),
        }
    })
    .await
}

/// Run `apply(0..n)`, at most [`APPLY_CONCURRENCY`] at once, every one to its end (none is
/// left half-sent after a failure); how many were counted, or the failure of the lowest index.
async fn each_at_once<F, Fut>(n: usize, apply: F) -> Result<usize, Failed>
where
    F: Fn(usize) -> Fut,
    Fut: std::future::Future<Output = Result<Applied, ShopError>>,
{
    use futures_util::StreamExt as _;
    let mut outcomes = futures_util::stream::iter(0..n)
        .map(apply)
        .buffered(APPLY_CONCURRENCY)
        .enumerate();
    let mut counted = 0;
    let mut first: Option<Failed> = None;
    while let Some((at, outcome)) = outcomes.next().await {
        match outcome {
            Ok(Applied::Counted) => counted += 1,
            Ok(Applied::AlreadyCounted) => {}
            Err(error) => {
                first.get_or_insert(Failed { at, error });
            }
        }
    }
    first.map_or(Ok(counted), Err)
}

/// One day of a product's sales in `GET /products/{productId}/sales`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DaySales {
    /// The UTC day of the orders, `2026-12-02`.
    #[schema(example = "2026-12-02")]
    pub day: String,
    /// Units ordered that day, less those of orders cancelled since.
    pub units: i64,
    /// Their revenue, a decimal string.
    #[schema(value_type = String, example = "59.97")]
    #[serde(serialize_with = "ser_money")]
    pub revenue: Decimal,
}

/// `GET /products/{productId}/sales`: a product's sales per day within a range, and their sums.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SalesReport {
    /// The product.
    pub product_id: String,
    /// The first day of the range.
    #[schema(example = "2026-12-01")]
    pub from: String,
    /// The last day of the range (inclusive).
    #[schema(example = "2026-12-31")]
    pub to: String,
    /// ISO 4217 code of every amount.
    pub currency: String,
    /// Units over the range.
    pub units: i64,
    /// Revenue over the range, a decimal string.
    #[schema(value_type = String, example = "59.97")]
    #[serde(serialize_with = "ser_money")]
    pub revenue: Decimal,
    /// The days that have sales (or had, before cancellations), oldest first; a day without
    /// any is absent.
    pub days: Vec<DaySales>,
}

/// The UTC days of `from..=to`: each a date or an RFC 3339 timestamp (which stands for its
/// whole UTC day), `from` not after `to`, at most [`MAX_SALES_DAYS`] days.
pub fn day_range(from: &str, to: &str) -> Result<(Date, Date), ShopError> {
    let from = time_util::utc_day(time_util::parse_bound("from", from, Bound::Start)?);
    let to = time_util::utc_day(time_util::parse_bound("to", to, Bound::End)?);
    if from > to {
        return Err(ShopError::invalid("invalid_range", "`from` is after `to`"));
    }
    let days = (to - from).whole_days() + 1;
    if days > MAX_SALES_DAYS {
        return Err(ShopError::invalid(
            "range_too_long",
            format!("a sales range spans at most {MAX_SALES_DAYS} days; this one spans {days}"),
        ));
    }
    Ok((from, to))
}

/// A product's sales per day within `from..=to` (see [`day_range`]): one Query of its
/// `SALES#` items. An unknown product has none.
pub async fn between(
    shop: &Shop,
    product_id: &str,
    from: &str,
    to: &str,
) -> Result<SalesReport, ShopError> {
    crate::products::validate_product_id(product_id)?;
    let (from, to) = day_range(from, to)?;
    let stored = GetProductSales {
        product_id: product_id.to_string(),
        from,
        to,
    }
    .all(shop.db())
    .await?;
    let overflow = || ShopError::internal("a product's sales overflow");
    let (mut units, mut revenue) = (0_i64, Decimal::ZERO);
    let mut days = Vec::with_capacity(stored.len());
    for s in stored {
        units = units.checked_add(s.units).ok_or_else(overflow)?;
        revenue = revenue.checked_add(s.revenue).ok_or_else(overflow)?;
        days.push(DaySales {
            day: time_util::format_day(s.day),
            units: s.units,
            revenue: s.revenue,
        });
    }
    Ok(SalesReport {
        product_id: product_id.to_string(),
        from: time_util::format_day(from),
        to: time_util::format_day(to),
        currency: crate::orders::CURRENCY.to_string(),
        units,
        revenue,
        days,
    })
}

#[cfg(test)]
mod tests;

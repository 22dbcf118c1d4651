//! Orders: creation in one transaction (idempotency record, order, items, a price/publication
//! check and a conditional stock decrement per product), status changes that move the index keys
//! in the same conditional write, and the listings (per user, per status, per date range).

use std::collections::{HashMap, HashSet};

use aws_sdk_dynamodb::types::{AttributeValue, ConditionCheck, Put, TransactWriteItem, Update};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use monotable_access::items::{self, Item, n, s};
use monotable_access::pattern::{self, PageRequest};

use crate::Shop;
use crate::auth::Caller;
use crate::error::{ShopError, sdk};
use crate::money;
use crate::products::{self, Product, ser_money};
use crate::rules;
use crate::time_util;
use crate::users::{backoff, failed_conditions, is_transaction_conflict};

mod list;
mod status;

pub use list::{by_date, by_status, for_user};
pub use status::change_status;

/// Most lines in one order. One TransactWriteItems holds at most 100 actions: the idempotency
/// record, the order, and per line the item and its product's check or stock update.
pub const MAX_LINES: usize = 49;
// The limit is the largest that fits: checked when compiling.
const _: () = assert!(1 + 1 + 2 * MAX_LINES <= 100 && 1 + 1 + 2 * (MAX_LINES + 1) > 100);
/// How long an idempotency record is kept (it expires through the table's TTL).
pub const IDEMPOTENCY_TTL_SECONDS: i64 = 24 * 3600;
/// Write shards of the per-day index (GSI3); the model's `shard` cardinality.
pub const DAY_SHARDS: u32 = 8;
/// Longest date range `GET /orders?from&to` walks by default: each day costs one query per shard.
pub const MAX_RANGE_DAYS: i64 = 93;
/// The currency every price is in.
pub const CURRENCY: &str = "USD";
const RETRIES: usize = 5;

/// An order's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    /// Created, not paid.
    Pending,
    /// Paid.
    Paid,
    /// Handed to the carrier.
    Shipped,
    /// Arrived.
    Delivered,
    /// Cancelled (from PENDING or PAID); stock goes back.
    Cancelled,
}

impl Status {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pending => "PENDING",
            Status::Paid => "PAID",
            Status::Shipped => "SHIPPED",
            Status::Delivered => "DELIVERED",
            Status::Cancelled => "CANCELLED",
        }
    }

    /// Parse a wire name.
    pub fn parse(text: &str) -> Result<Status, ShopError> {
        Ok(match text {
            "PENDING" => Status::Pending,
            "PAID" => Status::Paid,
            "SHIPPED" => Status::Shipped,
            "DELIVERED" => Status::Delivered,
            "CANCELLED" => Status::Cancelled,
            other => {
                return Err(ShopError::invalid(
                    "invalid_status",
                    format!(
                        "`status` must be PENDING, PAID, SHIPPED, DELIVERED or CANCELLED; got {other:?}"
                    ),
                ));
            }
        })
    }

    /// PENDING→PAID→SHIPPED→DELIVERED, and PENDING|PAID→CANCELLED.
    pub fn can_move_to(self, to: Status) -> bool {
        matches!(
            (self, to),
            (Status::Pending, Status::Paid)
                | (Status::Paid, Status::Shipped)
                | (Status::Shipped, Status::Delivered)
                | (Status::Pending | Status::Paid, Status::Cancelled)
        )
    }
}

/// One line of an order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderLine {
    /// 1-based line number.
    pub line_no: i64,
    /// The product.
    pub product_id: String,
    /// Its name when ordered.
    pub product_name: String,
    /// Units.
    pub quantity: i64,
    /// Price per unit when ordered.
    #[schema(value_type = String, example = "9.99")]
    #[serde(serialize_with = "ser_money")]
    pub unit_price: Decimal,
    /// quantity × unitPrice.
    #[schema(value_type = String, example = "19.98")]
    #[serde(serialize_with = "ser_money")]
    pub line_total: Decimal,
}

/// An order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Order {
    /// Time-sortable id (ULID).
    pub order_id: String,
    /// The customer.
    pub user_id: String,
    /// Status.
    pub status: Status,
    /// Sum of the line totals, computed by the server.
    #[schema(value_type = String, example = "19.98")]
    #[serde(serialize_with = "ser_money")]
    pub total: Decimal,
    /// ISO 4217 code.
    pub currency: String,
    /// Number of lines.
    pub item_count: i64,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// RFC 3339 UTC.
    pub updated_at: String,
    /// Bumped by every status change; pass as `expectedVersion`.
    pub version: i64,
    /// The lines (in single-order responses; absent in listings).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<OrderLine>>,
}

/// One requested line.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewLine {
    /// A published product (a product that does not exist or is not published is a 409).
    pub product_id: String,
    /// 1 to 1000 units.
    #[serde(deserialize_with = "crate::whole::integer")]
    pub quantity: i64,
}

/// `POST /users/{userId}/orders` body.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewOrder {
    /// 1 to 49 lines; each product in at most one line (a product twice is a 400).
    pub items: Vec<NewLine>,
}

/// `PATCH /orders/{orderId}` body.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatusChange {
    /// The new status.
    pub status: Status,
    /// Fail with 409 unless the order is at this version.
    #[serde(default, deserialize_with = "crate::whole::optional")]
    pub expected_version: Option<i64>,
}

/// Order ids are ULIDs: 26 characters of upper-case Crockford base32.
pub fn validate_order_id(id: &str) -> Result<(), ShopError> {
    rules::ORDER_ID.check(id).map(drop)
}

fn validate_new_order(order: &NewOrder) -> Result<(), ShopError> {
    let (fewest, most) = rules::ORDER_LINES;
    if !(fewest..=most).contains(&order.items.len()) {
        return Err(ShopError::invalid(
            "too_many_items",
            format!(
                "an order has {fewest} to {most} lines (one DynamoDB transaction holds 100 actions); got {}",
                order.items.len()
            ),
        ));
    }
    let mut seen = HashSet::new();
    for line in &order.items {
        products::validate_product_id(&line.product_id)?;
        rules::QUANTITY.check(line.quantity)?;
        if !seen.insert(line.product_id.as_str()) {
            return Err(ShopError::invalid(
                "duplicate_product",
                format!(
                    "product {} appears twice; put the total quantity in one line",
                    line.product_id
                ),
            ));
        }
    }
    Ok(())
}

fn validate_idempotency_key(key: &str) -> Result<(), ShopError> {
    rules::IDEMPOTENCY_KEY.check(key).map(drop)
}

/// Shard of an order in the per-day index: FNV-1a of its id, modulo [`DAY_SHARDS`].
pub fn day_shard(order_id: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for b in order_id.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash % DAY_SHARDS
}

fn order_values(o: &Order) -> impl Fn(&str) -> Option<String> + '_ {
    move |name: &str| match name {
        "orderId" => Some(o.order_id.clone()),
        "userId" => Some(o.user_id.clone()),
        "status" => Some(o.status.as_str().to_string()),
        "createdAt" => Some(o.created_at.clone()),
        "day" => o.created_at.get(..10).map(str::to_string),
        "shard" => Some(day_shard(&o.order_id).to_string()),
        _ => None,
    }
}

pub(crate) fn order_item(shop: &Shop, o: &Order) -> Result<Item, ShopError> {
    let values = order_values(o);
    let mut item = items::keys(shop.model(), "Order", &values)?;
    item.extend([
        ("orderId".into(), s(&o.order_id)),
        ("userId".into(), s(&o.user_id)),
        ("status".into(), s(o.status.as_str())),
        ("total".into(), n(o.total)),
        ("currency".into(), s(&o.currency)),
        ("itemCount".into(), n(o.item_count)),
        ("createdAt".into(), s(&o.created_at)),
        ("updatedAt".into(), s(&o.updated_at)),
        ("day".into(), s(values("day").unwrap_or_default())),
        ("shard".into(), n(day_shard(&o.order_id))),
        ("version".into(), n(o.version)),
    ]);
    Ok(item)
}

pub(crate) fn line_item(
    shop: &Shop,
    order_id: &str,
    line: &OrderLine,
    stock_tracked: bool,
) -> Result<Item, ShopError> {
    let values = |name: &str| match name {
        "orderId" => Some(order_id.to_string()),
        "lineNo" => Some(line.line_no.to_string()),
        _ => None,
    };
    let mut item = items::keys(shop.model(), "OrderItem", &values)?;
    item.extend([
        ("orderId".into(), s(order_id)),
        ("lineNo".into(), n(line.line_no)),
        ("productId".into(), s(&line.product_id)),
        ("productName".into(), s(&line.product_name)),
        ("quantity".into(), n(line.quantity)),
        ("unitPrice".into(), n(line.unit_price)),
        ("lineTotal".into(), n(line.line_total)),
        ("stockTracked".into(), AttributeValue::Bool(stock_tracked)),
    ]);
    Ok(item)
}

fn order_from_item(item: &Item) -> Result<Order, ShopError> {
    Ok(Order {
        order_id: items::string(item, "orderId")?,
        user_id: items::string(item, "userId")?,
        status: Status::parse(&items::string(item, "status")?)
            .map_err(|_| ShopError::internal("stored order status is unknown"))?,
        total: money::from_stored("total", &items::number(item, "total")?)?,
        currency: items::string(item, "currency")?,
        item_count: items::integer(item, "itemCount")?,
        created_at: items::string(item, "createdAt")?,
        updated_at: items::string(item, "updatedAt")?,
        version: items::integer(item, "version")?,
        items: None,
    })
}

fn line_from_item(item: &Item) -> Result<(OrderLine, bool), ShopError> {
    Ok((
        OrderLine {
            line_no: items::integer(item, "lineNo")?,
            product_id: items::string(item, "productId")?,
            product_name: items::string(item, "productName")?,
            quantity: items::integer(item, "quantity")?,
            unit_price: money::from_stored("unitPrice", &items::number(item, "unitPrice")?)?,
            line_total: money::from_stored("lineTotal", &items::number(item, "lineTotal")?)?,
        },
        items::boolean(item, "stockTracked").unwrap_or(false),
    ))
}

/// The order `order_id` with its lines (one Query on the ORDER#id collection), and for each
/// line whether its product's stock was taken.
async fn load(
    shop: &Shop,
    order_id: &str,
) -> Result<Option<(Order, Vec<(OrderLine, bool)>)>, ShopError> {
    let mut header = None;
    let mut lines = Vec::new();
    let mut start = None;
    loop {
        let page = pattern::query(
            shop.client(),
            shop.model(),
            "getOrderWithItems",
            &|name| (name == "orderId").then(|| order_id.to_string()),
            PageRequest { limit: None, start },
        )
        .await?;
        for item in &page.items {
            match items::entity_type(item) {
                Some("Order") => header = Some(order_from_item(item)?),
                Some("OrderItem") => lines.push(line_from_item(item)?),
                _ => {}
            }
        }
        start = page.last_evaluated_key;
        if start.is_none() {
            break;
        }
    }
    lines.sort_by_key(|(l, _)| l.line_no);
    Ok(header.map(|h| (h, lines)))
}

/// The order with its items, if the caller may see it (owner or admin); otherwise 404.
pub async fn get_for(shop: &Shop, caller: &Caller, order_id: &str) -> Result<Order, ShopError> {
    validate_order_id(order_id)?;
    match load(shop, order_id).await? {
        Some((mut order, lines)) if caller.is_self_or_admin(&order.user_id) => {
            order.items = Some(lines.into_iter().map(|(l, _)| l).collect());
            Ok(order)
        }
        _ => Err(ShopError::NotFound(format!("no order {order_id}"))),
    }
}

fn request_hash(order: &NewOrder) -> String {
    let canonical = serde_json::to_vec(order).unwrap_or_default();
    let digest = Sha256::digest(&canonical);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// The outcome of `create`.
#[derive(Debug)]
pub struct Created {
    /// The order with its items.
    pub order: Order,
    /// True when an earlier request with the same Idempotency-Key made it.
    pub replayed: bool,
}

async fn replay(
    shop: &Shop,
    user_id: &str,
    key: &str,
    hash: &str,
) -> Result<Option<Created>, ShopError> {
    let record = pattern::get(
        shop.client(),
        shop.model(),
        "getIdempotencyRecord",
        &|name| match name {
            "userId" => Some(user_id.to_string()),
            "idempotencyKey" => Some(key.to_string()),
            _ => None,
        },
    )
    .await?;
    let Some(record) = record else {
        return Ok(None);
    };
    if items::string(&record, "requestHash")? != hash {
        return Err(ShopError::conflict(
            "idempotency_key_reused",
            "this Idempotency-Key was used for a different order body; use a new key",
        ));
    }
    let order_id = items::string(&record, "orderId")?;
    let caller = Caller {
        user_id: user_id.to_string(),
        admin: false,
    };
    let order = get_for(shop, &caller, &order_id).await?;
    Ok(Some(Created {
        order,
        replayed: true,
    }))
}

/// Create an order for `user_id` from stored prices, in one transaction. With an
/// `idempotency_key`, a retry with the same body returns the first order and writes nothing.
pub async fn create(
    shop: &Shop,
    user_id: &str,
    request: &NewOrder,
    idempotency_key: Option<&str>,
) -> Result<Created, ShopError> {
    crate::users::validate_user_id(user_id)?;
    validate_new_order(request)?;
    let hash = request_hash(request);
    if let Some(key) = idempotency_key {
        validate_idempotency_key(key)?;
        if let Some(done) = replay(shop, user_id, key, &hash).await? {
            return Ok(done);
        }
    }

    for attempt in 0..RETRIES {
        // Prices and availability come from the stored products, read concurrently.
        let mut reads = tokio::task::JoinSet::new();
        for (i, line) in request.items.iter().enumerate() {
            let shop = shop.clone();
            let id = line.product_id.clone();
            reads.spawn(async move { (i, products::get(&shop, &id).await) });
        }
        let mut found: Vec<Option<Product>> = vec![None; request.items.len()];
        while let Some(joined) = reads.join_next().await {
            let (i, product) = joined.map_err(ShopError::internal)?;
            found[i] = product?;
        }
        let mut stocked = Vec::with_capacity(found.len());
        for (line, product) in request.items.iter().zip(&found) {
            let product = product
                .as_ref()
                .ok_or_else(|| unknown_product(&line.product_id))?;
            check_available(product, line.quantity)?;
            stocked.push(product.clone());
        }

        let now = shop.now();
        let created_at = time_util::format_ts(now);
        let order_id = crate::products::new_id(shop);
        let lines: Vec<OrderLine> = request
            .items
            .iter()
            .zip(&stocked)
            .enumerate()
            .map(|(i, (line, p))| OrderLine {
                line_no: i as i64 + 1,
                product_id: p.product_id.clone(),
                product_name: p.name.clone(),
                quantity: line.quantity,
                unit_price: p.price,
                line_total: p.price * Decimal::from(line.quantity),
            })
            .collect();
        let order = Order {
            order_id: order_id.clone(),
            user_id: user_id.to_string(),
            status: Status::Pending,
            total: lines.iter().map(|l| l.line_total).sum(),
            currency: CURRENCY.to_string(),
            item_count: lines.len() as i64,
            created_at: created_at.clone(),
            updated_at: created_at.clone(),
            version: 1,
            items: None,
        };

        let table = shop.table();
        let mut tx = shop.client().transact_write_items();
        let mut offset = 0;
        if let Some(key) = idempotency_key {
            let values = |name: &str| match name {
                "userId" => Some(user_id.to_string()),
                "idempotencyKey" => Some(key.to_string()),
                _ => None,
            };
            let mut record = items::keys(shop.model(), "Idempotency", &values)?;
            record.extend([
                ("userId".into(), s(user_id)),
                ("idempotencyKey".into(), s(key)),
                ("requestHash".into(), s(&hash)),
                ("orderId".into(), s(&order_id)),
                ("createdAt".into(), s(&created_at)),
                (
                    "expiresAt".into(),
                    n(now.unix_timestamp() + IDEMPOTENCY_TTL_SECONDS),
                ),
            ]);
            tx = tx.transact_items(put(table, record, Some("attribute_not_exists(PK)"))?);
            offset = 1;
        }
        tx = tx.transact_items(put(
            table,
            order_item(shop, &order)?,
            Some("attribute_not_exists(PK)"),
        )?);
        for (line, p) in lines.iter().zip(&stocked) {
            tx = tx.transact_items(put(
                table,
                line_item(shop, &order_id, line, p.stock.is_some())?,
                None,
            )?);
        }
        for (line, p) in lines.iter().zip(&stocked) {
            tx = tx.transact_items(take_stock(shop, p, line.quantity)?);
        }

        match tx.send().await {
            Ok(_) => {
                let mut order = order;
                order.items = Some(lines);
                return Ok(Created {
                    order,
                    replayed: false,
                });
            }
            Err(e) => {
                let Some(failed) = failed_conditions(&e) else {
                    return Err(sdk("TransactWriteItems", e));
                };
                if idempotency_key.is_some() && failed.first() == Some(&true) {
                    // The same key won a race: answer as its retry would.
                    let key = idempotency_key.unwrap_or_default();
                    return match replay(shop, user_id, key, &hash).await? {
                        Some(done) => Ok(done),
                        None => Err(ShopError::conflict(
                            "concurrent_request",
                            "a request with this Idempotency-Key is in progress; retry shortly",
                        )),
                    };
                }
                let product_checks = offset + 1 + lines.len();
                if let Some(i) = failed.iter().skip(product_checks).position(|f| *f) {
                    // Re-read the product that failed: a 409 if it is gone, else retry with the
                    // current price.
                    let line = &request.items[i];
                    if let Some(current) = products::get(shop, &line.product_id).await? {
                        check_available(&current, line.quantity)?;
                    } else {
                        return Err(unknown_product(&line.product_id));
                    }
                    continue;
                }
                if is_transaction_conflict(&e) {
                    // Another order on the same product won the race: read again and retry.
                    backoff(attempt).await;
                    continue;
                }
                return Err(sdk("TransactWriteItems", e));
            }
        }
    }
    Err(ShopError::busy(
        "the products changed while the order was being placed; try again",
    ))
}

/// An order names a product that does not exist (or no longer does): a 409, like a product that
/// is not published, since either depends on the catalogue's state, not on the request's form.
fn unknown_product(product_id: &str) -> ShopError {
    ShopError::conflict(
        "unknown_product",
        format!("there is no product {product_id}"),
    )
}

fn check_available(p: &Product, quantity: i64) -> Result<(), ShopError> {
    if !p.published {
        return Err(ShopError::conflict(
            "product_unavailable",
            format!("product {} ({}) is not published", p.product_id, p.name),
        ));
    }
    if let Some(stock) = p.stock
        && stock < quantity
    {
        return Err(ShopError::conflict(
            "out_of_stock",
            format!(
                "product {} ({}) has {stock} in stock; {quantity} requested",
                p.product_id, p.name
            ),
        ));
    }
    Ok(())
}

fn put(table: &str, item: Item, condition: Option<&str>) -> Result<TransactWriteItem, ShopError> {
    Ok(TransactWriteItem::builder()
        .put(
            Put::builder()
                .table_name(table)
                .set_item(Some(item))
                .set_condition_expression(condition.map(str::to_string))
                .build()
                .map_err(ShopError::internal)?,
        )
        .build())
}

fn product_key(shop: &Shop, product_id: &str) -> Result<Item, ShopError> {
    Ok(items::primary_key(shop.model(), "Product", &|name| {
        (name == "productId").then(|| product_id.to_string())
    })?)
}

/// The product's part of the order transaction: still published at the price read, and, when it
/// tracks stock, enough stock, taken in the same write.
fn take_stock(shop: &Shop, p: &Product, quantity: i64) -> Result<TransactWriteItem, ShopError> {
    let key = product_key(shop, &p.product_id)?;
    let mut values = HashMap::from([
        (":t".to_string(), AttributeValue::Bool(true)),
        (":p".to_string(), n(p.price)),
    ]);
    let base = "attribute_exists(PK) AND published = :t AND price = :p";
    Ok(match p.stock {
        Some(_) => {
            values.insert(":q".into(), n(quantity));
            values.insert(":one".into(), n(1));
            TransactWriteItem::builder()
                .update(
                    Update::builder()
                        .table_name(shop.table())
                        .set_key(Some(key))
                        .update_expression("SET stock = stock - :q, version = version + :one")
                        .condition_expression(format!("{base} AND stock >= :q"))
                        .set_expression_attribute_values(Some(values))
                        .build()
                        .map_err(ShopError::internal)?,
                )
                .build()
        }
        None => TransactWriteItem::builder()
            .condition_check(
                ConditionCheck::builder()
                    .table_name(shop.table())
                    .set_key(Some(key))
                    .condition_expression(format!("{base} AND attribute_not_exists(stock)"))
                    .set_expression_attribute_values(Some(values))
                    .build()
                    .map_err(ShopError::internal)?,
            )
            .build(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transitions_follow_the_lifecycle() {
        use Status::*;
        let all = [Pending, Paid, Shipped, Delivered, Cancelled];
        let legal: Vec<_> = all
            .iter()
            .flat_map(|a| all.iter().map(move |b| (*a, *b)))
            .filter(|(a, b)| a.can_move_to(*b))
            .collect();
        assert_eq!(
            legal,
            [
                (Pending, Paid),
                (Pending, Cancelled),
                (Paid, Shipped),
                (Paid, Cancelled),
                (Shipped, Delivered)
            ]
        );
    }

    #[test]
    fn shards_spread_and_stay_in_range() {
        let mut counts = [0u32; DAY_SHARDS as usize];
        for _ in 0..8000 {
            counts[day_shard(&ulid::Ulid::new().to_string()) as usize] += 1;
        }
        assert!(counts.iter().all(|c| (700..1300).contains(c)), "{counts:?}");
    }
}

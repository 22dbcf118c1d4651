//! Orders: creation in one transaction (idempotency record, order, items, a price/publication
//! check and a conditional stock decrement per product), status changes that move the index keys
//! in the same conditional write, and the listings (per user, per status, per date range).

use std::collections::HashSet;

use monotable::Entity;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Shop;
use crate::auth::Caller;
pub use crate::entities::{Idempotency, Order, OrderLine, Status};
use crate::error::ShopError;
use crate::patterns::{
    AddOrderLine, CheckProduct, CreateOrder, GetIdempotencyRecord, GetOrderWithItems, PlaceOrder,
    RecordIdempotency, TakeStock,
};
use crate::products::{self, Product};
use crate::rules;
use crate::time_util;

mod list;
mod status;

pub use crate::rules::MAX_LINES;
pub use list::{by_date, by_status, for_user};
pub use status::change_status;

/// How long an idempotency record is kept (it expires through the table's TTL).
pub const IDEMPOTENCY_TTL_SECONDS: i64 = 24 * 3600;
/// Longest date range `GET /orders?from&to` walks by default: each day costs one query per shard.
pub const MAX_RANGE_DAYS: i64 = 93;
/// The currency every price is in.
pub const CURRENCY: &str = "USD";
const RETRIES: usize = 5;

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

/// Write shards of each day of the per-day listing: the model's `shard` cardinality.
pub fn day_shards() -> u32 {
    <Order as Entity>::cardinality("shard")
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| *n > 0)
        .unwrap_or(1)
}

/// Shard of an order in the per-day and per-status listings: FNV-1a of its id, modulo
/// [`day_shards`].
pub fn day_shard(order_id: &str) -> u32 {
    shard_of(order_id, day_shards())
}

/// FNV-1a (32 bits) of `order_id`, modulo `shards` (taken as 1 when 0). The hash is part of the
/// stored data: changing it would move orders to other shards' keys.
fn shard_of(order_id: &str, shards: u32) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for b in order_id.bytes() {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash % shards.max(1)
}

/// The order `order_id` with its lines in line order (one Query of its item collection).
async fn load(shop: &Shop, order_id: &str) -> Result<Option<(Order, Vec<OrderLine>)>, ShopError> {
    let order_id = order_id.to_string();
    let all = GetOrderWithItems { order_id }.all(shop.db()).await?;
    let mut lines = all.order_items;
    lines.sort_by_key(|l| l.line_no);
    Ok(all.order.map(|order| (order, lines)))
}

/// The order with its items, if the caller may see it (owner or admin); otherwise 404.
pub async fn get_for(shop: &Shop, caller: &Caller, order_id: &str) -> Result<Order, ShopError> {
    validate_order_id(order_id)?;
    match load(shop, order_id).await? {
        Some((mut order, lines)) if caller.is_self_or_admin(&order.user_id) => {
            order.items = Some(lines);
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
    let record = GetIdempotencyRecord {
        user_id: user_id.to_string(),
        idempotency_key: key.to_string(),
    }
    .send(shop.db())
    .await?;
    let Some(record) = record else {
        return Ok(None);
    };
    if record.request_hash != hash {
        return Err(ShopError::conflict(
            "idempotency_key_reused",
            "this Idempotency-Key was used for a different order body; use a new key",
        ));
    }
    let order_id = record.order_id;
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

    for _ in 0..RETRIES {
        let stocked = read_products(shop, request).await?;
        let placed = place(shop, user_id, request, &stocked);
        let tx = transaction(&placed, idempotency_key, &hash);
        let error = match tx.send(shop.db()).await {
            Ok(()) => {
                let mut order = placed.order;
                order.items = Some(placed.lines);
                return Ok(Created {
                    order,
                    replayed: false,
                });
            }
            Err(e) => e,
        };
        if let Some(key) = idempotency_key
            && error.failed(CreateOrder::RECORD_IDEMPOTENCY)
        {
            // The same key won a race: answer as its retry would.
            return match replay(shop, user_id, key, &hash).await? {
                Some(done) => Ok(done),
                None => Err(ShopError::conflict(
                    "concurrent_request",
                    "a request with this Idempotency-Key is in progress; retry shortly",
                )),
            };
        }
        // A product changed: the next round re-reads the products, answering 409 for one that
        // is gone or unavailable, else retrying with the current prices.
        if !error.failed(CreateOrder::TAKE_STOCK) && !error.failed(CreateOrder::CHECK_PRODUCT) {
            return Err(error.into());
        }
    }
    // The last round failed on a product too: 409 if one is now unavailable, else busy.
    read_products(shop, request).await?;
    Err(ShopError::busy(
        "the products changed while the order was being placed; try again",
    ))
}

/// The products of an order's lines, read concurrently, each available in the quantity asked.
async fn read_products(shop: &Shop, request: &NewOrder) -> Result<Vec<Product>, ShopError> {
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
    for (line, product) in request.items.iter().zip(found) {
        let product = product.ok_or_else(|| unknown_product(&line.product_id))?;
        check_available(&product, line.quantity)?;
        stocked.push(product);
    }
    Ok(stocked)
}

/// An order about to be placed: the order, its lines, and the products they take.
struct Placed<'a> {
    order: Order,
    lines: Vec<OrderLine>,
    products: &'a [Product],
    request: &'a NewOrder,
}

/// The order and lines of `request`, priced from the stored products.
fn place<'a>(
    shop: &Shop,
    user_id: &str,
    request: &'a NewOrder,
    products: &'a [Product],
) -> Placed<'a> {
    let now = shop.now();
    let day = time_util::utc_day(now);
    let order_id = crate::products::new_id(shop);
    let lines: Vec<OrderLine> = request
        .items
        .iter()
        .zip(products)
        .zip(1..)
        .map(|((line, p), line_no)| OrderLine {
            order_id: order_id.clone(),
            line_no,
            product_id: p.product_id.clone(),
            product_name: p.name.clone(),
            quantity: line.quantity,
            unit_price: p.price,
            line_total: p.price * Decimal::from(line.quantity),
            stock_tracked: p.stock.is_some(),
            day,
        })
        .collect();
    let order = Order {
        shard: day_shard(&order_id),
        order_id,
        user_id: user_id.to_string(),
        status: Status::Pending,
        total: lines.iter().map(|l| l.line_total).sum(),
        currency: CURRENCY.to_string(),
        item_count: i64::try_from(lines.len()).unwrap_or(i64::MAX),
        created_at: now,
        day,
        updated_at: now,
        version: 1,
        items: None,
    };
    Placed {
        order,
        lines,
        products,
        request,
    }
}

/// The order's transaction, the model's `createOrder`: the idempotency record (when there is a
/// key), the order, its lines, and per line its product's check or stock decrement.
fn transaction(placed: &Placed, key: Option<&str>, hash: &str) -> CreateOrder {
    let mut tx = CreateOrder::new();
    if let Some(key) = key {
        let created_at = placed.order.created_at;
        tx = tx.record_idempotency(RecordIdempotency {
            idempotency: &Idempotency {
                user_id: placed.order.user_id.clone(),
                idempotency_key: key.to_string(),
                request_hash: hash.to_string(),
                order_id: placed.order.order_id.clone(),
                created_at,
                // `epoch-seconds` holds whole seconds: a finer time would be refused.
                expires_at: time_util::whole_seconds(
                    created_at + time::Duration::seconds(IDEMPOTENCY_TTL_SECONDS),
                ),
            },
        });
    }
    tx = tx.place_order(PlaceOrder {
        order: &placed.order,
    });
    for line in &placed.lines {
        tx = tx.add_order_line(AddOrderLine { order_item: line });
    }
    for (line, product) in placed.request.items.iter().zip(placed.products) {
        tx = take_stock(tx, product, line.quantity);
    }
    tx
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

/// The product's part of the order transaction: still published at the price read, and, when it
/// tracks stock, enough stock, taken in the same write (`takeStock`; `checkProduct` otherwise).
fn take_stock(tx: CreateOrder, p: &Product, quantity: i64) -> CreateOrder {
    let product_id = p.product_id.clone();
    match p.stock {
        Some(_) => tx.take_stock(
            TakeStock {
                product_id,
                price: p.price,
                quantity,
            }
            .add_stock(-quantity),
        ),
        None => tx.check_product(CheckProduct {
            product_id,
            price: p.price,
        }),
    }
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
    fn the_shard_count_is_the_models() {
        let model = crate::model().expect("model");
        let declared = model
            .entity("Order")
            .and_then(|o| o.attribute("shard"))
            .and_then(|a| a.cardinality)
            .expect("`shard` declares its cardinality");
        assert_eq!(u64::from(day_shards()), declared);
        let id = ulid::Ulid::new().to_string();
        assert_eq!(day_shard(&id), shard_of(&id, day_shards()));
    }

    #[test]
    fn the_hash_is_fnv1a() {
        // The published 32-bit FNV-1a vectors: orders already written keep these shards.
        for (id, hash) in [
            ("", 0x811c_9dc5_u32),
            ("a", 0xe40c_292c),
            ("foobar", 0xbf9c_f968),
        ] {
            for shards in [1, 3, 8, 1000] {
                assert_eq!(shard_of(id, shards), hash % shards, "{id:?} over {shards}");
            }
        }
        assert_eq!(shard_of("a", 0), 0, "no shard count is one shard");
    }

    #[test]
    fn shards_spread_and_stay_in_range() {
        for shards in [1_u32, 3, 8] {
            let n = 8000_u32;
            let per = n / shards;
            let mut counts = vec![0u32; usize::try_from(shards).unwrap()];
            for _ in 0..n {
                let shard = shard_of(&ulid::Ulid::new().to_string(), shards);
                counts[usize::try_from(shard).unwrap()] += 1;
            }
            assert!(
                counts
                    .iter()
                    .all(|c| (per * 7 / 10..=per * 13 / 10).contains(c)),
                "{shards} shards: {counts:?}"
            );
        }
    }
}

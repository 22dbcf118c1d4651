//! Realistic sample data: users, products in several categories (some drafts, some tracking
//! stock), and orders over months in every status, built as the same entities the API writes and
//! written with BatchWriteItem.

use rust_decimal::Decimal;
use time::{Duration, OffsetDateTime};

use crate::Shop;
use crate::error::ShopError;
use crate::orders::{self, Order, OrderLine, Status};
use crate::patterns::{
    LoadSample, SeedEmailGuard, SeedOrder, SeedOrderLine, SeedProduct, SeedUser,
};
use crate::products::Product;
use crate::time_util;
use crate::users::User;

/// Items in one BatchWriteItem (DynamoDB's limit).
pub const BATCH: usize = 25;
/// Categories products are spread over.
pub const CATEGORIES: [&str; 6] = ["books", "electronics", "garden", "home", "music", "toys"];

/// How much to generate.
#[derive(Debug, Clone)]
pub struct SampleConfig {
    /// Users (each also writes an email guard).
    pub users: usize,
    /// Products.
    pub products: usize,
    /// Orders (each with 1 to 5 lines).
    pub orders: usize,
    /// Orders are spread over this many days before `end`.
    pub days: i64,
    /// The newest order's time.
    pub end: OffsetDateTime,
    /// Seed: the same seed gives the same data (ids included).
    pub seed: u64,
}

impl Default for SampleConfig {
    fn default() -> Self {
        SampleConfig {
            users: 100,
            products: 200,
            orders: 2_000,
            days: 180,
            end: time_util::now(),
            seed: 1,
        }
    }
}

/// What was written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Loaded {
    /// Users written.
    pub users: usize,
    /// Products written.
    pub products: usize,
    /// Orders written.
    pub orders: usize,
    /// Items written in all (users, guards, products, orders, order lines).
    pub items: usize,
}

/// An id that sorts by `t` and is reproducible from the RNG.
fn ulid_at(rng: &mut fastrand::Rng, t: OffsetDateTime) -> String {
    let millis = u64::try_from(t.unix_timestamp_nanos() / 1_000_000).unwrap_or(0);
    ulid::Ulid::from_parts(millis, rng.u128(..)).to_string()
}

/// Roughly how many items `config` writes (for a progress bar).
pub fn estimated_items(config: &SampleConfig) -> usize {
    config.users * 2 + config.products + config.orders * 4
}

/// Generate and write the sample data; `progress(items_written)` is called after each batch.
pub async fn load(
    shop: &Shop,
    config: &SampleConfig,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Loaded, ShopError> {
    if config.products == 0 && config.orders > 0 {
        return Err(ShopError::invalid(
            "invalid_sample",
            "orders need at least one product",
        ));
    }
    if config.users == 0 && config.orders > 0 {
        return Err(ShopError::invalid(
            "invalid_sample",
            "orders need at least one user",
        ));
    }
    let mut rng = fastrand::Rng::with_seed(config.seed);
    let mut writer = Writer::new(shop, progress);
    let mut loaded = Loaded::default();
    let start = config.end - Duration::days(config.days.max(1));
    let span_ms = (config.end - start).whole_milliseconds().max(1) as u64;

    let mut user_ids = Vec::with_capacity(config.users);
    for i in 0..config.users {
        let created = start + Duration::milliseconds(rng.u64(..span_ms / 10 + 1) as i64);
        let email = format!("user{i}@example.com");
        let user = User {
            user_id: format!("user-{i:05}"),
            name: format!("Sample User {i}"),
            email_lower: email.to_lowercase(),
            email,
            created_at: created,
            updated_at: created,
            version: 1,
        };
        writer
            .put(|b| b.seed_user(SeedUser { user: &user }))
            .await?;
        let guard = user.guard();
        writer
            .put(|b| {
                b.seed_email_guard(SeedEmailGuard {
                    email_guard: &guard,
                })
            })
            .await?;
        user_ids.push(user.user_id);
        loaded.users += 1;
    }

    let mut products = Vec::with_capacity(config.products);
    for i in 0..config.products {
        let created = start + Duration::milliseconds(rng.u64(..span_ms / 10 + 1) as i64);
        let cents = rng.i64(99..=49_999);
        let published = rng.u8(..10) != 0; // one in ten is a draft
        let product = Product {
            product_id: ulid_at(&mut rng, created),
            name: format!("Sample product {i}"),
            category: CATEGORIES[i % CATEGORIES.len()].to_string(),
            price: Decimal::new(cents, 2),
            published,
            published_at: published.then_some(created),
            stock: (rng.u8(..3) == 0).then(|| rng.i64(0..=1_000)),
            created_at: created,
            updated_at: created,
            version: 1,
        };
        writer
            .put(|b| b.seed_product(SeedProduct { product: &product }))
            .await?;
        products.push(product);
        loaded.products += 1;
    }

    for _ in 0..config.orders {
        let created = start + Duration::milliseconds(rng.u64(..span_ms) as i64);
        let order_id = ulid_at(&mut rng, created);
        let line_count = rng.usize(1..=5);
        let mut lines = Vec::with_capacity(line_count);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..line_count {
            let p = &products[rng.usize(..products.len())];
            if !seen.insert(p.product_id.clone()) {
                continue;
            }
            let quantity = rng.i64(1..=4);
            lines.push(OrderLine {
                order_id: order_id.clone(),
                line_no: lines.len() as i64 + 1,
                product_id: p.product_id.clone(),
                product_name: p.name.clone(),
                quantity,
                unit_price: p.price,
                line_total: p.price * Decimal::from(quantity),
                stock_tracked: p.stock.is_some(),
                day: time_util::utc_day(created),
            });
        }
        // Older orders have moved further along; every status occurs.
        let age = (config.end - created).whole_days();
        let status = match (age, rng.u8(..10)) {
            (_, 0) => Status::Cancelled,
            (a, _) if a < 2 => Status::Pending,
            (a, r) if a < 7 => [Status::Pending, Status::Paid][usize::from(r % 2)],
            (a, r) if a < 30 => [Status::Paid, Status::Shipped][usize::from(r % 2)],
            _ => Status::Delivered,
        };
        let order = Order {
            shard: orders::day_shard(&order_id),
            order_id: order_id.clone(),
            user_id: user_ids[rng.usize(..user_ids.len())].clone(),
            status,
            total: lines.iter().map(|l| l.line_total).sum(),
            currency: orders::CURRENCY.to_string(),
            item_count: lines.len() as i64,
            created_at: created,
            day: time_util::utc_day(created),
            updated_at: created,
            version: 1,
            items: None,
        };
        // The lines before their order: a stream consumer that meets a born-cancelled order
        // reads its lines then (the sales aggregate takes them away, docs/streams.md).
        for line in &lines {
            writer
                .put(|b| b.seed_order_line(SeedOrderLine { order_item: line }))
                .await?;
        }
        writer
            .put(|b| b.seed_order(SeedOrder { order: &order }))
            .await?;
        loaded.orders += 1;
    }
    writer.flush().await?;
    loaded.items = writer.written;
    Ok(loaded)
}

/// Batches in flight at once: SDK serialization of one batch overlaps the engine's work on
/// another (docs/benchmarks.md).
pub const IN_FLIGHT: usize = 4;

/// Batches puts 25 at a time (each a put of the model's `loadSample`), keeps [`IN_FLIGHT`]
/// batches going, and resends what DynamoDB leaves unprocessed.
struct Writer<'a> {
    shop: &'a Shop,
    pending: LoadSample,
    count: usize,
    written: usize,
    progress: &'a (dyn Fn(usize) + Sync),
    running: tokio::task::JoinSet<Result<usize, ShopError>>,
}

impl<'a> Writer<'a> {
    fn new(shop: &'a Shop, progress: &'a (dyn Fn(usize) + Sync)) -> Self {
        Writer {
            shop,
            pending: LoadSample::new(),
            count: 0,
            written: 0,
            progress,
            running: tokio::task::JoinSet::new(),
        }
    }

    /// Add one put to the pending batch.
    async fn put(&mut self, add: impl FnOnce(LoadSample) -> LoadSample) -> Result<(), ShopError> {
        self.pending = add(std::mem::take(&mut self.pending));
        self.count += 1;
        if self.count == BATCH {
            self.send().await?;
        }
        Ok(())
    }

    /// Start a batch of what is pending, first waiting for a slot.
    async fn send(&mut self) -> Result<(), ShopError> {
        while self.running.len() >= IN_FLIGHT {
            self.reap().await?;
        }
        if self.count == 0 {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.pending);
        let count = std::mem::take(&mut self.count);
        let shop = self.shop.clone();
        self.running
            .spawn(async move { write_batch(&shop, batch, count).await });
        Ok(())
    }

    async fn reap(&mut self) -> Result<(), ShopError> {
        if let Some(done) = self.running.join_next().await {
            self.written += done.map_err(ShopError::internal)??;
            (self.progress)(self.written);
        }
        Ok(())
    }

    /// Send what is pending and wait for every batch.
    async fn flush(&mut self) -> Result<(), ShopError> {
        self.send().await?;
        while !self.running.is_empty() {
            self.reap().await?;
        }
        Ok(())
    }
}

async fn write_batch(shop: &Shop, batch: LoadSample, count: usize) -> Result<usize, ShopError> {
    batch.send(shop.db()).await?;
    Ok(count)
}

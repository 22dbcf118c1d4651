//! The shop's entities as the model names them (`User`, `EmailGuard`, `Product`, `Order`,
//! `OrderItem`, `Idempotency`, `ProductDailySales`, `SaleApplied`) and an order's `Status`: their stored fields and their JSON. The
//! typed patterns are built from them (`patterns`), and the modules of each resource
//! (`users`, `products`, `orders`) read and write them.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime};

use crate::error::ShopError;
use crate::money::ser_money;
use crate::time_util;

time_util::stamped! {
    /// A user profile: the model's `User`.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema, monotable::Entity)]
    #[serde(rename_all = "camelCase")]
    #[monotable(version = "version")]
    pub struct User {
        /// The user id (the token's `sub`).
        pub user_id: String,
        /// Display name.
        pub name: String,
        /// Email as given; unique case-insensitively.
        pub email: String,
        /// The email lower-cased: the uniqueness key.
        #[serde(skip)]
        pub email_lower: String,
    }
    /// Bumped by every change.
    version
}

/// The uniqueness guard of an email: the model's `EmailGuard`.
#[derive(Debug, Clone, PartialEq, Eq, monotable::Entity)]
pub struct EmailGuard {
    /// The email lower-cased.
    pub email_lower: String,
    /// The user who has it.
    pub user_id: String,
}

impl User {
    /// The guard that keeps this user's email unique.
    pub fn guard(&self) -> EmailGuard {
        EmailGuard {
            email_lower: self.email_lower.clone(),
            user_id: self.user_id.clone(),
        }
    }
}

time_util::stamped! {
    /// A product: the model's `Product`.
    #[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema, monotable::Entity)]
    #[serde(rename_all = "camelCase")]
    #[monotable(version = "version")]
    pub struct Product {
        /// Time-sortable id (ULID).
        pub product_id: String,
        /// Name.
        pub name: String,
        /// Category (case-sensitive).
        pub category: String,
        /// Price as a decimal string, e.g. "19.99".
        #[schema(value_type = String, example = "19.99")]
        #[serde(serialize_with = "ser_money")]
        pub price: Decimal,
        /// Only published products can be ordered and are listed by `published=true`.
        pub published: bool,
        /// Units in stock; absent when stock is not tracked (never runs out).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub stock: Option<i64>,
        /// When it was last published (RFC 3339 UTC); absent while it is a draft. A design may key
        /// a sparse index on it: only published products hold it.
        #[serde(
            skip_serializing_if = "Option::is_none",
            serialize_with = "time_util::ser_opt_ts"
        )]
        #[schema(value_type = Option<String>)]
        pub published_at: Option<OffsetDateTime>,
    }
    /// Bumped by every change (orders included, when they take stock).
    version
}

/// An order's status: the model's `status` values.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema, monotable::Enum,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[monotable(rename_all = "SCREAMING_SNAKE_CASE")]
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
        monotable::EnumValue::as_str(&self)
    }

    /// Parse a wire name.
    pub fn parse(text: &str) -> Result<Status, ShopError> {
        <Status as monotable::EnumValue>::from_text(text).ok_or_else(|| {
            ShopError::invalid(
                "invalid_status",
                format!(
                    "`status` must be PENDING, PAID, SHIPPED, DELIVERED or CANCELLED; got {text:?}"
                ),
            )
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

/// One line of an order: the model's `OrderItem`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema, monotable::Entity)]
#[serde(rename_all = "camelCase")]
#[monotable(entity = "OrderItem")]
pub struct OrderLine {
    /// The order.
    #[serde(skip)]
    pub order_id: String,
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
    /// The order took the product's stock: a cancellation returns it.
    #[serde(skip)]
    pub stock_tracked: bool,
    /// Its order's UTC day: the day its sales count on ([`ProductDailySales`]).
    #[serde(skip)]
    pub day: Date,
}

/// An order: the model's `Order`, and in single-order responses its lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema, monotable::Entity)]
#[serde(rename_all = "camelCase")]
#[monotable(version = "version")]
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
    #[serde(serialize_with = "time_util::ser_ts")]
    #[schema(value_type = String)]
    pub created_at: OffsetDateTime,
    /// The UTC day of `createdAt`, which the per-day listing is keyed by.
    #[serde(skip)]
    pub day: Date,
    /// Which write shard of its day the order is in ([`day_shard`](crate::orders::day_shard)).
    #[serde(skip)]
    pub shard: u32,
    /// RFC 3339 UTC.
    #[serde(serialize_with = "time_util::ser_ts")]
    #[schema(value_type = String)]
    pub updated_at: OffsetDateTime,
    /// Bumped by every status change; pass as `expectedVersion`.
    pub version: i64,
    /// The lines (in single-order responses; absent in listings).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[monotable(skip)]
    pub items: Option<Vec<OrderLine>>,
}

/// The stored result of an order creation with an `Idempotency-Key`: the model's `Idempotency`.
#[derive(Debug, Clone, PartialEq, Eq, monotable::Entity)]
pub struct Idempotency {
    /// The caller.
    pub user_id: String,
    /// The client's key.
    pub idempotency_key: String,
    /// SHA-256 of the request body.
    pub request_hash: String,
    /// The order it created.
    pub order_id: String,
    /// When.
    pub created_at: OffsetDateTime,
    /// When the table's TTL removes it.
    pub expires_at: OffsetDateTime,
}

/// Units and revenue of one product on one UTC day of its orders: the model's
/// `ProductDailySales`, kept by the `productSales` consumer ([`crate::sales`]).
#[derive(Debug, Clone, PartialEq, Eq, monotable::Entity)]
pub struct ProductDailySales {
    /// The product.
    pub product_id: String,
    /// The orders' UTC day.
    pub day: Date,
    /// Units sold (ordered, less cancelled).
    pub units: i64,
    /// Sum of the line totals, exact.
    pub revenue: Decimal,
}

/// The marker of one sale change applied to [`ProductDailySales`]: the model's `SaleApplied`.
#[derive(Debug, Clone, PartialEq, Eq, monotable::Entity)]
pub struct SaleApplied {
    /// What was applied ([`crate::sales::SaleEvent::sale_id`]).
    pub sale_id: String,
    /// When the table's TTL removes it.
    pub expires_at: OffsetDateTime,
}

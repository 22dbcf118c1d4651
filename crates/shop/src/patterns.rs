//! The shop's read access patterns, typed from the model by `monotable::patterns!`: one struct per
//! GetItem or Query pattern of `shop.toml` (`GetUser { user_id }`, `ListUserOrders { user_id }`,
//! `GetOrderWithItems { order_id }`, ...), its parameters typed by the entities' fields. The model
//! is the one named in this crate's `[package.metadata.monotable]`.

monotable::patterns! {
    entities {
        User => crate::entities::User,
        EmailGuard => crate::entities::EmailGuard,
        Order => crate::entities::Order,
        OrderItem => crate::entities::OrderLine,
        Product => crate::entities::Product,
        Idempotency => crate::entities::Idempotency,
        ProductDailySales => crate::entities::ProductDailySales,
        SaleApplied => crate::entities::SaleApplied,
    }
}

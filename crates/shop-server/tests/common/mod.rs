//! Helpers shared by the shop-server suites.

pub mod sales;

//! Products: the catalogue, by id, by category and, while published, in the sparse published
//! listing (the model's patterns say which index each reads).

use monotable::{QueryRequest, Row, WriteError};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::Shop;
pub use crate::entities::Product;
use crate::error::ShopError;
use crate::money;
use crate::patterns::{
    CreateProduct, GetProduct, ListProductsByCategory, ListPublishedProducts,
    ListPublishedProductsByCategory, UpdateProduct,
};
use crate::rules;

const RETRIES: usize = 5;

/// `POST /products` body.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewProduct {
    /// 1 to 200 characters, not all white space; stored trimmed.
    pub name: String,
    /// 1 to 64 characters without `#`, not all white space; stored trimmed.
    pub category: String,
    /// Decimal string greater than 0 and at most 1000000000, at most two decimals, e.g. "19.99".
    pub price: String,
    /// Published products can be ordered and are listed publicly.
    pub published: bool,
    /// Units in stock (0 to 1000000000); omit to not track stock.
    #[serde(default, deserialize_with = "crate::whole::optional")]
    pub stock: Option<i64>,
}

/// `PATCH /products/{productId}` body: only the fields given change.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProductPatch {
    /// New name.
    pub name: Option<String>,
    /// New category (moves the product between category listings).
    pub category: Option<String>,
    /// New price.
    pub price: Option<String>,
    /// Publish or withdraw.
    pub published: Option<bool>,
    /// New stock level.
    #[serde(default, deserialize_with = "crate::whole::optional")]
    pub stock: Option<i64>,
}

fn validate_name(name: &str) -> Result<String, ShopError> {
    Ok(rules::NAME.check(name)?.trim().to_string())
}

/// Categories: 1 to 64 characters without `#` or control characters, not all white space;
/// trimmed.
pub fn validate_category(category: &str) -> Result<String, ShopError> {
    Ok(rules::CATEGORY.check(category)?.trim().to_string())
}

fn validate_stock(stock: i64) -> Result<i64, ShopError> {
    rules::STOCK.check(stock)
}

fn validate_price(price: &str) -> Result<Decimal, ShopError> {
    money::parse_price("price", rules::PRICE.check(price)?)
}

/// A new ULID whose time part is the shop's clock, so ids sort by creation time.
pub fn new_id(shop: &Shop) -> String {
    let now = shop.now();
    let millis = u64::try_from(now.unix_timestamp_nanos() / 1_000_000).unwrap_or(0);
    let time = std::time::UNIX_EPOCH + std::time::Duration::from_millis(millis);
    ulid::Ulid::from_datetime(time).to_string()
}

/// Product ids are ULIDs: 26 characters of upper-case Crockford base32.
pub fn validate_product_id(id: &str) -> Result<(), ShopError> {
    rules::PRODUCT_ID.check(id).map(drop)
}

/// Create a product.
pub async fn create(shop: &Shop, input: &NewProduct) -> Result<Product, ShopError> {
    let now = shop.now();
    let product = Product {
        product_id: new_id(shop),
        name: validate_name(&input.name)?,
        category: validate_category(&input.category)?,
        price: validate_price(&input.price)?,
        published: input.published,
        stock: input.stock.map(validate_stock).transpose()?,
        published_at: input.published.then_some(now),
        created_at: now,
        updated_at: now,
        version: 1,
    };
    CreateProduct { product: &product }.send(shop.db()).await?;
    Ok(product)
}

/// The product `id`.
pub async fn get(shop: &Shop, id: &str) -> Result<Option<Product>, ShopError> {
    validate_product_id(id)?;
    let product_id = id.to_string();
    Ok(GetProduct { product_id }.send(shop.db()).await?)
}

/// Apply `patch` to product `id`. One conditional update of the fields given: the library
/// re-renders the index keys they feed (the category listing key, the published listing key,
/// removed while the product is a draft). Optimistic: conditional on the version read, retried
/// when an order took stock meanwhile.
pub async fn patch(shop: &Shop, id: &str, patch: &ProductPatch) -> Result<Product, ShopError> {
    validate_product_id(id)?;
    let name = patch.name.as_deref().map(validate_name).transpose()?;
    let category = patch
        .category
        .as_deref()
        .map(validate_category)
        .transpose()?;
    let price = patch.price.as_deref().map(validate_price).transpose()?;
    let stock = patch.stock.map(validate_stock).transpose()?;
    for _ in 0..RETRIES {
        let Some(old) = get(shop, id).await? else {
            return Err(ShopError::NotFound(format!("no product {id}")));
        };
        let now = shop.now();
        let published = patch.published.unwrap_or(old.published);
        let published_at = match (old.published, published) {
            (false, true) => Some(now),
            (_, false) => None,
            (true, true) => old.published_at,
        };
        let new = Product {
            name: name.clone().unwrap_or_else(|| old.name.clone()),
            category: category.clone().unwrap_or_else(|| old.category.clone()),
            price: price.unwrap_or(old.price),
            published,
            published_at,
            stock: stock.or(old.stock),
            updated_at: now,
            version: old.version + 1,
            ..old.clone()
        };
        let mut update = UpdateProduct {
            product_id: old.product_id.clone(),
            expected_version: old.version,
        }
        .set_updated_at(new.updated_at);
        if let Some(name) = &name {
            update = update.set_name(name.clone());
        }
        if let Some(category) = &category {
            update = update.set_category(category.clone());
        }
        if let Some(price) = price {
            update = update.set_price(price);
        }
        if let Some(published) = patch.published {
            update = update.set_published(published);
        }
        if published_at != old.published_at {
            update = update.set_published_at(published_at);
        }
        if let Some(stock) = stock {
            update = update.set_stock(Some(stock));
        }
        match update.send(shop.db()).await {
            Ok(()) => return Ok(new),
            Err(WriteError::VersionMismatch { .. }) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ShopError::busy(
        "the product kept changing while it was being saved; try again",
    ))
}

/// A page of a listing as the API answers it (JSON): [`monotable::Page`] with its items
/// turned into the API's types.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageBody<T> {
    /// The items of this page.
    pub items: Vec<T>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// One page of a pattern's query: `limit` items whenever that many remain, and a cursor only
/// when more follow.
pub(crate) async fn list<R: Row>(
    shop: &Shop,
    request: QueryRequest<R>,
    limit: i32,
    cursor: Option<&str>,
) -> Result<PageBody<R>, ShopError> {
    let limit =
        usize::try_from(rules::LIMIT.check(i64::from(limit))?).map_err(ShopError::internal)?;
    let page = request.limit(limit).cursor(cursor).send(shop.db()).await?;
    Ok(PageBody {
        items: page.items,
        next_cursor: page.next_cursor,
    })
}

/// Products in `category`: with `drafts`, published and unpublished alike (admins); without,
/// only published ones, selected by the key (`listPublishedProductsByCategory`), so a draft is
/// never read for such a caller, let alone put in a cursor.
pub async fn by_category(
    shop: &Shop,
    category: &str,
    drafts: bool,
    limit: i32,
    cursor: Option<&str>,
) -> Result<PageBody<Product>, ShopError> {
    let category = validate_category(category)?;
    let request = if drafts {
        ListProductsByCategory { category }.request()
    } else {
        ListPublishedProductsByCategory { category }.request()
    };
    list(shop, request, limit, cursor).await
}

/// Published products.
pub async fn published(
    shop: &Shop,
    limit: i32,
    cursor: Option<&str>,
) -> Result<PageBody<Product>, ShopError> {
    list(shop, ListPublishedProducts {}.request(), limit, cursor).await
}

//! Products: the catalogue, by id, by category (GSI1) and, while published, in the sparse GSI2.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use monotable_access::items::{self, Item, n, s};
use monotable_access::pattern;

use crate::Shop;
use crate::cursor;
use crate::error::{ShopError, sdk};
use crate::money;
use crate::rules;
use crate::time_util;

const RETRIES: usize = 5;

/// A product.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
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
    /// RFC 3339 UTC.
    pub created_at: String,
    /// RFC 3339 UTC.
    pub updated_at: String,
    /// Bumped by every change (orders included, when they take stock).
    pub version: i64,
}

pub(crate) fn ser_money<S: serde::Serializer>(v: &Decimal, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(&money::to_json(*v))
}

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

pub(crate) fn from_item(item: &Item) -> Result<Product, ShopError> {
    Ok(Product {
        product_id: items::string(item, "productId")?,
        name: items::string(item, "name")?,
        category: items::string(item, "category")?,
        price: money::from_stored("price", &items::number(item, "price")?)?,
        published: items::boolean(item, "published")?,
        stock: items::opt_number(item, "stock")?
            .map(|v| v.parse::<i64>().map_err(ShopError::internal))
            .transpose()?,
        created_at: items::string(item, "createdAt")?,
        updated_at: items::string(item, "updatedAt")?,
        version: items::integer(item, "version")?,
    })
}

pub(crate) fn to_item(shop: &Shop, p: &Product) -> Result<Item, ShopError> {
    let values = |name: &str| match name {
        "productId" => Some(p.product_id.clone()),
        "category" => Some(p.category.clone()),
        "published" => Some(p.published.to_string()),
        _ => None,
    };
    let mut item = items::keys(shop.model(), "Product", &values)?;
    item.extend([
        ("productId".into(), s(&p.product_id)),
        ("name".into(), s(&p.name)),
        ("category".into(), s(&p.category)),
        ("price".into(), n(p.price)),
        (
            "published".into(),
            aws_sdk_dynamodb::types::AttributeValue::Bool(p.published),
        ),
        ("createdAt".into(), s(&p.created_at)),
        ("updatedAt".into(), s(&p.updated_at)),
        ("version".into(), n(p.version)),
    ]);
    if let Some(stock) = p.stock {
        item.insert("stock".into(), n(stock));
    }
    Ok(item)
}

/// Create a product.
pub async fn create(shop: &Shop, input: &NewProduct) -> Result<Product, ShopError> {
    let now = time_util::format_ts(shop.now());
    let product = Product {
        product_id: new_id(shop),
        name: validate_name(&input.name)?,
        category: validate_category(&input.category)?,
        price: validate_price(&input.price)?,
        published: input.published,
        stock: input.stock.map(validate_stock).transpose()?,
        created_at: now.clone(),
        updated_at: now,
        version: 1,
    };
    shop.client()
        .put_item()
        .table_name(shop.table())
        .set_item(Some(to_item(shop, &product)?))
        .condition_expression("attribute_not_exists(PK)")
        .send()
        .await
        .map_err(|e| sdk("PutItem", e))?;
    Ok(product)
}

/// The product `id`.
pub async fn get(shop: &Shop, id: &str) -> Result<Option<Product>, ShopError> {
    validate_product_id(id)?;
    let item = pattern::get(shop.client(), shop.model(), "getProduct", &|name| {
        (name == "productId").then(|| id.to_string())
    })
    .await?;
    item.as_ref().map(from_item).transpose()
}

/// Apply `patch` to product `id`, moving its index keys with it (category listing, published
/// listing). Optimistic: conditional on the version read, retried when an order took stock
/// meanwhile.
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
        let new = Product {
            name: name.clone().unwrap_or_else(|| old.name.clone()),
            category: category.clone().unwrap_or_else(|| old.category.clone()),
            price: price.unwrap_or(old.price),
            published: patch.published.unwrap_or(old.published),
            stock: stock.or(old.stock),
            updated_at: time_util::format_ts(shop.now()),
            version: old.version + 1,
            ..old.clone()
        };
        let result = shop
            .client()
            .put_item()
            .table_name(shop.table())
            .set_item(Some(to_item(shop, &new)?))
            .condition_expression("version = :v")
            .expression_attribute_values(":v", n(old.version))
            .send()
            .await;
        match result {
            Ok(_) => return Ok(new),
            Err(e)
                if e.as_service_error()
                    .is_some_and(|s| s.is_conditional_check_failed_exception()) =>
            {
                continue;
            }
            Err(e) => return Err(sdk("PutItem", e)),
        }
    }
    Err(ShopError::busy(
        "the product kept changing while it was being saved; try again",
    ))
}

/// A page of a listing.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    /// The items of this page.
    pub items: Vec<T>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

/// Run a paginated query pattern and map its items. A page holds `limit` items whenever that many
/// remain, and carries a cursor only when more follow.
pub(crate) async fn list<T>(
    shop: &Shop,
    pattern_name: &str,
    scope: &str,
    values: &(dyn Fn(&str) -> Option<String> + Sync),
    limit: i32,
    cursor_text: Option<&str>,
    map: impl Fn(&Item) -> Result<T, ShopError>,
) -> Result<Page<T>, ShopError> {
    let start = cursor_text
        .map(|c| cursor::decode_key(shop.cursor_key(), scope, c))
        .transpose()?;
    let limit =
        usize::try_from(rules::LIMIT.check(i64::from(limit))?).map_err(ShopError::internal)?;
    let page = pattern::query_page(
        shop.client(),
        shop.model(),
        pattern_name,
        values,
        limit,
        start,
    )
    .await?;
    let items = page.items.iter().map(map).collect::<Result<Vec<_>, _>>()?;
    let next_cursor = page
        .last_evaluated_key
        .as_ref()
        .map(|k| cursor::encode_key(shop.cursor_key(), scope, k))
        .transpose()?;
    Ok(Page { items, next_cursor })
}

/// Products in `category`: with `drafts`, published and unpublished alike (admins); without,
/// only published ones, selected by the key (`GSI1SK` begins `PRODUCT#true#`), so a draft is
/// never read for such a caller, let alone put in a cursor.
pub async fn by_category(
    shop: &Shop,
    category: &str,
    drafts: bool,
    limit: i32,
    cursor: Option<&str>,
) -> Result<Page<Product>, ShopError> {
    let category = validate_category(category)?;
    let pattern = if drafts {
        "listProductsByCategory"
    } else {
        "listPublishedProductsByCategory"
    };
    let scope = format!("{pattern}|{category}");
    list(
        shop,
        pattern,
        &scope,
        &|name| (name == "category").then(|| category.clone()),
        limit,
        cursor,
        from_item,
    )
    .await
}

/// Published products.
pub async fn published(
    shop: &Shop,
    limit: i32,
    cursor: Option<&str>,
) -> Result<Page<Product>, ShopError> {
    list(
        shop,
        "listPublishedProducts",
        "listPublishedProducts",
        &|_| None,
        limit,
        cursor,
        from_item,
    )
    .await
}

"""Run the seed document's own boto3 code against a DynamoDB endpoint and check every result.

Usage (against `monotable serve`):
    AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:8000 AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=x \
        python3 examples/seed-boto3/check_seed.py

The checks assert what DynamoDB itself does with the seed's design, bugs included: the seed's
"order with items" query finds the items but never the order, and its date-range query finds
nothing, because nothing writes ORDERBYDATE. It then reads a table's stream with boto3's
DynamoDB Streams client. Ends with 'N passed, N failed'; exit 1 on a failure.
"""
import os
import runpy
import sys
from decimal import Decimal

import boto3
from botocore.exceptions import ClientError, ParamValidationError

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

passed = 0
failed = 0


def check(name, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print(f"ok - {name}")
    else:
        failed += 1
        print(f"FAILED - {name} {detail}")


def error_code(call):
    try:
        call()
    except ClientError as e:
        return e.response["Error"]["Code"]
    except (TypeError, ParamValidationError) as e:
        return type(e).__name__
    return None


def main():
    if not os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") and not os.environ.get("AWS_ENDPOINT_URL"):
        print("set AWS_ENDPOINT_URL_DYNAMODB to the endpoint to test (e.g. http://127.0.0.1:8000)")
        return 2

    # Section 2: create the table (the seed's script, run as written).
    runpy.run_path(os.path.join(HERE, "seed_table.py"), run_name="__main__")
    client = boto3.client("dynamodb", region_name="us-east-1")
    described = client.describe_table(TableName="AppTable")["Table"]
    check("create_table makes AppTable with GSI1",
          [g["IndexName"] for g in described.get("GlobalSecondaryIndexes", [])] == ["GSI1"])

    import seed_app as app
    import seed_variants as variants

    # Section 3: entities.
    app.put_user("u1", "Alice", "alice@example.com")
    app.put_user("u2", "Bob", "bob@example.com")
    app.put_order("o1", "u1", "PENDING", Decimal("19.99"))
    app.put_order("o2", "u1", "SHIPPED", Decimal("5.00"))
    app.put_order("o3", "u2", "PENDING", Decimal("42.10"))
    app.put_order_item("o1", "i1", "p1", 2, Decimal("9.99"))
    app.put_order_item("o1", "i2", "p2", 1, Decimal("0.01"))
    app.put_product("p1", "electronics", "Cable", Decimal("9.99"))
    app.put_product("p2", "electronics", "Plug", Decimal("0.01"))
    app.put_product("p3", "books", "Novel", Decimal("12.50"))

    # The seed's floats: boto3 refuses them, which is why money is Decimal here.
    check("a float price is refused by boto3 (the seed's money type cannot be written)",
          error_code(lambda: app.table.put_item(Item={"PK": "X", "SK": "Y", "price": 9.99})) == "TypeError")

    # Section 4: the access patterns.
    user = app.get_user("u1")
    check("AP1 get_user returns the profile", user is not None and user["email"] == "alice@example.com")
    check("AP1 get_user of a missing user returns None", app.get_user("nobody") is None)

    orders = app.get_user_orders("u1")
    check("AP2 get_user_orders returns the user's two orders",
          sorted(o["orderId"] for o in orders) == ["o1", "o2"])
    check("AP2 money comes back exact", {o["orderId"]: o["total"] for o in orders}["o1"] == Decimal("19.99"))

    with_items = app.get_order_with_items("o1")
    check("AP3/AP4 get_order_with_items finds the order's items",
          sorted(i["itemId"] for i in with_items["items"]) == ["i1", "i2"])
    check("AP3 seed defect reproduced: the order itself is never found (it lives under USER#u1)",
          with_items["order"] is None)

    pending = app.get_orders_by_status("PENDING")
    check("AP5 get_orders_by_status(PENDING) returns o1 and o3",
          sorted(o["orderId"] for o in pending) == ["o1", "o3"])
    electronics = app.get_products_by_category("electronics")
    check("AP8 get_products_by_category(electronics) returns p1 and p2",
          sorted(p["productId"] for p in electronics) == ["p1", "p2"])
    check("AP8 other categories stay out", [p["productId"] for p in app.get_products_by_category("books")] == ["p3"])

    # Section 5: the transaction writes the order and its items, all or nothing.
    app.create_order_with_items("u2", "o4", [
        {"id": "i1", "product_id": "p1", "quantity": 1, "price": Decimal("9.99")},
        {"id": "i2", "product_id": "p3", "quantity": 3, "price": Decimal("12.50")},
    ], Decimal("47.49"))
    check("transaction wrote the order under USER#u2",
          "o4" in [o["orderId"] for o in app.get_user_orders("u2")])
    check("transaction wrote both items under ORDER#o4",
          len(app.get_order_with_items("o4")["items"]) == 2)
    duplicate = [{"id": "i9", "product_id": "p1", "quantity": 1, "price": Decimal("1")}] * 2
    check("a transaction touching one item twice is refused and writes nothing",
          error_code(lambda: app.create_order_with_items("u2", "o5", duplicate, Decimal("2"))) == "ValidationException"
          and "o5" not in [o["orderId"] for o in app.get_user_orders("u2")])

    # Section 6: the conditional update moves the order between GSI1 partitions.
    app.update_order_status("o1", "u1", "PAID")
    check("update_order_status sets the status", app.get_user_orders("u1")[0]["status"] == "PAID")
    check("update_order_status moves the order out of PENDING in GSI1",
          sorted(o["orderId"] for o in app.get_orders_by_status("PENDING")) == ["o3", "o4"])
    check("update_order_status moves the order into PAID in GSI1",
          [o["orderId"] for o in app.get_orders_by_status("PAID")] == ["o1"])
    check("update_order_status on a missing order fails its condition and creates nothing",
          error_code(lambda: app.update_order_status("missing", "u1", "PAID")) == "ConditionalCheckFailedException"
          and app.get_user_orders("u1") and "missing" not in [o["orderId"] for o in app.get_user_orders("u1")])

    # Variants: the sparse GSI. The seed writes GSI2PK/GSI2SK but its table never creates GSI2.
    variants.put_product("p4", "books", "Draft", Decimal("1.00"), False)
    variants.put_product("p5", "books", "Published", Decimal("2.00"), True)
    p5 = app.table.get_item(Key={"PK": "PRODUCT#p5", "SK": "DETAILS"})["Item"]
    p4 = app.table.get_item(Key={"PK": "PRODUCT#p4", "SK": "DETAILS"})["Item"]
    check("sparse GSI: a published product carries GSI2PK, a draft does not",
          p5.get("GSI2PK") == "PUBLISHED" and "GSI2PK" not in p4)
    check("sparse GSI seed defect reproduced: querying GSI2 fails, the table has no such index",
          error_code(lambda: app.table.query(IndexName="GSI2", KeyConditionExpression="GSI2PK = :p",
                                             ExpressionAttributeValues={":p": "PUBLISHED"})) == "ValidationException")

    # Variants: the date-range query. Nothing writes GSI1PK=ORDERBYDATE, so it finds nothing.
    check("date-range seed defect reproduced: get_orders_by_date_range finds no orders",
          variants.get_orders_by_date_range("2000-01-01", "2999-12-31") == [])

    # FAQ: pagination with Limit=20 and LastEvaluatedKey, over 45 orders of one user.
    for n in range(45):
        app.put_order(f"bulk{n:03}", "u9", "DELIVERED", Decimal("1.00"))
    pages, key, seen = [], None, []
    while True:
        items, key = variants.query_user_page("u9", key)
        pages.append(len(items))
        seen.extend(i["orderId"] for i in items)
        if not key or len(pages) > 10:
            break
    check("pagination walks 45 orders in pages of 20, 20 and 5", pages == [20, 20, 5], str(pages))
    check("pagination returns every order exactly once", sorted(seen) == [f"bulk{n:03}" for n in range(45)])

    client.delete_table(TableName="AppTable")
    check_stream(client)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


def check_stream(client):
    """Not the seed's: boto3's DynamoDB Streams client reads a table's stream from the same
    endpoint (ListStreams, DescribeStream, GetShardIterator, GetRecords)."""
    client.create_table(
        TableName="StreamCheck",
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )
    client.put_item(TableName="StreamCheck", Item={"PK": {"S": "A"}, "n": {"N": "1"}})
    client.update_item(TableName="StreamCheck", Key={"PK": {"S": "A"}},
                       UpdateExpression="SET n = :two", ExpressionAttributeValues={":two": {"N": "2"}})
    endpoint = os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") or os.environ.get("AWS_ENDPOINT_URL")
    streams = boto3.client("dynamodbstreams", region_name="us-east-1", endpoint_url=endpoint)
    arns = [s["StreamArn"] for s in streams.list_streams(TableName="StreamCheck")["Streams"]]
    check("list_streams names the table's stream", len(arns) == 1, str(arns))
    shards = streams.describe_stream(StreamArn=arns[0])["StreamDescription"]["Shards"]
    iterator = streams.get_shard_iterator(StreamArn=arns[0], ShardId=shards[0]["ShardId"],
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = streams.get_records(ShardIterator=iterator)["Records"]
    check("get_records returns the put and the update, in order",
          [r["eventName"] for r in records] == ["INSERT", "MODIFY"], str(records))
    check("the update's record carries both images",
          records[-1]["dynamodb"]["OldImage"]["n"] == {"N": "1"}
          and records[-1]["dynamodb"]["NewImage"]["n"] == {"N": "2"})
    client.delete_table(TableName="StreamCheck")


if __name__ == "__main__":
    sys.exit(main())

"""A global index with native multi-attribute keys, through boto3, against a DynamoDB endpoint.

Creates a table whose index `ByStatus` is keyed on (status S, shard N) HASH and (createdAt S,
orderId S) RANGE, puts orders (one lacking createdAt, so not in the index), and checks that a
query with every partition equality returns the partition in sort order (shard compared as a
number: 3.0 is shard 3, and 10 sorts after 3), that a range on createdAt after an equality holds
only the last condition as a range, and that a query missing a partition equality is a
ValidationException. Ends with 'N passed, N failed'; exit 1 on a failure.

Usage:
    AWS_ENDPOINT_URL_DYNAMODB=http://127.0.0.1:8000 AWS_ACCESS_KEY_ID=x AWS_SECRET_ACCESS_KEY=x \
        python3 native_keys.py
"""
import os
import sys

import boto3
from boto3.dynamodb.conditions import Key
from botocore.exceptions import ClientError

TABLE = "NativeOrders"
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


def create(client):
    client.create_table(
        TableName=TABLE,
        AttributeDefinitions=[
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "status", "AttributeType": "S"},
            {"AttributeName": "shard", "AttributeType": "N"},
            {"AttributeName": "createdAt", "AttributeType": "S"},
            {"AttributeName": "orderId", "AttributeType": "S"},
        ],
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
        GlobalSecondaryIndexes=[{
            "IndexName": "ByStatus",
            "KeySchema": [
                {"AttributeName": "status", "KeyType": "HASH"},
                {"AttributeName": "shard", "KeyType": "HASH"},
                {"AttributeName": "createdAt", "KeyType": "RANGE"},
                {"AttributeName": "orderId", "KeyType": "RANGE"},
            ],
            "Projection": {"ProjectionType": "ALL"},
        }],
    )


def put_orders(table):
    orders = [
        ("o1", "PAID", 3, "2025-11-20T10:00:00.000Z"),
        ("o2", "PAID", 3, "2025-11-19T10:00:00.000Z"),
        ("o3", "PAID", 3, "2025-11-20T10:00:00.000Z"),
        ("o4", "PAID", 10, "2025-11-18T10:00:00.000Z"),
        ("o5", "SHIPPED", 3, "2025-11-18T10:00:00.000Z"),
        ("o6", "PAID", 3, None),
    ]
    for order_id, status, shard, created in orders:
        item = {"PK": f"ORDER#{order_id}", "orderId": order_id, "status": status, "shard": shard}
        if created is not None:
            item["createdAt"] = created
        table.put_item(Item=item)


def ids(response):
    return [item["orderId"] for item in response["Items"]]


def main():
    if not os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") and not os.environ.get("AWS_ENDPOINT_URL"):
        print("set AWS_ENDPOINT_URL_DYNAMODB to the endpoint to test (e.g. http://127.0.0.1:8000)")
        return 2
    client = boto3.client("dynamodb", region_name="us-east-1")
    create(client)
    described = client.describe_table(TableName=TABLE)["Table"]
    schema = described["GlobalSecondaryIndexes"][0]["KeySchema"]
    check("the index keeps its four key elements",
          [(e["AttributeName"], e["KeyType"]) for e in schema] == [
              ("status", "HASH"), ("shard", "HASH"), ("createdAt", "RANGE"), ("orderId", "RANGE")],
          schema)

    table = boto3.resource("dynamodb", region_name="us-east-1").Table(TABLE)
    put_orders(table)

    # Every partition equality: the partition, ordered by createdAt then orderId; o6 (no
    # createdAt) is not in the index; shard 10 is another partition.
    paid_3 = Key("status").eq("PAID") & Key("shard").eq(3)
    got = table.query(IndexName="ByStatus", KeyConditionExpression=paid_3)
    check("ascending by createdAt then orderId", ids(got) == ["o2", "o1", "o3"], ids(got))
    got = table.query(IndexName="ByStatus", KeyConditionExpression=paid_3, ScanIndexForward=False)
    check("descending", ids(got) == ["o3", "o1", "o2"], ids(got))
    shard = got["Items"][0]["shard"] if got["Items"] else None
    check("shard comes back as a number", str(shard) == "3" and not isinstance(shard, str), repr(shard))

    # N is compared as a number: 3.0 is shard 3.
    got = client.query(
        TableName=TABLE, IndexName="ByStatus",
        KeyConditionExpression="#s = :s AND #h = :h",
        ExpressionAttributeNames={"#s": "status", "#h": "shard"},
        ExpressionAttributeValues={":s": {"S": "PAID"}, ":h": {"N": "3.0"}},
    )
    check("shard 3.0 is shard 3", [i["orderId"]["S"] for i in got["Items"]] == ["o2", "o1", "o3"])
    got = table.query(IndexName="ByStatus",
                      KeyConditionExpression=Key("status").eq("PAID") & Key("shard").eq(10))
    check("shard 10 is its own partition", ids(got) == ["o4"], ids(got))

    # One expression: every equality, then the range on the last sort attribute given.
    got = client.query(
        TableName=TABLE, IndexName="ByStatus",
        KeyConditionExpression="#a = :a AND #b = :b AND #c BETWEEN :x AND :y",
        ExpressionAttributeNames={"#a": "status", "#b": "shard", "#c": "createdAt"},
        ExpressionAttributeValues={
            ":a": {"S": "PAID"}, ":b": {"N": "3"},
            ":x": {"S": "2025-11-20T00:00:00.000Z"}, ":y": {"S": "2025-11-20T23:59:59.999Z"},
        },
    )
    check("a range on createdAt", [i["orderId"]["S"] for i in got["Items"]] == ["o1", "o3"])
    # Written out: boto3's Key builder nests three or more conditions as ((a AND b) AND c),
    # which the embedded engine (dynoxide 3.2.0) does not parse; two conditions are fine.
    got = client.query(
        TableName=TABLE, IndexName="ByStatus",
        KeyConditionExpression="#a = :a AND #b = :b AND #c = :c AND #d > :d",
        ExpressionAttributeNames={"#a": "status", "#b": "shard", "#c": "createdAt", "#d": "orderId"},
        ExpressionAttributeValues={
            ":a": {"S": "PAID"}, ":b": {"N": "3"},
            ":c": {"S": "2025-11-20T10:00:00.000Z"}, ":d": {"S": "o1"},
        },
    )
    check("equality on createdAt, range on orderId", [i["orderId"]["S"] for i in got["Items"]] == ["o3"])

    # A missing partition equality is refused.
    try:
        table.query(IndexName="ByStatus", KeyConditionExpression=Key("status").eq("PAID"))
        code = None
    except ClientError as e:
        code = e.response["Error"]["Code"]
    check("a query without the shard equality is a ValidationException",
          code == "ValidationException", code)

    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

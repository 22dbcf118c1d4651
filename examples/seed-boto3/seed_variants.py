# The "Variants" section of the seed document (sparse GSI, time-based queries) and its pagination
# FAQ, unchanged except Decimal for money. Kept apart from seed_app.py because the seed redefines
# put_product here.
import boto3
from decimal import Decimal

dynamodb = boto3.resource('dynamodb', region_name='us-east-1')
table = dynamodb.Table('AppTable')

# Only published products have GSI2PK — drafts are excluded from the GSI
def put_product(product_id: str, category: str, name: str, price: Decimal, published: bool):
    item = {
        'PK': f'PRODUCT#{product_id}',
        'SK': 'DETAILS',
        'GSI1PK': f'CATEGORY#{category}',
        'GSI1SK': f'PRODUCT#{product_id}',
        'entityType': 'Product',
        'productId': product_id,
        'name': name,
        'price': price,
    }
    if published:
        item['GSI2PK'] = 'PUBLISHED'
        item['GSI2SK'] = f'PRODUCT#{product_id}'
    table.put_item(Item=item)

# Get orders in a date range using GSI
def get_orders_by_date_range(start: str, end: str) -> list:
    response = table.query(
        IndexName='GSI1',
        KeyConditionExpression='GSI1PK = :pk AND GSI1SK BETWEEN :start AND :end',
        ExpressionAttributeValues={
            ':pk': 'ORDERBYDATE',
            ':start': f'DATE#{start}',
            ':end': f'DATE#{end}',
        },
    )
    return response.get('Items', [])

# How do I handle pagination? (FAQ)
def query_user_page(user_id: str, exclusive_start_key=None):
    kwargs = {}
    if exclusive_start_key:
        kwargs['ExclusiveStartKey'] = exclusive_start_key
    response = table.query(
        KeyConditionExpression='PK = :pk',
        ExpressionAttributeValues={':pk': f'USER#{user_id}'},
        Limit=20,
        **kwargs,
    )
    last_key = response.get('LastEvaluatedKey')
    # Next page: pass ExclusiveStartKey=last_key
    return response.get('Items', []), last_key

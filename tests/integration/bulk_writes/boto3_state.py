"""The independent view of tests/integration/bulk_writes.rs: boto3 creates and loads the
table, changes an item as a concurrent writer, dumps the table, and computes the state each
bulk statement must leave, from the dump taken before it (never from dynoscope's output).

usage: boto3_state.py ENDPOINT TABLE setup|dump|touch PK SK|add PK SK|put ITEMS.jsonl|expect SCENARIO BEFORE.json

add: another writer adds an attribute no one read (`added`); put: items in DynamoDB JSON
with S and N values only, one a line.
"""
import base64
import json
import sys

import boto3

endpoint, table, command = sys.argv[1], sys.argv[2], sys.argv[3]
client = boto3.client(
    "dynamodb",
    endpoint_url=endpoint,
    region_name="us-east-1",
    aws_access_key_id="dummy",
    aws_secret_access_key="dummy",
)


def dump():
    items, start = [], None
    while True:
        kwargs = {"TableName": table, "ConsistentRead": True}
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = client.scan(**kwargs)
        items.extend(page["Items"])
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    return sorted(items, key=lambda i: (i["PK"]["S"], i["SK"]["S"]))


def canonical(value):
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def show(items):
    for item in items:
        item = canonical(item)
        for v in item.values():
            for tag in ("SS", "NS", "BS"):
                if tag in v:
                    v[tag] = sorted(v[tag])
        print(json.dumps(item, sort_keys=True))


if command == "setup":
    client.create_table(
        TableName=table,
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK", "GSI1PK", "GSI1SK")
        ],
        GlobalSecondaryIndexes=[{
            "IndexName": "GSI1",
            "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}, {"AttributeName": "GSI1SK", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "ALL"},
        }],
        BillingMode="PAY_PER_REQUEST",
    )
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 6
    for p in range(1, 5):
        for s in range(count):
            item = {
                "PK": {"S": f"P#{p}"},
                "SK": {"S": f"S#{s:03}"},
                "status": {"S": "PENDING" if s % 2 == 0 else "DONE"},
                "total": {"S": "12.5"},
                "big": {"N": "12345678901234567890.123456789012345678"},
                "tags": {"SS": ["a", "b"]},
                "blob": {"B": bytes([0, 1, 2, s])},
                "nothing": {"NULL": True},
                "note": {"S": f"note {p}/{s}"},
            }
            if s % 3 == 0:
                item["GSI1PK"] = {"S": "HOT"}
                item["GSI1SK"] = {"S": f"{p}#{s:03}"}
            client.put_item(TableName=table, Item=item)
elif command == "dump":
    show(dump())
elif command == "touch":
    client.update_item(
        TableName=table,
        Key={"PK": {"S": sys.argv[4]}, "SK": {"S": sys.argv[5]}},
        UpdateExpression="SET #n = :v",
        ExpressionAttributeNames={"#n": "note"},
        ExpressionAttributeValues={":v": {"S": "changed by another writer"}},
    )
elif command == "add":
    client.update_item(
        TableName=table,
        Key={"PK": {"S": sys.argv[4]}, "SK": {"S": sys.argv[5]}},
        UpdateExpression="SET #n = :v",
        ExpressionAttributeNames={"#n": "added"},
        ExpressionAttributeValues={":v": {"S": "by another writer"}},
    )
elif command == "put":
    with open(sys.argv[4]) as f:
        for line in f:
            if line.strip():
                client.put_item(TableName=table, Item=json.loads(line))
elif command == "expect":
    scenario = sys.argv[4]
    with open(sys.argv[5]) as f:
        before = [json.loads(line) for line in f if line.strip()]
    after = []
    for item in before:
        pk, status = item["PK"]["S"], item["status"]["S"]
        if scenario == "update-partition" and pk == "P#1" and status == "PENDING":
            item = dict(item)
            item["status"] = {"S": "DONE"}
            item["total"] = {"N": "12.5"}
            item.pop("note", None)
        elif scenario == "delete-in" and pk in ("P#2", "P#3") and status == "DONE":
            continue
        elif scenario == "rekey-gsi" and item.get("GSI1PK") == {"S": "HOT"} and item["GSI1SK"]["S"].startswith("4#"):
            item = dict(item)
            item["GSI1PK"] = {"S": "COLD"}
        elif scenario == "touch-all-p4" and pk == "P#4":
            item = dict(item)
            item["status"] = {"S": "SEEN"}
        after.append(item)
    show(after)

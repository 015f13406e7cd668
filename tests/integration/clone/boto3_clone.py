"""The independent view of tests/integration/clone.rs: boto3 creates and loads the source
table (a GSI, a keys-only GSI, an LSI; provisioned, with a stream: settings a local copy does
not take), and prints a table's items or its index definitions, normalised for comparison.

usage: boto3_clone.py ENDPOINT TABLE setup|dump|indexes|count|pk-only|setup-many N
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


def canonical(value):
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode()
    if isinstance(value, dict):
        out = {k: canonical(v) for k, v in value.items()}
        for tag in ("SS", "NS", "BS"):
            if tag in out:
                out[tag] = sorted(out[tag])
        return out
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


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
    for item in sorted(items, key=lambda i: (i["PK"]["S"], i["SK"]["S"])):
        print(json.dumps(canonical(item), sort_keys=True))


def indexes():
    t = client.describe_table(TableName=table)["Table"]
    types = {d["AttributeName"]: d["AttributeType"] for d in t["AttributeDefinitions"]}

    def keys(schema):
        return [[k["AttributeName"], k["KeyType"], types[k["AttributeName"]]] for k in schema]

    def projection(p):
        return [p["ProjectionType"], sorted(p.get("NonKeyAttributes", []))]

    out = {"keys": keys(t["KeySchema"])}
    for kind, field in (("GSI", "GlobalSecondaryIndexes"), ("LSI", "LocalSecondaryIndexes")):
        for i in t.get(field, []):
            out[f"{kind} {i['IndexName']}"] = [keys(i["KeySchema"]), projection(i["Projection"])]
    print(json.dumps(out, sort_keys=True))


if command == "setup":
    client.create_table(
        TableName=table,
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
            {"AttributeName": "GSI1PK", "AttributeType": "S"},
            {"AttributeName": "rank", "AttributeType": "N"},
            {"AttributeName": "blobkey", "AttributeType": "B"},
        ],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "GSI1",
                "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}, {"AttributeName": "rank", "KeyType": "RANGE"}],
                "Projection": {"ProjectionType": "ALL"},
                "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
            },
            {
                "IndexName": "ByBlob",
                "KeySchema": [{"AttributeName": "blobkey", "KeyType": "HASH"}],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
                "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
            },
        ],
        LocalSecondaryIndexes=[{
            "IndexName": "LSI1",
            "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "rank", "KeyType": "RANGE"}],
            "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["status", "tags"]},
        }],
        BillingMode="PROVISIONED",
        ProvisionedThroughput={"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )
    for p in range(1, 4):
        for s in range(12):
            item = {
                "PK": {"S": f"P#{p}"},
                "SK": {"S": f"S#{s:03}"},
                "status": {"S": "PENDING" if s % 2 == 0 else "DONE"},
                "big": {"N": f"12345678901234567890123456789012345{s:03}"},
                "tiny": {"N": "-0.00000000000000000000000000000000000001"},
                "tags": {"SS": ["a", f"t{s}"]},
                "nums": {"NS": ["1", "2.5", "99999999999999999999999999999999999999"]},
                "bins": {"BS": [bytes([0, s]), bytes([255])]},
                "blob": {"B": bytes([0, 1, 2, s, 255])},
                "nothing": {"NULL": True},
                "flag": {"BOOL": s % 3 == 0},
                "list": {"L": [{"S": "x"}, {"N": "1"}, {"M": {"deep": {"NULL": True}}}]},
                "map": {"M": {"a": {"S": "control \u0007 char"}, "n": {"N": "0.5"}}},
                "rank": {"N": str(s)},
                # Big enough that a scan of the table costs about ten read units.
                "pad": {"S": f"{p}{s}" * 1000},
            }
            if s % 3 == 0:
                item["GSI1PK"] = {"S": f"HOT#{p}"}
            if s % 4 == 0:
                item["blobkey"] = {"B": bytes([p, s])}
            client.put_item(TableName=table, Item=item)
elif command == "setup-many":
    # N small items in a PK/SK table without indexes: a copy of many batches.
    client.create_table(
        TableName=table,
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[{"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK")],
        BillingMode="PAY_PER_REQUEST",
    )
    resource = boto3.resource(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="dummy",
        aws_secret_access_key="dummy",
    )
    with resource.Table(table).batch_writer() as batch:
        for i in range(int(sys.argv[4])):
            batch.put_item(Item={"PK": f"P#{i % 10}", "SK": f"S#{i:05}", "n": i})
elif command == "pk-only":
    # A table keyed by PK alone: another key schema than the source's PK and SK.
    client.create_table(
        TableName=table,
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )
elif command == "count":
    print(client.scan(TableName=table, Select="COUNT", ConsistentRead=True)["Count"])
elif command == "dump":
    dump()
elif command == "indexes":
    indexes()

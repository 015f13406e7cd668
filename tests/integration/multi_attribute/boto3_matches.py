"""The independent view of tests/integration/multi_attribute.rs: boto3 creates and loads the
`matches` table of issue 52 (multi-attribute GSIs), prints a table's key schemas, and runs a
Query with the parameters given, printing the items in the order DynamoDB returned them.

usage: boto3_matches.py ENDPOINT TABLE setup|indexes|query PARAMS_JSON|partitions INDEX
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
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def indexes():
    t = client.describe_table(TableName=table)["Table"]
    types = {d["AttributeName"]: d["AttributeType"] for d in t["AttributeDefinitions"]}

    def keys(schema):
        return [[k["AttributeName"], k["KeyType"], types[k["AttributeName"]]] for k in schema]

    out = {"keys": keys(t["KeySchema"])}
    for i in t.get("GlobalSecondaryIndexes", []):
        out[f"GSI {i['IndexName']}"] = [keys(i["KeySchema"]), i["Projection"]["ProjectionType"]]
    print(json.dumps(out, sort_keys=True))


def setup():
    s = lambda name: {"AttributeName": name, "AttributeType": "S"}
    n = lambda name: {"AttributeName": name, "AttributeType": "N"}
    b = lambda name: {"AttributeName": name, "AttributeType": "B"}
    hash_ = lambda name: {"AttributeName": name, "KeyType": "HASH"}
    range_ = lambda name: {"AttributeName": name, "KeyType": "RANGE"}
    client.create_table(
        TableName=table,
        BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[
            s("matchId"), s("tournamentId"), s("region"), s("round"), s("bracket"),
            s("player1Id"), s("matchDate"), n("seedGroup"), n("rating"), b("token"),
        ],
        KeySchema=[hash_("matchId")],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "TournamentRegionIndex",
                "KeySchema": [hash_("tournamentId"), hash_("region"),
                              range_("round"), range_("bracket"), range_("matchId")],
                "Projection": {"ProjectionType": "ALL"},
            },
            {
                "IndexName": "PlayerMatchHistoryIndex",
                "KeySchema": [hash_("player1Id"), range_("matchDate"), range_("round")],
                "Projection": {"ProjectionType": "ALL"},
            },
            {
                # Numbers and binary as key parts; sparse: only seeded matches carry seedGroup.
                "IndexName": "SeedIndex",
                "KeySchema": [hash_("tournamentId"), hash_("seedGroup"),
                              range_("rating"), range_("token")],
                "Projection": {"ProjectionType": "ALL"},
            },
        ],
    )
    client.get_waiter("table_exists").wait(TableName=table)
    rounds = ["FINAL", "QUARTERFINALS", "ROUND16", "SEMIFINALS"]
    i = 0
    for tournament in ["WINTER2024", "SUMMER2025"]:
        for region in ["EU-WEST", "US-EAST", "AP-SOUTH"]:
            for r in rounds:
                for bracket in ["LOWER", "UPPER"]:
                    i += 1
                    item = {
                        "matchId": {"S": f"M{i:03d}"},
                        "tournamentId": {"S": tournament},
                        "region": {"S": region},
                        "round": {"S": r},
                        "bracket": {"S": bracket},
                        "player1Id": {"S": f"P{i % 5}"},
                        "matchDate": {"S": f"2025-0{1 + i % 9}-{10 + i % 17:02d}"},
                    }
                    if i % 3 != 0:
                        item["seedGroup"] = {"N": str(1 + i % 2)}
                        item["rating"] = {"N": str((i * 37) % 50 - 10)}
                        item["token"] = {"B": bytes([i % 4, i % 7])}
                    client.put_item(TableName=table, Item=item)


def query(params):
    params = dict(params)
    params["TableName"] = table
    for value in params.get("ExpressionAttributeValues", {}).values():
        if "B" in value:
            value["B"] = base64.b64decode(value["B"])
    items, start = [], None
    while True:
        if start:
            params["ExclusiveStartKey"] = start
        page = client.query(**params)
        items.extend(page["Items"])
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    for item in items:
        print(json.dumps(canonical(item), sort_keys=True))


def partitions(index):
    """Items per partition of the index: its partition attributes' values joined by ' · '."""
    t = client.describe_table(TableName=table)["Table"]
    schema = next(i for i in t["GlobalSecondaryIndexes"] if i["IndexName"] == index)["KeySchema"]
    names = [k["AttributeName"] for k in schema if k["KeyType"] == "HASH"]
    counts, start = {}, None
    while True:
        kwargs = {"TableName": table, "IndexName": index}
        if start:
            kwargs["ExclusiveStartKey"] = start
        page = client.scan(**kwargs)
        for item in page["Items"]:
            key = " · ".join(next(iter(item[n].values())) for n in names)
            counts[key] = counts.get(key, 0) + 1
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    print(json.dumps(counts, sort_keys=True))


if command == "setup":
    setup()
elif command == "indexes":
    indexes()
elif command == "partitions":
    partitions(sys.argv[4])
elif command == "query":
    query(json.loads(sys.argv[4]))
else:
    sys.exit(f"unknown command {command}")

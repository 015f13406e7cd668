"""The MCP server's capacity and continuation keys through the official Python MCP SDK, boto3
as the oracle (tests/integration/mcp_capacity.rs runs each scenario):
- a projection without the key attributes still walks every item: a merged IN through
  PartiQL, and a query whose pages the 256 KB byte cap cuts; no key attribute is shown;
- a page full of bytes stops reading: the walk costs about what one pass costs boto3;
- the first request on 100 KB items is sized from DescribeTable's average item size."""

import sys
from decimal import Decimal

import boto3

from mcp_client import check, dynamo, structured, text_of, with_session


def resource(endpoint, table):
    return boto3.resource(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="dummy",
        aws_secret_access_key="dummy",
    ).Table(table)


def create(client, table):
    client.create_table(
        TableName=table,
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    client.get_waiter("table_exists").wait(TableName=table)


async def seed_keys(args):
    """Collections P and Q, 300 items of about 2 KB each; n numbers every item once."""
    create(dynamo(args.oracle), args.table)
    with resource(args.oracle, args.table).batch_writer() as batch:
        for p, pk in enumerate(["P", "Q"]):
            for i in range(300):
                batch.put_item(Item={"PK": pk, "SK": f"ITEM#{i:05}", "n": Decimal(p * 300 + i), "pad": "x" * 2000})
    return {"seeded": args.table}


async def seed_big(args):
    """Collection R: 12 items of 100 KB."""
    create(dynamo(args.oracle), args.table)
    with resource(args.oracle, args.table).batch_writer() as batch:
        for i in range(12):
            batch.put_item(Item={"PK": "R", "SK": f"ITEM#{i:05}", "pad": "y" * (100 * 1024)})
    return {"seeded": args.table}


def one_pass(client, table, pk, projection=None):
    """What boto3 pays to read the collection once, page after page."""
    units, key = 0.0, None
    while True:
        kw = {
            "TableName": table,
            "KeyConditionExpression": "PK = :p",
            "ExpressionAttributeValues": {":p": {"S": pk}},
            "ReturnConsumedCapacity": "TOTAL",
        }
        if projection:
            kw["ProjectionExpression"] = projection
            kw["ExpressionAttributeNames"] = {"#p": "pad"}
        if key:
            kw["ExclusiveStartKey"] = key
        page = client.query(**kw)
        units += page["ConsumedCapacity"]["CapacityUnits"]
        key = page.get("LastEvaluatedKey")
        if not key:
            return units


async def walk(s, tool, call):
    """Every page of a call, following the cursor: the items and what the calls cost."""
    items, cursor, pages, rcu = [], None, 0, 0.0
    while True:
        c = dict(call)
        if cursor:
            c["cursor"] = cursor
        result = await s.call_tool(tool, c)
        check(not result.is_error, f"page {pages + 1}: {text_of(result)}")
        got = structured(result)
        pages += 1
        rcu += float(got["cost"]["call_rcu"])
        items.extend(got["items"])
        cursor = got.get("cursor")
        if cursor is None:
            check(got["stopped"] == "complete", got["stopped"])
            return items, pages, rcu
        check(pages < 200, "the cursor does not end")


async def projected(args):
    client = dynamo(args.oracle)

    async def body(s, init):
        out = {}
        # A merged IN whose projection has no key attribute: every item of both collections.
        statement = f'SELECT n FROM "{args.table}" WHERE PK IN [\'P\', \'Q\']'
        items, pages, _ = await walk(s, "partiql", {"statement": statement, "limit": 97})
        check(all(set(i) == {"n"} for i in items), f"a key attribute was shown: {items[:2]}")
        ns = [int(i["n"]) for i in items]
        check(sorted(ns) == list(range(600)), f"{len(ns)} items, {len(set(ns))} distinct, of 600")
        out["merged"] = {"items": len(ns), "pages": pages}
        # A query whose pages the byte cap cuts, projected without the keys.
        call = {"table": args.table, "pk": "P", "projection": "n, #p", "names": {"#p": "pad"}, "limit": 500}
        items, pages, rcu = await walk(s, "query", call)
        check(all(set(i) == {"n", "pad"} for i in items), "a key attribute was shown")
        ns = [int(i["n"]) for i in items]
        check(ns == list(range(300)), f"{len(ns)} items, {len(set(ns))} distinct, of 300")
        out["projected"] = {"items": len(ns), "pages": pages, "rcu": rcu, "one_pass": one_pass(client, args.table, "P", "n, #p")}
        # The same collection whole: a page full of bytes stops reading.
        items, pages, rcu = await walk(s, "query", {"table": args.table, "pk": "Q", "limit": 500})
        check([i["SK"] for i in items] == [f"ITEM#{i:05}" for i in range(300)], f"{len(items)} items walked")
        out["whole"] = {"items": len(items), "pages": pages, "rcu": rcu, "one_pass": one_pass(client, args.table, "Q")}
        return out

    return await with_session(args, body)


async def big_first(args):
    """Two calls on 100 KB items under the default caps: the first stays within its share."""

    async def body(s, init):
        first = structured(await s.call_tool("query", {"table": args.table, "pk": "R"}))
        call = {"table": args.table, "pk": "R"}
        if first.get("cursor"):
            call["cursor"] = first["cursor"]
        second = await s.call_tool("query", call)
        return {
            "first": {
                "count": int(first["count"]),
                "rcu": float(first["cost"]["call_rcu"]),
                "requests": [float(r["consumed_rcu"]) for r in first["cost"]["requests"]],
                "cap": float(first["cost"]["per_call_cap_rcu"]),
            },
            "second_refused": second.is_error,
            "second": text_of(second)[:300],
        }

    return await with_session(args, body)


SCENARIOS = {"seed_keys": seed_keys, "seed_big": seed_big, "projected": projected, "big_first": big_first}


if __name__ == "__main__":
    import argparse
    import asyncio
    import json

    argv = sys.argv[1:]
    split = argv.index("--") if "--" in argv else len(argv)
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--table", required=True)
    parser.add_argument("--oracle", help="DynamoDB Local's own endpoint, for boto3")
    args = parser.parse_args(argv[:split])
    args.server = argv[split + 1 :]
    print(json.dumps(asyncio.run(SCENARIOS[args.scenario](args)), default=str))

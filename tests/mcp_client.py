"""An independent MCP client for `dynoscope mcp`: the official Python SDK (`mcp` on PyPI) over
stdio, with boto3 as the oracle, driven by tests/integration/mcp.rs.

    python tests/mcp_client.py SCENARIO --endpoint URL --table T [--oracle URL] -- SERVER ARGV...

SERVER ARGV is the server's command line. Each scenario asserts what it checks and prints one
JSON object on stdout (what the Rust side checks further, e.g. against the fault proxy's
count); a failed assertion exits non-zero with the reason on stderr.
"""

import argparse
import asyncio
import base64
import json
import os
import re
import sys
import unicodedata
from decimal import Decimal

import boto3
import jsonschema
from boto3.dynamodb.types import Binary, TypeDeserializer
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def plain(value):
    """A boto3 value as dynoscope's plain JSON spells it: exact numbers, base64 binary, sets as
    (sorted) arrays, NULL as None."""
    if isinstance(value, Binary):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, set):
        return sorted(plain(v) for v in value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def normalise(item, set_attributes):
    """An item from the server, with the attributes boto3 says are sets sorted."""
    return {k: (sorted(v) if k in set_attributes else v) for k, v in item.items()}


def boto_items(raw_items):
    d = TypeDeserializer()
    out = []
    for raw in raw_items:
        typed = {k: d.deserialize(v) for k, v in raw.items()}
        sets = {k for k, v in typed.items() if isinstance(v, set)}
        out.append((plain(typed), sets))
    return out


def structured(result):
    """The call's structured result, numbers exact: parsed from its text content with Decimal."""
    check(not result.is_error, f"tool error: {text_of(result)}")
    check(result.structured_content is not None, "no structuredContent")
    texts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
    check(texts, "no text content")
    return json.loads(texts[0], parse_float=Decimal, parse_int=Decimal)


def text_of(result):
    return " ".join(getattr(c, "text", "") for c in result.content)


def num(value):
    return float(value)


async def with_session(args, body):
    env = dict(os.environ)
    async with stdio_client(StdioServerParameters(command=args.server[0], args=args.server[1:], env=env)) as (
        read,
        write,
    ):
        async with ClientSession(read, write) as s:
            init = await s.initialize()
            return await body(s, init)


def dynamo(endpoint):
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="dummy",
        aws_secret_access_key="dummy",
    )


def oracle_query(client, table, pk_name, pk, extra=None):
    kwargs = dict(
        TableName=table,
        KeyConditionExpression="#pk = :pk",
        ExpressionAttributeNames={"#pk": pk_name},
        ExpressionAttributeValues={":pk": {"S": pk}},
    )
    if extra:
        extra(kwargs)
    items = []
    for page in client.get_paginator("query").paginate(**kwargs):
        items.extend(page["Items"])
    return items


def same_items(got, raw_oracle, what):
    oracle = boto_items(raw_oracle)
    check(len(got) == len(oracle), f"{what}: {len(got)} items from the server, {len(oracle)} from boto3")
    for i, (g, (o, sets)) in enumerate(zip(got, oracle)):
        check(normalise(g, sets) == o, f"{what}: item {i} differs:\n server {g}\n boto3  {o}")


async def basics(args):
    """initialize, list tools (read-only, schemas valid), a query equal to boto3's, a PartiQL
    SELECT equal to ExecuteStatement, and explain."""
    client = dynamo(args.oracle)

    async def body(s, init):
        out = {"protocol": init.protocol_version, "server": init.server_info.name}
        check(init.capabilities.tools is not None, "the server offers no tools")
        tools = (await s.list_tools()).tools
        names = sorted(t.name for t in tools)
        out["tools"] = names
        check({"list_tables", "describe_table", "query", "partiql", "explain", "hotkeys", "diagnose", "metrics", "insights"} <= set(names), names)
        for t in tools:
            check(t.annotations is not None and t.annotations.read_only_hint is True, f"{t.name} is not readOnlyHint")
            check(t.annotations.destructive_hint is False, f"{t.name} may be destructive")
            jsonschema.Draft202012Validator.check_schema(t.input_schema)
            check(t.output_schema is not None, f"{t.name} has no output schema")
            jsonschema.Draft202012Validator.check_schema(t.output_schema)
            check(not any(w in t.name for w in ("put", "delete", "update", "write")), t.name)
        schemas = {t.name: t.input_schema for t in tools}
        jsonschema.validate({"table": args.table, "pk": "USER#1"}, schemas["query"])
        jsonschema.validate({"statement": "SELECT * FROM t", "allow_scan": True}, schemas["partiql"])
        try:
            jsonschema.validate({"table": args.table}, schemas["query"])
            raise AssertionError("a query without pk validated")
        except jsonschema.ValidationError:
            pass
        try:
            jsonschema.validate({"table": args.table, "pk": "x", "Limit": 5}, schemas["query"])
            raise AssertionError("an unknown argument validated")
        except jsonschema.ValidationError:
            pass

        tables = structured(await s.call_tool("list_tables", {}))
        check(args.table in tables["tables"], tables)
        described = structured(await s.call_tool("describe_table", {"table": args.table}))
        check(described["table"]["name"] == args.table, described)

        # A typed query: the collection of TYPES (numbers of 38 digits, sets, binary, NULL,
        # control characters) and a sort-key condition, equal to boto3's.
        got = structured(await s.call_tool("query", {"table": args.table, "pk": "TYPES", "limit": 500}))
        check("cursor" not in got and got["stopped"] == "complete", got)
        same_items(got["items"], oracle_query(client, args.table, "PK", "TYPES"), "query TYPES")
        check(got["cost"]["call_rcu"] > 0, got["cost"])
        check(got["cost"]["budget_left_rcu"] < got["cost"]["budget_rcu"], got["cost"])
        check(len(got["cost"]["requests"]) >= 1 and got["cost"]["requests"][0]["operation"] == "Query", got["cost"])
        big = [i for i in got["items"] if i.get("SK") == "BIG"][0]
        check(str(big["n"]) == "12345678901234567890123456789012345678", big)
        check(big["ctl"] == "bell\x07esc\x1b[31m", big)

        def sk_begins(kw):
            kw["KeyConditionExpression"] += " AND begins_with(#sk, :sk)"
            kw["ExpressionAttributeNames"]["#sk"] = "SK"
            kw["ExpressionAttributeValues"][":sk"] = {"S": "ITEM#000"}

        got = structured(
            await s.call_tool(
                "query", {"table": args.table, "pk": "BIG", "sk_begins_with": "ITEM#000", "limit": 500}
            )
        )
        same_items(got["items"], oracle_query(client, args.table, "PK", "BIG", sk_begins), "query begins_with")

        # A PartiQL SELECT, equal to DynamoDB Local's ExecuteStatement of the same statement.
        statement = f'SELECT * FROM "{args.table}" WHERE PK = ?'
        got = structured(await s.call_tool("partiql", {"statement": statement, "parameters": ["TYPES"]}))
        check(got["operation"] == "Query", got["operation"])
        raw = []
        token = None
        while True:
            kw = {"Statement": statement, "Parameters": [{"S": "TYPES"}]}
            if token:
                kw["NextToken"] = token
            page = client.execute_statement(**kw)
            raw.extend(page["Items"])
            token = page.get("NextToken")
            if not token:
                break
        same_items(got["items"], raw, "partiql")

        # EXPLAIN reads nothing: its cost is zero and it names the request.
        explained = structured(await s.call_tool("explain", {"statement": statement, "parameters": ["TYPES"]}))
        check(explained["reads"] == "Query", explained)
        check("aws dynamodb query" in explained["explanation"], explained["explanation"])
        check(explained["cost"]["call_rcu"] == 0, explained["cost"])

        # Validation in DynamoDB's words, with the fix.
        bad = await s.call_tool("query", {"table": args.table, "pk": "TYPES", "sk_gt": "A", "sk_lt": "B"})
        check(bad.is_error and "at most one sort-key range condition" in text_of(bad), text_of(bad))
        bad = await s.call_tool("query", {"table": args.table, "pk": "TYPES", "filter": "#missing = :v"})
        check(bad.is_error and "#missing" in text_of(bad), text_of(bad))
        bad = await s.call_tool("query", {"table": args.table, "pk": "TYPES", "cursor": "forged"})
        check(bad.is_error and "cursor refused" in text_of(bad), text_of(bad))
        write = await s.call_tool("partiql", {"statement": f"DELETE FROM \"{args.table}\" WHERE PK = 'TYPES'"})
        check(write.is_error, text_of(write))
        out["write_refusal"] = text_of(write)
        return out

    return await with_session(args, body)


async def scan_refusal(args):
    """A statement that would scan is refused (cost, index) without allow_scan; with it, the
    Scan stops within the per-call cap."""

    async def body(s, init):
        statement = f'SELECT * FROM "{args.table}" WHERE status = ?'
        refused = await s.call_tool("partiql", {"statement": statement, "parameters": ["SHIPPED"]})
        text = text_of(refused)
        check(refused.is_error, f"not refused: {text}")
        check(len(refused.content) == 1, refused.content)
        check("Scan of the whole table" in text and "RCU" in text, text)
        check("allow_scan: true" in text, text)
        check("--allow-scan" not in text, text)
        ran = structured(await s.call_tool("partiql", {"statement": statement, "parameters": ["SHIPPED"], "allow_scan": True}))
        check(ran["operation"] == "Scan", ran)
        cost = ran["cost"]
        check(num(cost["call_rcu"]) <= num(cost["per_call_cap_rcu"]), cost)
        check(ran["stopped"] in ("budget", "page_full", "complete"), ran)
        check(all(i["status"] == "SHIPPED" for i in ran["items"]), "the filter did not hold")
        return {"refusal": text, "stopped": ran["stopped"], "call_rcu": num(cost["call_rcu"])}

    return await with_session(args, body)


async def budget(args):
    """Many calls until the session budget refuses: every result's session total stays within
    the budget, and the refusal names it and how to raise it."""

    async def body(s, init):
        statement = f'SELECT * FROM "{args.table}"'
        cursor = None
        calls = 0
        last = None
        refusal = None
        for _ in range(200):
            call = {"statement": statement, "allow_scan": True, "limit": 500}
            if cursor:
                call["cursor"] = cursor
            result = await s.call_tool("partiql", call)
            calls += 1
            if result.is_error:
                refusal = text_of(result)
                break
            got = structured(result)
            last = got["cost"]
            check(num(last["session_rcu"]) <= num(last["budget_rcu"]), last)
            check(num(last["call_rcu"]) <= num(last["per_call_cap_rcu"]), last)
            # At the table's end the cursor is absent: the next call starts over.
            cursor = got.get("cursor")
        check(refusal is not None, f"no refusal after {calls} calls (last cost {last})")
        check("--max-rcu" in refusal and "Restart the server with a larger --max-rcu" in refusal, refusal)
        # A query is refused too, and sends nothing.
        again = await s.call_tool("query", {"table": args.table, "pk": "USER#1"})
        check(again.is_error and "budget" in text_of(again), text_of(again))
        return {"calls": calls, "session_rcu": num(last["session_rcu"]), "budget_rcu": num(last["budget_rcu"]), "refusal": refusal}

    return await with_session(args, body)


async def mixed(args):
    """query, partiql (allow_scan) and hotkeys called at once, round after round, until the
    session budget refuses all three: each call within the per-call cap, each result's session
    total within the budget; the Rust side checks the sum against the fault proxy's."""

    async def body(s, init):
        statement = f'SELECT * FROM "{args.table}"'
        cursors = {"query": None, "partiql": None}
        calls = []
        refused = {}

        async def one(tool):
            if tool == "query":
                call = {"table": args.table, "pk": "BIG", "limit": 500}
            elif tool == "partiql":
                call = {"statement": statement, "allow_scan": True, "limit": 500}
            else:
                call = {"table": args.table}
            if cursors.get(tool):
                call["cursor"] = cursors[tool]
            return tool, await s.call_tool(tool, call)

        for _ in range(50):
            live = [t for t in ("query", "partiql", "hotkeys") if t not in refused]
            if not live:
                break
            for tool, result in await asyncio.gather(*(one(t) for t in live)):
                if result.is_error:
                    refused[tool] = text_of(result)
                    continue
                got = structured(result)
                cost = got["cost"]
                check(num(cost["call_rcu"]) <= num(cost["per_call_cap_rcu"]), (tool, cost))
                check(num(cost["session_rcu"]) <= num(cost["budget_rcu"]), (tool, cost))
                check(num(cost["call_rcu"]) == sum(num(r["consumed_rcu"]) for r in cost["requests"]), cost)
                calls.append({"tool": tool, "call_rcu": num(cost["call_rcu"]), "requests": len(cost["requests"])})
                if tool in cursors:
                    cursors[tool] = got.get("cursor")
        check(len(refused) == 3, f"not every tool was refused: {refused}, {calls}")
        for tool, text in refused.items():
            check("Restart the server with a larger --max-rcu" in text, (tool, text))
        return {"calls": calls, "refused": refused}

    return await with_session(args, body)


async def walk(args):
    """A cursor walks a large collection page by page: no item lost or repeated."""
    client = dynamo(args.oracle)

    async def body(s, init):
        seen = []
        cursor = None
        pages = 0
        while True:
            call = {"table": args.table, "pk": "BIG", "limit": 97}
            if cursor:
                call["cursor"] = cursor
            got = structured(await s.call_tool("query", call))
            pages += 1
            check(len(got["items"]) <= 97, len(got["items"]))
            seen.extend(i["SK"] for i in got["items"])
            cursor = got.get("cursor")
            if cursor is None:
                check(got["stopped"] == "complete", got["stopped"])
                break
            check(pages < 1000, "the cursor does not end")
        oracle = [i["SK"]["S"] for i in oracle_query(client, args.table, "PK", "BIG")]
        check(len(seen) == len(set(seen)), "an item was repeated")
        check(seen == oracle, f"{len(seen)} items walked, {len(oracle)} in the collection")
        # The same walk newest first, through PartiQL.
        statement = f'SELECT * FROM "{args.table}" WHERE PK = ? ORDER BY SK DESC'
        back = []
        cursor = None
        while True:
            call = {"statement": statement, "parameters": ["BIG"], "limit": 250}
            if cursor:
                call["cursor"] = cursor
            got = structured(await s.call_tool("partiql", call))
            back.extend(i["SK"] for i in got["items"])
            cursor = got.get("cursor")
            if cursor is None:
                break
        check(back == list(reversed(oracle)), f"{len(back)} items walked back")
        return {"pages": pages, "items": len(seen)}

    return await with_session(args, body)


def exact_json(value):
    """A structured value with its Decimals back as JSON numbers (integers stay integers)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, list):
        return [exact_json(v) for v in value]
    if isinstance(value, dict):
        return {k: exact_json(v) for k, v in value.items()}
    return value


async def explain_exact(args):
    """explain of a query tool call's arguments and of a statement sends nothing; then the same
    query is run, and the Rust side compares explain's request with the body the proxy saw."""

    async def body(s, init):
        unfiltered = {"table": args.table, "pk": "BIG", "sk_begins_with": "ITEM#00", "descending": True, "limit": 10}
        filtered = dict(unfiltered, filter="#n > :n", names={"#n": "n"}, values={":n": 5}, projection="SK, n")
        out = {}
        for name, query in (("unfiltered", unfiltered), ("filtered", filtered)):
            got = structured(await s.call_tool("explain", {"query": query}))
            check(got["reads"] == "Query", got)
            check(len(got["requests"]) == 1, got["requests"])
            check(got["aws_cli"].startswith("aws dynamodb query --cli-input-json "), got["aws_cli"])
            check(num(got["estimated_rcu"]) > 0 and num(got["worst_case_rcu"]) >= num(got["estimated_rcu"]), got)
            check(num(got["cost"]["call_rcu"]) == 0, got["cost"])
            out[name] = exact_json(got["requests"][0])
        statement = f'SELECT * FROM "{args.table}" WHERE PK IN [?, ?]'
        got = structured(await s.call_tool("explain", {"statement": statement, "parameters": ["BIG", "TYPES"]}))
        check(len(got["requests"]) == 2, got["requests"])
        check(got["aws_cli"].count("aws dynamodb query") == 2, got["aws_cli"])
        both = await s.call_tool("explain", {"statement": statement, "query": unfiltered})
        check(both.is_error and "either statement" in text_of(both), text_of(both))
        out["explained"] = True
        return out

    return await with_session(args, body)


async def run_query(args):
    """One query tool call whose arguments are in $MCP_QUERY (JSON): its first page."""

    async def body(s, init):
        got = structured(await s.call_tool("query", json.loads(os.environ["MCP_QUERY"])))
        return {"count": int(got["count"])}

    return await with_session(args, body)


async def pages(args):
    """Cursors over a merged IN plan and over an ExecuteStatement walk every item once, equal
    to boto3's ExecuteStatement of the same statement."""
    client = dynamo(args.oracle)

    def oracle(statement, parameters):
        raw, token = [], None
        while True:
            kw = {"Statement": statement, "Parameters": parameters}
            if token:
                kw["NextToken"] = token
            page = client.execute_statement(**kw)
            raw.extend(page["Items"])
            token = page.get("NextToken")
            if not token:
                return [(i["PK"]["S"], i["SK"]["S"]) for i in raw]

    async def walk(s, call, limit):
        seen, cursor, pages = [], None, 0
        while True:
            c = dict(call, limit=limit)
            if cursor:
                c["cursor"] = cursor
            got = structured(await s.call_tool("partiql", c))
            pages += 1
            check(len(got["items"]) <= limit, len(got["items"]))
            seen.append([(i["PK"], i["SK"]) for i in got["items"]])
            cursor = got.get("cursor")
            if cursor is None:
                check(got["stopped"] == "complete", got["stopped"])
                return got["operation"], seen, pages
            check(pages < 1000, "the cursor does not end")

    async def body(s, init):
        out = {}
        merged = f'SELECT * FROM "{args.table}" WHERE PK IN [?, ?]'
        operation, seen, pages = await walk(s, {"statement": merged, "parameters": ["TYPES", "BIG"]}, 97)
        check(operation == "Query", operation)
        flat = [k for page in seen for k in page]
        check(len(flat) == len(set(flat)), "an item was repeated")
        expected = oracle(merged, [{"S": "TYPES"}, {"S": "BIG"}])
        check(sorted(flat) == sorted(expected), f"{len(flat)} items walked, boto3 has {len(expected)}")
        # Each page is in sort-key order, and so is the walk: the merge's order.
        check(flat == sorted(flat, key=lambda k: k[1]), "the merged walk is not in sort-key order")
        out["merged"] = {"items": len(flat), "pages": pages}
        # A SELECT dynoscope does not translate, sent as ExecuteStatement page by page.
        odd = f'SELECT * FROM "{args.table}" WHERE PK = ? AND "pad" IS NOT NULL'
        operation, seen, pages = await walk(s, {"statement": odd, "parameters": ["BIG"], "allow_scan": True}, 97)
        check(operation == "ExecuteStatement", operation)
        flat = [k for page in seen for k in page]
        check(len(flat) == len(set(flat)), "an item was repeated")
        expected = oracle(odd, [{"S": "BIG"}])
        check(flat == expected, f"{len(flat)} items walked, boto3 has {len(expected)}")
        out["statement"] = {"items": len(flat), "pages": pages}
        return out

    return await with_session(args, body)


async def denied(args):
    """A denied permission is one clear tool error naming the IAM action."""

    async def body(s, init):
        result = await s.call_tool("query", {"table": args.table, "pk": "USER#1"})
        text = text_of(result)
        check(result.is_error, f"not an error: {text}")
        check(len(result.content) == 1, result.content)
        check("dynamodb:Query" in text and "IAM policy" in text, text)
        return {"error": text}

    return await with_session(args, body)


async def seed(args):
    """Test data, written with boto3 straight to DynamoDB Local: the TYPES collection (every
    attribute type, a 38-digit number, control characters) and the BIG collection of 1,500
    items."""
    client = dynamo(args.oracle)
    client.create_table(
        TableName=args.table,
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        AttributeDefinitions=[
            {"AttributeName": "PK", "AttributeType": "S"},
            {"AttributeName": "SK", "AttributeType": "S"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    client.get_waiter("table_exists").wait(TableName=args.table)
    table = boto3.resource(
        "dynamodb",
        endpoint_url=args.oracle,
        region_name="us-east-1",
        aws_access_key_id="dummy",
        aws_secret_access_key="dummy",
    ).Table(args.table)
    with table.batch_writer() as batch:
        batch.put_item(
            Item={
                "PK": "TYPES",
                "SK": "BIG",
                "n": Decimal("12345678901234567890123456789012345678"),
                "small": Decimal("-0.000000000000000000000000000000000000123"),
                "ctl": "bell\x07esc\x1b[31m",
            }
        )
        batch.put_item(
            Item={
                "PK": "TYPES",
                "SK": "SETS",
                "ss": {"b", "a", "c"},
                "ns": {Decimal("1"), Decimal("2.5"), Decimal("-3")},
                "bs": {Binary(b"\x00\x01"), Binary(b"\xff")},
                "bin": Binary(b"\x00binary\xff"),
                "nul": None,
                "yes": True,
                "list": [Decimal("1"), "two", None, {"three": [Decimal("3")]}],
                "map": {"nested": {"deep": "value"}, "empty": {}},
            }
        )
        for i in range(1500):
            batch.put_item(Item={"PK": "BIG", "SK": f"ITEM#{i:05}", "n": Decimal(i), "pad": "x" * 200})
    return {"seeded": args.table}


async def hotkeys(args):
    """hotkeys' counts equal boto3's own count of the table's partition keys; a call with a
    small share of the budget stops within it and says its count is partial."""
    client = dynamo(args.oracle)
    counts = {}
    for page in client.get_paginator("scan").paginate(TableName=args.table):
        for item in page["Items"]:
            pk = item["PK"]["S"]
            counts[pk] = counts.get(pk, 0) + 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    async def body(s, init):
        got = structured(await s.call_tool("hotkeys", {"table": args.table, "top": 3}))
        check(got["complete"] is True, got)
        check(got["partition_key"] == "PK", got)
        check(int(got["total_items"]) == sum(counts.values()), f"{got['total_items']} items counted, boto3 scanned {sum(counts.values())}")
        check(int(got["distinct_keys"]) == len(counts), got["distinct_keys"])
        top = got["top"][0]
        check(top["key"] == ranked[0][0] and int(top["items"]) == ranked[0][1], f"server {top}, boto3 {ranked[0]}")
        check(num(got["cost"]["call_rcu"]) > 0, got["cost"])
        check(num(got["cost"]["call_rcu"]) <= num(got["cost"]["per_call_cap_rcu"]), got["cost"])
        bad = await s.call_tool("hotkeys", {"table": args.table, "top": 0})
        check(bad.is_error and "top '0'" in text_of(bad), text_of(bad))
        return {"top": top["key"], "items": int(top["items"]), "oracle": ranked[0][1], "call_rcu": num(got["cost"]["call_rcu"])}

    return await with_session(args, body)


async def hotkeys_partial(args):
    """A hotkeys call whose Scan outgrows its share of the budget stops within it, counts what
    it read, and says the count is partial."""

    async def body(s, init):
        got = structured(await s.call_tool("hotkeys", {"table": args.table}))
        cost = got["cost"]
        check(got["complete"] is False, got)
        check("budget" in got["note"], got["note"])
        check(num(cost["call_rcu"]) <= num(cost["per_call_cap_rcu"]), cost)
        check(int(got["total_items"]) > 0, got)
        return {"call_rcu": num(cost["call_rcu"]), "total_items": int(got["total_items"])}

    return await with_session(args, body)


async def reports(args):
    """diagnose, metrics and insights: structured results (the Rust side checks the verdicts
    against its CloudWatch script), or one tool error each when denied."""

    async def body(s, init):
        out = {}
        for tool in ("diagnose", "metrics", "insights"):
            result = await s.call_tool(tool, {"table": args.table, "since": "10m"})
            if result.is_error:
                check(len(result.content) == 1, result.content)
                out[tool] = {"error": text_of(result)}
            else:
                got = structured(result)
                check(num(got["cost"]["call_rcu"]) == 0, got["cost"])
                out[tool] = json.loads(json.dumps(got, default=float))
        return out

    return await with_session(args, body)


async def export(args):
    """`--export`: the server reads an export (--oracle is its items as DynamoDB JSON lines):
    list_tables and describe_table name it, query walks collections by cursor equal to the
    items in key order, hotkeys counts them, each result from the export at 0 RCU; the
    table-only tools refuse, naming the export."""
    with open(args.oracle) as f:
        raw = [json.loads(line) for line in f if line.strip()]
    t = args.table

    def expected(pk_name, pk, keep=lambda item: True, order=("SK",), reverse=False):
        rows = [r for r in raw if pk_name in r and r[pk_name]["S"] == pk and keep(r)]
        rows.sort(key=lambda r: tuple(r[k]["S"].encode() for k in order), reverse=reverse)
        return rows

    async def call(s, tool, arguments):
        got = structured(await s.call_tool(tool, arguments))
        check(got["source"].startswith("export "), f"{tool}: source {got['source']}")
        cost = got["cost"]
        check(num(cost["call_rcu"]) == 0 and num(cost["session_rcu"]) == 0, f"{tool}: {cost}")
        check(all(num(r["consumed_rcu"]) == 0 for r in cost["requests"]), cost)
        return got

    async def walk(s, arguments, limit):
        items, cursor, pages = [], None, 0
        while True:
            a = dict(arguments, limit=limit)
            if cursor:
                a["cursor"] = cursor
            got = await call(s, "query", a)
            check(got["count"] == len(got["items"]) <= limit, f"page of {got['count']} items, limit {limit}")
            items.extend(got["items"])
            pages += 1
            cursor = got.get("cursor")
            if not cursor:
                check(got["stopped"] == "complete", got["stopped"])
                return items, pages
            check(pages <= 2000, "the cursor does not end")

    async def body(s, init):
        out = {}
        tables = structured(await s.call_tool("list_tables", {}))
        check(tables["tables"] == [t], tables)
        described = await call(s, "describe_table", {"table": t})
        keys = described["table"]["keys"]
        check([k["name"] for k in keys["partition"]] == ["PK"] and [k["name"] for k in keys["sort"]] == ["SK"], keys)
        big = "USER#big"
        walks = [
            ("ascending", {"table": t, "pk": big}, expected("PK", big), 97),
            ("descending", {"table": t, "pk": big, "descending": True}, expected("PK", big, reverse=True), 250),
            ("begins_with", {"table": t, "pk": big, "sk_begins_with": "ITEM#01"},
             expected("PK", big, lambda r: r["SK"]["S"].startswith("ITEM#01")), 33),
            ("index", {"table": t, "index": "GSI1PK,GSI1SK", "pk": "G#1"},
             expected("GSI1PK", "G#1", order=("GSI1SK", "PK", "SK")), 7),
            ("hostile", {"table": t, "pk": "USER#hostile"}, expected("PK", "USER#hostile"), 2),
        ]
        for what, arguments, want, limit in walks:
            items, pages = await walk(s, arguments, limit)
            keys = [(i["PK"], i["SK"]) for i in items]
            check(len(set(keys)) == len(keys), f"{what}: an item was returned twice")
            same_items(items, want, what)
            out[what] = {"items": len(items), "pages": pages}
        # A projection is applied after the page is chosen: the cursor still walks the keys.
        page = await call(s, "query", {"table": t, "pk": big, "projection": "flag", "limit": 5})
        check(page["items"] == [{"flag": True}, {"flag": False}] * 2 + [{"flag": True}], page["items"])
        hot = await call(s, "hotkeys", {"table": t, "top": 20})
        check(hot["complete"] is True, hot)
        out["hotkeys"] = json.loads(json.dumps(hot, default=float))
        for tool, arguments in [
            ("metrics", {"table": t}),
            ("diagnose", {"table": t}),
            ("insights", {"table": t}),
            ("partiql", {"statement": f'SELECT * FROM "{t}" WHERE PK = ?', "parameters": [big]}),
            ("explain", {"statement": f'SELECT * FROM "{t}" WHERE PK = ?', "parameters": [big]}),
        ]:
            r = await s.call_tool(tool, arguments)
            check(r.is_error and f"{tool} is not served from an export" in text_of(r), f"{tool}: {text_of(r)}")
        wrong = await s.call_tool("query", {"table": "orders", "pk": big})
        check(wrong.is_error and "is not the one this server reads" in text_of(wrong), text_of(wrong))
        return out

    return await with_session(args, body)


async def smuggle(args):
    """PartiQL writes hidden from a lexer that ends `--` at LF only, sent to the read-only
    `partiql` tool with allow_scan: each is refused, and boto3 finds the item as it was. A
    SELECT with comments runs, as the text without them."""
    client = dynamo(args.oracle)
    client.create_table(
        TableName=args.table,
        KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}],
        AttributeDefinitions=[{"AttributeName": "PK", "AttributeType": "S"}],
        BillingMode="PAY_PER_REQUEST",
    )
    client.get_waiter("table_exists").wait(TableName=args.table)
    before = {"PK": {"S": "x"}, "a": {"N": "1"}}
    client.put_item(TableName=args.table, Item=before)
    t = args.table
    statements = [
        f"--\rUPDATE \"{t}\" SET a = 666 WHERE PK = 'x' /*\nSELECT * FROM \"{t}\" WHERE a IS NULL */",
        f"--\rDELETE FROM \"{t}\" WHERE PK = 'x' /*\nSELECT * FROM \"{t}\" WHERE a IS NULL */",
        f"--\r\ninsert INTO \"{t}\" VALUE {{'PK': 'y'}} /*\nSELECT * FROM \"{t}\" WHERE a IS NULL */",
        f"/* SELECT */ UpDaTe \"{t}\" SET a = 666 WHERE PK = 'x'",
        f"\x0b\x0cDELETE FROM \"{t}\" WHERE PK = 'x'",
        f"--\rEXISTS(SELECT * FROM \"{t}\" WHERE PK = 'x')",
        f"SELECT * FROM \"{t}\" WHERE a IS NULL; DELETE FROM \"{t}\" WHERE PK = 'x'",
    ]
    refusals = []

    async def body(s, init):
        for statement in statements:
            result = await s.call_tool("partiql", {"statement": statement, "allow_scan": True})
            text = text_of(result)
            check(result.is_error, f"not refused: {statement!r}: {text}")
            refusals.append(text)
        ran = structured(
            await s.call_tool(
                "partiql",
                {"statement": f'SELECT * FROM "{t}" -- comment\rWHERE a IS NOT NULL /* and */', "allow_scan": True},
            )
        )
        return ran

    ran = await with_session(args, body)
    items = client.scan(TableName=args.table)["Items"]
    check(items == [before], f"the table changed: {items}")
    check(len(ran["items"]) == 1, ran)
    return {"refusals": refusals, "items": len(items)}


# What docs/mcp.md promises the text content never carries raw: C0 and C1 controls, DEL,
# every format character (Cf) and default-ignorable code point, U+2028/2029.
HOSTILE = "\x1b\x07\x7f\x85\x9b\u034f\u0600\u061c\u115f\u1160\u17b4\u200b\u2028\u2029\u202e\u2066\u3164\ufe0f\ufeff\uffa0\U000e0001\U000e0041"


def default_ignorable(c):
    """Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), which Python's
    unicodedata does not carry."""
    o = ord(c)
    return any(lo <= o <= hi for lo, hi in (
        (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160), (0x17B4, 0x17B5),
        (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
        (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
        (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF)))


async def hostile_text(args):
    """A query whose items carry HOSTILE in a key, a value and an attribute name: the text
    content holds none of them raw (nor any other Cc, Cf or default-ignorable character, by
    Python's own Unicode tables), still parses to exactly what boto3 reads, and agrees with
    the structured content."""
    client = dynamo(args.oracle)
    pk = "USER#1" + HOSTILE
    client.put_item(
        TableName=args.table,
        Item={"PK": {"S": pk}, "SK": {"S": "A" + HOSTILE}, "v" + HOSTILE: {"S": HOSTILE}, "l": {"L": [{"S": HOSTILE}]}},
    )

    async def body(s, init):
        result = await s.call_tool("query", {"table": args.table, "pk": pk})
        check(not result.is_error, text_of(result))
        texts = [c.text for c in result.content if getattr(c, "type", None) == "text"]
        check(len(texts) == 1, texts)
        text = texts[0]
        raw = sorted(
            {f"U+{ord(c):04X}" for c in text if unicodedata.category(c) in ("Cc", "Cf") or default_ignorable(c) or c in "\u2028\u2029"}
        )
        check(not raw, f"raw in the text content: {raw}")
        got = json.loads(text)
        same_items(got["items"], oracle_query(client, args.table, "PK", pk), "the hostile item")
        check(got == result.structured_content, "the text content and structuredContent differ")
        return {"escapes": sorted(set(re.findall(r"\\u[0-9a-f]{4}", text)))}

    return await with_session(args, body)


async def cancel(args):
    """Calls the client gives up on: the SDK sends notifications/cancelled when a call's read
    timeout passes. After each, list_tables marks the moment in the proxy's log, and the Rust
    side checks that the cancelled tool sent no read a second after it (each read request is
    slowed down by the proxy, so uncancelled the call would read on for many seconds)."""
    calls = [
        ("hotkeys", {"table": args.table}),
        # Filters no item passes: each read goes on request after request to its cap.
        ("partiql", {"statement": f'SELECT * FROM "{args.table}" WHERE n = -1', "allow_scan": True}),
        ("query", {"table": args.table, "pk": "BIG", "filter": "#n < :n", "names": {"#n": "n"}, "values": {":n": -1}}),
    ]

    async def body(s, init):
        gave_up, sessions = [], []
        for tool, arguments in calls:
            answered = None
            try:
                answered = await s.call_tool(tool, arguments, read_timeout_seconds=1.5)
            except Exception as e:  # the SDK's read timeout, after it sent the cancellation
                gave_up.append(f"{tool}: {type(e).__name__}")
            check(answered is None, f"{tool} answered before the client gave up on it: {answered}")
            marker = await s.call_tool("list_tables", {})
            check(not marker.is_error, text_of(marker))
            await asyncio.sleep(3)
            after = structured(await s.call_tool("list_tables", {}))
            sessions.append(num(after["cost"]["session_rcu"]))
        return {"gave_up": gave_up, "session_rcu": sessions}

    return await with_session(args, body)


SCENARIOS = {"cancel": cancel, "seed": seed, "basics": basics, "scan_refusal": scan_refusal, "budget": budget, "walk": walk, "mixed": mixed, "explain_exact": explain_exact, "run_query": run_query, "pages": pages, "denied": denied, "hotkeys": hotkeys, "hotkeys_partial": hotkeys_partial, "reports": reports, "export": export}
SCENARIOS["hostile_text"] = hostile_text
SCENARIOS["smuggle"] = smuggle


def main():
    argv = sys.argv[1:]
    split = argv.index("--")
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=sorted(SCENARIOS))
    parser.add_argument("--table", required=True)
    parser.add_argument("--oracle", help="DynamoDB Local's own endpoint, for boto3")
    args = parser.parse_args(argv[:split])
    args.server = argv[split + 1 :]
    if args.scenario != "seed":
        check(args.server, "give the server's command line after --")
    out = asyncio.run(SCENARIOS[args.scenario](args))
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()

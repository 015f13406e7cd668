#!/usr/bin/env python3
"""Writes the NoSQL Workbench model files of the test corpus (deterministic: run it again and
the files do not change). Two designs written for dynoscope's tests, in Workbench's format:

- social_timeline.json: ':' separators (User:UserA), ISO-8601 timestamps as sort keys, a
  hash-only GSI, a GSI sort key whose name holds '#' (State#Date), facets whose key aliases
  are templates, the table's items in its own TableData, and access patterns.
- shop_adjacency.json: the AWS labs' '#METADATA#<id>' own records, an adjacency list
  (PK=C#933, SK=I#933) with EntityType, its inverted GSI, a KEYS_ONLY write-sharded GSI
  (shard#1..shard#10), facets holding their own TableData with plain aliases (PK, SK).
- order_desk.json: customers and orders with the access patterns `patterns check` judges (one
  Query, a KEYS_ONLY GSI that needs a fetch back, a GSI keyed by a three-value status).
"""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def S(v):
    return {"S": v}


def N(v):
    return {"N": str(v)}


def key(name, t="S"):
    return {"AttributeName": name, "AttributeType": t}


def attrs(*pairs):
    return [key(n, t) for n, t in pairs]


def metadata(version, description):
    return {
        "Author": "dynoscope tests",
        "DateCreated": "Dec 01, 2026, 09:00 AM",
        "DateLastModified": "Dec 01, 2026, 09:00 AM",
        "Description": description,
        "AWSService": "Amazon DynamoDB",
        "Version": version,
    }


def social_timeline():
    users = ["UserA", "UserB", "UserC", "UserD", "UserE", "UserF", "UserG", "UserH"]
    states = [("US", "WA"), ("US", "OR"), ("DE", "BE"), ("US", "CA"), ("DE", "BY")]
    items = []
    posts = []
    for i, u in enumerate(users):
        items.append({
            "PK": S(f"User:{u}"), "SK": S(f"User:{u}"), "EntityType": S("user"),
            "UserName": S(u), "Email": S(f"{u.lower()}@example.com"),
            "Followers": N(10 * (i + 1) + i), "Interests": {"SS": ["cats", "maps"][: 1 + i % 2]},
        })
        for j in range(3 + i % 3):
            day = 1 + (i * 3 + j) % 27
            ts = f"2023-04-{day:02d}T{8 + j:02d}:{(i * 7) % 60:02d}:00.{i * 100 + j + 1:03d}Z"
            country, state = states[(i + j) % len(states)]
            post = {
                "PK": S(f"User:{u}"), "SK": S(ts), "EntityType": S("post"),
                "Caption": S(f"post {j + 1} by {u}"), "Likes": N(i * 11 + j),
                "Country": S(country), "State#Date": S(f"{state}#{ts[:10]}"),
                "Tags": {"SS": ["travel", "food", "dogs"][: 1 + j % 3]},
                "Scores": {"NS": [str(j + 1), "2.5", "-7"][: 1 + j % 3]},
            }
            if i == 0 and j == 0:
                # 38 significant digits: must come back with every one of them.
                post["Views"] = N("12345678901234567890123456789012345678")
            items.append(post)
            posts.append((u, ts))
    for k in range(16):
        reactor = users[(k * 3 + 1) % len(users)]
        author, ts = posts[(k * 5) % len(posts)]
        items.append({
            "PK": S(f"Reaction:{reactor}"), "SK": S(f"Post:{author}:{ts}"),
            "EntityType": S("reaction"), "Emoji": S(["heart", "laugh", "wow"][k % 3]),
            "ReactedAt": S(f"2023-05-{1 + k:02d}T10:00:00.000Z"),
        })
    table = {
        "TableName": "Timeline",
        "KeyAttributes": {"PartitionKey": key("PK"), "SortKey": key("SK")},
        "NonKeyAttributes": attrs(("EntityType", "S"), ("UserName", "S"), ("Email", "S"),
                                  ("Followers", "N"), ("Interests", "SS"), ("Caption", "S"),
                                  ("Likes", "N"), ("Country", "S"), ("State#Date", "S"),
                                  ("Tags", "SS"), ("Scores", "NS"), ("Views", "N"),
                                  ("Emoji", "S"), ("ReactedAt", "S")),
        "GlobalSecondaryIndexes": [
            {"IndexName": "ByEmail", "KeyAttributes": {"PartitionKey": key("Email")},
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "ByStateDate",
             "KeyAttributes": {"PartitionKey": key("Country"), "SortKey": key("State#Date")},
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["Caption", "Likes"]}},
        ],
        "TableFacets": [
            {"FacetName": "User",
             "KeyAttributeAlias": {"PartitionKeyAlias": "User:{userId}", "SortKeyAlias": "User:{userId}"},
             "NonKeyAttributes": ["EntityType", "UserName", "Email", "Followers", "Interests"],
             "DataAccess": {"MySql": {}}},
            {"FacetName": "Post",
             "KeyAttributeAlias": {"PartitionKeyAlias": "User:{userId}", "SortKeyAlias": "{postedAt}"},
             "NonKeyAttributes": ["EntityType", "Caption", "Likes", "Country", "State#Date", "Tags", "Scores", "Views"],
             "DataAccess": {"MySql": {}}},
            {"FacetName": "Reaction",
             "KeyAttributeAlias": {"PartitionKeyAlias": "Reaction:<reactorId>",
                                   "SortKeyAlias": "Post:<authorId>:<postedAt>"},
             "NonKeyAttributes": ["EntityType", "Emoji", "ReactedAt"],
             "DataAccess": {"MySql": {}}},
        ],
        "TableData": items,
        "DataAccess": {"MySql": {}},
        "BillingMode": "PAY_PER_REQUEST",
    }
    patterns = [
        {"Name": "Posts of a user, newest first", "Type": "Query", "TableName": "Timeline",
         "Description": "a user's timeline since a moment",
         "KeyConditionExpression": "PK = :pk AND SK > :since",
         "ExpressionAttributeValues": {":pk": S("User:{userId}")},
         "ScanIndexForward": False, "Limit": 20},
        {"Name": "User by email", "Type": "Query", "TableName": "Timeline", "IndexName": "ByEmail",
         "KeyConditionExpression": "Email = :email"},
        {"Name": "Posts in a state", "Type": "Query", "TableName": "Timeline",
         "IndexName": "ByStateDate",
         "KeyConditionExpression": "Country = :country AND begins_with(#sd, :state)",
         "ExpressionAttributeNames": {"#sd": "State#Date"}},
        {"Name": "Profile", "Type": "GetItem", "TableName": "Timeline",
         "Key": {"PK": S("User:<userId>"), "SK": S("User:<userId>")}},
        {"Name": "Everything", "Type": "Scan", "TableName": "Timeline"},
    ]
    return {
        "ModelName": "SocialTimeline",
        "ModelMetadata": metadata("3.0", "Users, their posts by time, and reactions"),
        "DataModel": [table],
        "AccessPatterns": patterns,
    }


def shop_adjacency():
    customers = [str(925 + i) for i in range(10)]  # includes 933
    names = ["Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    skus = [f"{17 + 3 * i}" for i in range(12)]
    invoices = ["933"] + [str(1001 + i) for i in range(29)]
    customer_items, edge_items, invoice_items, line_items, product_items = [], [], [], [], []
    for c, name in zip(customers, names):
        customer_items.append({
            "PK": S(f"C#{c}"), "SK": S(f"#METADATA#{c}"), "EntityType": S("customer"),
            "CustomerId": S(c), "Name": S(name), "Email": S(f"{name.lower()}@shop.example"),
        })
    for n, sku in enumerate(skus):
        product_items.append({
            "PK": S(f"P#{sku}"), "SK": S(f"#METADATA#{sku}"), "EntityType": S("product"),
            "Sku": S(sku), "Title": S(f"product {sku}"), "Price": N(f"{5 + n}.{11 * (n % 8) + 1:02d}"),  # no trailing zero: DynamoDB would drop it
            "Colors": {"SS": ["red", "blue", "green"][: 1 + n % 3]},
        })
    for n, inv in enumerate(invoices):
        cust = "933" if inv == "933" else customers[n % len(customers)]
        ordered = f"2023-06-{1 + n % 28:02d}T{9 + n % 8:02d}:15:00.000Z"
        total = 0
        for k in range(1 + n % 3):
            sku = skus[(n * 5 + k) % len(skus)]
            qty = 1 + (n + k) % 4
            total += qty * (5 + skus.index(sku))
            line_items.append({
                "PK": S(f"I#{inv}"), "SK": S(f"P#{sku}"), "EntityType": S("line"),
                "Quantity": N(qty),
            })
        edge_items.append({
            "PK": S(f"C#{cust}"), "SK": S(f"I#{inv}"), "EntityType": S("invoice"),
            "InvoiceId": S(inv), "Total": N(total),
        })
        invoice_items.append({
            "PK": S(f"I#{inv}"), "SK": S(f"#METADATA#{inv}"), "EntityType": S("invoice"),
            "InvoiceId": S(inv), "CustomerId": S(cust), "Total": N(total),
            "ShardKey": S(f"shard#{1 + n % 10}"), "OrderedAt": S(ordered),
        })

    def facet(name, items, non_key):
        return {"FacetName": name, "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
                "TableData": items, "NonKeyAttributes": non_key, "DataAccess": {"MySql": {}}}

    table = {
        "TableName": "Shop",
        "KeyAttributes": {"PartitionKey": key("PK"), "SortKey": key("SK")},
        "NonKeyAttributes": attrs(("EntityType", "S"), ("CustomerId", "S"), ("Name", "S"),
                                  ("Email", "S"), ("InvoiceId", "S"), ("Total", "N"),
                                  ("ShardKey", "S"), ("OrderedAt", "S"), ("Quantity", "N"),
                                  ("Sku", "S"), ("Title", "S"), ("Price", "N"), ("Colors", "SS")),
        "GlobalSecondaryIndexes": [
            {"IndexName": "GSI1",
             "KeyAttributes": {"PartitionKey": key("SK"), "SortKey": key("PK")},
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "ByShard",
             "KeyAttributes": {"PartitionKey": key("ShardKey"), "SortKey": key("OrderedAt")},
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
        ],
        "TableFacets": [
            facet("customer", customer_items, ["EntityType", "CustomerId", "Name", "Email"]),
            facet("customerInvoice", edge_items, ["EntityType", "InvoiceId", "Total"]),
            facet("invoice", invoice_items, ["EntityType", "InvoiceId", "CustomerId", "Total", "ShardKey", "OrderedAt"]),
            facet("invoiceLine", line_items, ["EntityType", "Quantity"]),
            facet("product", product_items, ["EntityType", "Sku", "Title", "Price", "Colors"]),
        ],
        "DataAccess": {"MySql": {}},
        "BillingMode": "PROVISIONED",
        "ProvisionedCapacitySettings": {
            "ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5},
        },
        "AccessPatterns": [
            {"Name": "invoices of a customer", "Type": "Query",
             "KeyConditionExpression": "PK = :pk AND begins_with(SK, :inv)",
             "ExpressionAttributeValues": {":pk": S("C#<customerId>"), ":inv": S("I#")}},
            {"Name": "invoices in a shard", "Type": "Query", "IndexName": "ByShard",
             "KeyConditionExpression": "ShardKey = :shardKey AND OrderedAt BETWEEN :from AND :to"},
            {"Name": "who bought a product", "Type": "Query", "IndexName": "GSI1",
             "KeyConditionExpression": "SK = :sku",
             "ExpressionAttributeValues": {":sku": S("P#{sku}")},
             "FilterExpression": "EntityType = :line"},
            {"Name": "add a customer", "Type": "PutItem"},
        ],
    }
    return {
        "ModelName": "ShopAdjacency",
        "ModelMetadata": metadata("1.0", "Customers, invoices and products in one adjacency list"),
        "DataModel": [table],
    }


def order_desk():
    """Customers and their orders, with the access patterns `patterns check` judges: orders of a
    customer (one Query), a customer by email (a KEYS_ONLY GSI: a fetch back), orders in a
    status (a GSI keyed by a three-value status: low cardinality, PENDING holding half)."""
    cities = ["Oslo", "Lyon", "Porto", "Gent"]
    statuses = ["PENDING", "PENDING", "SHIPPED", "PENDING", "DELIVERED", "SHIPPED"]
    customers, orders = [], []
    for c in range(1, 13):
        cid = f"c{c:02d}"
        customers.append({
            "PK": S(f"CUST#{cid}"), "SK": S("PROFILE"), "Email": S(f"{cid}@example.com"),
            "Name": S(f"customer {cid}"), "City": S(cities[c % len(cities)]),
        })
        for o in range(8):
            n = c * 8 + o
            day = f"2026-0{1 + n % 9}-{1 + n % 28:02d}"
            status = statuses[n % len(statuses)]
            # One order in the whole table is over 900: a filter on Total > 900 returns
            # almost nothing of what it reads.
            total = 950 if cid == "c07" and o == 3 else 10 + (n * 37) % 400
            orders.append({
                "PK": S(f"CUST#{cid}"), "SK": S(f"ORDER#{day}#o{n:03d}"),
                "Status": S(status), "Total": N(total),
                "GSI1PK": S(f"STATUS#{status}"), "GSI1SK": S(f"{day}#o{n:03d}"),
            })
    table = {
        "TableName": "OrderDesk",
        "KeyAttributes": {"PartitionKey": key("PK"), "SortKey": key("SK")},
        "NonKeyAttributes": attrs(("Email", "S"), ("Name", "S"), ("City", "S"), ("Status", "S"),
                                  ("Total", "N"), ("GSI1PK", "S"), ("GSI1SK", "S")),
        "GlobalSecondaryIndexes": [
            {"IndexName": "ByStatus",
             "KeyAttributes": {"PartitionKey": key("GSI1PK"), "SortKey": key("GSI1SK")},
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "ByEmail",
             "KeyAttributes": {"PartitionKey": key("Email")},
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
        ],
        "TableFacets": [
            {"FacetName": "customer",
             "KeyAttributeAlias": {"PartitionKeyAlias": "CustomerKey", "SortKeyAlias": "Profile"},
             "TableData": customers, "NonKeyAttributes": ["Email", "Name", "City"]},
            {"FacetName": "order",
             "KeyAttributeAlias": {"PartitionKeyAlias": "CustomerKey", "SortKeyAlias": "OrderKey"},
             "TableData": orders,
             "NonKeyAttributes": ["Status", "Total", "GSI1PK", "GSI1SK"]},
        ],
        "BillingMode": "PAY_PER_REQUEST",
        "AccessPatterns": [
            {"Name": "orders of a customer", "Type": "Query",
             "KeyConditionExpression": "PK = :pk AND begins_with(SK, :order)",
             "ExpressionAttributeValues": {":pk": S("CUST#<customerId>"), ":order": S("ORDER#")},
             "ScanIndexForward": False},
            {"Name": "customer by email", "Type": "Query", "IndexName": "ByEmail",
             "KeyConditionExpression": "Email = :email"},
            {"Name": "orders in a status", "Type": "Query", "IndexName": "ByStatus",
             "KeyConditionExpression": "GSI1PK = :status",
             "ExpressionAttributeValues": {":status": S("STATUS#{status}")}},
        ],
    }
    return {
        "ModelName": "OrderDesk",
        "ModelMetadata": metadata("3.0", "Customers and orders, with the access patterns a design review checks"),
        "DataModel": [table],
    }


for name, model in [("social_timeline.json", social_timeline()), ("shop_adjacency.json", shop_adjacency()),
                    ("order_desk.json", order_desk())]:
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(model, f, indent=2)
        f.write("\n")

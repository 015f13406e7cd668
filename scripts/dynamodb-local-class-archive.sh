#!/usr/bin/env bash
# Makes a class-data archive (AppCDS) of DynamoDB Local for the test suite's JVMs, in
# DIR/cds (DIR: where scripts/install-dynamodb-local.sh put DynamoDB Local). A JVM started from
# it maps the classes DynamoDB Local loads instead of reading and verifying them: about 0.9 s
# less CPU for each of the twenty JVMs a test run starts (docs/benchmarks.md §17.16).
#
# The archive needs a class path of jar files only, and DynamoDBLocal.jar's manifest puts its
# own folder (".") and log4j2.xml, which is not there, on it. So DIR/cds holds a copy of the jar
# whose manifest lists only the DynamoDBLocal_lib jars, beside a link to that folder: the same
# classes, launched as the official jar is. The archive is made by one run of DynamoDB Local
# that serves a request of each kind the tests send, then stops.
#
# Optional: without java 17+ or python3, or if anything fails, it says so and leaves no
# archive, and the tests start DynamoDB Local from the official jar as before. The archive
# belongs to this JVM build; another Java ignores it (the tests' JVMs then start without it).
set -euo pipefail
dir="$1"
cds="$dir/cds"
[ -f "$cds/complete" ] && { echo "DynamoDB Local's class archive already made in $cds"; exit 0; }
command -v java >/dev/null && command -v python3 >/dev/null \
  || { echo "note: no java or python3: DynamoDB Local's class archive is not made (the tests run without it)"; exit 0; }
rm -rf "$cds"
mkdir -p "$cds"
python3 - "$dir/DynamoDBLocal.jar" "$cds/DynamoDBLocal.jar" <<'PY'
import sys, zipfile

def jars_only(manifest: bytes) -> bytes:
    """The manifest with its Class-Path cut to the .jar entries (unfolded, then folded at 72)."""
    lines = []
    for line in manifest.decode("utf-8").replace("\r\n", "\n").split("\n"):
        if line.startswith(" ") and lines:
            lines[-1] += line[1:]
        elif line:
            lines.append(line)
    out = []
    for line in lines:
        if line.startswith("Class-Path:"):
            line = "Class-Path: " + " ".join(p for p in line[11:].split() if p.endswith(".jar"))
        while len(line.encode()) > 72:
            out.append(line[:70])
            line = " " + line[70:]
        out.append(line)
    return ("\r\n".join(out) + "\r\n\r\n").encode("utf-8")

src, dst = sys.argv[1:]
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
    for info in zin.infolist():
        data = zin.read(info.filename)
        if info.filename == "META-INF/MANIFEST.MF":
            data = jars_only(data)
        zout.writestr(info, data)
PY
ln -s ../DynamoDBLocal_lib "$cds/DynamoDBLocal_lib"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
# The flags of the tests' JVMs (TEST_JVM_FLAGS in tests/integration/common/mod.rs).
(cd "$cds" && exec java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms1g -Xmn700m \
  -XX:ArchiveClassesAtExit="$cds/dynamodb-local.jsa" \
  -Djava.library.path="$cds/DynamoDBLocal_lib" -jar "$cds/DynamoDBLocal.jar" \
  -inMemory -port "$port" -disableTelemetry) >"$cds/training.log" 2>&1 &
pid=$!
trained=0
python3 - "$port" <<'PY' && trained=1
import json, sys, time, urllib.request

port = sys.argv[1]

def call(target, body):
    service = "DynamoDBStreams_20120810" if target in ("DescribeStream", "GetShardIterator", "GetRecords") else "DynamoDB_20120810"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/",
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/x-amz-json-1.0",
            "X-Amz-Target": f"{service}.{target}",
            "X-Amz-Date": "20260101T000000Z",
            "Authorization": "AWS4-HMAC-SHA256 Credential=archive/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0",
        },
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")

deadline = time.time() + 120
while True:
    try:
        call("ListTables", {})
        break
    except OSError:
        if time.time() > deadline:
            sys.exit("DynamoDB Local did not answer")
        time.sleep(0.2)
s = lambda v: {"S": v}
call("CreateTable", {
    "TableName": "archive",
    "AttributeDefinitions": [{"AttributeName": n, "AttributeType": "S"} for n in ("PK", "SK", "GSI1PK", "GSI1SK")],
    "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
    "GlobalSecondaryIndexes": [{
        "IndexName": "GSI1",
        "KeySchema": [{"AttributeName": "GSI1PK", "KeyType": "HASH"}, {"AttributeName": "GSI1SK", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"},
    }],
    "BillingMode": "PAY_PER_REQUEST",
    "StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
})
item = lambda i: {"PK": s(f"USER#{i % 7}"), "SK": s(f"ORDER#{i:04}"), "GSI1PK": s("STATUS#X"), "GSI1SK": s(f"{i:04}"),
                  "n": {"N": str(i)}, "ok": {"BOOL": True}, "tags": {"SS": ["a", "b"]}, "m": {"M": {"l": {"L": [{"NULL": True}]}}}}
call("PutItem", {"TableName": "archive", "Item": item(0), "ReturnConsumedCapacity": "TOTAL"})
for start in range(1, 100, 25):
    call("BatchWriteItem", {"RequestItems": {"archive": [{"PutRequest": {"Item": item(i)}} for i in range(start, start + 25)]}})
call("GetItem", {"TableName": "archive", "Key": {"PK": s("USER#1"), "SK": s("ORDER#0001")}, "ConsistentRead": True})
call("Query", {"TableName": "archive", "KeyConditionExpression": "PK = :p AND begins_with(SK, :s)",
               "FilterExpression": "n > :n", "ExpressionAttributeValues": {":p": s("USER#1"), ":s": s("ORDER#"), ":n": {"N": "3"}},
               "Limit": 5, "ReturnConsumedCapacity": "INDEXES"})
call("Query", {"TableName": "archive", "IndexName": "GSI1", "KeyConditionExpression": "GSI1PK = :p AND GSI1SK BETWEEN :a AND :b",
               "ExpressionAttributeValues": {":p": s("STATUS#X"), ":a": s("0001"), ":b": s("0050")}})
call("Scan", {"TableName": "archive", "Segment": 0, "TotalSegments": 2, "Limit": 40, "ReturnConsumedCapacity": "TOTAL"})
call("UpdateItem", {"TableName": "archive", "Key": {"PK": s("USER#1"), "SK": s("ORDER#0001")},
                    "UpdateExpression": "SET n = :n", "ConditionExpression": "attribute_exists(PK)",
                    "ExpressionAttributeValues": {":n": {"N": "7"}}, "ReturnValues": "ALL_OLD"})
call("DeleteItem", {"TableName": "archive", "Key": {"PK": s("USER#2"), "SK": s("ORDER#0002")}})
call("ExecuteStatement", {"Statement": "SELECT * FROM \"archive\" WHERE PK = 'USER#3'"})
call("DescribeTimeToLive", {"TableName": "archive"})
stream = call("DescribeTable", {"TableName": "archive"})["Table"]["LatestStreamArn"]
shard = call("DescribeStream", {"StreamArn": stream})["StreamDescription"]["Shards"][0]["ShardId"]
iterator = call("GetShardIterator", {"StreamArn": stream, "ShardId": shard, "ShardIteratorType": "TRIM_HORIZON"})["ShardIterator"]
call("GetRecords", {"ShardIterator": iterator})
call("DeleteTable", {"TableName": "archive"})
PY
# The archive is written as the JVM exits.
kill -TERM "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
if [ "$trained" = 1 ] && [ -s "$cds/dynamodb-local.jsa" ]; then
  touch "$cds/complete"
  echo "DynamoDB Local's class archive made in $cds"
else
  echo "note: DynamoDB Local's class archive could not be made (the tests run without it):"
  tail -n 5 "$cds/training.log" || true
  rm -rf "$cds"
fi

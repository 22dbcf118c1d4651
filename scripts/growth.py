#!/usr/bin/env python3
"""Hostile inputs at growing sizes, and the time and peak memory of every command that reads them.

Usage:
  cargo build --release -p monotable-cli
  python3 scripts/growth.py                        # every case at its default sizes
  python3 scripts/growth.py --cases check-collide,import-facets --sizes 500,2000
  python3 scripts/growth.py gen collide 2000 out.toml   # write one input and stop

Each case generates its input (a model, a NoSQL Workbench file, a price table, an endless
stream) into a temporary directory, runs the release binary on it once per size, and prints a
markdown row: input size, wall seconds, peak resident memory (the kernel's maxrss of the child),
bytes written to stdout and stderr, and the exit status. A run is stopped at --timeout seconds or
when its resident memory passes --max-rss MiB (reported as `timeout` / `killed: RSS`), so an
unbounded command cannot take the machine down. Python 3.11 standard library only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.path.join(ROOT, "target", "release", "monotable")

HEAD = """version = 1

[table]
name = "Hostile"
partition_key = { name = "PK", type = "S" }
sort_key = { name = "SK", type = "S" }
"""

GSI1 = """
[indexes.GSI1]
partition_key = { name = "GSI1PK", type = "S" }
sort_key = { name = "GSI1SK", type = "S" }
"""


# ---- models ---------------------------------------------------------------------------------

def collide(n):
    """n entities on one key template: every pair can be written at the same table key (MT005)."""
    out = [HEAD]
    for k in range(n):
        out.append(f"""
[entities.E{k}]
attributes.id = {{ type = "string", required = true }}
attributes.sk = {{ type = "string", required = true }}
keys.PK = "USER#{{id}}"
keys.SK = "{{sk}}"
""")
    return "".join(out)


def collide_index(n):
    """n entities sharing one GSI key template, each read alone by its own pattern (MT005 warning)."""
    out = [HEAD, GSI1]
    for k in range(n):
        out.append(f"""
[entities.E{k}]
attributes.id = {{ type = "string", required = true }}
attributes.sk = {{ type = "string", required = true }}
keys.PK = "E{k}#{{id}}"
keys.SK = "E{k}"
keys.GSI1PK = "G#{{id}}"
keys.GSI1SK = "{{sk}}"

[patterns.get{k}]
operation = "GetItem"
key = {{ PK = "E{k}#{{id}}", SK = "E{k}" }}
returns = ["E{k}"]

[patterns.byGroup{k}]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "G#{{id}}", GSI1SK = "begins_with({{sk}})" }}
returns = ["E{k}"]
limit = 10
""")
    return "".join(out)


def collide_native(n):
    """n entities in one native index, each read alone by its own pattern (MT005 on native keys)."""
    out = [HEAD, """
[indexes.ByStatus]
kind = "global"
partition_key = [{ name = "status", type = "S" }]
sort_key = [{ name = "at", type = "S" }]
"""]
    for k in range(n):
        out.append(f"""
[entities.E{k}]
attributes.id = {{ type = "string", required = true }}
attributes.status = {{ type = "string", required = true }}
attributes.at = {{ type = "timestamp", format = "rfc3339-utc-millis", required = true }}
keys.PK = "E{k}#{{id}}"
keys.SK = "E{k}"

[patterns.get{k}]
operation = "GetItem"
key = {{ PK = "E{k}#{{id}}", SK = "E{k}" }}
returns = ["E{k}"]

[patterns.byStatus{k}]
operation = "Query"
index = "ByStatus"
key = {{ status = "{{status}}" }}
returns = ["E{k}"]
limit = 10
""")
    return "".join(out)


def large(n):
    """A realistic design: aggregates of five entity types and seven patterns (as the check bench)."""
    out = [HEAD, GSI1, """
[traffic]
default_writes_per_second = 5
default_item_size_bytes = 800
"""]
    for k in range((n + 4) // 5):
        out.append(f"""
[entities.Root{k}]
attributes.id = {{ type = "string", required = true }}
attributes.ownerId = {{ type = "string", required = true }}
attributes.name = {{ type = "string", required = true, max_length = 100 }}
attributes.status = {{ type = "enum", values = ["ACTIVE", "PAUSED", "ARCHIVED"], required = true }}
attributes.total = {{ type = "decimal", required = true }}
attributes.createdAt = {{ type = "timestamp", format = "rfc3339-utc-millis", required = true }}
keys.PK = "R{k}#{{id}}"
keys.SK = "R{k}"
keys.GSI1PK = "OWNER#{{ownerId}}"
keys.GSI1SK = "R{k}#{{createdAt}}#{{id}}"
unique = [{{ attributes = ["name"], guard = "Name{k}" }}]
relations = [{{ entity = "Line{k}", kind = "many", max = 50 }}]

[entities.Name{k}]
attributes.name = {{ type = "string", required = true, max_length = 100 }}
attributes.id = {{ type = "string", required = true }}
keys.PK = "N{k}#{{name}}"
keys.SK = "N{k}"

[entities.Line{k}]
attributes.id = {{ type = "string", required = true }}
attributes.lineNo = {{ type = "integer", required = true }}
attributes.quantity = {{ type = "integer", required = true }}
attributes.price = {{ type = "decimal", required = true }}
keys.PK = "R{k}#{{id}}"
keys.SK = "L{k}#{{lineNo:03}}"

[entities.Event{k}]
attributes.id = {{ type = "string", required = true }}
attributes.eventId = {{ type = "string", required = true }}
attributes.at = {{ type = "timestamp", format = "rfc3339-utc-millis", required = true }}
attributes.day = {{ type = "timestamp", format = "date", required = true }}
attributes.shard = {{ type = "integer", required = true, cardinality = 8 }}
attributes.payload = {{ type = "map", max_items = 20 }}
keys.PK = "R{k}#{{id}}"
keys.SK = "E{k}#{{at}}#{{eventId}}"
keys.GSI1PK = "E{k}DAY#{{day}}#{{shard}}"
keys.GSI1SK = "{{at}}#{{eventId}}"

[entities.Count{k}]
attributes.id = {{ type = "string", required = true }}
attributes.status = {{ type = "enum", values = ["ACTIVE", "PAUSED", "ARCHIVED"], required = true }}
attributes.count = {{ type = "integer", required = true }}
keys.PK = "R{k}#{{id}}"
keys.SK = "C{k}#{{status}}"

[patterns.getRoot{k}]
operation = "GetItem"
key = {{ PK = "R{k}#{{id}}", SK = "R{k}" }}
returns = ["Root{k}"]

[patterns.rootWithLines{k}]
operation = "Query"
key = {{ PK = "R{k}#{{id}}", SK = "between(L{k}#, R{k})" }}
returns = ["Root{k}", "Line{k}"]

[patterns.eventsInRange{k}]
operation = "Query"
key = {{ PK = "R{k}#{{id}}", SK = "between(E{k}#{{from}}, E{k}#{{to}})" }}
params.from = {{ type = "timestamp", format = "rfc3339-utc-millis" }}
params.to = {{ type = "timestamp", format = "rfc3339-utc-millis" }}
returns = ["Event{k}"]
paginate = true
limit = 100

[patterns.eventsOfDay{k}]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "E{k}DAY#{{day}}#{{shard}}" }}
returns = ["Event{k}"]
paginate = true

[patterns.counts{k}]
operation = "Query"
key = {{ PK = "R{k}#{{id}}", SK = "begins_with(C{k}#)" }}
returns = ["Count{k}"]

[patterns.rootsOfOwner{k}]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "OWNER#{{ownerId}}", GSI1SK = "begins_with(R{k}#)" }}
returns = ["Root{k}"]
paginate = true

[patterns.create{k}]
operation = "TransactWrite"
writes = [{{ entity = "Root{k}" }}, {{ entity = "Name{k}" }}, {{ entity = "Line{k}", count = 50 }}]

[traffic.entities.Event{k}]
writes_per_second = 50
item_size_bytes = 600

[traffic.patterns.getRoot{k}]
reads_per_second = 100
""")
    return "".join(out)


def writes(n):
    """`large` with the write patterns an app of it sends, per aggregate: a root opened with its
    name claimed and its lines, renamed (the name guard moved), moved to another owner, closed
    (the guard released), a line removed: what `verify` runs write by write."""
    text = large(n).replace(
        'attributes.createdAt = { type = "timestamp", format = "rfc3339-utc-millis", required = true }\nkeys.PK = "R',
        'attributes.createdAt = { type = "timestamp", format = "rfc3339-utc-millis", required = true }\n'
        'attributes.version = { type = "integer", required = true }\nkeys.PK = "R')
    out = [text]
    for k in range((n + 4) // 5):
        out.append(f"""
[patterns.putRoot{k}]
operation = "PutItem"
key = {{ PK = "R{k}#{{id}}", SK = "R{k}" }}
returns = ["Root{k}"]
condition = "not_exists"

[patterns.replaceRoot{k}]
operation = "PutItem"
key = {{ PK = "R{k}#{{id}}", SK = "R{k}" }}
returns = ["Root{k}"]
condition = "version(version)"

[patterns.claimName{k}]
operation = "PutItem"
key = {{ PK = "N{k}#{{name}}", SK = "N{k}" }}
returns = ["Name{k}"]
condition = "not_exists"

[patterns.releaseName{k}]
operation = "DeleteItem"
key = {{ PK = "N{k}#{{name}}", SK = "N{k}" }}
returns = ["Name{k}"]
condition = "id = {{owner}}"

[patterns.addLine{k}]
operation = "PutItem"
key = {{ PK = "R{k}#{{id}}", SK = "L{k}#{{lineNo:03}}" }}
returns = ["Line{k}"]
condition = "not_exists"

[patterns.removeLine{k}]
operation = "DeleteItem"
key = {{ PK = "R{k}#{{id}}", SK = "L{k}#{{lineNo:03}}" }}
returns = ["Line{k}"]
condition = "exists"

[patterns.dropRoot{k}]
operation = "DeleteItem"
key = {{ PK = "R{k}#{{id}}", SK = "R{k}" }}
returns = ["Root{k}"]
condition = "version(version)"

[patterns.moveRoot{k}]
operation = "UpdateItem"
key = {{ PK = "R{k}#{{id}}", SK = "R{k}" }}
returns = ["Root{k}"]
sets = ["ownerId", "status", "version"]
condition = "exists and status <> 'ARCHIVED'"

[patterns.openRoot{k}]
operation = "TransactWrite"
writes = [{{ pattern = "putRoot{k}" }}, {{ pattern = "claimName{k}" }}, {{ pattern = "addLine{k}", count = 50 }}]

[patterns.renameRoot{k}]
operation = "TransactWrite"
writes = [{{ pattern = "replaceRoot{k}" }}, {{ pattern = "releaseName{k}" }}, {{ pattern = "claimName{k}" }}]

[patterns.closeRoot{k}]
operation = "TransactWrite"
writes = [{{ pattern = "dropRoot{k}" }}, {{ pattern = "releaseName{k}" }}]
""")
    return "".join(out)


def large_changed(n):
    """`large` with every root's index key changed and every event renamed: what `diff` compares."""
    text = large(n)
    text = text.replace('keys.GSI1SK = "R', 'keys.GSI1SK = "ROOT')
    text = text.replace('GSI1SK = "begins_with(R', 'GSI1SK = "begins_with(ROOT')
    return text


def one_entity(attrs=1):
    lines = [f'attributes.a{i} = {{ type = "string" }}\n' for i in range(attrs)]
    return ("\n[entities.E]\nattributes.id = { type = \"string\", required = true }\n" + "".join(lines)
            + 'keys.PK = "E#{id}"\nkeys.SK = "E"\n')


def patterns(n):
    """One entity read by n patterns."""
    out = [HEAD, one_entity()]
    for k in range(n):
        out.append(f"""
[patterns.get{k}]
operation = "GetItem"
key = {{ PK = "E#{{id}}", SK = "E" }}
returns = ["E"]
""")
    return "".join(out)


def unwritten(n):
    """n patterns on one index that each read a partition the entity does not write (MT001/MT003)."""
    out = [HEAD, GSI1, one_entity(), 'keys.GSI1PK = "A#{id}"\nkeys.GSI1SK = "A"\n']
    for k in range(n):
        out.append(f"""
[patterns.q{k}]
operation = "Query"
index = "GSI1"
key = {{ GSI1PK = "P{k}#{{id}}" }}
returns = ["E"]
limit = 10
""")
    return "".join(out)


def attributes(n):
    """One entity with n attributes, read by one pattern."""
    return HEAD + one_entity(n) + """
[patterns.get]
operation = "GetItem"
key = { PK = "E#{id}", SK = "E" }
returns = ["E"]
"""


def indexes(n):
    """n global indexes, each with its own entity and pattern."""
    out = [HEAD]
    for k in range(n):
        out.append(f"""
[indexes.GSI{k}]
partition_key = {{ name = "GSI{k}PK", type = "S" }}
sort_key = {{ name = "GSI{k}SK", type = "S" }}
""")
    for k in range(n):
        out.append(f"""
[entities.E{k}]
attributes.id = {{ type = "string", required = true }}
keys.PK = "E{k}#{{id}}"
keys.SK = "E{k}"
keys.GSI{k}PK = "X{k}#{{id}}"
keys.GSI{k}SK = "X{k}"

[patterns.q{k}]
operation = "Query"
index = "GSI{k}"
key = {{ GSI{k}PK = "X{k}#{{id}}" }}
returns = ["E{k}"]
limit = 10
""")
    return "".join(out)


def template(n):
    """Two entities whose sort keys are n variables long: shape overlap on long templates."""
    variables = "#".join(f"{{v{i}}}" for i in range(n))
    attrs = "".join(f'attributes.v{i} = {{ type = "string", required = true }}\n' for i in range(n))
    out = [HEAD]
    for name in ("A", "B"):
        out.append(f"""
[entities.{name}]
attributes.id = {{ type = "string", required = true }}
{attrs}keys.PK = "X#{{id}}"
keys.SK = "{variables}"
""")
    return "".join(out)


def nesting(n):
    """An array nested n deep (TOML parsers recurse)."""
    return HEAD + "description = " + "[" * n + "]" * n + "\n"


def string(n):
    """A description of n bytes and an entity name of n / 10 characters."""
    name = "E" + "x" * (n // 10)
    return HEAD + f'\n[entities.{name}]\ndescription = "{"d" * n}"\n' \
        + 'attributes.id = { type = "string", required = true }\nkeys.PK = "E#{id}"\nkeys.SK = "E"\n'


def prices(n):
    """A price table of n bytes (a comment line repeated: what matters is that it is read whole)."""
    line = "# " + "p" * 97 + "\n"
    return line * (n // len(line))


# ---- NoSQL Workbench files ------------------------------------------------------------------

def workbench(facets, items=0, gsis=0, alias=True):
    table = {
        "TableName": "Hostile",
        "KeyAttributes": {
            "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
            "SortKey": {"AttributeName": "SK", "AttributeType": "S"},
        },
        "NonKeyAttributes": [{"AttributeName": "id", "AttributeType": "S"}],
        "TableFacets": [
            {
                "FacetName": f"F{k}",
                "KeyAttributeAlias": {"PartitionKeyAlias": "USER#{id}", "SortKeyAlias": "{sk}"}
                if alias else {"PartitionKeyAlias": f"F{k}#{{id}}", "SortKeyAlias": f"F{k}"},
                "NonKeyAttributes": ["id"],
            }
            for k in range(facets)
        ],
        "GlobalSecondaryIndexes": [
            {
                "IndexName": f"GSI{k}",
                "KeyAttributes": {"PartitionKey": {"AttributeName": f"G{k}PK", "AttributeType": "S"}},
                "Projection": {"ProjectionType": "ALL"},
            }
            for k in range(gsis)
        ],
        "BillingMode": "PAY_PER_REQUEST",
    }
    head = json.dumps({"ModelName": "Hostile", "ModelMetadata": {"Author": "growth.py"},
                       "DataModel": [dict(table, TableData=["ITEMS"])]})
    before, after = head.split('"ITEMS"')
    item = '{"PK": {"S": "USER#%d"}, "SK": {"S": "S%d"}, "id": {"S": "%d"}}'
    body = ", ".join(item % (i, i, i) for i in range(items))
    return before + body + after


def aws_schema(n):
    """The AWS DynamoDB MCP server's schema.json: one table of n entities, three patterns each."""
    def entity(k):
        get = {"pattern_id": 3 * k, "name": "get", "description": "d", "operation": "GetItem",
               "parameters": [{"name": "id", "type": "string"}], "return_type": "single_entity"}
        query = dict(get, pattern_id=3 * k + 1, name="list", operation="Query",
                     range_condition=">=", return_type="entity_list",
                     parameters=[{"name": "id", "type": "string"}, {"name": "after", "type": "string"}])
        put = dict(get, pattern_id=3 * k + 2, name="put", operation="PutItem",
                   parameters=[{"name": "e", "type": "entity", "entity_type": f"E{k}"}])
        return {"entity_type": f"E{k}", "pk_template": f"E{k}#{{id}}", "sk_template": "AT#{at}",
                "fields": [{"name": "id", "type": "string", "required": True},
                           {"name": "at", "type": "string", "required": True}],
                "access_patterns": [get, query, put]}
    config = {"table_name": "Hostile", "partition_key": "pk", "sort_key": "sk"}
    return json.dumps({"tables": [{"table_config": config,
                                   "entities": {f"E{k}": entity(k) for k in range(n)}}]})


def aws_items(n):
    """The AWS DynamoDB MCP server's dynamodb_data_model.json: n sample items of three shapes."""
    keys = [{"AttributeName": a, "KeyType": t} for a, t in (("PK", "HASH"), ("SK", "RANGE"))]
    table = {"TableName": "Hostile", "KeySchema": keys,
             "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"} for a in ("PK", "SK")]}
    sk = ["PROFILE", "ORDER#o%d", "ADDR#a%d"]
    items = [{"PutRequest": {"Item": {
        "PK": {"S": f"USER#{i}"}, "SK": {"S": sk[i % 3].replace("%d", str(i))},
        "user_id": {"S": str(i)}, "n": {"N": str(i)}, f"x{i % 50}": {"S": "v"}}}} for i in range(n)]
    return json.dumps({"tables": [table], "items": {"Hostile": items}, "access_patterns": []})


def workbench_nesting(n):
    return '{"DataModel": ' + "[" * n + "]" * n + "}"


# ---- cases ----------------------------------------------------------------------------------

MODELS = {
    "collide": collide, "collide-index": collide_index, "collide-native": collide_native,
    "large": large, "large-changed": large_changed, "writes": writes, "patterns": patterns,
    "unwritten": unwritten, "attributes": attributes, "indexes": indexes,
    "template": template, "nesting": nesting, "string": string, "prices": prices,
    "workbench-facets": lambda n: workbench(n),
    "workbench-distinct": lambda n: workbench(n, alias=False),
    "workbench-items": lambda n: workbench(3, items=n),
    "workbench-gsis": lambda n: workbench(3, gsis=n),
    "workbench-nesting": workbench_nesting,
    "aws-schema": aws_schema,
    "aws-items": aws_items,
}

EXPORTS = ["create-table", "cloudformation", "sam", "markdown", "nosql-workbench"]

# name: (input kind, argv after the binary with {in} and {in2} for the inputs, default sizes)
CASES = {
    "check-collide": ("collide", ["check", "{in}"], [250, 500, 1000, 2000]),
    "check-json-collide": ("collide", ["check", "--format", "json", "{in}"], [500, 2000]),
    "cost-collide": ("collide", ["cost", "{in}"], [500, 2000]),
    "diff-collide": ("collide", ["diff", "{in}", "{in}"], [250, 500, 1000, 2000]),
    "check-collide-index": ("collide-index", ["check", "{in}"], [250, 500, 1000, 2000]),
    "check-collide-native": ("collide-native", ["check", "{in}"], [250, 500, 1000, 2000]),
    "check-large": ("large", ["check", "{in}"], [1000, 10000, 20000]),
    "check-json-large": ("large", ["check", "--format", "json", "{in}"], [10000]),
    "cost-large": ("large", ["cost", "{in}"], [1000, 10000]),
    "cost-compare-large": ("large", ["cost", "{in}", "--compare", "{in}"], [1000, 10000]),
    **{f"export-{f}-large": ("large", ["export", "--format", f, "{in}"], [1000, 10000])
       for f in EXPORTS},
    "diff-large": ("large", ["diff", "{in}", "{in2}"], [1000, 5000, 10000]),
    "verify-large": ("large", ["verify", "{in}"], [100, 250, 500, 1000, 2000]),
    "verify-collide": ("collide", ["verify", "{in}"], [250, 500, 1000, 2000]),
    "verify-writes": ("writes", ["verify", "{in}"], [10, 100, 1000]),
    "check-patterns": ("patterns", ["check", "{in}"], [1000, 10000, 50000]),
    "verify-patterns": ("patterns", ["verify", "{in}"], [1000, 5000, 10000]),
    "check-unwritten": ("unwritten", ["check", "{in}"], [1000, 5000, 10000]),
    "check-attributes": ("attributes", ["check", "{in}"], [1000, 10000, 100000]),
    "verify-attributes": ("attributes", ["verify", "{in}"], [1000, 10000, 100000]),
    "check-indexes": ("indexes", ["check", "{in}"], [20, 100, 500, 1000]),
    "export-indexes": ("indexes", ["export", "--format", "cloudformation", "{in}"], [100, 1000]),
    "check-template": ("template", ["check", "{in}"], [50, 200, 1000]),
    "verify-template": ("template", ["verify", "{in}"], [50, 200, 1000]),
    "check-nesting": ("nesting", ["check", "{in}"], [100, 10000, 1000000]),
    "check-string": ("string", ["check", "{in}"], [10**6, 10**7, 10**8]),
    "cost-prices": ("prices", ["cost", "--prices", "{in}", "examples/shop/shop.toml"],
                    [10**6, 10**8]),
    "import-facets": ("workbench-facets", ["import", "--from", "nosql-workbench", "{in}"],
                      [1000, 5000, 20000]),
    "import-distinct": ("workbench-distinct", ["import", "--from", "nosql-workbench", "{in}"],
                        [1000, 20000]),
    "import-items": ("workbench-items", ["import", "--from", "nosql-workbench", "{in}"],
                     [10**5, 10**6]),
    "import-gsis": ("workbench-gsis", ["import", "--from", "nosql-workbench", "{in}"],
                    [100, 10000]),
    "import-nesting": ("workbench-nesting", ["import", "--from", "nosql-workbench", "{in}"],
                       [100, 100000]),
    "import-aws-schema": ("aws-schema", ["import", "--from", "aws-mcp", "{in}"], [1000, 3000]),
    "import-aws-items": ("aws-items", ["import", "--from", "aws-mcp", "{in}"],
                         [1000, 10000, 25000]),
    "import-aws-fifo": ("fifo", ["import", "--from", "aws-mcp", "{in}"], [0]),
    "check-zero": (None, ["check", "/dev/zero"], [0]),
    "check-fifo": ("fifo", ["check", "{in}"], [0]),
    "import-fifo": ("fifo", ["import", "--from", "nosql-workbench", "{in}"], [0]),
    "cost-prices-fifo": ("fifo", ["cost", "--prices", "{in}", "examples/shop/shop.toml"], [0]),
}

# The second input of a two-model case.
SECOND = {"large": large_changed}


def endless_writer(path, stop):
    """Feeds a FIFO forever (until the reader goes or `stop` is set)."""
    chunk = b"a" * 65536
    try:
        with open(path, "wb") as f:
            while not stop.is_set():
                f.write(chunk)
    except (BrokenPipeError, OSError):
        pass


def child_rss_kib(pid):
    """Resident KiB of the command `/usr/bin/time` (pid) runs, or 0."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            child = f.read().split()
        with open(f"/proc/{child[0]}/status") as f:
            return next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
    except (OSError, IndexError):
        return 0


def run(argv, timeout, max_rss_kib):
    """(seconds, peak RSS KiB, stdout+stderr bytes, status) of one run.

    The command runs under /usr/bin/time, whose own small process forks it: the kernel's peak
    RSS of a child counts what it inherited before exec, so forking from this (large) Python
    process would report Python's memory.
    """
    fd, report = tempfile.mkstemp(suffix=".time")
    os.close(fd)
    start = time.perf_counter()
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%x %M", "-o", report] + argv,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            start_new_session=True)
    counted = [0]

    def drain(stream):
        while True:
            data = stream.read(1 << 16)
            if not data:
                return
            counted[0] += len(data)

    readers = [threading.Thread(target=drain, args=(s,), daemon=True)
               for s in (proc.stdout, proc.stderr)]
    for r in readers:
        r.start()
    verdict, seen = [None], [0]

    def watch():
        while proc.poll() is None:
            if time.perf_counter() - start > timeout:
                verdict[0] = "timeout"
            rss = child_rss_kib(proc.pid)
            seen[0] = max(seen[0], rss)
            if rss > max_rss_kib:
                verdict[0] = "killed: RSS"
            if verdict[0]:
                os.killpg(proc.pid, 9)
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    proc.wait()
    seconds = time.perf_counter() - start
    watcher.join()
    for r in readers:
        r.join()
    with open(report) as f:
        fields = f.read().split()
    os.unlink(report)
    status, rss = (fields[-2], int(fields[-1])) if len(fields) >= 2 else ("?", seen[0])
    return seconds, max(rss, seen[0]), counted[0], verdict[0] or f"exit {status}"


def human_bytes(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return str(n)


def run_case(name, sizes, tmp, args):
    kind, template_argv, default_sizes = CASES[name]
    for size in sizes or default_sizes:
        inputs, stop, writer = {}, threading.Event(), None
        if kind == "fifo":
            path = os.path.join(tmp, f"{name}.fifo")
            if not os.path.exists(path):
                os.mkfifo(path)
            writer = threading.Thread(target=endless_writer, args=(path, stop), daemon=True)
            writer.start()
            inputs["in"], shown = path, "endless"
        elif kind is not None:
            path = os.path.join(tmp, f"{kind}-{size}")
            if not os.path.exists(path):
                with open(path, "w") as f:
                    f.write(MODELS[kind](size))
            inputs["in"], shown = path, human_bytes(os.path.getsize(path))
            if kind in SECOND:
                second = path + "-new"
                if not os.path.exists(second):
                    with open(second, "w") as f:
                        f.write(SECOND[kind](size))
                inputs["in2"] = second
        else:
            shown = "endless"
        argv = [args.bin] + [a.format(**inputs) for a in template_argv]
        seconds, rss, out, verdict = run(argv, args.timeout, args.max_rss * 1024)
        stop.set()
        if writer is not None:
            try:  # unblock a writer still waiting for a reader
                os.close(os.open(inputs["in"], os.O_RDONLY | os.O_NONBLOCK))
            except OSError:
                pass
        print(f"| {name} | {size:,} | {shown} | {seconds:.2f} s | {rss / 1024:.0f} MiB "
              f"| {human_bytes(out)} | {verdict} |", flush=True)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "gen":
        if len(sys.argv) != 5 or sys.argv[2] not in MODELS:
            sys.exit(f"usage: growth.py gen KIND N OUT; KIND one of {', '.join(MODELS)}")
        with open(sys.argv[4], "w") as f:
            f.write(MODELS[sys.argv[2]](int(sys.argv[3])))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=BIN)
    parser.add_argument("--cases", help=f"comma-separated, of: {', '.join(CASES)}")
    parser.add_argument("--sizes", help="comma-separated sizes instead of each case's own")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--max-rss", type=int, default=3072, help="MiB per run")
    parser.add_argument("--keep", help="generate the inputs into this directory and keep them")
    args = parser.parse_args()
    names = args.cases.split(",") if args.cases else list(CASES)
    unknown = [n for n in names if n not in CASES]
    if unknown:
        sys.exit(f"unknown case {', '.join(unknown)}; one of {', '.join(CASES)}")
    sizes = [int(s) for s in args.sizes.split(",")] if args.sizes else None
    print("| case | size | input | time | peak RSS | output | status |")
    print("|---|---:|---:|---:|---:|---:|---|")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        for name in names:
            run_case(name, sizes, args.keep, args)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            for name in names:
                run_case(name, sizes, tmp, args)


if __name__ == "__main__":
    main()

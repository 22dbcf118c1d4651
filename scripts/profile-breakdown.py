#!/usr/bin/env python3
"""Where an SDK call's time goes, or a request to the shop's serve: a profile summed into the parts
docs/benchmarks.md names. Each sample goes to the innermost frame that one of the specific rules
matches (so the engine's time inside our connector counts as the engine's, and an allocation
counts as the allocator's whoever asked for it); frames that none matches count as "the rest" of
the last rule's part, or as other.

    python3 scripts/profile-breakdown.py target/profile/get.folded [more.folded ...]
    python3 scripts/profile-breakdown.py --serve target/bench-compare/perf/ap1.perf.data

The SDK bench's profiles are folded stacks (inferno-collapse-perf output); serve's come from
`python3 scripts/bench-compare.py --perf DIR` as perf.data files, folded here by `perf script`.
"""
import subprocess
import sys

# (part, substrings of a frame), checked from the innermost frame outwards.
RULES = [
    ("engine: dynoxide and SQLite", ["dynoxide::Database::"]),
    ("our connector: request JSON in, response JSON out", ["monotable_connect::"]),
    ("SDK: request serialization", ["SerializeRequest>::serialize_input"]),
    ("SDK: response parsing", ["DeserializeResponse>::deserialize"]),
    ("SDK: endpoint resolution", ["orchestrate_endpoint", "apply_endpoint"]),
    ("SDK: identity and auth", ["orchestrate_auth", "resolve_cached_identity", "::auth::"]),
    ("SDK: interceptors", ["Interceptors<I>::"]),
    ("SDK: per-call configuration (runtime plugins)", ["apply_configuration"]),
    ("SDK: retry strategy", ["::retries::"]),
    ("SDK: building the input (fluent builder)", ["FluentBuilder"]),
    ("SDK: orchestrator, the rest", ["aws_smithy", "aws_sdk_dynamodb", "aws_runtime"]),
]
OTHER = "other: the bench loop, tokio, the kernel"

# serve answering the shop's REST API: the same SDK parts, and what surrounds the SDK call.
SERVE_RULES = [
    ("allocator: mimalloc", ["mi_malloc", "mi_free", "_mi_", "mi_heap", "mi_page", "mi_segment",
                             "mi_realloc", "mi_zalloc", "__rust_alloc", "__rust_dealloc",
                             "__rust_realloc"]),
    ("memcpy, memmove, memset (libc)", ["__memmove", "__memcpy", "__memset", "__memcmp"]),
    ("engine: dynoxide and SQLite", ["dynoxide::", "sqlite3", "rusqlite::"]),
    ("tracing", ["tracing_core::", "tracing_subscriber::", "tracing::"]),
    ("the JWT check", ["jsonwebtoken::", "monotable_shop::auth::", "ring::", "aws_lc",
                       "base64::", "sha2::", "hmac::"]),
] + RULES[1:-1] + [
    ("SDK: orchestrator, the rest", ["aws_smithy", "aws_sdk_dynamodb", "aws_runtime"]),
    ("route code and response JSON", ["monotable_shop::", "monotable_access::",
                                      "axum::json::", "monotable_connect::serve::guard"]),
    ("HTTP stack: hyper, axum, tower", ["hyper::", "hyper_util::", "axum::", "tower::",
                                       "tower_http::", "httparse::", "http::", "matchit::"]),
    ("tokio: scheduling, wake-ups, I/O driver", ["tokio::"]),
    ("kernel: sockets, syscalls, scheduler", ["[kernel.kallsyms]", "entry_SYSCALL", "do_syscall",
                                              "__x64_sys", "syscall_exit", "__schedule"]),
]
SERVE_OTHER = "other (unresolved frames, libc)"


def part(frames, rules, other):
    # The last rule is the generic one only for the SDK bench; serve's rules are all specific.
    specific, generic = (rules[:-1], rules[-1]) if rules is RULES else (rules, None)
    for frame in reversed(frames):
        for name, needles in specific:
            if any(n in frame for n in needles):
                return name
    if generic and any(n in frame for frame in frames for n in generic[1]):
        return generic[0]
    return other


def fold(perf_data):
    """perf.data as folded stacks, root first: {stack: samples}."""
    script = subprocess.run(["perf", "script", "-i", perf_data, "-F", "ip,sym,dso"],
                            capture_output=True, text=True, check=True).stdout
    stacks, frames = {}, []
    for line in script.splitlines() + [""]:
        line = line.strip()
        if not line:
            if frames:
                key = ";".join(reversed(frames))
                stacks[key] = stacks.get(key, 0) + 1
            frames = []
            continue
        _, _, rest = line.partition(" ")
        frames.append(rest or line)
    return stacks


def folded(path):
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            yield stack, int(count)


def main(argv):
    serve = "--serve" in argv
    paths = [a for a in argv if a != "--serve"]
    rules, other = (SERVE_RULES, SERVE_OTHER) if serve else (RULES, OTHER)
    for path in paths:
        totals, whole = {}, 0
        pairs = fold(path).items() if path.endswith(".data") else folded(path)
        for stack, n in pairs:
            whole += n
            name = part(stack.split(";"), rules, other)
            totals[name] = totals.get(name, 0) + n
        print(f"\n{path}: {whole} samples\n")
        print("| part | share |")
        print("|---|---:|")
        for name, _ in rules + [(other, None)]:
            if name in totals:
                print(f"| {name} | {100 * totals[name] / whole:.1f} % |")


if __name__ == "__main__":
    main(sys.argv[1:])

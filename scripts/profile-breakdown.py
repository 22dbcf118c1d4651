"""Where an SDK call's time goes: a folded `perf` profile (inferno-collapse-perf output) summed
into the parts docs/benchmarks.md names. Each sample goes to the innermost frame that one of the
specific rules below matches (so the engine's time inside our connector counts as the engine's);
SDK frames that none matches count as "the rest" of the orchestrator.

    python3 scripts/profile-breakdown.py target/profile/get.folded [more.folded ...]
"""
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


def part(frames):
    specific, (rest, generic) = RULES[:-1], RULES[-1]
    for frame in reversed(frames):
        for name, needles in specific:
            if any(n in frame for n in needles):
                return name
    if any(n in frame for frame in frames for n in generic):
        return rest
    return OTHER


def main(paths):
    for path in paths:
        totals, whole = {}, 0
        with open(path) as f:
            for line in f:
                stack, _, count = line.rstrip("\n").rpartition(" ")
                n = int(count)
                whole += n
                name = part(stack.split(";"))
                totals[name] = totals.get(name, 0) + n
        print(f"\n{path}\n")
        print("| part | share |")
        print("|---|---:|")
        for name, _ in RULES + [(OTHER, None)]:
            if name in totals:
                print(f"| {name} | {100 * totals[name] / whole:.1f} % |")


if __name__ == "__main__":
    main(sys.argv[1:])

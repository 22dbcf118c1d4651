#!/usr/bin/env python3
"""No module cycles: in each crate of the workspace, the top-level modules' `crate::` paths
point one way.

A file of top-level module A (`src/a.rs`, or anything under `src/a/`) that names `crate::b`
(in a `use`, a path or a `use crate::{b, ...}` group) makes A depend on B. The script fails,
naming each cycle and the lines that close it, when that graph has one. Comments, string
literals and test code (from a file's first `#[cfg(test)]` on, and `tests.rs` files) are left
out: a test may reach anywhere. The cycles in KNOWN are tolerated until they are removed. Submodules of one top-level module are not compared with each
other (a parent and its children name each other through `super::` by design).

    python3 scripts/module-cycles.py              # the workspace's crates/*
    python3 scripts/module-cycles.py --self-test  # planted cycles are found, others are not
"""

import re
import sys
import tempfile
from pathlib import Path

# Cycles tolerated until they are removed, each with the modules in it (none today): the script
# fails on any other cycle, on one of these that grows, and on one that is gone.
KNOWN = set()

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def code_only(text):
    """`text` with comments and the contents of string and char literals blanked (lines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (i and (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = len(re.match(r"r(#*)", text[i:]).group(1))
            end = text.find('"' + "#" * hashes, i + 2 + hashes)
            end = n if end < 0 else end + 1 + hashes
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'" and re.match(r"'(\\.[^']*|[^\\'])'", text[i:]):
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            out.append("' '")
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def production(text):
    """The part of a file before its test module."""
    code = code_only(text)
    at = code.find("#[cfg(test)]")
    return code if at < 0 else code[:at]


def group_heads(code, start):
    """The first identifier of each entry of the `{...}` group opening at `start`."""
    heads, depth, expect = [], 0, True
    i = start
    while i < len(code):
        c = code[i]
        if c == "{":
            depth += 1
            expect = depth == 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                break
        elif c == "," and depth == 1:
            expect = True
        elif expect and depth == 1:
            m = IDENT.match(code, i)
            if m:
                heads.append(m.group(0))
                expect = False
                i = m.end()
                continue
        i += 1
    return heads


def references(code):
    """(line, module) for each `crate::module` and `crate::{module, ...}` in `code`."""
    for m in re.finditer(r"(?<![\w$])crate::", code):
        line = code.count("\n", 0, m.start()) + 1
        rest = m.end()
        if code.startswith("{", rest):
            for head in group_heads(code, rest):
                yield line, head
        else:
            ident = IDENT.match(code, rest)
            if ident:
                yield line, ident.group(0)


def top_module(src, path):
    rel = path.relative_to(src)
    if len(rel.parts) == 1:
        name = rel.stem
        return None if name in ("lib", "main") else name
    return rel.parts[0]


def crate_graph(src):
    """Edges between a crate's top-level modules: {a: {b: [(file, line)]}}."""
    files = [p for p in sorted(src.rglob("*.rs")) if p.name != "tests.rs" and "tests" not in p.relative_to(src).parts[:-1]]
    modules = {m for m in (top_module(src, p) for p in files) if m}
    graph = {m: {} for m in modules}
    for path in files:
        a = top_module(src, path)
        if a is None:
            continue
        for line, b in references(production(path.read_text(encoding="utf-8"))):
            if b in modules and b != a:
                graph[a].setdefault(b, []).append((path, line))
    return graph


def cycles(graph):
    """One cycle per strongly connected component of more than one module (Tarjan)."""
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    found = []
    for comp in comps:
        start = comp[0]
        # A shortest way back to `start` inside the component (breadth first).
        prev, queue = {start: None}, [start]
        for v in queue:
            for w in sorted(graph[v]):
                if w in comp and w not in prev:
                    prev[w] = v
                    queue.append(w)
        closing = next(v for v in queue if start in graph[v])
        path = [closing]
        while prev[path[-1]] is not None:
            path.append(prev[path[-1]])
        path.reverse()
        found.append((comp, path + [start]))
    return found


def report(root, known=frozenset()):
    problems, seen = [], set()
    for src in sorted(root.glob("crates/*/src")):
        graph = crate_graph(src)
        for comp, cycle in cycles(graph):
            crate = src.parent.relative_to(root)
            if (str(crate), tuple(comp)) in known:
                seen.add((str(crate), tuple(comp)))
                continue
            lines = [f"{crate}: module cycle {' -> '.join(cycle)} (modules in cycles: {', '.join(comp)})"]
            for a, b in zip(cycle, cycle[1:]):
                path, line = graph[a][b][0]
                lines.append(f"  {path.relative_to(root)}:{line}: `{a}` names `crate::{b}`")
            problems.append("\n".join(lines))
    for crate, comp in sorted(known - seen):
        problems.append(f"{crate}: the known cycle of {', '.join(comp)} is gone or changed: update KNOWN")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        src = root / "crates" / "planted" / "src"
        (src / "c").mkdir(parents=True)
        (src / "lib.rs").write_text("mod a;\nmod b;\nmod c;\nmod d;\n")
        (src / "a.rs").write_text("use crate::{b::Thing, d};\n")
        (src / "b.rs").write_text("// crate::d in a comment\nfn f() { crate::c::g(); }\n")
        (src / "c" / "mod.rs").write_text("mod inner;\n")
        (src / "c" / "inner.rs").write_text("use crate::a::X;\n")
        (src / "d.rs").write_text('const S: &str = "crate::a";\n#[cfg(test)]\nmod tests { use crate::a; }\n')
        problems = report(root)
        assert len(problems) == 1, problems
        assert "module cycle a -> b -> c -> a" in problems[0], problems[0]
        assert "c/inner.rs:1" in problems[0], problems[0]
        assert "(modules in cycles: a, b, c)" in problems[0], problems[0]
        (src / "c" / "inner.rs").write_text("fn g() {}\n")
        assert report(root) == [], report(root)
        gone = report(root, frozenset({("crates/planted", ("a", "b"))}))
        assert gone == ["crates/planted: the known cycle of a, b is gone or changed: update KNOWN"], gone
    print("module-cycles: self-test passed")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return 0
    root = Path(__file__).resolve().parent.parent
    problems = report(root, KNOWN)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print("module-cycles: move what both sides share into a module both depend on", file=sys.stderr)
        return 1
    print("module-cycles: no module cycles" + (f" but the {len(KNOWN)} known ones" if KNOWN else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Browser tests of `monotable ui` and of `monotable-shop serve`'s /ui, in Debian's Chromium
through Playwright.

Run by crates/cli/tests/it/ui_browser.rs (so by the README's test command), which passes the
`monotable` binary (the tool) and the `monotable-shop` binary (the shop's program):

    python3 scripts/ui-browser-test.py --bin target/debug/monotable \
        --shop-bin target/debug/monotable-shop [--screenshots DIR]

It starts the programs itself on free loopback ports and checks, in a real headless browser:
  1. the shop's model opens;
  2. the GSI2 view shows orders under STATUS#... and published products under PUBLISHED, and no
     unpublished product;
  3. choosing getOrderWithItems outlines exactly the order and its items;
  4. saving a model whose pattern breaks shows the diagnostic without a page reload, and fixing
     it brings the model back;
  5. listUserOrders runs against a shop's `serve` loaded with `load-sample`, and pages twice;
  6. errors get a clear message on the page: an unknown route, a malformed parameter, a backend
     that is down;
  7. the page's own SHA-256/HMAC give the published digests; a page of another origin cannot
     frame the ui; behind `serve --auth` the table view asks for the key and secret, refuses
     unsigned and wrongly signed requests and pages through the table once signed.
Screenshots of the model view and the table view go to --screenshots (docs/img when the
screenshots in the docs are being refreshed).
"""

import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("MONOTABLE_CHROMIUM", "/usr/bin/chromium")
TIMEOUT_MS = 20_000


class Proc:
    """A monotable process whose first lines of output name its URLs."""

    def __init__(self, args, cwd, wait_for):
        self.p = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines = []
        deadline = time.time() + 120
        while time.time() < deadline:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit(f"{args[1]} stopped early:\n" + "".join(self.lines))
            self.lines.append(line)
            if wait_for in line:
                return
        raise SystemExit(f"{args[1]} did not get ready:\n" + "".join(self.lines))

    def url(self, label):
        for line in self.lines:
            m = re.search(label + r"\s+(http://[0-9.:]+)", line)
            if m:
                return m.group(1)
        raise SystemExit(f"no {label} URL in:\n" + "".join(self.lines))

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.p.kill()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok  ", message)


def model_view(page, base, model_file, shots):
    page.goto(base + "/")
    expect(page.locator("#title")).to_have_text("monotable ui: Shop", timeout=TIMEOUT_MS)
    expect(page.locator("#patterns li")).not_to_have_count(0)
    check(page.locator(".item").count() > 0, "the shop's model opens with its table's item collections")

    # Unpublished products exist in the table view, so the check below can fail.
    drafts = page.eval_on_selector_all(
        ".item[data-entity=Product]", "els => els.filter(e => e.textContent.includes('published=false')).map(e => e.dataset.id)")
    check(len(drafts) > 0, f"the sample data holds unpublished products ({len(drafts)})")

    page.select_option("#index", "GSI2")
    expect(page.locator(".group[data-pk=PUBLISHED]")).to_have_count(1, timeout=TIMEOUT_MS)
    groups = page.eval_on_selector_all(
        ".group", "gs => gs.map(g => ({pk: g.dataset.pk, items: [...g.querySelectorAll('.item')].map(i => ({id: i.dataset.id, entity: i.dataset.entity}))}))")
    status = [g for g in groups if g["pk"].startswith("STATUS#")]
    check(len(status) > 0 and all(i["entity"] == "Order" for g in status for i in g["items"]),
          f"GSI2 shows orders under STATUS#... ({len(status)} collections)")
    published = [g for g in groups if g["pk"] == "PUBLISHED"][0]["items"]
    check(len(published) > 0 and all(i["entity"] == "Product" for i in published),
          f"GSI2 shows published products under PUBLISHED ({len(published)})")
    shown = {i["id"] for g in groups for i in g["items"]}
    check(not shown & set(drafts), "GSI2 shows no unpublished product")
    check({g["pk"] for g in groups} <= {g["pk"] for g in status} | {"PUBLISHED"}, "GSI2 holds nothing else")

    page.click("#patterns li[data-name=getOrderWithItems]")
    expect(page.locator("#hit-count")).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#index")).to_have_value("table")
    rendered = page.locator("#pattern code").nth(1).inner_text()
    pk = re.search(r'PK = "([^"]+)"', rendered).group(1)
    hits = page.eval_on_selector_all(".item.hit", "els => els.map(e => e.dataset.id)")
    collection = page.eval_on_selector_all(
        f'.group[data-pk="{pk}"] .item', "els => els.map(e => e.dataset.id)")
    entities = set(page.eval_on_selector_all(".item.hit", "els => els.map(e => e.dataset.entity)"))
    check(len(collection) > 1 and sorted(hits) == sorted(collection),
          f"getOrderWithItems outlines exactly {pk}'s {len(collection)} items")
    check(entities == {"Order", "OrderItem"}, "... which are the order and its items")
    if shots:
        page.set_viewport_size({"width": 1400, "height": 900})
        page.locator(f'.group[data-pk="{pk}"]').evaluate("g => g.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(shots / "ui-model.png"))

    # Break a pattern in the file: the diagnostic shows up without a reload.
    page.evaluate("window.__notReloaded = true")
    text = model_file.read_text()
    broken = text.replace('key = { PK = "ORDER#{orderId}" }', 'key = { PK = "ORDER#{orderIdx}" }', 1)
    check(broken != text, "the edit changes the model")
    model_file.write_text(broken)
    expect(page.locator("#diagnostics")).to_contain_text("orderIdx", timeout=TIMEOUT_MS)
    expect(page.locator("#diagnostics")).to_contain_text("MT000")
    expect(page.locator("#banner")).to_contain_text("not a valid model")
    check(page.evaluate("window.__notReloaded === true"), "the broken pattern's diagnostic appears without a reload")
    model_file.write_text(text)
    expect(page.locator("#banner")).to_be_hidden(timeout=TIMEOUT_MS)
    expect(page.locator("#layout")).to_be_visible()
    check(page.evaluate("window.__notReloaded === true"), "fixing it brings the model back, still without a reload")

    page.goto(base + "/no/such/page")
    expect(page.locator("#error")).to_contain_text("no page /no/such/page")
    check(True, "an unknown route gets a page that says so")


def table_view(page, api, shots):
    # The user with the most orders, from the table view's own scan.
    counts, cursor = {}, None
    while True:
        doc = get_json(api + "/ui/api/live/scan?limit=1000" + (f"&cursor={cursor}" if cursor else ""))
        for it in doc["items"]:
            if it["entity"] == "Order":
                user = it["item"]["userId"]["S"]
                counts[user] = counts.get(user, 0) + 1
        cursor = doc["cursor"]
        if not cursor:
            break
    user, orders = max(counts.items(), key=lambda kv: kv[1])
    check(orders >= 11, f"load-sample gave user {user} {orders} orders (three pages of 5)")

    page.goto(api + "/ui/#table")
    expect(page.locator("#live-backend")).to_contain_text("Table Shop", timeout=TIMEOUT_MS)
    expect(page.locator("#live-pattern option[value=listUserOrders]")).to_have_count(1, timeout=TIMEOUT_MS)
    page.select_option("#live-pattern", "listUserOrders")
    page.fill("#live-params input[name=userId]", user)
    page.fill("#live-limit", "5")
    seen, pages = [], []
    page.click("#live-run")
    for n in (1, 2, 3):
        expect(page.locator("#live-status")).to_contain_text(f"page {n} ", timeout=TIMEOUT_MS)
        rows = page.eval_on_selector_all("#live-rows tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
        pages.append(rows)
        check(len(rows) == 5 and all(r[1] == "Order" and r[4] == "match" for r in rows),
              f"listUserOrders page {n}: 5 orders whose keys match the model")
        seen += [r[2] for r in rows]
        if n == 1 and shots:
            page.screenshot(path=str(shots / "ui-table.png"))
        if n < 3:
            page.click("#live-next")
    check(len(set(seen)) == 15, "paging twice with the cursor gives 15 different orders")
    check(json.loads(page.locator("#live-item").inner_text().split("\n\n", 1)[1])["userId"]["S"] == user,
          "an item opens as JSON, with its entity type")

    page.select_option("#live-pattern", "listOrdersByStatus")
    page.fill("#live-params input[name=status]", "PENDING")
    page.fill("#live-params input[name=shard]", "two")
    page.click("#live-run")
    expect(page.locator("#banner")).to_contain_text("`two` is not a valid integer", timeout=TIMEOUT_MS)
    check(True, "a malformed parameter gets a clear message")


def framing(page, base, work):
    """A page of another origin frames the ui (the clickjacking set-up): the browser must refuse
    to draw it (frame-ancestors 'none', X-Frame-Options: DENY)."""
    import http.server
    import threading
    foreign = work / "foreign"
    foreign.mkdir()
    (foreign / "index.html").write_text(
        f'<!doctype html><title>foreign</title><iframe id="f" src="{base}/#table" '
        'style="opacity:0.01;width:900px;height:600px"></iframe>')
    handler = lambda *a, **kw: http.server.SimpleHTTPRequestHandler(*a, directory=str(foreign), **kw)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
        page.wait_for_load_state("load")
        time.sleep(1)
        framed = [f for f in page.frames if f != page.main_frame]
        check(len(framed) == 1, "the foreign page holds one frame")
        drawn = framed[0].evaluate("() => !!document.getElementById('tab-table')") if not framed[0].url.startswith("chrome-error") else False
        check(not drawn, f"the browser refuses to draw the ui inside a foreign page (frame at {framed[0].url[:40]})")
    finally:
        server.shutdown()


def signing(page, base):
    """The page's own SHA-256 and HMAC (it signs with them) against published test vectors."""
    page.goto(base + "/")
    expect(page.locator("#title")).to_have_text("monotable ui: Shop", timeout=TIMEOUT_MS)
    vectors = page.evaluate("""() => ({
        abc: hex(sha256(utf8("abc"))),
        empty: hex(sha256(utf8(""))),
        long: hex(sha256(utf8("a".repeat(1000)))),
        rfc4231: hex(hmac(utf8("Jefe"), utf8("what do ya want for nothing?"))),
        longkey: hex(hmac(new Uint8Array(131).fill(0xaa), utf8("Test Using Larger Than Block-Size Key - Hash Key First"))),
    })""")
    check(vectors == {
        "abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "empty": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "long": "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3",
        "rfc4231": "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        "longkey": "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    }, f"the page's SHA-256 and HMAC-SHA-256 give the published digests: {vectors}")


def signed_table_view(page, shop_bin, work):
    """serve --auth: the table view asks for the endpoint's key and secret; unsigned and wrongly
    signed requests get nothing; signed ones page through the table."""
    serve = Proc([shop_bin, "serve", "--in-memory", "--dynamodb-port", "0", "--api-port", "0",
                  "--auth", "local:s3cr3t-s3cr3t"], work, "ready in")
    try:
        dynamodb, api = serve.url("dynamodb"), serve.url("shop")
        subprocess.run([shop_bin, "load-sample", "--endpoint", dynamodb, "--users", "3", "--products", "5",
                        "--orders", "20", "--quiet"], cwd=work, check=True, env={**os.environ,
                        "AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "s3cr3t-s3cr3t",
                        "AWS_REGION": "us-east-1"})
        try:
            get_json(api + "/ui/api/live/scan")
            check(False, "an unsigned scan is refused")
        except urllib.error.HTTPError as e:
            body = json.load(e)
            check(e.code == 401 and body["error"] == "credentials_required" and "items" not in body,
                  "an unsigned request for the table gets 401 and no item")
        page.goto(api + "/ui/#table")
        expect(page.locator("#live-auth")).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.locator("#auth-key")).to_have_value("local")
        check(True, "the table view asks for the --auth key and secret")
        page.fill("#auth-secret", "wrong-secret-entirely")
        page.click("#auth-save")
        page.select_option("#live-pattern", "")
        page.click("#live-run")
        expect(page.locator("#banner")).to_contain_text("signature", timeout=TIMEOUT_MS)
        expect(page.locator("#live-auth")).to_be_visible()
        check(page.locator("#live-rows tr").count() == 0, "a wrong secret reads nothing and asks again")
        page.fill("#auth-secret", "s3cr3t-s3cr3t")
        page.click("#auth-save")
        page.fill("#live-limit", "4")
        page.click("#live-run")
        expect(page.locator("#live-status")).to_contain_text("page 1 ", timeout=TIMEOUT_MS)
        check(page.locator("#live-rows tr").count() == 4, "signed with the secret, the scan pages through the table")
        page.click("#live-next")
        expect(page.locator("#live-status")).to_contain_text("page 2 ", timeout=TIMEOUT_MS)
        check(True, "... and the next page's signed cursor request passes too")
        stored = page.evaluate("() => sessionStorage.getItem('monotable-ui-sigv4') || ''")
        check("s3cr3t-s3cr3t" in stored and page.evaluate("() => localStorage.length") == 0,
              "the secret is kept in this tab's session only")
    finally:
        serve.stop()


def backend_down(page, bin, work):
    dead = free_port()
    ui = Proc([bin, "ui", "shop.toml", "--port", "0", "--endpoint", f"http://127.0.0.1:{dead}"], work, "monotable ui:")
    try:
        base = re.search(r"at (http://[0-9.:]+)/", ui.lines[-1]).group(1)
        page.goto(base + "/#table")
        expect(page.locator("#live-pattern option[value=getOrderWithItems]")).to_have_count(1, timeout=TIMEOUT_MS)
        page.select_option("#live-pattern", "getOrderWithItems")
        page.fill("#live-params input[name=orderId]", "o1")
        page.click("#live-run")
        expect(page.locator("#banner")).to_contain_text("cannot reach the backend", timeout=60_000)
        check(True, "a backend that is down gets a clear message")
    finally:
        ui.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="the monotable binary (the tool)")
    ap.add_argument("--shop-bin", required=True, help="the monotable-shop binary (the shop)")
    ap.add_argument("--screenshots")
    args = ap.parse_args()
    bin = str(Path(args.bin).resolve())
    shop_bin = str(Path(args.shop_bin).resolve())
    shots = Path(args.screenshots).resolve() if args.screenshots else None
    if shots:
        shots.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="monotable-ui-"))
    model_file = work / "shop.toml"
    shutil.copy(ROOT / "examples" / "shop" / "shop.toml", model_file)
    procs = []
    try:
        ui = Proc([bin, "ui", "shop.toml", "--port", "0", "--in-memory"], work, "monotable ui:")
        procs.append(ui)
        base = re.search(r"at (http://[0-9.:]+)/", ui.lines[-1]).group(1)
        serve = Proc([shop_bin, "serve", "--in-memory", "--dynamodb-port", "0", "--api-port", "0"], work,
                     "ready in")
        procs.append(serve)
        dynamodb, api = serve.url("dynamodb"), serve.url("shop")
        subprocess.run([shop_bin, "load-sample", "--endpoint", dynamodb, "--users", "20", "--products", "30",
                        "--orders", "300", "--quiet"], cwd=work, check=True, env={**os.environ,
                        "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x", "AWS_REGION": "us-east-1"})
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.set_default_timeout(TIMEOUT_MS)
            model_view(page, base, model_file, shots)
            table_view(page, api, shots)
            backend_down(page, bin, work)
            signing(page, base)
            framing(page, base, work)
            signed_table_view(page, shop_bin, work)
            browser.close()
    finally:
        for proc in procs:
            proc.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("all browser checks passed")


if __name__ == "__main__":
    main()

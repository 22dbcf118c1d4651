"""The wrk side: the Lua scripts (shop and engine-alone requests with random keys, order
creation both ways) and run_wrk, which runs one and reads its BENCH_JSON line."""
import json
import os
import re
import subprocess

from .common import ROOT, order_shards


# ---------------------------------------------------------------------------------------------
# wrk: one Lua script per case and side.

LUA_COMMON = r"""
local nthreads = 0
function setup(thread)
  thread:set("tid", nthreads)
  nthreads = nthreads + 1
end

local function lines(path)
  local t = {}
  for line in io.lines(path) do t[#t + 1] = line end
  return t
end

local function split(line)
  local t = {}
  for field in string.gmatch(line, "[^\t]+") do t[#t + 1] = field end
  return t
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,' ..
    '"timeout":%d,"p50_us":%d,"p99_us":%d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
"""


def rel(path):
    """`path` relative to the checkout, where wrk runs."""
    return os.path.relpath(path, ROOT)


def lua_str(text):
    return "[==[" + text + "]==]"


def lua_headers(headers):
    return "\n".join(f"wrk.headers[ {lua_str(k)} ] = {lua_str(v)}" for k, v in headers.items())


def lua_list(parts):
    return "{" + ", ".join(lua_str(x) for x in parts) + "}"


def lua_read(keys_path, method, path, body, headers):
    """A request per call: `path` and `body` with every @K@ replaced by a random line of keys_path."""
    body_parts = lua_list(body.split("@K@")) if body else "nil"
    return LUA_COMMON + f"""
{lua_headers(headers)}
local keys, n
local path_parts, body_parts = {lua_list(path.split("@K@"))}, {body_parts}
function init(args)
  math.randomseed(4242 + 7919 * (tid or 0))
  keys = lines({lua_str(rel(keys_path))})
  n = #keys
end
function request()
  local k = keys[math.random(n)]
  local body = nil
  if body_parts then body = table.concat(body_parts, k) end
  return wrk.format({lua_str(method)}, table.concat(path_parts, k), nil, body)
end
"""


def lua_fan_out(keys_path, body, shards, headers):
    """A page read across `shards` write shards: per page a random line of keys_path, then one
    POST per shard 0..shards-1, `body` with @K@ the key and @S@ the shard. A page is `shards`
    requests (run_wrk divides by them); the connections send a page's requests concurrently, as
    the shop reads its shards."""
    return LUA_COMMON + f"""
{lua_headers(headers)}
local keys, n, k
local shard, shards = 0, {shards}
local parts = {lua_list(body.split("@K@"))}
function init(args)
  math.randomseed(4245 + 7919 * (tid or 0))
  keys = lines({lua_str(rel(keys_path))})
  n = #keys
end
function request()
  if shard == 0 then k = keys[math.random(n)] end
  local body = string.gsub(table.concat(parts, k), "@S@", tostring(shard))
  shard = (shard + 1) % shards
  return wrk.format("POST", "/", nil, body)
end
"""


def lua_shop_order(users_path, products_path):
    """POST /users/{id}/orders as that user, 1 to 5 distinct products, quantity 1 to 4."""
    return LUA_COMMON + f"""
local users, products, nu, np
local hdr = {{["Content-Type"] = "application/json"}}
function init(args)
  math.randomseed(4243 + 7919 * (tid or 0))
  users, products = {{}}, lines({lua_str(rel(products_path))})
  for _, line in ipairs(lines({lua_str(rel(users_path))})) do users[#users + 1] = split(line) end
  nu, np = #users, #products
end
function request()
  local u = users[math.random(nu)]
  local want, chosen, parts = math.random(5), {{}}, {{}}
  while #parts < want do
    local p = products[math.random(np)]
    if not chosen[p] then
      chosen[p] = true
      parts[#parts + 1] = '{{"productId":"' .. p .. '","quantity":' .. math.random(4) .. '}}'
    end
  end
  hdr["Authorization"] = "Bearer " .. u[2]
  return wrk.format("POST", "/users/" .. u[1] .. "/orders", hdr,
                    '{{"items":[' .. table.concat(parts, ",") .. ']}}')
end
"""


def lua_engine_order(users_path, products_path, headers, order_put, line_put, check, nonce):
    """TransactWriteItems shaped as the shop's order transaction: the order (attribute_not_exists),
    its lines, and a condition check per product (exists, published, price unchanged)."""
    return LUA_COMMON + f"""
{lua_headers(headers)}
local users, products, nu, np
local order_put, line_put, check = {lua_str(order_put)}, {lua_str(line_put)}, {lua_str(check)}
local counter, started = 0, 0
function init(args)
  math.randomseed(4244 + 7919 * (tid or 0))
  started = os.time()
  users, products = lines({lua_str(rel(users_path))}), {{}}
  for _, line in ipairs(lines({lua_str(rel(products_path))})) do
    products[#products + 1] = split(line)
  end
  nu, np = #users, #products
end
function request()
  counter = counter + 1
  -- A fresh id each request, also across wrk runs (the warm-up's ids are taken): ULID-shaped.
  local oid = string.format("01%s%09d%02d%010d", {lua_str(nonce)}, started % 1000000000,
                            tid or 0, counter)
  local now = os.date("!%Y-%m-%dT%H:%M:%S.000Z")
  local want, chosen, puts, checks, total = math.random(5), {{}}, {{}}, {{}}, 0
  while #puts < want do
    local p = products[math.random(np)]
    if not chosen[p[1]] then
      chosen[p[1]] = true
      local q = math.random(4)
      local line_total = tonumber(p[2]) * q
      total = total + line_total
      local n = #puts + 1
      puts[n] = string.gsub(line_put, "@(%u+)@", {{OID = oid, LINE = string.format("%03d", n),
        N = tostring(n), PID = p[1], PNAME = p[3], QTY = tostring(q), PRICE = p[2],
        LTOTAL = string.format("%.2f", line_total), DAY = string.sub(now, 1, 10)}})
      checks[n] = string.gsub(check, "@(%u+)@", {{PID = p[1], PRICE = p[2]}})
    end
  end
  local order = string.gsub(order_put, "@(%u+)@", {{OID = oid, UID = users[math.random(nu)],
    SHARD = tostring(math.random(0, {order_shards() - 1})), NOW = now, DAY = string.sub(now, 1, 10),
    TOTAL = string.format("%.2f", total), COUNT = tostring(want)}})
  local body = '{{"TransactItems":[' .. order .. "," .. table.concat(puts, ",") .. "," ..
               table.concat(checks, ",") .. "]}}"
  return wrk.format("POST", "/", nil, body)
end
"""


def lua_bare_404():
    """A GET of a path that matches no route: the server's own ceiling (no token, no engine)."""
    return LUA_COMMON + """
function request()
  return wrk.format("GET", "/bench-compare-no-such-route")
end
"""


def run_wrk(url, script_path, args, seconds, per_unit=1, serve=None):
    """wrk with `script_path`; req_s counts units of `per_unit` requests (a fanned-out page).
    With `serve`, also serve's CPU time per unit (cpu_us): what one request costs the server,
    whatever else the machine runs."""
    cpu_before = serve.cpu_seconds() if serve else None
    cmd = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s", "--timeout", "10s",
           "-s", rel(script_path), url]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 120, cwd=ROOT)
    match = re.search(r"^BENCH_JSON (\{.*\})$", done.stdout, re.M)
    if done.returncode != 0 or not match:
        raise RuntimeError(f"wrk failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    r = json.loads(match.group(1))
    r["http_requests_s"] = r["requests"] / (r["duration_us"] / 1e6)
    r["per_unit"] = per_unit
    r["req_s"] = r["http_requests_s"] / per_unit
    cpu_after = serve.cpu_seconds() if serve else None
    units = r["requests"] / per_unit
    r["cpu_us"] = ((cpu_after - cpu_before) * 1e6 / units
                   if cpu_before is not None and cpu_after is not None and units else None)
    r["socket_errors"] = r["connect"] + r["read"] + r["write"] + r["timeout"]
    return r

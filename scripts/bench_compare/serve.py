"""One `monotable-shop serve --in-memory`, the JWTs its shop accepts, and raw DynamoDB JSON
requests with SigV4 material; http() sends one request."""
import base64
import datetime
import hashlib
import hmac
import json
import os
import re
import subprocess
import time
import urllib.error
import urllib.request

from .common import REGION
from .wrk import rel


# ---------------------------------------------------------------------------------------------
# serve


class Serve:
    """One `monotable-shop serve --in-memory` on ports the OS picks; stopped by stop() or at exit."""

    def __init__(self, binary, out, secret, no_consumers=False):
        self.log_path = out / "serve.log"
        self.log = open(self.log_path, "w")
        env = dict(os.environ, MONOTABLE_JWT_SECRET=secret)
        self.proc = subprocess.Popen(
            [str(binary), "serve", "--in-memory", "--dynamodb-port", "0", "--api-port", "0"]
            + (["--no-consumers"] if no_consumers else []),
            stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
            start_new_session=True)
        deadline = time.monotonic() + 30
        text = ""
        while time.monotonic() < deadline:
            text = self.log_path.read_text()
            if "ready in" in text:
                break
            if self.proc.poll() is not None:
                raise RuntimeError(f"serve exited with {self.proc.returncode}:\n{text}")
            time.sleep(0.02)
        else:
            raise RuntimeError(f"serve did not say 'ready' within 30 s:\n{text}")
        self.dynamodb = re.search(r"^\s*dynamodb\s+(http://\S+)", text, re.M).group(1)
        self.api = re.search(r"^\s*shop\s+(http://\S+)", text, re.M).group(1)
        self.banner = text.strip()

    def check_alive(self):
        if self.proc.poll() is not None:
            raise RuntimeError(f"serve died (exit {self.proc.returncode}); see {rel(self.log_path)}")

    def rss_mib(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return None

    def cpu_seconds(self):
        """serve's CPU time so far, user and system, all threads (None off Linux)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rpartition(")")[2].split()
        except OSError:
            return None
        # utime and stime, fields 14 and 15 of proc(5), in clock ticks.
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()


# ---------------------------------------------------------------------------------------------
# Tokens: HS256 JWTs signed with the secret serve was given (docs/serve.md, "Tokens").


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt(secret, sub, admin=False, ttl=6 * 3600):
    now = int(time.time())
    header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    claims = {"sub": sub, "iat": now, "exp": now + ttl}
    if admin:
        claims["groups"] = ["admin"]
    payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
    signing_input = f"{header}.{payload}".encode()
    signature = b64url(hmac.new(secret.encode(), signing_input, hashlib.sha256).digest())
    return f"{header}.{payload}.{signature}"


# ---------------------------------------------------------------------------------------------
# Raw DynamoDB JSON requests with SigV4 *material* (serve checks it is complete, not that the
# signature is right, unless started with --auth: docs/serve.md).


def engine_headers(target):
    amz_date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return {
        "Content-Type": "application/x-amz-json-1.0",
        "X-Amz-Target": f"DynamoDB_20120810.{target}",
        "X-Amz-Date": amz_date,
        "Authorization": (
            f"AWS4-HMAC-SHA256 Credential=bench/{amz_date[:8]}/{REGION}/dynamodb/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-date;x-amz-target, Signature=" + "0" * 64),
    }


def http(method, url, headers=None, body=None):
    """(status, parsed JSON or text) of one request."""
    data = body.encode() if isinstance(body, str) else body
    request = urllib.request.Request(url, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")

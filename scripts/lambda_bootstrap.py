#!/usr/bin/env python3
"""The loop AWS's Python runtime runs, reduced to the Runtime API calls: import the handler
(`_HANDLER=module.function`, the module found on `LAMBDA_TASK_ROOT`), then forever take the next
event from `/2018-06-01/runtime/invocation/next`, call the handler and post its result to
`.../response` (or its exception to `.../error`). Standard library only. It runs the seed's
handler under the same mock Runtime API as the shop's binary (docs/benchmarks.md); AWS's own
runtime adds its bootstrap, which this leaves out.
"""
import http.client
import importlib
import json
import os
import sys
import traceback

API = os.environ["AWS_LAMBDA_RUNTIME_API"]
BASE = "/2018-06-01/runtime"


def post(conn, path, body, headers=None):
    conn.request("POST", path, body=json.dumps(body), headers=headers or {})
    conn.getresponse().read()


def main():
    sys.path.insert(0, os.environ.get("LAMBDA_TASK_ROOT", "."))
    conn = http.client.HTTPConnection(API)
    module_name, function_name = os.environ["_HANDLER"].rsplit(".", 1)
    try:
        handler = getattr(importlib.import_module(module_name), function_name)
    except Exception as e:  # noqa: BLE001 - reported to the Runtime API as Lambda does
        post(conn, f"{BASE}/init/error", {"errorMessage": str(e), "errorType": type(e).__name__},
             {"Lambda-Runtime-Function-Error-Type": "Runtime.ImportModuleError"})
        return 1
    while True:
        conn.request("GET", f"{BASE}/invocation/next")
        response = conn.getresponse()
        request_id = response.getheader("Lambda-Runtime-Aws-Request-Id")
        event = json.loads(response.read())
        try:
            result = handler(event, None)
            post(conn, f"{BASE}/invocation/{request_id}/response", result)
        except Exception as e:  # noqa: BLE001
            post(conn, f"{BASE}/invocation/{request_id}/error",
                 {"errorMessage": str(e), "errorType": type(e).__name__,
                  "stackTrace": traceback.format_exc().splitlines()},
                 {"Lambda-Runtime-Function-Error-Type": "Unhandled"})


if __name__ == "__main__":
    sys.exit(main())

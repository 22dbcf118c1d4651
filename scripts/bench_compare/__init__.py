"""The shop's REST API against the seed's boto3 functions and the engine alone: the code
behind scripts/bench-compare.py, the entry point, whose docstring says what each side does.

Modules: common (paths, constants), tools (binary, wrk, Python packages), serve (serve, JWTs,
raw requests), data (both data sets), seed (the seed side), wrk (the Lua scripts and wrk),
cases (the requests per case and the probes), report (summary, markdown), plots (the SVGs),
cli (main).
"""
from .cli import main

__all__ = ["main"]

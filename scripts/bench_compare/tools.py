"""The tools scripts/bench-compare.py needs: the release binary, wrk, boto3 and matplotlib,
built or installed when missing."""
import importlib
import os
import shutil
import subprocess
import sys

from .common import REQUIREMENTS, ROOT, say


# ---------------------------------------------------------------------------------------------
# Tools: the binary, wrk, boto3 and matplotlib.


def ensure_binary(args):
    if not args.no_build:
        say("building: cargo build --release -p monotable-shop-server")
        subprocess.run(["cargo", "build", "--release", "-p", "monotable-shop-server"], cwd=ROOT,
                       check=True)
    if not args.bin.exists():
        where = args.bin.relative_to(ROOT) if args.bin.is_relative_to(ROOT) else args.bin
        sys.exit(f"no binary at {where}; run cargo build --release -p monotable-shop-server")


def ensure_wrk():
    if shutil.which("wrk"):
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        sys.exit("wrk is missing: install it (Debian/Ubuntu: apt-get install -y wrk)")
    say("installing wrk: apt-get install -y wrk")
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, **quiet).returncode != 0:
        subprocess.run(["apt-get", "update", "-q"], env=env, check=True, **quiet)
        subprocess.run(["apt-get", "install", "-y", "-q", "wrk"], env=env, check=True, **quiet)
    if not shutil.which("wrk"):
        sys.exit("apt-get install wrk did not give a wrk command")


def ensure_python_packages():
    try:
        import boto3  # noqa: F401
        import matplotlib  # noqa: F401
        return
    except ImportError:
        pass
    say(f"installing Python packages: pip install -r {REQUIREMENTS.relative_to(ROOT)}")
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
           "-r", str(REQUIREMENTS)]
    if os.geteuid() == 0:
        cmd.append("--root-user-action=ignore")
    subprocess.run(cmd, check=True)
    importlib.invalidate_caches()

#!/usr/bin/env bash
# The engine's source in vendor/dynoxide-rs is the published crate plus the patch series in
# vendor/patches/ (vendor/README.md). This script rebuilds that tree from a pristine download:
#
#   bash scripts/vendor-dynoxide.sh --check     # rebuild in a temporary directory, compare with the tree
#   bash scripts/vendor-dynoxide.sh --write     # replace vendor/dynoxide-rs with the rebuilt tree
#
# The version is the one Cargo.toml pins (`dynoxide-rs = { version = "=X.Y.Z" ...`). The download
# goes through cargo itself (a throwaway package that depends on that version, `cargo fetch`), so
# it uses whatever registry cargo is configured for.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:---check}"
case "$mode" in --check|--write) ;; *) echo "usage: $0 [--check|--write]" >&2; exit 2 ;; esac

version="$(sed -n 's/^dynoxide-rs = { version = "=\([0-9.]*\)".*/\1/p' Cargo.toml)"
[ -n "$version" ] || { echo "Cargo.toml pins no dynoxide-rs version" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/fetch/src"
cat > "$work/fetch/Cargo.toml" <<TOML
[package]
name = "vendor-fetch"
version = "0.0.0"
edition = "2021"
[dependencies]
dynoxide-rs = { version = "=$version", default-features = false }
[workspace]
TOML
echo "" > "$work/fetch/src/lib.rs"
(cd "$work/fetch" && cargo fetch --quiet)
manifest="$(cd "$work/fetch" && cargo metadata --format-version 1 \
  | python3 -c 'import json,sys; m=json.load(sys.stdin); print(next(p["manifest_path"] for p in m["packages"] if p["name"]=="dynoxide-rs"))')"
pristine="$(dirname "$manifest")"

cp -a "$pristine" "$work/tree"
rm -f "$work/tree/.cargo-ok"
chmod -R u+w "$work/tree"
for p in vendor/patches/*.patch; do
  patch --quiet --directory "$work/tree" -p1 < "$p" || { echo "$p does not apply to dynoxide-rs $version" >&2; exit 1; }
done
find "$work/tree" -name '*.orig' -newer "$work/fetch/Cargo.toml" -delete

if [ "$mode" = --write ]; then
  rm -rf vendor/dynoxide-rs
  cp -a "$work/tree" vendor/dynoxide-rs
  echo "vendor/dynoxide-rs: dynoxide-rs $version with $(ls vendor/patches/*.patch | wc -l) patch(es)"
elif diff -r "$work/tree" vendor/dynoxide-rs > "$work/diff" 2>&1; then
  echo "vendor/dynoxide-rs equals dynoxide-rs $version with the $(ls vendor/patches/*.patch | wc -l) patch(es) of vendor/patches"
else
  echo "vendor/dynoxide-rs differs from dynoxide-rs $version with vendor/patches applied:" >&2
  head -50 "$work/diff" >&2
  exit 1
fi

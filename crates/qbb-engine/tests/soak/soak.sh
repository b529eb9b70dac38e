#!/usr/bin/env bash
# The engine soak: builds qbb-engine (release), sets up python-chess in the virtual environment
# under target/ that the UCI test uses, and runs soak.py with the arguments given.
#
#   crates/qbb-engine/tests/soak/soak.sh --games 1000     # writes results.json and results.md here
#   crates/qbb-engine/tests/soak/soak.sh --games 20 --out /tmp/soak
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
cd "$root"

venv="${QBB_VENV:-$root/target/python-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import chess" 2>/dev/null; then
  "$venv/bin/pip" install --quiet "chess==1.11.2"
fi
if [ -z "${QBB_ENGINE:-}" ]; then
  cargo build --release -p qbb-engine
  export QBB_ENGINE="$root/target/release/qbb-engine"
fi
exec "$venv/bin/python" "$here/soak.py" "$@"

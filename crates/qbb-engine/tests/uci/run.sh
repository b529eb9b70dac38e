#!/usr/bin/env bash
# The python-chess integration test: builds qbb-engine (release), installs python-chess into a
# virtual environment under target/ (once), and drives the engine through it.
#
#   crates/qbb-engine/tests/uci/run.sh            # from anywhere in the repository
#   QBB_ENGINE=/path/to/qbb-engine run.sh         # test another build
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
cd "$root"

venv="${QBB_VENV:-$root/target/python-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import chess.engine" 2>/dev/null; then
  "$venv/bin/pip" install --quiet "chess==1.11.2"
fi

if [ -z "${QBB_ENGINE:-}" ]; then
  cargo build --release -p qbb-engine
  export QBB_ENGINE="$root/target/release/qbb-engine"
fi

"$venv/bin/python" -m unittest discover -s "$here" -t "$here" -p "test_*.py" -v

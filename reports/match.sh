#!/usr/bin/env bash
# Runs reports/match.py (an engine match: `reports/match.sh --help`) with python-chess, which it
# installs once into the virtual environment under target/ that crates/qbb-engine/tests/uci/run.sh
# also uses, at the same pinned version: a machine with Rust and python3 needs nothing else.
# Relative paths in the arguments are taken from the current directory.
#
#   reports/match.sh --engine 'name=a,cmd=...' --engine 'name=b,cmd=...' \
#       --tc 5+0.05 --games 200 --out DIR
#   QBB_VENV=/elsewhere reports/match.sh ...     # another virtual environment
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"

venv="${QBB_VENV:-$root/target/python-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import chess.engine" 2>/dev/null; then
  "$venv/bin/pip" install --quiet "chess==1.11.2"
fi

# results.json records the command as typed: this script, not the python behind it.
QBB_MATCH_LAUNCHER="$0" exec "$venv/bin/python" "$here/match.py" "$@"

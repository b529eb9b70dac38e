#!/usr/bin/env bash
# The engine soak: builds qbb-engine (release), sets up python-chess in the virtual environment
# under target/ that the UCI test uses, and runs soak.py with the arguments given.
#
#   crates/qbb-engine/tests/soak/soak.sh --games 1000     # writes results.json and results.md here
#   crates/qbb-engine/tests/soak/soak.sh --games 500 --seed 2 --append   # adds a run to them
#   crates/qbb-engine/tests/soak/soak.sh --games 20 --out /tmp/soak
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../../.." && pwd)"
cd "$root"

# shellcheck source=../python-env.sh
. "$here/../python-env.sh"

exec "$venv/bin/python" "$here/soak.py" "$@"

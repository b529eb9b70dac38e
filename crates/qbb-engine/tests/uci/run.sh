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

# shellcheck source=../python-env.sh
. "$here/../python-env.sh"

"$venv/bin/python" -m unittest discover -s "$here" -t "$here" -p "test_*.py" -v

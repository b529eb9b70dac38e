# Sourced by the engine's python-chess scripts (uci/run.sh, soak/soak.sh): python-chess in the
# virtual environment under target/ (made and filled once), and QBB_ENGINE set to the engine to
# drive (the release build, built here, unless the caller named another). Needs `root`.
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

#!/usr/bin/env bash
# Builds the book and loads every page in headless Chromium (book/tools/layout_check.py):
#   - at 1280 px, no table of a technique chapter may be wider than the text column;
#   - at 420 px, no page may be wider than the window (a table may scroll inside its own box).
# Prints one line per breach (page, the table's first header cells, the widths) and exits 1 if
# there is any. About 20 s for the whole book.
#
# Usage: book/layout-check.sh [--report-only] [--screenshots DIR PAGE...]
#   --report-only              print the breaches, exit 0
#   --screenshots DIR PAGE...  also save whole-page PNGs of each PAGE (techniques/05-to-mailbox.html)
#                              at both widths in DIR
# Needs mdbook 0.5 on the PATH. Installs what is missing: Debian's chromium and chromium-driver
# (apt-get, as root or through sudo) and selenium in the project's virtual environment under
# target/ (the one the engine's python-chess tests use; QBB_VENV names another).
set -euo pipefail

book_dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$book_dir/.." && pwd)

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  echo "layout: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

venv="${QBB_VENV:-$root/target/python-venv}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  "$venv/bin/pip" install --quiet "selenium==4.51.0"
fi

if ! log=$(mdbook build "$book_dir" 2>&1); then
  echo "$log" >&2
  exit 1
fi
"$venv/bin/python" "$book_dir/tools/layout_check.py" "$book_dir/book" "$@"

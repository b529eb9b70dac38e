#!/usr/bin/env bash
# Checks the book and builds it:
#   - every {{#include}} names a file that exists, and every anchor it names is in that file;
#   - every image a page shows exists;
#   - no page carries an unfinished-work marker;
#   - the technique chapters, dispatch, representations, results and NEON pages type no measured
#     figure (a ratio, a time per call, a rate) in their own text: every one comes from an include;
#   - every comparative sentence there is marked and holds on the data (tools/claims.py);
#   - no sentence of twenty words or more appears on more than three built pages (tools/said_once.py);
#   - `mdbook build` reports no warning and no error (mdbook itself exits 0 on a missing include
#     file and says nothing at all about a missing anchor or image, hence the checks above).
#
# Usage: book/check.sh            (from anywhere; needs mdbook 0.5 on the PATH)
set -euo pipefail

book_dir=$(cd "$(dirname "$0")" && pwd)
src="$book_dir/src"
problems=0

problem() {
    echo "book: $*" >&2
    problems=$((problems + 1))
}

# Every markdown page, the generated ones included.
mapfile -d '' pages < <(find "$src" -name '*.md' -print0 | sort -z)

for page in "${pages[@]}"; do
    dir=$(dirname "$page")
    rel=${page#"$book_dir"/}

    # {{#include path}} {{#include path:anchor}} {{#include path:10:20}}; an escaped
    # \{{#include ..}} is text shown to the reader, not a directive.
    while IFS= read -r directive; do
        [[ "$directive" =~ include[[:space:]]+([^}[:space:]]+) ]] || continue
        spec=${BASH_REMATCH[1]}
        path=${spec%%:*}
        target="$dir/$path"
        if [[ ! -f "$target" ]]; then
            problem "$rel: $directive: no file $path"
            continue
        fi
        if [[ "$spec" == *:* ]]; then
            anchor=${spec#*:}
            if [[ ! "$anchor" =~ ^[0-9:]*$ ]]; then
                if ! grep -q "ANCHOR: *$anchor\$" "$target" ||
                    ! grep -q "ANCHOR_END: *$anchor\$" "$target"; then
                    problem "$rel: $directive: no anchor \`$anchor\` in $path"
                fi
            fi
        fi
    done < <(grep -oP '(?<!\\)\{\{#(rustdoc_)?include [^}]*\}\}' "$page" || true)

    # ![alt](path) and <img src="path">; links to other sites are not checked.
    while IFS= read -r image; do
        [[ "$image" =~ ^[a-z]+:// ]] && continue
        [[ -f "$dir/${image%%#*}" ]] || problem "$rel: image $image does not exist"
    done < <({ grep -oP '!\[[^]]*\]\(\K[^) ]+' "$page" || true
        grep -oP '<img [^>]*src="\K[^"]+' "$page" || true; })

    # A page with a routine's measured tables says once where they come from (the per-routine
    # files carry no provenance of their own; provenance.md is it, for the whole chapter).
    routine_tables=$(grep -oP '(?<!\\)\{\{#include [^}]*generated/results/\K[a-z_]+(?=\.md\}\})' "$page" |
        grep -cvxE 'provenance|machine|machines|overview|verdict|counts_and_time|instructions|conversions|dispatch|wall|perft|threads|placement|stack|neighbour|agreement|load|story' || true)
    provenance=$(grep -cP '(?<!\\)\{\{#include [^}]*generated/results/provenance\.md\}\}' "$page" || true)
    if ((routine_tables > 0 && provenance != 1)); then
        problem "$rel: includes measured tables and $provenance copies of generated/results/provenance.md (wants 1)"
    fi

    # No unfinished work in what a reader sees.
    if grep -nEi '\b(TODO|FIXME|XXX|TBD)\b|placeholder|lorem ipsum' "$page" >/dev/null; then
        while IFS= read -r line; do
            problem "$rel:$line"
        done < <(grep -nEi '\b(TODO|FIXME|XXX|TBD)\b|placeholder|lorem ipsum' "$page")
    fi
done

# A measured figure is generated, never typed by hand: the pages that discuss measurements take
# their figures from generated/results/ (the tables, and verdicts/<benchmark>.md, the figures each
# chapter's prose discusses). Their own text — outside code blocks, include lines and inline code —
# holds no ratio such as `1.6×`, no time such as `12.3 ns`, no rate in Mnps, no "2.2 times as
# long" and no callgrind count such as "34.2 instructions per call". (A bare `1×` is a scale, not a
# measurement; a listing's whole-number instruction count is the listing's, shown beside it.)
export FIGURE='(?<![\d.])(?!1×)\d+(?:\.\d+)?×(?!\d)|\b\d+(?:\.\d+)? ?ns\b|\b\d+(?:\.\d+)? ?Mnps\b|\b\d+(?:\.\d+)? times (?:as|faster|slower|the)\b|\b\d+\.\d+ (?:instructions )?per call\b'
for page in "$src"/techniques/*.md "$src"/dispatch.md "$src"/representations.md "$src"/results.md \
    "$src"/neon-porting.md; do
    while IFS= read -r hit; do
        problem "${page#"$book_dir"/}:$hit: a measured figure typed by hand (take it from an include of generated/results/)"
    done < <(perl -ne '
        BEGIN { $figure = qr/$ENV{FIGURE}/ }
        if (/^\s*(```|~~~)/) { $code = !$code; next }
        next if $code || /\{\{#(rustdoc_)?include /;
        s/`[^`]*`//g;
        print "$.: $&\n" while /$figure/g;
    ' "$page")
done

# A comparative sentence of the prose is a claim about the data: each carries a marker that
# tools/claims.py checks against the named machine's results.json, and a paragraph that compares
# without one is flagged.
python3 "$book_dir/tools/claims.py" "$src" "$book_dir/../reports" || problems=$((problems + 1))

# Every chapter of SUMMARY.md exists (mdbook would otherwise stop with a less direct message).
while IFS= read -r chapter; do
    [[ -f "$src/$chapter" ]] || problem "SUMMARY.md names $chapter, which does not exist"
done < <(grep -oP '\]\(\K[^)]+\.md(?=\))' "$src/SUMMARY.md")

if ((problems > 0)); then
    echo "book: $problems problem(s)" >&2
    exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
mdbook build "$book_dir" 2>&1 | tee "$log"
if grep -qE '\b(WARN|ERROR)\b' "$log"; then
    echo "book: mdbook reported warnings or errors (above)" >&2
    exit 1
fi
# Said once: no sentence of twenty words or more on more than three pages of the built book.
python3 "$book_dir/tools/said_once.py" "$book_dir/book" ||
    { echo "book: a long sentence is repeated (above): say it on one page and link to it" >&2; exit 1; }
echo "book: all includes, anchors and images present; built without warnings; nothing long said twice over"

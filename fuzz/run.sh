#!/usr/bin/env bash
# Runs the fuzz targets, one after the other, each for SECONDS (default 30), from the committed
# seeds (fuzz/seeds/<target>) and the corpus grown so far (fuzz/corpus/<target>, not committed),
# and appends each run's executions to fuzz/counts.tsv. Needs nightly and cargo-fuzz (installed
# here if missing).
#
#   fuzz/run.sh                 # every target for 30 s (what CI runs)
#   fuzz/run.sh 3600 uci fen    # the named targets for an hour each
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-30}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fen epd uci network movelist)

if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi
# For a run of five minutes or more, the uci target is built without comparison tracing, in its
# own folder: its comparisons are the engine's searching (nodes, scores, squares), which a third of
# its time went to trace, while the words it must find are compared by memcmp, which libFuzzer
# hooks either way. A shorter run (CI's) shares the other targets' build: a second build of the
# engine would take longer than the run.
build_flags() {
  if [ "$1" = uci ] && [ "$seconds" -ge 300 ]; then
    echo "--no-trace-compares --target-dir target/no-trace-compares"
  fi
}

for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  # shellcheck disable=SC2046 # the flags are words
  cargo +nightly fuzz build $(build_flags "$target") "$target"
  # One log per process: two runs of a target may share its corpus at once.
  log="target/fuzz-$target-$$.log"
  echo "fuzz: $target for ${seconds} s"
  # -timeout: an input taking 10 s is a hang (each `go` is limited to milliseconds);
  # -rss_limit_mb: an input that asks for 2 GiB is a bug too.
  status=0
  started=$(date +%s)
  # shellcheck disable=SC2046 # the flags are words
  cargo +nightly fuzz run $(build_flags "$target") "$target" "corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    >"$log" 2>&1 || status=$?
  # A run stopped by SIGINT (to free the machine) found nothing: its executions count.
  if [ "$status" -ne 0 ] && grep -q 'libFuzzer: run interrupted' "$log"; then
    status=stopped
    seconds_run=$(($(date +%s) - started))
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  printf '%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${seconds_run:-$seconds}" \
    "$runs" "$status" >>counts.tsv
  if [ "$status" = stopped ]; then
    echo "fuzz: $target stopped after $runs executions, no crash"
    exit 0
  elif [ "$status" -ne 0 ]; then
    grep -E 'panicked|ERROR|SUMMARY|Test unit written' "$log" | head -n 20
    echo "fuzz: $target failed after $runs executions (log: fuzz/$log)"
    exit 1
  fi
  echo "fuzz: $target: $runs executions, no crash"
done

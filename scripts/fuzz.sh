#!/usr/bin/env bash
# Differential fuzzing at scale: random PyTorch programs (test/fuzz/gen.py),
# each compiled with @polyblocks_jit_torch (cpu, no fallback) and compared
# with eager PyTorch; see test/fuzz/run_fuzz.py for the statuses.
#
#   scripts/fuzz.sh --programs N [--seed S] [--jobs J] [--start I] [--timeout SECONDS] [--out DIR] [--no-minimize]
#
# Writes DIR/summary.md (counts, failures by kind, rejected operators by
# count: the table docs/fuzz-results.md records), DIR/results.jsonl (one
# record per program) and, per failure, a minimized standalone repro
# DIR/<status>_<seed>_<index>.py. DIR defaults to /tmp/polyblocks-fuzz-seed<S>.
# Exit status 1 if any program failed (MISMATCH, CRASH, TIMEOUT,
# ENGINE_ERROR, INVALID). Needs the set-up's build and .venv
# (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ] || { [ ! -x target/debug/pb-compile ] && [ ! -x target/release/pb-compile ]; }; then
  echo "fuzz: run scripts/setup.sh first (it builds pb-compile and creates .venv)" >&2
  exit 2
fi

minimize=(--minimize)
passed=()
for arg in "$@"; do
  if [ "$arg" = "--no-minimize" ]; then minimize=(); else passed+=("$arg"); fi
done
exec .venv/bin/python test/fuzz/run_fuzz.py "${minimize[@]}" "${passed[@]}"

#!/usr/bin/env bash
# The long memory-safety run: generated code under valgrind and
# AddressSanitizer on many more odd sizes than the test suite
# (test/python/test_memory_safety.py). Generates the long set of PyTorch
# programs (test/memcheck/generate.py --set long; needs torch, ~3 minutes),
# then checks it together with every workload and the committed programs
# (test/memcheck/memcheck.py). See docs/memory-safety.md.
#
#   scripts/memcheck.sh                 # everything, 2 programs at a time
#   MEMCHECK_JOBS=4 scripts/memcheck.sh
#   scripts/memcheck.sh -k conv         # only long-set programs whose name contains "conv"
#
# Needs the built workspace (target/debug/pb-compile), valgrind, and for
# AddressSanitizer clang's runtime (Debian: libclang-rt-22-dev; skipped
# without it). Exit status 1 if any program fails; the work folder (programs,
# objects, drivers, IR) is then kept and printed for investigation.
set -euo pipefail
cd "$(dirname "$0")/.."
filter=""
if [[ "${1:-}" == "-k" ]]; then filter="$2"; fi
work="$(mktemp -d /tmp/memcheck.XXXXXX)"
echo "== generating the long set into $work/long"
.venv/bin/python test/memcheck/generate.py --set long -o "$work/long" ${filter:+-k "$filter"}
echo "== checking (work folder: $work)"
paths=("$work/long")
if [[ -z "$filter" ]]; then paths+=(examples/workloads test/memcheck/programs); fi
if .venv/bin/python test/memcheck/memcheck.py -j "${MEMCHECK_JOBS:-2}" --work "$work/build" "${paths[@]}"; then
  rm -rf "$work"
else
  echo "memcheck: failures; programs, drivers, objects and IR are in $work" >&2
  exit 1
fi

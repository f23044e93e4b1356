#!/usr/bin/env bash
# Coverage-guided fuzzing of the engine (cargo-fuzz / libFuzzer): the fuzz
# target fuzz/fuzz_targets/pipeline.rs feeds each input, as MLIR text, to
# pb_compile::lower (parse, verify, the five cpu pipeline stages; no LLVM
# codegen). A panic, abort, crash, exit, hang (--timeout) or memory blow-up
# (4 GiB) is a finding, written to fuzz/artifacts/pipeline/.
#
#   scripts/fuzz-engine.sh [--seconds N] [--timeout S] [--sanitizer none|address] [--no-fork]
#
#   --seconds N    total fuzzing time (default 3600)
#   --timeout S    per-input limit in seconds (default 20: some real inputs
#                  take seconds in this build)
#   --sanitizer    none (default; see docs/fuzzing.md for why) or address
#   --no-fork      stop at the first finding instead of fuzzing on in fork mode
#
# Ctrl-C (or TERM) stops the fuzzer and its jobs early and still prints the
# summary.
#
# The seed corpus (fuzz/corpus/seeds/, rebuilt each run, not committed) is
# every test/lit/**/*.mlir split at `// -----` lines, comment lines removed,
# and examples/workloads/*.mlir; what libFuzzer adds goes to
# fuzz/corpus/pipeline/ (kept between runs). Dictionary: fuzz/mlir.dict.
# Ends with a summary (executions, execs/s, coverage, findings) on stdout;
# the full libFuzzer log is fuzz/artifacts/pipeline/run-<time>.log.
#
# Needs cargo-fuzz (`cargo install cargo-fuzz`). It wants nightly rustc
# flags (-Z sanitizer..., -Cpasses=sancov-module); with a stable toolchain
# RUSTC_BOOTSTRAP=1 lets them through.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=3600
timeout=20
sanitizer=none
fork=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --sanitizer) sanitizer="$2"; shift 2 ;;
    --no-fork) fork=0; shift ;;
    *) echo "usage: $0 [--seconds N] [--timeout S] [--sanitizer none|address] [--no-fork]" >&2; exit 2 ;;
  esac
done

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz-engine: cargo-fuzz is missing: cargo install cargo-fuzz" >&2
  exit 2
fi

# Build (incremental: seconds when nothing changed). RUSTFLAGS replaces the
# target rustflags of .cargo/config.toml, so lld is asked for again here.
export RUSTC_BOOTSTRAP=1
export RUSTFLAGS="${RUSTFLAGS:-} -C link-arg=-fuse-ld=lld"
target_dir="$PWD/fuzz/target"
[ "$sanitizer" = none ] || target_dir="$PWD/fuzz/target-$sanitizer"
cargo fuzz build --sanitizer="$sanitizer" --target-dir "$target_dir" pipeline
binary="$target_dir/x86_64-unknown-linux-gnu/release/pipeline"

# Seed corpus.
seeds=fuzz/corpus/seeds
corpus=fuzz/corpus/pipeline
artifacts=fuzz/artifacts/pipeline
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$artifacts"
while IFS= read -r file; do
  name=$(echo "${file%.mlir}" | tr '/' '_')
  awk -v out="$seeds/$name" '
    function flush() { if (text ~ /[^ \t\n]/) { f = sprintf("%s.%d.mlir", out, n); printf "%s", text > f; close(f) } n++; text = "" }
    /^\/\/ -----/ { flush(); next }
    /^[ \t]*\/\// { next }
    { text = text $0 "\n" }
    END { flush() }' "$file"
done < <(find test/lit examples/workloads -name '*.mlir' | sort)
echo "fuzz-engine: $(ls "$seeds" | wc -l) seeds in $seeds, $(ls "$corpus" | wc -l) inputs in $corpus"

log="$artifacts/run-$(date +%Y%m%d-%H%M%S).log"
before=$(mktemp)
ls "$artifacts" > "$before"
flags=(
  -dict=fuzz/mlir.dict
  -max_total_time="$seconds"
  -timeout="$timeout"
  -rss_limit_mb=4096
  -max_len=65536
  -artifact_prefix="$artifacts/"
  -print_final_stats=1
)
[ "$fork" = 1 ] && flags+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
[ "$sanitizer" = address ] && export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
started=$(date +%s)
# The fuzzer and its fork-mode jobs get a process group of their own, so
# that Ctrl-C or a TERM to this script stops all of them (the fork-mode
# parent alone would leave its running job behind) and still prints the
# summary.
set +e
setsid "$binary" "${flags[@]}" "$corpus" "$seeds" > "$log" 2>&1 &
fuzzer=$!
trap 'kill -TERM -- -$fuzzer 2>/dev/null' INT TERM
wait $fuzzer
status=$?
while kill -0 $fuzzer 2>/dev/null; do wait $fuzzer; done
trap - INT TERM
set -e
elapsed=$(( $(date +%s) - started ))

# Summary. The last "#N ..." status line has the totals (in fork mode the
# parent's line counts the executions of all its jobs).
last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
execs=$(echo "$last" | sed -nE 's/^#([0-9]+).*/\1/p')
field() { echo "$last" | sed -nE "s#.* $1: ([0-9/]+).*#\1#p"; }
echo "fuzz-engine summary ($(git rev-parse --short HEAD 2>/dev/null || echo '?'), sanitizer $sanitizer, $(date -u +%Y-%m-%dT%H:%MZ))"
echo "  wall time:        ${elapsed} s (libFuzzer exit status $status)"
echo "  executions:       ${execs:-?} ($(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) )) per second overall)"
echo "  exec/s (last):    $(field 'exec/s')"
echo "  coverage:         cov $(field cov), features $(field ft), corpus $(field corp | cut -d/ -f1) inputs"
[ "$fork" = 1 ] || grep -E '^stat::' "$log" | sed 's/^/  /' || true
echo "  corpus now:       $(ls "$corpus" | wc -l) inputs in $corpus"
found=$(comm -13 "$before" <(ls "$artifacts") | grep -vE '^run-.*\.log$' || true)
rm -f "$before"
if [ -n "$found" ]; then
  echo "  findings:         $(echo "$found" | wc -l)"
  echo "$found" | sed "s|^|    $artifacts/|"
  echo "  reproduce: $binary <file>; minimize: RUSTC_BOOTSTRAP=1 cargo fuzz tmin --sanitizer=$sanitizer pipeline <file>"
else
  echo "  findings:         none"
fi
echo "  log:              $log"

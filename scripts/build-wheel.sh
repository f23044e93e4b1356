#!/usr/bin/env bash
# Builds the polyblocks wheel: the Python package, the pb-compile engine
# (installed into the environment's scripts folder, where the package finds
# it) and, in polyblocks/_lib, the run-time libraries compiled code loads:
# LLVM's OpenMP runtime and the GPU runtime. maturin (in .venv) builds it
# from the root pyproject.toml; docs/architecture.md says why a binary and
# not a Python extension.
#
#   scripts/build-wheel.sh [--profile release|dev] [-o DIR]
#
# The default is the release engine (what users should run); the tests
# package the dev build the set-up already made (same code, less waiting).
set -euo pipefail
cd "$(dirname "$0")/.."
profile=release
out=build/wheels
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile="$2"; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    *) echo "build-wheel: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$profile" in
  release) target_dir=target/release ;;
  dev) target_dir=target/debug ;;
  *) echo "build-wheel: profile must be release or dev, not '$profile'" >&2; exit 2 ;;
esac
if ! command -v cargo >/dev/null 2>&1; then export PATH="$HOME/.cargo/bin:$PATH"; fi

openmp=$(readlink -f /usr/lib/llvm-22/lib/libomp.so.5)
[ -f "$openmp" ] || { echo "build-wheel: LLVM's OpenMP runtime not found (run scripts/setup.sh)" >&2; exit 1; }

# The run-time libraries go into the package folder only while maturin
# packs it: a checkout's package uses LLVM 22's and the build's own.
lib=python/polyblocks/_lib
rm -rf "$lib"
trap 'rm -rf "$lib"' EXIT
cargo build --quiet --profile "$profile" -p pb-compile -p pb-gpu-runtime
mkdir -p "$lib"
cp "$openmp" "$lib/libomp.so.5"
cp "$target_dir/libpb_gpu_runtime.so" "$lib/"
.venv/bin/maturin build --quiet --profile "$profile" --auditwheel skip -o "$out" >/dev/null
ls -1 "$out"/polyblocks-*.whl | tail -1

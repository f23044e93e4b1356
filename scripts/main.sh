#!/usr/bin/env bash
# The main job, for now: pb-opt runs a shipped pipeline that mixes polyblocks
# passes with upstream MLIR passes on a shipped example, and prints the result.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
pipeline='builtin.module(func.func(pb-simplify-quant,pb-lower-quant),canonicalize,cse)'
echo "== pb-opt --pass-pipeline='$pipeline' examples/quantized_chain.mlir" >&2
target/debug/pb-opt --pass-pipeline="$pipeline" examples/quantized_chain.mlir

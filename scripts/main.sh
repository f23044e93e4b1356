#!/usr/bin/env bash
# The main job: the spec's blur_x_blur_y, compiled with one line
# (@polyblocks_jit_torch), timed beside eager PyTorch and torch.compile.
# Then pb-opt on a shipped pipeline, showing the engine underneath.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/python examples/blur_demo.py "$@"
pipeline='builtin.module(func.func(pb-simplify-quant,pb-lower-quant),canonicalize,cse)'
echo
echo "== pb-opt --pass-pipeline='$pipeline' examples/quantized_chain.mlir"
target/debug/pb-opt --pass-pipeline="$pipeline" examples/quantized_chain.mlir

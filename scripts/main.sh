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

echo
echo "== pb-opt --pb-pipeline=cpu --pb-stop-after=affine --pb-report bench/workloads/blur_x_blur_y_2048.mlir"
echo "   (the polyhedral passes explain their decisions; the IR goes to /dev/null)"
target/debug/pb-opt --pb-pipeline=cpu --pb-stop-after=affine --pb-report bench/workloads/blur_x_blur_y_2048.mlir >/dev/null

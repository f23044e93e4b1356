#!/usr/bin/env bash
# The GPU check (issue 18): every workload of examples/workloads and
# examples/gpu_workloads (f16 products on tensor cores), and the
# PyTorch programs of scripts/gpu_check.py compiled for an NVIDIA GPU with
# the nvgpu pipeline, run on the GPU, and compared with the same programs
# compiled for the CPU on the same inputs; then the time of each (a call's
# wall time with host copies, and its kernels' GPU time from CUDA events,
# with the slowest kernels by launch shape), square f16 and f32 GEMMs
# checked and timed beside cuBLAS, and the PyTorch programs under eager and
# torch.compile on the same GPU (where PyTorch has CUDA).
#
#   scripts/gpu-check.sh [--gpu=sm_90]    # on a machine with the toolchain and a GPU: both steps
#   scripts/gpu-check.sh prepare [--gpu=sm_90]   # here, without a GPU: compile into gpucheck/
#   scripts/gpu-check.sh run              # there (only python3, numpy, a driver): run gpucheck/
#
# The split form is for a GPU machine without this project's toolchain
# (gpucheck/ holds the libraries, expected outputs and libpb_gpu_runtime.so;
# the model parameters are stored, ~50 MB). Prints the table for
# docs/performance.md; exits nonzero if any case differs from the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
step=all
if [ "${1:-}" = prepare ] || [ "${1:-}" = run ]; then
  step=$1
  shift
fi
if [ "$step" != run ]; then
  scripts/setup.sh >/dev/null
  rm -rf gpucheck
  PYTHONPATH=python .venv/bin/python scripts/gpu_check.py prepare gpucheck --torch "$@" examples/workloads/*.mlir examples/gpu_workloads/*.mlir
fi
if [ "$step" != prepare ]; then
  python=python3
  [ -x .venv/bin/python ] && python=.venv/bin/python
  "$python" scripts/gpu_check.py run gpucheck
fi

#!/usr/bin/env bash
# Runs every test of polyblocks-rs: Rust unit tests, the lit/FileCheck suite,
# the Python tests (compiled programs run and compared with numpy, AOT
# artifacts linked into C), clippy with warnings as errors, and a check that
# generated docs are current.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
# Every compile in the tests verifies the IR after each pass (users' compiles
# verify after each stage), so a pass that breaks the IR is named.
export POLYBLOCKS_VERIFY_EACH=1

echo "== cargo test"
cargo test --workspace --quiet

echo "== lit"
/usr/lib/llvm-22/bin/lit -sv --order=lexical test/lit

echo "== pytest (compiled programs against numpy; AOT from C, valgrind)"
# MALLOC_PERTURB_ fills fresh heap memory with garbage: reads of
# uninitialized buffers in generated code show up as wrong results.
MALLOC_PERTURB_=165 .venv/bin/python -m pytest -q test/python

echo "== clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== docs/passes.md is current"
scripts/gen-docs.sh --check

echo "all tests passed"

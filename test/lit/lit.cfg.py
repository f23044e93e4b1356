# lit configuration for polyblocks-rs: FileCheck tests of pb-opt, our passes
# and our dialects. Run with: /usr/lib/llvm-22/bin/lit -sv test/lit
import os

import lit.formats

config.name = "polyblocks"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "tools", "lit.cfg.py"]

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(os.path.join(config.test_source_root, "..", ".."))
config.test_exec_root = os.path.join(repo, "target", "lit")

llvm = "/usr/lib/llvm-22"
path = [
    os.environ.get("POLYBLOCKS_BIN_DIR", os.path.join(repo, "target", "debug")),  # pb-opt, pb-compile
    os.path.join(config.test_source_root, "tools"),  # expect-exit
    os.path.join(llvm, "bin"),                # FileCheck, not, mlir-opt, mlir-runner
    os.environ.get("PATH", ""),
]
config.environment["PATH"] = os.pathsep.join(path)
# Fresh and freed heap memory is filled with garbage, so a pass that reads an
# erased op (use after free) fails here instead of passing by luck.
config.environment["MALLOC_PERTURB_"] = "165"

config.substitutions.append(("%irdl_dir", os.path.join(repo, "dialects", "irdl")))
config.substitutions.append(("%examples", os.path.join(repo, "examples")))
config.substitutions.append((
    "%mlir_runner_libs",
    ",".join(os.path.join(llvm, "lib", lib) for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"]),
))
# The upstream lowering of linalg-on-tensors to the LLVM dialect used by
# execution tests (GUIDE: a working lowering of torch-mlir output).
config.substitutions.append((
    "%to_llvm",
    "--pass-pipeline='builtin.module(func.func(convert-elementwise-to-linalg,linalg-fuse-elementwise-ops),"
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline,func.func(convert-linalg-to-loops,lower-affine),expand-strided-metadata,"
    "finalize-memref-to-llvm,convert-scf-to-cf,convert-math-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,"
    "convert-func-to-llvm,reconcile-unrealized-casts)'",
))

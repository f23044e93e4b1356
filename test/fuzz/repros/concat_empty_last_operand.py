"""pb-compile fails on a tensor.concat whose last operand is empty
(ENGINE_ERROR on valid input).

Found by the fuzzer through torch.roll with a shift that is 0 modulo the
size (seed 0, programs 69, 76, 80, 272, 345 and 24 more of 3000; see
roll_shift_out_of_range.py): torch-mlir lowers it to the module below,
the concatenation of the whole input and an empty slice. The 'graph' stage
fails with
    error: offset 0 is out-of-bounds: 5 >= 5
    note: see current operation: memref.subview ... static_offsets = [5] ...
(the empty piece becomes a subview at offset 5 of a 5-element buffer,
which the verifier rejects). Putting the empty operand first compiles.

Status: fixed by pass pb-concat-empty-operands (the legalize stage drops
concat operands that are empty along the concatenated dimension);
test/lit/transforms/pb-concat-empty-operands.mlir (torch.cat and
torch.roll no longer produce this module since the front's roll fix).

Run: .venv/bin/python test/fuzz/repros/concat_empty_last_operand.py
(exit status 1 while the bug is there).
"""

import sys
import tempfile

from polyblocks import engine

MODULE = """
func.func @graph(%arg0: tensor<5xf32>) -> tensor<5xf32> {
  %cast = tensor.cast %arg0 : tensor<5xf32> to tensor<?xf32>
  %empty = tensor.extract_slice %arg0[0] [0] [1] : tensor<5xf32> to tensor<0xf32>
  %cast_0 = tensor.cast %empty : tensor<0xf32> to tensor<?xf32>
  %concat = tensor.concat dim(0) %cast, %cast_0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<5xf32>
  return %concat : tensor<5xf32>
}
"""

try:
    engine.compile_mlir(MODULE, tempfile.mkdtemp(prefix="fuzz-repro-"))
except engine.CompileError as error:
    print(f"pb-compile failed:\n{error}")
    sys.exit(1)
print("compiled")

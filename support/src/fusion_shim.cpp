// The body of `pb-fuse-elementwise` (transforms/src/fuse_elementwise.rs):
// upstream's elementwise fusion patterns, run as upstream's
// `linalg-fuse-elementwise-ops` runs them, with one more refusal in the
// control function. MLIR 22's C API has no way to give a fusion pattern a
// control function. Wrapped by the safe `pb_support::ffi::fuse_elementwise`;
// compiled by build.rs.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

// True when `operand` is read by a contraction: an op with reduction loops
// whose map for the operand leaves out one of its loops (a matmul's A
// misses the column loop, a convolution's input the output channel). A
// producer fused there is computed again for every value of that loop.
static bool readByContraction(OpOperand *operand) {
  auto consumer = dyn_cast<linalg::LinalgOp>(operand->getOwner());
  if (!consumer || consumer.getNumReductionLoops() == 0)
    return false;
  AffineMap map = consumer.getMatchingIndexingMap(operand);
  for (unsigned d = 0; d < map.getNumDims(); ++d)
    if (!map.isFunctionOfDim(d))
      return true;
  return false;
}

extern "C" {

// Upstream's pass body (LinalgElementwiseOpFusionPass, MLIR 22) on `op`,
// the elementwise fusion refusing producers read by a contraction. Returns
// false when the greedy driver did not converge.
bool pbFuseElementwise(MlirOperation op) {
  Operation *root = unwrap(op);
  MLIRContext *context = root->getContext();
  RewritePatternSet patterns(context);
  linalg::ControlFusionFn single = [](OpOperand *fused) {
    Operation *producer = fused->get().getDefiningOp();
    return producer && producer->hasOneUse();
  };
  linalg::ControlFusionFn elementwise = [single](OpOperand *fused) {
    return single(fused) && !readByContraction(fused);
  };
  linalg::populateElementwiseOpsFusionPatterns(patterns, elementwise);
  linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, single);
  tensor::populateBubbleUpExpandShapePatterns(patterns);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(patterns);
  linalg::populateConstantFoldLinalgOperations(patterns, single);
  return succeeded(applyPatternsGreedily(root, std::move(patterns), GreedyRewriteConfig().setUseTopDownTraversal()));
}

} // extern "C"

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
#include "mlir/Dialect/Utils/StaticValueUtils.h"
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

namespace {
// A static, unit-stride, rank-keeping slice of a `tensor.collapse_shape`
// that takes every collapsed group whole becomes the collapse of a slice
// of its source: a row of a flattened tensor read as a slice of the
// unflattened one, so the reshapes that expansion puts around a fused op
// cancel. Upstream's BubbleUpExtractSliceThroughCollapseShape (MLIR 22)
// does this too but refuses a slice at the last index of an uncollapsed
// dimension (`[0, 2, 0]` of a `1x3x48` collapse).
struct SliceOfCollapse : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice, PatternRewriter &rewriter) const override {
    auto collapse = slice.getSource().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || !collapse.getSrcType().hasStaticShape() || slice.getSourceType().getRank() != slice.getResultType().getRank())
      return failure();
    if (!slice.hasUnitStride() || ShapedType::isDynamicShape(slice.getStaticSizes()) ||
        ShapedType::isDynamicShape(slice.getStaticOffsets()))
      return failure();
    ArrayRef<int64_t> source = collapse.getSrcType().getShape();
    SmallVector<int64_t> offsets, sizes;
    for (auto [d, group] : llvm::enumerate(collapse.getReassociationIndices())) {
      int64_t offset = slice.getStaticOffsets()[d], size = slice.getStaticSizes()[d];
      if (group.size() == 1) {
        offsets.push_back(offset);
        sizes.push_back(size);
        continue;
      }
      if (offset != 0 || size != collapse.getResultType().getDimSize(d))
        return failure();
      for (int64_t s : group) {
        offsets.push_back(0);
        sizes.push_back(source[s]);
      }
    }
    SmallVector<int64_t> strides(offsets.size(), 1);
    MLIRContext *context = rewriter.getContext();
    auto inner = rewriter.create<tensor::ExtractSliceOp>(slice.getLoc(), collapse.getSrc(), getAsIndexOpFoldResult(context, offsets),
                                                         getAsIndexOpFoldResult(context, sizes), getAsIndexOpFoldResult(context, strides));
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(slice, slice.getResultType(), inner,
                                                         collapse.getReassociationIndices());
    return success();
  }
};
} // namespace

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
  // Not upstream's pass: slices moved above the reshapes they read (a row
  // of a collapsed tensor as a slice of the uncollapsed one), so the
  // reshapes that expansion puts around a fused op cancel.
  tensor::populateBubbleUpExtractSliceOpPatterns(patterns);
  patterns.add<SliceOfCollapse>(context, /*benefit=*/2);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(patterns);
  linalg::populateConstantFoldLinalgOperations(patterns, single);
  return succeeded(applyPatternsGreedily(root, std::move(patterns), GreedyRewriteConfig().setUseTopDownTraversal()));
}

} // extern "C"

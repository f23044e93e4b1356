// The body of `pb-fuse-elementwise` (transforms/src/fuse_elementwise.rs):
// upstream's elementwise fusion patterns, run as upstream's
// `linalg-fuse-elementwise-ops` runs them, with one more refusal in the
// control function, and our patterns moving slices towards what they read. MLIR 22's C API has no way to give a fusion pattern a
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
// True when an input of `op` is the result of a linalg op with reduction
// loops (a contraction's bias and activation, fused into its output tile
// by the contraction path only while they read all of it).
static bool readsReduction(linalg::GenericOp op) {
  return llvm::any_of(op.getDpsInputs(), [](Value input) {
    auto producer = input.getDefiningOp<linalg::LinalgOp>();
    return producer && producer.getNumReductionLoops() > 0;
  });
}

// True when `op` is a `linalg.generic` with parallel loops only.
static bool isParallelGeneric(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.getNumReductionLoops() == 0;
}

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

// A static slice of a `tensor.concat` that lies within one of its inputs
// along the concatenated dimension is a slice of that input: a stacked
// channel read back on its own (an image pipeline's `torch.stack` of three
// planes, then each plane of the stack) no longer goes through the stacked
// buffer.
struct SliceOfConcat : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice, PatternRewriter &rewriter) const override {
    auto concat = slice.getSource().getDefiningOp<tensor::ConcatOp>();
    if (!concat || ShapedType::isDynamicShape(slice.getStaticSizes()) || ShapedType::isDynamicShape(slice.getStaticOffsets()))
      return failure();
    int64_t dim = concat.getDim();
    int64_t begin = slice.getStaticOffsets()[dim];
    int64_t stride = slice.getStaticStrides()[dim];
    if (ShapedType::isDynamic(stride) || stride < 1)
      return failure();
    int64_t last = begin + (slice.getStaticSizes()[dim] - 1) * stride;
    int64_t start = 0;
    for (Value input : concat.getInputs()) {
      auto type = cast<RankedTensorType>(input.getType());
      if (ShapedType::isDynamic(type.getDimSize(dim)))
        return failure();
      int64_t end = start + type.getDimSize(dim);
      if (begin >= start && last < end) {
        SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
        offsets[dim] = rewriter.getIndexAttr(begin - start);
        rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(slice, slice.getResultType(), input, offsets, slice.getMixedSizes(),
                                                            slice.getMixedStrides());
        return success();
      }
      start = end;
    }
    return failure();
  }
};

// A rank-keeping slice of a `linalg.transpose` on tensors is the
// transpose of the matching slice of its input: each plane of a permuted
// stack read back (an einsum's operands) transposes only that plane, and
// the slice moves on towards what produced it.
struct SliceOfTranspose : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice, PatternRewriter &rewriter) const override {
    auto transpose = slice.getSource().getDefiningOp<linalg::TransposeOp>();
    if (!transpose || !transpose.hasPureTensorSemantics() || slice.getSourceType().getRank() != slice.getResultType().getRank())
      return failure();
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    SmallVector<OpFoldResult> offsets(permutation.size()), sizes(permutation.size()), strides(permutation.size());
    for (auto [d, from] : llvm::enumerate(permutation)) {
      offsets[from] = slice.getMixedOffsets()[d];
      sizes[from] = slice.getMixedSizes()[d];
      strides[from] = slice.getMixedStrides()[d];
    }
    Location location = slice.getLoc();
    Value part = rewriter.create<tensor::ExtractSliceOp>(location, transpose.getInput(), offsets, sizes, strides);
    Value init = rewriter.create<tensor::EmptyOp>(location, slice.getResultType().getShape(), slice.getResultType().getElementType());
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(slice, part, init, permutation);
    return success();
  }
};

// A `linalg.transpose` read only by elementwise generics, or of the one
// result of one, as a generic: elementwise fusion then folds it into its
// neighbour's indexing maps (no copy of the tensor). Transposes read by
// contractions stay named ops, for `pb-fold-transposes`.
struct TransposeBetweenElementwise : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp transpose, PatternRewriter &rewriter) const override {
    if (!transpose.hasPureTensorSemantics())
      return failure();
    Value input = transpose.getInput();
    bool fromElementwise = isParallelGeneric(input.getDefiningOp()) && input.hasOneUse();
    bool toElementwise = !transpose->getResult(0).use_empty() &&
                         llvm::all_of(transpose->getResult(0).getUsers(), [](Operation *user) { return isParallelGeneric(user); });
    if (!fromElementwise && !toElementwise)
      return failure();
    return linalg::generalizeNamedOp(rewriter, cast<linalg::LinalgOp>(transpose.getOperation()));
  }
};

// An elementwise generic whose one result is read only through slices
// that together hold no more elements than it has (a Bayer mosaic's four
// planes, each a strided slice) gets a copy per slice, each then computed
// on its slice alone (SliceOfElementwise, below): no temporary of the whole, nothing computed twice that was
// computed once. Overlapping readers (a stencil's shifted windows) are
// left to `pb-fuse`, which recomputes only halos; an op reading a
// contraction's result (its bias, split into a transformer's Q, K and V)
// stays whole, the contraction's epilogue.
struct SplitSlicedElementwise : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp generic, PatternRewriter &rewriter) const override {
    if (!isParallelGeneric(generic) || generic->getNumResults() != 1 || !generic.hasPureTensorSemantics() ||
        readsReduction(generic))
      return failure();
    Value result = generic->getResult(0);
    auto type = dyn_cast<RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape() || result.hasOneUse() || result.use_empty())
      return failure();
    int64_t read = 0;
    SmallVector<tensor::ExtractSliceOp> slices;
    for (Operation *user : result.getUsers()) {
      auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
      if (!slice || !slice.getResultType().hasStaticShape())
        return failure();
      read += slice.getResultType().getNumElements();
      slices.push_back(slice);
    }
    if (read > type.getNumElements())
      return failure();
    rewriter.setInsertionPoint(generic);
    for (tensor::ExtractSliceOp slice : llvm::drop_begin(slices)) {
      Operation *copy = rewriter.clone(*generic.getOperation());
      rewriter.modifyOpInPlace(slice, [&] { slice.getSourceMutable().assign(copy->getResult(0)); });
    }
    return success();
  }
};

// A slice, of any strides, of the one result of an elementwise generic
// with one use, its output map the identity, its input maps projected
// permutations and no `linalg.index` in its body, is the generic computed
// on the matching slices of its operands (not when it reads a
// contraction's result: see SplitSlicedElementwise). Upstream's bubble-up pattern
// takes unit strides only; a Bayer mosaic's planes are every other row
// and column.
struct SliceOfElementwise : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExtractSliceOp slice, PatternRewriter &rewriter) const override {
    auto generic = slice.getSource().getDefiningOp<linalg::GenericOp>();
    if (!isParallelGeneric(generic) || generic->getNumResults() != 1 || !generic->hasOneUse() ||
        !generic.hasPureTensorSemantics() || slice.getSourceType().getRank() != slice.getResultType().getRank() ||
        readsReduction(generic))
      return failure();
    if (!generic.getBody()->getOps<linalg::IndexOp>().empty())
      return failure();
    SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
    if (!maps.back().isIdentity() || !llvm::all_of(maps, [](AffineMap map) { return map.isProjectedPermutation(); }))
      return failure();
    Location location = slice.getLoc();
    auto part = [&](Value operand, AffineMap map) -> Value {
      SmallVector<OpFoldResult> offsets, sizes, strides;
      for (AffineExpr result : map.getResults()) {
        unsigned d = cast<AffineDimExpr>(result).getPosition();
        offsets.push_back(slice.getMixedOffsets()[d]);
        sizes.push_back(slice.getMixedSizes()[d]);
        strides.push_back(slice.getMixedStrides()[d]);
      }
      return rewriter.create<tensor::ExtractSliceOp>(location, operand, offsets, sizes, strides);
    };
    SmallVector<Value> inputs;
    for (OpOperand *input : generic.getDpsInputOperands())
      inputs.push_back(part(input->get(), generic.getMatchingIndexingMap(input)));
    Value init = part(generic.getDpsInitOperand(0)->get(), maps.back());
    auto sliced = rewriter.create<linalg::GenericOp>(location, TypeRange{slice.getResultType()}, inputs, ValueRange{init}, maps,
                                                     generic.getIteratorTypesArray());
    rewriter.cloneRegionBefore(generic.getRegion(), sliced.getRegion(), sliced.getRegion().begin());
    rewriter.replaceOp(slice, sliced->getResults());
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
  // Not upstream's pass: slices moved towards what they read (above
  // reshapes, into concatenations, transposes and elementwise ops) and
  // transposes between elementwise ops as generics, so that the reshapes
  // and copies around an einsum cancel or fuse.
  tensor::populateBubbleUpExtractSliceOpPatterns(patterns);
  patterns.add<SliceOfCollapse>(context, /*benefit=*/2);
  patterns.add<SliceOfConcat, SliceOfElementwise, SliceOfTranspose, SplitSlicedElementwise, TransposeBetweenElementwise>(context);
  affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
  linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
  tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
  tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
  context->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(patterns);
  linalg::populateConstantFoldLinalgOperations(patterns, single);
  return succeeded(applyPatternsGreedily(root, std::move(patterns), GreedyRewriteConfig().setUseTopDownTraversal()));
}

} // extern "C"

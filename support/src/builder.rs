//! A small op emitter for passes: creates upstream ops (arith, math,
//! tensor, linalg, memref) at a rewriter's insertion point with one location.
//!
//! Generic `OperationBuilder` calls instead of melior's generated dialect
//! wrappers keep a pass readable as the MLIR it produces.

use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationBuilder,
        r#type::IntegerType,
        Attribute, Identifier, Location, OperationRef, Region, Type, Value, ValueLike,
    },
    Context, RewriterBase,
};

/// Emits ops before the insertion point of `rewriter`.
pub struct Emitter<'c, 'r> {
    pub context: &'c Context,
    pub rewriter: &'r RewriterBase<'c, 'r>,
    pub location: Location<'c>,
}

impl<'c> Emitter<'c, '_> {
    /// Creates `name(operands) {attributes} : result_types` with `regions`.
    pub fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result_types: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
        regions: Vec<Region<'c>>,
    ) -> OperationRef<'c, '_> {
        self.rewriter.insert(build_operation(self.context, self.location, name, operands, result_types, attributes, regions))
    }

    /// The single result of a one-result op.
    pub fn value(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Value<'c, '_> {
        self.op(name, operands, &[result], attributes, vec![]).result(0).expect("one result").into()
    }

    /// `arith.constant` of a float value of type `ty`.
    pub fn float(&self, ty: Type<'c>, value: f64) -> Value<'c, '_> {
        self.value("arith.constant", &[], ty, &[("value", FloatAttribute::new(self.context, ty, value).into())])
    }

    /// `arith.constant` of an index.
    pub fn index(&self, value: i64) -> Value<'c, '_> {
        self.integer(Type::index(self.context), value)
    }

    /// `arith.constant` of an integer (or index) type `ty`.
    pub fn integer(&self, ty: Type<'c>, value: i64) -> Value<'c, '_> {
        self.value("arith.constant", &[], ty, &[("value", IntegerAttribute::new(ty, value).into())])
    }

    /// A float binary op such as `arith.mulf`.
    pub fn binary(&self, name: &str, lhs: Value<'c, '_>, rhs: Value<'c, '_>) -> Value<'c, '_> {
        use melior::ir::ValueLike;
        self.value(name, &[lhs, rhs], lhs.r#type(), &[])
    }

    /// A unary op or cast to `ty`.
    pub fn unary(&self, name: &str, operand: Value<'c, '_>, ty: Type<'c>) -> Value<'c, '_> {
        self.value(name, &[operand], ty, &[])
    }

    /// Parses an attribute written in MLIR syntax (affine maps, arrays).
    pub fn attribute(&self, text: &str) -> Attribute<'c> {
        Attribute::parse(self.context, text).unwrap_or_else(|| panic!("lowering wrote an invalid attribute: {text}"))
    }

    /// An elementwise `linalg.generic` of rank `rank`: identity maps, all
    /// loops parallel, `input` read, `init` written (`result` is its tensor
    /// result type, or `None` on memrefs). Its body block takes the two
    /// elements and is left empty, with the insertion point at its end: emit
    /// the computation and a `linalg.yield`.
    pub fn elementwise_generic(
        &self,
        input: Value<'c, '_>,
        init: Value<'c, '_>,
        result: Option<Type<'c>>,
        rank: usize,
        elements: (Type<'c>, Type<'c>),
    ) -> OperationRef<'c, '_> {
        let dims: Vec<String> = (0..rank).map(|i| format!("d{i}")).collect();
        let identity = format!("affine_map<({0}) -> ({0})>", dims.join(", "));
        let parallel = vec![true; rank];
        self.generic(&[input], &[init], &[identity.clone(), identity], &parallel, result.as_slice(), &[elements.0, elements.1])
    }

    /// A `linalg.generic` reading `inputs` and writing `outputs` through
    /// `maps` (affine map text, inputs then outputs), with one loop per
    /// entry of `parallel` (`false`: a reduction) and tensor `results`
    /// (none on memrefs). Its body block takes `elements` (one per operand)
    /// and is left empty, with the insertion point at its end: emit the
    /// computation and a `linalg.yield`, then move the insertion point on.
    pub fn generic(
        &self,
        inputs: &[Value<'c, '_>],
        outputs: &[Value<'c, '_>],
        maps: &[String],
        parallel: &[bool],
        results: &[Type<'c>],
        elements: &[Type<'c>],
    ) -> OperationRef<'c, '_> {
        use melior::ir::{operation::OperationLike, Block, RegionLike};
        let region = Region::new();
        let arguments: Vec<(Type<'c>, Location<'c>)> = elements.iter().map(|t| (*t, self.location)).collect();
        region.append_block(Block::new(&arguments));
        let maps: Vec<Attribute<'c>> = maps.iter().map(|map| self.attribute(map)).collect();
        let generic = self.rewriter.insert(generic_operation(
            self.context,
            self.location,
            (inputs, outputs),
            &maps,
            parallel,
            results,
            region,
        ));
        let body = generic.region(0).expect("one region").first_block().expect("one block");
        self.rewriter.set_insertion_point_to_end(body);
        generic
    }

    pub fn i64_type(&self) -> Type<'c> {
        IntegerType::new(self.context, 64).into()
    }
}

/// A detached `linalg.generic` reading `inputs` and writing `outputs`
/// through `maps` (affine map attributes, inputs then outputs), with one
/// loop per entry of `parallel` (`false`: a reduction), tensor `results`
/// (none on memrefs) and `body` as its region.
pub fn generic_operation<'c>(
    context: &'c Context,
    location: Location<'c>,
    (inputs, outputs): (&[Value<'c, '_>], &[Value<'c, '_>]),
    maps: &[Attribute<'c>],
    parallel: &[bool],
    results: &[Type<'c>],
    body: Region<'c>,
) -> melior::ir::Operation<'c> {
    let iterators: Vec<&str> = parallel
        .iter()
        .map(|p| if *p { "#linalg.iterator_type<parallel>" } else { "#linalg.iterator_type<reduction>" })
        .collect();
    let parse = |text: String| Attribute::parse(context, &text).expect("linalg.generic attribute");
    let operands: Vec<Value<'c, '_>> = inputs.iter().chain(outputs).copied().collect();
    build_operation(
        context,
        location,
        "linalg.generic",
        &operands,
        results,
        &[
            ("indexing_maps", melior::ir::attribute::ArrayAttribute::new(context, maps).into()),
            ("iterator_types", parse(format!("[{}]", iterators.join(", ")))),
            ("operandSegmentSizes", parse(format!("array<i32: {}, {}>", inputs.len(), outputs.len()))),
        ],
        vec![body],
    )
}

/// A detached `tensor.extract_slice` of `source` at static `offsets`,
/// `sizes` and `strides` (rank-preserving: a tensor of `sizes` of the
/// source's element type).
pub fn extract_slice_operation<'c>(
    context: &'c Context,
    location: Location<'c>,
    source: Value<'c, '_>,
    offsets: &[i64],
    sizes: &[i64],
    strides: &[i64],
) -> melior::ir::Operation<'c> {
    use melior::ir::{r#type::{RankedTensorType, ShapedTypeLike}, ValueLike};
    let element = RankedTensorType::try_from(source.r#type()).expect("a ranked tensor to slice").element();
    let dims: Vec<u64> = sizes.iter().map(|n| *n as u64).collect();
    let ty: Type<'c> = RankedTensorType::new(&dims, element, None).into();
    let segments = Attribute::parse(context, "array<i32: 1, 0, 0, 0>").expect("operandSegmentSizes");
    build_operation(context, location, "tensor.extract_slice", &[source], &[ty], &slice_attributes(context, (offsets, sizes, strides), segments), vec![])
}

/// The groups of a reshape between a shape and its dimensions marked
/// `kept`: each other dimension joins the group of the next kept one
/// (trailing ones the last group). `None` when none is kept.
pub fn groups_around(kept: &[bool]) -> Option<Vec<Vec<usize>>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut pending = Vec::new();
    for (d, keep) in kept.iter().enumerate() {
        pending.push(d);
        if *keep {
            groups.push(std::mem::take(&mut pending));
        }
    }
    groups.last_mut()?.extend(pending);
    Some(groups)
}

/// A reshape's `reassociation` attribute (`[[0], [1, 2]]`) for `groups`.
pub fn reassociation_attribute<'c>(context: &'c Context, groups: &[Vec<usize>]) -> Attribute<'c> {
    let text: Vec<String> =
        groups.iter().map(|g| format!("[{}]", g.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", "))).collect();
    Attribute::parse(context, &format!("[{}]", text.join(", "))).expect("reassociation")
}

/// A detached `tensor.collapse_shape` of `source` (a static tensor)
/// dropping its dimensions of extent 1 where `kept` is false
/// ([`groups_around`]). At least one dimension must be kept.
pub fn drop_unit_dims_operation<'c>(
    context: &'c Context,
    location: Location<'c>,
    source: Value<'c, '_>,
    kept: &[bool],
) -> melior::ir::Operation<'c> {
    use melior::ir::{r#type::{DimSize, RankedTensorType, ShapedTypeLike}, ValueLike};
    let tensor = RankedTensorType::try_from(source.r#type()).expect("a ranked tensor to reshape");
    let groups = groups_around(kept).expect("a kept dimension");
    let dims: Vec<u64> = (0..kept.len())
        .filter(|d| kept[*d])
        .map(|d| match tensor.dim_size(d).expect("a dimension") {
            DimSize::Static(n) => n,
            _ => panic!("tensor.collapse_shape of a dynamically shaped tensor"),
        })
        .collect();
    let ty: Type<'c> = RankedTensorType::new(&dims, tensor.element(), None).into();
    let reassociation = reassociation_attribute(context, &groups);
    build_operation(context, location, "tensor.collapse_shape", &[source], &[ty], &[("reassociation", reassociation)], vec![])
}

/// A detached `tensor.insert_slice` of `source` into `dest` at static
/// `offsets` with unit strides (the slice's sizes are `source`'s shape).
pub fn insert_slice_operation<'c>(
    context: &'c Context,
    location: Location<'c>,
    source: Value<'c, '_>,
    dest: Value<'c, '_>,
    offsets: &[i64],
) -> melior::ir::Operation<'c> {
    use melior::ir::{r#type::{RankedTensorType, ShapedTypeLike}, ValueLike};
    let shape = RankedTensorType::try_from(source.r#type()).expect("a ranked tensor to insert");
    let sizes: Vec<i64> = (0..shape.rank())
        .map(|d| match shape.dim_size(d).expect("a dimension") {
            melior::ir::r#type::DimSize::Static(n) => n as i64,
            _ => panic!("tensor.insert_slice of a dynamically shaped tensor"),
        })
        .collect();
    let strides = vec![1; sizes.len()];
    let segments = Attribute::parse(context, "array<i32: 1, 1, 0, 0, 0>").expect("operandSegmentSizes");
    let attributes = slice_attributes(context, (offsets, &sizes, &strides), segments);
    build_operation(context, location, "tensor.insert_slice", &[source, dest], &[dest.r#type()], &attributes, vec![])
}

/// The static offsets, sizes and strides of a slice op, and its operand
/// segment sizes (no dynamic ones).
fn slice_attributes<'c>(
    context: &'c Context,
    (offsets, sizes, strides): (&[i64], &[i64], &[i64]),
    segments: Attribute<'c>,
) -> Vec<(&'static str, Attribute<'c>)> {
    use melior::ir::attribute::DenseI64ArrayAttribute;
    vec![
        ("static_offsets", DenseI64ArrayAttribute::new(context, offsets).into()),
        ("static_sizes", DenseI64ArrayAttribute::new(context, sizes).into()),
        ("static_strides", DenseI64ArrayAttribute::new(context, strides).into()),
        ("operandSegmentSizes", segments),
    ]
}

/// A detached `arith.constant` of type `index`.
pub fn index_constant_operation<'c>(context: &'c Context, location: Location<'c>, value: i64) -> melior::ir::Operation<'c> {
    let index = Type::index(context);
    build_operation(context, location, "arith.constant", &[], &[index], &[("value", IntegerAttribute::new(index, value).into())], vec![])
}

/// A detached `affine.for` with bound maps `lower`/`upper` (both applied to
/// `operands`), `step` and body `region` (its block takes the induction
/// variable and ends with `affine.yield`).
pub fn affine_for<'c>(
    context: &'c Context,
    location: Location<'c>,
    bounds: (Attribute<'c>, Attribute<'c>),
    operands: &[Value<'c, '_>],
    step: i64,
    region: Region<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    affine_for_carrying(context, location, bounds, operands, step, &[], region)
}

/// [`affine_for`] with loop-carried values: `initial` starts them, the
/// body block takes them after the induction variable and yields their
/// next values, and the loop returns the last (of the same types).
pub fn affine_for_carrying<'c>(
    context: &'c Context,
    location: Location<'c>,
    (lower, upper): (Attribute<'c>, Attribute<'c>),
    operands: &[Value<'c, '_>],
    step: i64,
    initial: &[Value<'c, '_>],
    region: Region<'c>,
) -> Result<melior::ir::Operation<'c>, String> {
    let (count, carried) = (operands.len(), initial.len());
    let segments =
        Attribute::parse(context, &format!("array<i32: {count}, {count}, {carried}>")).ok_or("segment sizes")?;
    let types: Vec<Type> = initial.iter().map(|v| v.r#type()).collect();
    OperationBuilder::new("affine.for", location)
        .add_operands(operands)
        .add_operands(operands)
        .add_operands(initial)
        .add_attributes(&[
            (Identifier::new(context, "lowerBoundMap"), lower),
            (Identifier::new(context, "upperBoundMap"), upper),
            (Identifier::new(context, "step"), IntegerAttribute::new(Type::index(context), step).into()),
            (Identifier::new(context, "operandSegmentSizes"), segments),
        ])
        .add_results(&types)
        .add_regions([region])
        .build()
        .map_err(|e| e.to_string())
}

/// A detached `name(operands) {attributes} : results` with `regions`; a
/// pass that builds an invalid op has a bug, so that panics (the pass
/// runner reports it as an internal error naming the pass).
pub fn build_operation<'c>(
    context: &'c Context,
    location: Location<'c>,
    name: &str,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(&str, Attribute<'c>)],
    regions: Vec<Region<'c>>,
) -> melior::ir::Operation<'c> {
    let attributes: Vec<_> = attributes.iter().map(|(n, a)| (Identifier::new(context, n), *a)).collect();
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(&attributes)
        .add_regions_vec(regions)
        .build()
        .unwrap_or_else(|e| panic!("a pass built an invalid '{name}': {e}"))
}

/// Runs `emit` with an [`Emitter`] inserting before `op`, at its location
/// (the rewriter lives for the call: what `emit` returns must not borrow it).
pub fn emit_before<'c, R>(context: &'c Context, op: OperationRef<'c, '_>, emit: impl FnOnce(&Emitter<'c, '_>) -> R) -> R {
    use melior::ir::operation::OperationLike;
    let ir_rewriter = melior::IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(op);
    emit(&Emitter { context, rewriter: &rewriter, location: op.location() })
}

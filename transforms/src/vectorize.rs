//! `pb-vectorize`: turn innermost affine loops into SIMD loops of the
//! target's vector width, with a scalar remainder loop.
//!
//! A loop qualifies when it is innermost, has constant bounds, step 1, no
//! results, at least `width` iterations, and its body holds only:
//! - `affine.load`/`affine.store` whose last index is `iv + e` (`e` free of
//!   `iv`) and other indices free of `iv` (contiguous: become
//!   `affine.vector_load`/`affine.vector_store`), or loads with no index
//!   depending on `iv` (uniform: stay scalar, broadcast where needed);
//! - `arith`/`math` ops on scalars (cloned with vector types; operands that
//!   do not vary with `iv` are broadcast).
//!
//! It refuses, leaving the loop scalar:
//! - stores whose address does not move with `iv` (a reduction or an
//!   invariant store: reordering across lanes would change the result);
//! - a memref both stored and accessed at another address in the loop
//!   (`a[i] = a[i-1]`: a dependence carried by the loop);
//! - views (subview, cast, ...) that may overlap another accessed memref;
//! - anything else: index arithmetic on `iv`, nested regions, calls.
//!
//! Every rewrite computes exactly what the scalar loop computed (no
//! reassociation: reductions are not vectorized here).
//!
//! ```mlir
//! affine.for %i = 0 to 37 {
//!   %x = affine.load %a[%i] : memref<37xf32>
//!   %y = arith.mulf %x, %c : f32
//!   affine.store %y, %b[%i] : memref<37xf32>
//! }
//! // with width=16 becomes
//! affine.for %i = 0 to 32 step 16 {
//!   %x = affine.vector_load %a[%i] : memref<37xf32>, vector<16xf32>
//!   %cv = vector.broadcast %c : f32 to vector<16xf32>
//!   %y = arith.mulf %x, %cv : vector<16xf32>
//!   affine.vector_store %y, %b[%i] : memref<37xf32>, vector<16xf32>
//! }
//! affine.for %i = 32 to 37 { ...the original scalar body... }
//! ```

use crate::affine_access::{
    access_kind, constant_bound, constant_map, elementwise, is_named, is_view, same_address, same_value, Access,
};
use melior::{
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder},
        Attribute, Block, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{ffi, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};
use std::collections::HashMap;

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-vectorize",
    summary: "Vectorize innermost affine loops with contiguous accesses (vector loop + scalar remainder)",
    description: "Rewrites each qualifying innermost `affine.for` into a loop of step `width` over \
`affine.vector_load`/`affine.vector_store` and vector `arith`/`math` ops, followed by the original \
loop for the remaining iterations. Refuses loop-carried dependences, invariant stores \
(reductions), possibly overlapping views and non-elementwise ops. The cpu pipeline sets `width` \
to the target's f32 lanes.",
    anchor: "func.func",
    options: &[PassOption {
        name: "width",
        kind: OptionKind::UInt,
        default: "8",
        help: "Vector length in elements (16 for f32 on AVX-512)",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(Vectorize { width: options.uint("width").max(1) })
}

#[derive(Clone)]
struct Vectorize {
    width: u64,
}

impl RustPass for Vectorize {
    fn run(&mut self, root: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        if self.width < 2 {
            return Ok(());
        }
        let loops = ffi::collect_ops(root, WalkOrder::PostOrder, |op| is_named(op, "affine.for"));
        for candidate in loops {
            if let Some(plan) = analyze(candidate, self.width) {
                ffi::with_context(candidate, |context| apply(context, candidate, &plan, self.width));
            }
        }
        Ok(())
    }
}

/// How the scalar body maps to the vector body.
struct Plan {
    lower: i64,
    main_end: i64,
    upper: i64,
}

/// Whether `candidate` can be vectorized, and its bounds.
fn analyze(candidate: OperationRef, width: u64) -> Option<Plan> {
    if candidate.result_count() != 0 || candidate.operand_count() != 0 {
        return None;
    }
    let step = candidate.attribute("step").ok().and_then(|a| IntegerAttribute::try_from(a).ok())?.value();
    let (lower, upper) = (constant_bound(candidate, "lowerBoundMap")?, constant_bound(candidate, "upperBoundMap")?);
    let trip = upper - lower;
    if step != 1 || trip < width as i64 {
        return None;
    }
    let body = candidate.region(0).ok()?.first_block()?;
    let iv: Value = body.argument(0).ok()?.into();
    let mut stored: Vec<(Value, OperationRef)> = Vec::new();
    let mut accessed: Vec<(Value, OperationRef)> = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let name = op.name();
        let name = name.as_string_ref().as_str().ok()?;
        if op.region_count() != 0 {
            return None;
        }
        match name {
            "affine.yield" => {}
            "affine.load" => {
                access_kind(op, 1, iv, body)?;
                accessed.push((op.operand(0).ok()?, op));
            }
            "affine.store" => {
                if access_kind(op, 2, iv, body)? != Access::Contiguous {
                    return None;
                }
                stored.push((op.operand(1).ok()?, op));
                accessed.push((op.operand(1).ok()?, op));
            }
            _ if (name.starts_with("arith.") || name.starts_with("math.")) && elementwise(op) => {}
            _ => return None,
        }
    }
    for (memref, store) in &stored {
        for (other, access) in &accessed {
            if same_value(*memref, *other) {
                if !same_address(*store, *access) {
                    return None;
                }
            } else if is_view(*memref) || is_view(*other) {
                return None;
            }
        }
    }
    let main_end = lower + trip / width as i64 * width as i64;
    Some(Plan { lower, main_end, upper })
}

/// A value of the vector body: varying per lane, or the same for all lanes.
#[derive(Clone, Copy)]
enum Lane<'c, 'a> {
    Vector(Value<'c, 'a>),
    Uniform(Value<'c, 'a>),
}

impl<'c, 'a> Lane<'c, 'a> {
    fn value(self) -> Value<'c, 'a> {
        match self {
            Lane::Vector(v) | Lane::Uniform(v) => v,
        }
    }
}

/// Emits the vector loop before `original` and shrinks `original` to the
/// remainder (or erases it).
fn apply<'c>(context: &'c Context, original: OperationRef<'c, '_>, plan: &Plan, width: u64) {
    let location = original.location();
    let index = Type::index(context);
    let named = |name: &str, attribute: Attribute<'c>| (Identifier::new(context, name), attribute);
    let region = Region::new();
    region.append_block(Block::new(&[(index, location)]));
    let vector_loop = OperationBuilder::new("affine.for", location)
        .add_attributes(&[
            named("lowerBoundMap", constant_map(context, plan.lower)),
            named("upperBoundMap", constant_map(context, plan.main_end)),
            named("step", IntegerAttribute::new(index, width as i64).into()),
            named("operandSegmentSizes", Attribute::parse(context, "array<i32: 0, 0, 0>").expect("segment sizes")),
        ])
        .add_regions([region])
        .build()
        .expect("affine.for is well-formed");
    let ir_rewriter = IrRewriter::from_op(original);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(original);
    let vector_loop = rewriter.insert(vector_loop);
    let new_body = vector_loop.region(0).expect("region").first_block().expect("block");
    let old_body = original.region(0).expect("region").first_block().expect("block");
    let old_iv: Value = old_body.argument(0).expect("iv").into();
    let vector_of = |ty: Type<'c>| -> Type<'c> { Type::vector(&[width], ty) };

    // Values of the scalar body → their counterpart in the vector body.
    let mut lanes: HashMap<usize, Lane> = HashMap::new();
    let key = |v: Value| v.to_raw().ptr as usize;
    lanes.insert(key(old_iv), Lane::Uniform(new_body.argument(0).expect("iv").into()));

    let mut next = old_body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or("");
        if name == "affine.yield" {
            continue;
        }
        // Values from outside the loop are uniform and used as they are.
        let operands: Vec<Lane> =
            op.operands().map(|v| lanes.get(&key(v)).copied().unwrap_or(Lane::Uniform(v))).collect();
        let scalars: Vec<Value> = operands.iter().map(|l| l.value()).collect();
        let moves_with_iv = op.operands().any(|v| same_value(v, old_iv));
        let map = || named("map", op.attribute("map").expect("affine access has a map"));
        match name {
            "affine.load" if moves_with_iv => {
                let element = op.result(0).expect("load result").r#type();
                let load = OperationBuilder::new("affine.vector_load", location)
                    .add_operands(&scalars)
                    .add_results(&[vector_of(element)])
                    .add_attributes(&[map()])
                    .build()
                    .expect("vector load");
                let load = new_body.append_operation(load);
                lanes.insert(
                    key(op.result(0).expect("result").into()),
                    Lane::Vector(load.result(0).expect("result").into()),
                );
            }
            "affine.store" => {
                let mut values = vec![broadcast(new_body, operands[0], vector_of, location)];
                values.extend_from_slice(&scalars[1..]);
                let store = OperationBuilder::new("affine.vector_store", location)
                    .add_operands(&values)
                    .add_attributes(&[map()])
                    .build()
                    .expect("vector store");
                new_body.append_operation(store);
            }
            _ => {
                // Uniform loads and elementwise ops: clone with remapped
                // operands; if any operand varies, all become vectors.
                let varying = operands.iter().any(|l| matches!(l, Lane::Vector(_)));
                let values: Vec<Value> = if varying {
                    operands.iter().map(|l| broadcast(new_body, *l, vector_of, location)).collect()
                } else {
                    scalars
                };
                let clone = new_body.append_operation(ffi::clone_operation(op));
                for (i, value) in values.iter().enumerate() {
                    ffi::set_operand(clone, i, *value);
                }
                for (result, old) in clone.results().zip(op.results()) {
                    if varying {
                        result.set_type(vector_of(old.r#type()));
                        lanes.insert(key(old.into()), Lane::Vector(result.into()));
                    } else {
                        lanes.insert(key(old.into()), Lane::Uniform(result.into()));
                    }
                }
            }
        }
    }
    new_body.append_operation(OperationBuilder::new("affine.yield", location).build().expect("yield"));

    if plan.main_end == plan.upper {
        rewriter.erase_op(original);
    } else {
        ffi::set_attribute(original, "lowerBoundMap", constant_map(context, plan.main_end));
    }
}

/// A vector operand for `lane`: itself, or a broadcast of a uniform scalar
/// appended to `block`.
fn broadcast<'c, 'a>(
    block: BlockRef<'c, 'a>,
    lane: Lane<'c, 'a>,
    vector_of: impl Fn(Type<'c>) -> Type<'c>,
    location: Location<'c>,
) -> Value<'c, 'a> {
    match lane {
        Lane::Vector(v) => v,
        Lane::Uniform(v) => {
            let op = OperationBuilder::new("vector.broadcast", location)
                .add_operands(&[v])
                .add_results(&[vector_of(v.r#type())])
                .build()
                .expect("broadcast");
            block.append_operation(op).result(0).expect("result").into()
        }
    }
}

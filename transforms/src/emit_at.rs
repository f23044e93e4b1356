//! `Emit`: builds ops before an anchor op (the end of a body being
//! filled), for the passes that replace a loop nest with a kernel built op
//! by op (`pb-matrix-tile`, `pb-gpu-mma`).

use melior::{
    ir::{
        r#type::ShapedTypeLike,
        attribute::IntegerAttribute, block::BlockLike, operation::OperationLike,
        Attribute, Block, Location, Operation, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pb_polyhedral::{aff::mlir_map, Aff};
use pb_support::builder;

/// Creates ops before an anchor op (the end of the body being filled).
pub(crate) struct Emit<'c> {
    pub context: &'c Context,
    pub location: Location<'c>,
}

impl<'c> Emit<'c> {
    pub fn attr(&self, text: &str) -> Attribute<'c> {
        Attribute::parse(self.context, text).unwrap_or_else(|| panic!("a pass wrote an invalid attribute: {text}"))
    }
    pub fn ty(&self, text: &str) -> Type<'c> {
        Type::parse(self.context, text).unwrap_or_else(|| panic!("a pass wrote an invalid type: {text}"))
    }
    pub fn build(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
        regions: Vec<Region<'c>>,
    ) -> Operation<'c> {
        builder::build_operation(self.context, self.location, name, operands, results, attributes, regions)
    }
    pub fn op<'a>(
        &self,
        at: OperationRef<'c, 'a>,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> OperationRef<'c, 'a> {
        let op = self.build(name, operands, results, attributes, vec![]);
        at.block().expect("anchor in a block").insert_operation_before(at, op)
    }
    pub fn value<'a>(
        &self,
        at: OperationRef<'c, 'a>,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> Value<'c, 'a> {
        self.op(at, name, operands, &[result], attributes).result(0).expect("one result").into()
    }
    /// `affine.apply` of `expr` over the values `env` (as d0, d1, ...).
    pub fn apply<'a>(&self, at: OperationRef<'c, 'a>, expr: &Aff, env: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        let map = self.attr(&mlir_map(env.len(), 0, std::slice::from_ref(expr)));
        self.value(at, "affine.apply", env, Type::index(self.context), &[("map", map)])
    }
    pub fn load<'a>(&self, at: OperationRef<'c, 'a>, memref: Value<'c, 'a>, indices: &[Aff], env: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        let element = memref_element(memref).expect("a memref");
        let map = self.attr(&mlir_map(env.len(), 0, indices));
        let operands: Vec<Value> = std::iter::once(memref).chain(env.iter().copied()).collect();
        self.value(at, "affine.load", &operands, element, &[("map", map)])
    }
    pub fn store<'a>(&self, at: OperationRef<'c, 'a>, value: Value<'c, 'a>, memref: Value<'c, 'a>, indices: &[Aff], env: &[Value<'c, 'a>]) {
        let map = self.attr(&mlir_map(env.len(), 0, indices));
        let operands: Vec<Value> = [value, memref].into_iter().chain(env.iter().copied()).collect();
        self.op(at, "affine.store", &operands, &[], &[("map", map)]);
    }
    pub fn constant<'a>(&self, at: OperationRef<'c, 'a>, ty: &str, value: &str) -> Value<'c, 'a> {
        let ty = self.ty(ty);
        let attr = self.attr(&format!("{value} : {ty}"));
        self.value(at, "arith.constant", &[], ty, &[("value", attr)])
    }
    /// `affine.for %iv = lower to min(upper...) step step` over `env`
    /// (the upper bound's results, over env as dims, minimized), with
    /// loop-carried `carried`; its induction variable, carried values and
    /// terminator (an `affine.yield` of the carried values unchanged:
    /// set its operands when the body is done).
    pub fn for_loop<'a>(
        &self,
        at: OperationRef<'c, 'a>,
        (lower, upper): (i64, &[Aff]),
        step: i64,
        env: &[Value<'c, 'a>],
        carried: &[Value<'c, 'a>],
    ) -> (Value<'c, 'a>, Vec<Value<'c, 'a>>, OperationRef<'c, 'a>, OperationRef<'c, 'a>) {
        let mut arguments = vec![(Type::index(self.context), self.location)];
        arguments.extend(carried.iter().map(|v| (v.r#type(), self.location)));
        let region = Region::new();
        region.append_block(Block::new(&arguments));
        // Constant bounds take no operands: loops the vectorizer (and
        // other passes reading constant trip counts) can read.
        let env = if upper.iter().any(|x| (0..env.len()).any(|d| x.uses_dim(d))) { env } else { &[] };
        let bounds = (self.attr(&mlir_map(env.len(), 0, &[Aff::Const(lower)])), self.attr(&mlir_map(env.len(), 0, upper)));
        let made = builder::affine_for_carrying(self.context, self.location, bounds, env, step, carried, region)
            .unwrap_or_else(|e| panic!("a pass built an invalid affine.for: {e}"));
        let made = at.block().expect("anchor in a block").insert_operation_before(at, made);
        let body = made.region(0).ok().and_then(|r| r.first_block()).expect("loop body");
        let values: Vec<Value> = (1..=carried.len()).map(|k| body.argument(k).expect("carried").into()).collect();
        let end = self.build("affine.yield", &values, &[], &[], vec![]);
        let end = body.append_operation(end);
        (body.argument(0).expect("iv").into(), values, end, made)
    }
    /// `affine.parallel (%iv) = (0) to (upper)`; its induction variable and terminator.
    pub fn parallel<'a>(&self, at: OperationRef<'c, 'a>, upper: i64) -> (Value<'c, 'a>, OperationRef<'c, 'a>) {
        let region = Region::new();
        region.append_block(Block::new(&[(Type::index(self.context), self.location)]));
        let groups = self.attr("dense<1> : tensor<1xi32>");
        let op = self.build(
            "affine.parallel",
            &[],
            &[],
            &[
                ("lowerBoundsMap", self.attr("affine_map<() -> (0)>")),
                ("lowerBoundsGroups", groups),
                ("upperBoundsMap", self.attr(&format!("affine_map<() -> ({upper})>"))),
                ("upperBoundsGroups", groups),
                ("steps", self.attr("[1]")),
                ("reductions", self.attr("[]")),
            ],
            vec![region],
        );
        let made = at.block().expect("anchor in a block").insert_operation_before(at, op);
        let body = made.region(0).ok().and_then(|r| r.first_block()).expect("parallel body");
        let end = body.append_operation(self.build("affine.yield", &[], &[], &[], vec![]));
        (body.argument(0).expect("iv").into(), end)
    }
    /// `amx.tile_load` of `memref` at `exprs` (over `env`).
    pub fn load_tile<'a>(&self, at: OperationRef<'c, 'a>, memref: Value<'c, 'a>, exprs: &[Aff], env: &[Value<'c, 'a>], ty: Type<'c>) -> Value<'c, 'a> {
        let mut operands = vec![memref];
        operands.extend(exprs.iter().map(|x| self.apply(at, x, env)));
        let segments = self.attr(&format!("array<i32: 1, {}, 0>", exprs.len()));
        self.value(at, "amx.tile_load", &operands, ty, &[("operandSegmentSizes", segments)])
    }
    /// `amx.tile_store` of `tile` into `memref` at `exprs` (over `env`).
    pub fn store_tile<'a>(&self, at: OperationRef<'c, 'a>, memref: Value<'c, 'a>, exprs: &[Aff], env: &[Value<'c, 'a>], tile: Value<'c, 'a>) {
        let mut operands = vec![memref];
        operands.extend(exprs.iter().map(|x| self.apply(at, x, env)));
        operands.push(tile);
        let segments = self.attr(&format!("array<i32: 1, {}, 1, 0>", exprs.len()));
        self.op(at, "amx.tile_store", &operands, &[], &[("operandSegmentSizes", segments)]);
    }
    /// `memref.alloca_scope { }` before `at`; its body's terminator (what
    /// is emitted before it runs in the scope, its allocas freed at the end).
    pub fn alloca_scope<'a>(&self, at: OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
        let region = Region::new();
        let body = region.append_block(Block::new(&[]));
        body.append_operation(self.build("memref.alloca_scope.return", &[], &[], &[], vec![]));
        let scope = self.build("memref.alloca_scope", &[], &[], &[], vec![region]);
        let scope = at.block().expect("anchor in a block").insert_operation_before(at, scope);
        scope.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.terminator()).expect("scope body")
    }
    /// `scf.if %condition { }` (no else) before `at`; its then-block's
    /// terminator, before which the guarded ops go.
    pub fn if_then<'a>(&self, at: OperationRef<'c, 'a>, condition: Value<'c, 'a>) -> OperationRef<'c, 'a> {
        let then = Region::new();
        then.append_block(Block::new(&[])).append_operation(self.build("scf.yield", &[], &[], &[], vec![]));
        let made = self.build("scf.if", &[condition], &[], &[], vec![then, Region::new()]);
        let made = at.block().expect("anchor in a block").insert_operation_before(at, made);
        made.region(0).ok().and_then(|r| r.first_block()).and_then(|b| b.terminator()).expect("scf.yield")
    }
    pub fn alloc<'a>(&self, at: OperationRef<'c, 'a>, name: &str, ty: &str) -> Value<'c, 'a> {
        let ty = self.ty(ty);
        let attributes = [("alignment", IntegerAttribute::new(Type::parse(self.context, "i64").expect("i64"), 64).into()), ("operandSegmentSizes", self.attr("array<i32: 0, 0>"))];
        self.value(at, name, &[], ty, &attributes)
    }
}

pub(crate) fn memref_element<'c>(memref: Value<'c, '_>) -> Option<Type<'c>> {
    melior::ir::r#type::MemRefType::try_from(memref.r#type()).ok().map(|t| t.element())
}

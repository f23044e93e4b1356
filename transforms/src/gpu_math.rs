//! `pb-gpu-math`: math in GPU kernels as LLVM intrinsics, never as calls
//! of NVIDIA's libdevice.
//!
//! `convert-gpu-to-nvvm` turns `math.sqrt`, `math.absf`, `math.floor`, ...
//! into calls of libdevice functions (`__nv_sqrtf`): a vendor math library
//! we do not link (the project generates all its code), so the PTX would
//! not assemble. The same operations are LLVM intrinsics the NVPTX back end
//! selects single instructions for (`sqrt.rn.f32`, `abs.f32`,
//! `cvt.rmi.f32.f32`); here each becomes an `llvm.call_intrinsic` of them,
//! which the NVVM conversion leaves alone. Transcendental functions are
//! expanded to polynomials before (`pb-expand-math`); a math op with no
//! intrinsic and no expansion left in a kernel is an error naming it.

use melior::{
    ir::{
        attribute::StringAttribute, operation::OperationLike, r#type::TypeLike, OperationRef, Type,
        Value, ValueLike,
    },
    Context, IrRewriter,
};
use pb_support::{builder::Emitter, ffi, ir, PassFailed, PassId, PassInfo, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-gpu-math",
    summary: "Math ops in gpu.module kernels as LLVM intrinsic calls (sqrt, fabs, floor, ...), not libdevice",
    description: "In every gpu.module, math.sqrt/absf/floor/ceil/trunc/round/roundeven/copysign/fma \
on f16/f32/f64 become llvm.call_intrinsic of the LLVM intrinsic (NVPTX selects one instruction), \
math.rsqrt becomes 1/sqrt; convert-gpu-to-nvvm would call NVIDIA's libdevice for them. Any other \
math op left in a kernel is an error naming it (it has no expansion yet). Runs before \
convert-gpu-to-nvvm in the nvgpu pipeline.",
    anchor: "builtin.module",
    options: &[],
    id: &ID,
    create: pb_support::create_default::<GpuMath>,
};

#[derive(Clone, Default)]
struct GpuMath;

/// The LLVM intrinsic of a math op, by name.
fn intrinsic(op: &str) -> Option<&'static str> {
    Some(match op {
        "math.sqrt" => "sqrt",
        "math.absf" => "fabs",
        "math.floor" => "floor",
        "math.ceil" => "ceil",
        "math.trunc" => "trunc",
        "math.round" => "round",
        "math.roundeven" => "roundeven",
        "math.copysign" => "copysign",
        "math.fma" => "fma",
        _ => return None,
    })
}

impl RustPass for GpuMath {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["arith", "llvm"]
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        let ops = ffi::collect_ops(module, melior::ir::operation::WalkOrder::PreOrder, |op| {
            op.name().as_string_ref().as_str().is_ok_and(|n| n.starts_with("math.")) && ir::is_inside(op, "gpu.module")
        });
        let mut ok = true;
        for op in ops {
            ok &= ffi::with_context(op, |context| rewrite(context, op));
        }
        PassFailed::unless(ok)
    }
}

/// `f16`, `f32` or `f64` (the intrinsics' overload suffix), or `None`.
fn float_suffix(ty: Type) -> Option<&'static str> {
    if !ty.is_float() {
        return None;
    }
    match ty.to_string().as_str() {
        "f16" => Some("f16"),
        "f32" => Some("f32"),
        "f64" => Some("f64"),
        _ => None,
    }
}

fn rewrite<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> bool {
    let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
    let Ok(result) = op.result(0) else { return true };
    let ty = result.r#type();
    let suffix = float_suffix(ty);
    let target = if name == "math.rsqrt" { Some("sqrt") } else { intrinsic(&name) };
    let (Some(target), Some(suffix)) = (target, suffix) else {
        ffi::emit_error(
            op.location(),
            &format!("pb-gpu-math: '{name}' on {ty} in a GPU kernel is not supported yet (it would need NVIDIA's libdevice)"),
        );
        return false;
    };
    let ir_rewriter = IrRewriter::from_op(op);
    let rewriter = ir_rewriter.as_rewriter_base();
    rewriter.set_insertion_point_before(op);
    let emitter = Emitter { context, rewriter: &rewriter, location: op.location() };
    let operands: Vec<Value> = op.operands().collect();
    let segments = emitter.attribute(&format!("array<i32: {}, 0>", operands.len()));
    let value = emitter.value(
        "llvm.call_intrinsic",
        &operands,
        ty,
        &[
            ("intrin", StringAttribute::new(context, &format!("llvm.{target}.{suffix}")).into()),
            ("fastmathFlags", emitter.attribute("#llvm.fastmath<none>")),
            ("op_bundle_sizes", emitter.attribute("array<i32>")),
            ("operandSegmentSizes", segments),
        ],
    );
    let value = if name == "math.rsqrt" {
        let one = emitter.float(ty, 1.0);
        emitter.binary("arith.divf", one, value)
    } else {
        value
    };
    ffi::replace_all_uses(result.into(), value);
    // SAFETY: the math op's one result was just replaced; it has no regions and the pass's list holds
    // each op once.
    unsafe { ffi::erase(op) };
    true
}

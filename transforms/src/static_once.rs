//! `pb-static-once`: loop nests that compute only from static arguments (a
//! model's weights) run once per version of those arguments, into buffers
//! kept between calls, instead of on every call.
//!
//! Why: the engine itself derives values from weights. A quantized linear
//! layer whose activations have a non-zero zero point needs the sum of
//! each weight column (`pb-integer-contraction`: `za * sum_k b`); that sum
//! was computed on every call, 72 times in a BERT-base (every weight read
//! once more, a fifth of the model's time). The torch front moves such work
//! on parameters out of the graph when it sees it (`torch_parameters.py`),
//! but this work appears in the engine, after the front.
//!
//! What: in program order, a top-level `affine.for` nest is *static* when
//! every memref it reads is a static argument (`pb.static`: the caller
//! changes it only between versions, and says so by zeroing the prepared
//! flag) or a temporary written only by static nests, and every memref it
//! writes is such a temporary (a `memref.alloc` of the function, used by
//! nothing but loads, stores and deallocations). Each such temporary
//! becomes a buffer the pool keeps (`pb.persistent`, as the packed weights
//! of `pb-register-tile` and `pb-matrix-tile`), and each static nest runs
//! under `scf.if` on the prepared flag being 0 (the first call, and the
//! first after the caller's static arguments changed). Nests that read
//! anything else, and temporaries that anything else writes, are left as
//! they are. The static nests move up, in their order, to where what they
//! use is defined: gathered at the top, they no longer split the per-call
//! nests around them into separate runs for `pb-fuse`.
//!
//! ```mlir
//! %sum = memref.alloc() : memref<768xi32>
//! affine.for %j = 0 to 768 { affine.store %c0, %sum[%j] }
//! affine.for %j = 0 to 768 { affine.for %k ... %sum[%j] += %w[%j, %k] }   // %w {pb.static}
//! // becomes
//! %sum = memref.alloc() {pb.persistent} : memref<768xi32>      (at the top)
//! %stale = arith.cmpi eq, (memref.load %flag[]), %c0
//! scf.if %stale { affine.for ... }    (each static nest)
//! ```
//!
//! Runs where static arguments exist: the cpu pipeline with the pool (the
//! JIT) or the caller's memory (AOT), before the contraction passes.

use melior::ir::{operation::OperationLike, OperationRef, RegionLike, Value, ValueLike};
use pb_support::{ffi, ir, ir::is_named, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

use crate::contraction_epilogue::{copy_source, memory_accesses, top_level_users};
use pb_dialects::type_utils::memref_static_shape;

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-static-once",
    summary: "Loop nests computing only from static arguments run once per version of them",
    description: "A top-level affine.for nest that reads only static arguments (pb.static) and \
temporaries written only by such nests, and writes only such temporaries, runs under scf.if on the \
function's prepared flag being 0; the temporaries become pb.persistent buffers kept between calls. \
Other nests are left unchanged.",
    anchor: "func.func",
    options: &[PassOption {
        name: "cache-bytes",
        kind: OptionKind::UInt,
        default: "1048576",
        help: "A copy that expands a source of at most this many bytes (read from cache by its readers) runs per call, not once into a kept buffer",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(StaticOnce { cache_bytes: options.uint("cache-bytes") as i64 })
}

#[derive(Clone)]
struct StaticOnce {
    cache_bytes: i64,
}

impl RustPass for StaticOnce {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["scf", "memref", "arith"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        if !is_named(func, "func.func") {
            return Ok(());
        }
        ffi::with_context(func, |context| {
            let (nests, temporaries) = static_nests(func, self.cache_bytes);
            if nests.is_empty() {
                return Ok(());
            }
            for temporary in temporaries {
                keep(context, func, temporary)?;
            }
            hoist(func, &nests);
            for nest in nests {
                run_when_stale(context, nest)?;
            }
            Ok::<(), String>(())
        })
        .map_err(|message| {
            ffi::emit_warning(func.location(), &format!("pb-static-once: {message}"));
            PassFailed
        })
    }
}

/// A temporary of the function: a `memref.alloc` in its body whose every
/// use is a load, a store or a deallocation.
fn plain_temporary(value: Value, body: melior::ir::BlockRef) -> bool {
    let Some(alloc) = ffi::defining_op(value) else { return false };
    if !is_named(alloc, "memref.alloc") || alloc.block() != Some(body) || alloc.operand_count() > 0 {
        return false;
    }
    ffi::users(value).iter().all(|user| {
        ["affine.load", "affine.store", "memref.dealloc"].iter().any(|name| is_named(*user, name))
            && (!is_named(*user, "affine.store") || user.operand(1).ok() == Some(value))
    })
}

/// The static nests of `func` and the temporaries they compute.
///
/// A kept temporary must hold, at each per-call read, what its static
/// writers left in it: a buffer that bufferization reuses across layers
/// (one `768x768` dequantized weight written by each of twelve layers in
/// turn) read per call between two of its writers would see the last
/// layer's value on every call after the first. Such a temporary's
/// writers are excluded and the choice made again.
fn static_nests<'c, 'a>(func: OperationRef<'c, 'a>, cache_bytes: i64) -> (Vec<OperationRef<'c, 'a>>, Vec<Value<'c, 'a>>) {
    let Some(body) = func.region(0).ok().and_then(|r| r.first_block()) else { return (Vec::new(), Vec::new()) };
    let ops = ir::body_ops(func);
    let mut excluded: Vec<OperationRef> = Vec::new();
    loop {
        let (nests, kept) = choose(body, &ops, &excluded, cache_bytes);
        let position = |op: OperationRef| ops.iter().position(|o| *o == op);
        let unsettled = kept.iter().find_map(|t| {
            let writers = top_level_users(*t, "affine.store", body);
            let last_write = writers.iter().filter_map(|w| position(*w)).max()?;
            let read_before = top_level_users(*t, "affine.load", body)
                .into_iter()
                .any(|r| !nests.contains(&r) && position(r).is_some_and(|at| at < last_write));
            read_before.then_some(writers)
        });
        match unsettled {
            None => return (nests, kept),
            Some(writers) => excluded.extend(writers),
        }
    }
}

/// One choice of static nests and kept temporaries, never taking the
/// nests in `excluded`.
fn choose<'c, 'a>(
    body: melior::ir::BlockRef<'c, 'a>,
    ops: &[OperationRef<'c, 'a>],
    excluded: &[OperationRef<'c, 'a>],
    cache_bytes: i64,
) -> (Vec<OperationRef<'c, 'a>>, Vec<Value<'c, 'a>>) {
    // (nest, reads, writes) of each candidate; refined until stable.
    let mut candidates: Vec<(OperationRef, Vec<Value>, Vec<Value>)> = Vec::new();
    for op in ops.iter().filter(|op| is_named(**op, "affine.for") && !excluded.contains(op)) {
        let Some(accesses) = memory_accesses(*op) else { continue };
        let reads: Vec<Value> = accesses.iter().filter(|(_, write)| !write).map(|(v, _)| *v).collect();
        let writes: Vec<Value> = accesses.iter().filter(|(_, write)| *write).map(|(v, _)| *v).collect();
        if writes.is_empty() || !writes.iter().all(|w| plain_temporary(*w, body)) {
            continue;
        }
        if reads.iter().all(|r| ir::is_static_argument(*r) || plain_temporary(*r, body)) {
            candidates.push((*op, reads, writes));
        }
    }
    loop {
        let written: Vec<Value> = candidates.iter().flat_map(|(_, _, w)| w.iter().copied()).collect();
        let keep: Vec<bool> = candidates
            .iter()
            .map(|(_, reads, writes)| {
                // Every temporary read is computed by candidates, and every
                // writer of what it writes is a candidate.
                let reads_ok = reads.iter().all(|r| ir::is_static_argument(*r) || written.contains(r));
                let writes_ok = writes.iter().all(|w| {
                    ffi::users(*w).iter().filter(|u| is_named(**u, "affine.store")).all(|store| {
                        let top = ir::ancestor_in(*store, body);
                        top.is_some_and(|top| candidates.iter().any(|(c, _, _)| *c == top))
                    })
                });
                reads_ok && writes_ok
            })
            .collect();
        if keep.iter().all(|k| *k) {
            break;
        }
        let mut k = keep.into_iter();
        candidates.retain(|_| k.next().unwrap_or(false));
    }
    // A copy that expands a source small enough to stay in cache (a
    // per-channel bias broadcast over every pixel) is no work to save:
    // kept, it would be a buffer as large as an activation read from
    // memory on every call, where its readers read the source through it
    // from cache (pb-matrix-tile's epilogues, pb-fuse). It stays per call
    // unless another static nest reads or writes what it writes.
    let expanding: Vec<bool> =
        candidates.iter().map(|(nest, _, writes)| expanding_copy(*nest, writes, body, cache_bytes)).collect();
    let used_by_static: Vec<bool> = candidates
        .iter()
        .map(|(nest, _, writes)| {
            candidates.iter().any(|(other, reads, other_writes)| {
                other != nest && reads.iter().chain(other_writes).any(|v| writes.contains(v))
            })
        })
        .collect();
    let mut k = 0;
    candidates.retain(|_| {
        k += 1;
        !expanding[k - 1] || used_by_static[k - 1]
    });
    // Kept: what a candidate computes from a static argument or from what
    // is kept; and then everything a nest writing something kept writes
    // (its zero fill comes with a column sum). Nests writing nothing kept
    // (a fill of a buffer that no static nest reads) stay.
    let mut kept: Vec<Value> = Vec::new();
    let mut hoisted = vec![false; candidates.len()];
    loop {
        let mut changed = false;
        for (k, (_, reads, writes)) in candidates.iter().enumerate() {
            let from_static = reads.iter().any(|r| ir::is_static_argument(*r) || kept.contains(r));
            let writes_kept = writes.iter().any(|w| kept.contains(w));
            if !hoisted[k] && (from_static || writes_kept) {
                hoisted[k] = true;
                changed = true;
                for w in writes {
                    if !kept.contains(w) {
                        kept.push(*w);
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let nests = candidates.into_iter().zip(hoisted).filter(|(_, h)| *h).map(|((nest, _, _), _)| nest).collect();
    (nests, kept)
}

/// `nest` copies a source of at most `cache_bytes` into its one written
/// temporary, which has more elements than the source, and the source
/// holds its value from `nest` on: a static argument, or a temporary
/// nothing after `nest` writes (not a buffer that later layers reuse).
fn expanding_copy<'c, 'a>(
    nest: OperationRef<'c, 'a>,
    writes: &[Value<'c, 'a>],
    body: melior::ir::BlockRef<'c, 'a>,
    cache_bytes: i64,
) -> bool {
    let [t] = writes else { return false };
    let Some((source, _)) = copy_source(nest, *t) else { return false };
    let elements = |v: Value| memref_static_shape(v.r#type()).map(|shape| shape.iter().product::<i64>());
    let bytes = melior::ir::r#type::MemRefType::try_from(source.r#type())
        .ok()
        .and_then(|m| ffi::int_or_float_width(melior::ir::r#type::ShapedTypeLike::element(&m)))
        .zip(elements(source))
        .map(|(bits, n)| n * i64::from(bits) / 8);
    let expands = matches!((elements(*t), elements(source)), (Some(t), Some(s)) if t > s) && bytes.is_some_and(|b| b <= cache_bytes);
    let settled = ir::is_static_argument(source)
        || top_level_users(source, "affine.store", body).into_iter().all(|writer| ffi::is_before_in_block(writer, nest));
    expands && settled
}

/// Makes `temporary` a buffer the pool keeps between calls: a
/// `pb.persistent` allocation at the top of the body replaces it; its
/// deallocations go.
fn keep<'c>(context: &'c melior::Context, func: OperationRef<'c, '_>, temporary: Value<'c, '_>) -> Result<(), String> {
    let alloc = ffi::defining_op(temporary).ok_or("a temporary without its allocation")?;
    let first = ir::body_ops(func).into_iter().next().ok_or("empty function")?;
    let ty = temporary.r#type().to_string();
    let kept = crate::register_tile::persistent_buffer(context, first, &ty)?;
    for user in ffi::users(temporary) {
        if is_named(user, "memref.dealloc") {
            // SAFETY: a deallocation of the temporary, which the pool now owns.
            unsafe { ffi::erase(user) };
        }
    }
    ffi::replace_all_uses(temporary, kept);
    // SAFETY: the allocation has no uses left.
    unsafe { ffi::erase(alloc) };
    Ok(())
}

/// Moves `nest` into `scf.if %stale { }` on the prepared flag.
/// Moves each static nest (in program order) up to the earliest place
/// where what it uses is defined and the static nests before it have run:
/// they read only static arguments and kept buffers that static nests
/// write, so nothing between holds them back. Gathered at the top, their
/// `scf.if`s no longer split the per-call loop nests around them into
/// separate runs (a depthwise convolution's weights copied to `[KH, KW, C]`
/// sat between the padding its taps read and the taps, and `pb-fuse`
/// could not contract the padded map).
fn hoist<'c, 'a>(func: OperationRef<'c, 'a>, nests: &[OperationRef<'c, 'a>]) {
    let Some(body) = func.region(0).ok().and_then(|r| r.first_block()) else { return };
    let mut after: Option<OperationRef> = None;
    for &nest in nests {
        let ops = ir::body_ops(func);
        let position = |op: OperationRef| ops.iter().position(|o| *o == op);
        // The last top-level op defining a value used inside the nest.
        let mut last = after.and_then(position);
        for inner in ffi::collect_ops(nest, melior::ir::operation::WalkOrder::PreOrder, |_| true) {
            for value in (0..inner.operand_count()).filter_map(|i| ffi::operand(inner, i)) {
                let Some(top) = ffi::defining_op(value).and_then(|def| ir::ancestor_in(def, body)) else { continue };
                if top != nest {
                    last = last.max(position(top));
                }
            }
        }
        let anchor = match last {
            Some(at) => ops.get(at + 1).copied(),
            None => ops.first().copied(),
        };
        if let Some(anchor) = anchor.filter(|anchor| *anchor != nest && position(*anchor) < position(nest)) {
            ffi::move_before(nest, anchor);
        }
        after = Some(nest);
    }
}

fn run_when_stale<'c>(context: &'c melior::Context, nest: OperationRef<'c, '_>) -> Result<(), String> {
    use crate::register_tile::{stale_flag, when_stale};
    let terminator = when_stale(context, nest, stale_flag(context, nest)?)?;
    ffi::move_before(nest, terminator);
    Ok(())
}

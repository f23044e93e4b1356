//! A SCoP in ISL: domains, access relations, the original schedule and the
//! dependences between statement instances.
//!
//! Dependences are memory-based (every pair of instances that touch the same
//! element, at least one writing, in their original order): read-after-write,
//! write-after-read and write-after-write. That over-approximates the
//! value-based flow but is exactly what a reordering must respect — in
//! particular it keeps the write-after-read dependences that upstream
//! `affine-loop-fusion` was seen to break.

use crate::aff::Aff;
use crate::scop::{Scop, Statement};
use isl_rs::{Context, Map, Set, UnionMap, UnionSet};

pub type IslResult<T> = Result<T, String>;

pub fn isl_err(error: isl_rs::LibISLError) -> String {
    format!("ISL: {error}")
}

extern "C" {
    fn isl_options_set_on_error(ctx: libc_ptr, value: i32) -> i32;
}
#[allow(non_camel_case_types)]
type libc_ptr = usize;

/// `{ S[i] -> A[f(i)] }` of one exact access of statement `s` (`indices`
/// into `array`), restricted to the statement's domain.
pub fn access_map(ctx: &Context, scop: &Scop, s: &Statement, indices: &[Aff], array: usize) -> IslResult<Map> {
    let domain = Set::read_from_str(ctx, &scop.domain(s)).map_err(isl_err)?;
    Map::read_from_str(ctx, &scop.access_relation(s, indices, array)).and_then(|m| m.intersect_domain(domain)).map_err(isl_err)
}

/// An ISL context that reports errors through results instead of printing.
pub fn new_context() -> Context {
    let ctx = Context::alloc();
    // SAFETY: a freshly allocated context; ISL_ON_ERROR_CONTINUE = 1.
    unsafe { isl_options_set_on_error(ctx.ptr, 1) };
    ctx
}

/// The ISL view of a SCoP. Fields are dropped in order: the context last.
pub struct Model {
    pub domain: UnionSet,
    pub reads: UnionMap,
    pub writes: UnionMap,
    pub schedule: UnionMap,
    /// Computed on first use, then shared (passes ask once per statement
    /// and per candidate tiling).
    dependences: std::cell::OnceCell<UnionMap>,
    pub ctx: Context,
}

impl Model {
    pub fn new(scop: &Scop) -> IslResult<Model> {
        let ctx = new_context();
        let domain = UnionSet::read_from_str(&ctx, &scop.domains()).map_err(isl_err)?;
        let restrict = |text: String| -> IslResult<UnionMap> {
            UnionMap::read_from_str(&ctx, &text)
                .and_then(|m| m.intersect_domain_union_set(domain.copy()?))
                .map_err(isl_err)
        };
        let reads = restrict(scop.accesses(false))?;
        let writes = restrict(scop.accesses(true))?;
        let schedule = restrict(scop.original_schedule())?;
        Ok(Model { domain, reads, writes, schedule, dependences: std::cell::OnceCell::new(), ctx })
    }

    pub fn union_map(&self, text: &str) -> IslResult<UnionMap> {
        UnionMap::read_from_str(&self.ctx, text).map_err(isl_err)
    }

    /// Memory-based dependences `{ source -> sink }` under the original
    /// schedule.
    pub fn dependences(&self) -> IslResult<&UnionMap> {
        if let Some(dependences) = self.dependences.get() {
            return Ok(dependences);
        }
        let computed = self.compute_dependences()?;
        Ok(self.dependences.get_or_init(|| computed))
    }

    fn compute_dependences(&self) -> IslResult<UnionMap> {
        let run = || self.dependences_of(self.reads.copy()?, self.writes.copy()?);
        run().map_err(isl_err)
    }

    /// The memory dependences through the arrays in `arrays` alone (e.g.
    /// leaving out buffers private to an iteration of some loop).
    pub fn dependences_through(&self, arrays: UnionSet) -> IslResult<UnionMap> {
        let run = || {
            let reads = self.reads.copy()?.intersect_range(arrays.copy()?)?;
            let writes = self.writes.copy()?.intersect_range(arrays.copy()?)?;
            self.dependences_of(reads, writes)
        };
        run().map_err(isl_err)
    }

    /// Read-after-write, write-after-read and write-after-write pairs of
    /// `reads` and `writes` that the original schedule orders.
    fn dependences_of(&self, reads: UnionMap, writes: UnionMap) -> Result<UnionMap, isl_rs::LibISLError> {
        let raw = writes.copy()?.apply_range(reads.copy()?.reverse()?)?;
        let war = reads.apply_range(writes.copy()?.reverse()?)?;
        let waw = writes.copy()?.apply_range(writes.reverse()?)?;
        let all = raw.union(war)?.union(waw)?;
        let before = self.schedule.copy()?.lex_lt_union_map(self.schedule.copy()?)?;
        all.intersect(before)?.coalesce()
    }

    /// The dependences whose source and sink are both in `instances`.
    pub fn dependences_among(&self, instances: UnionSet) -> IslResult<UnionMap> {
        self.dependences()?
            .copy()
            .and_then(|d| d.intersect_domain_union_set(instances.copy()?))
            .and_then(|d| d.intersect_range_union_set(instances))
            .map_err(isl_err)
    }

    /// Is `schedule` (same statements, any time space) legal: does every
    /// dependence go forward in its order?
    pub fn respects(&self, dependences: &UnionMap, schedule: &UnionMap) -> IslResult<bool> {
        let run = || -> Result<bool, isl_rs::LibISLError> {
            let not_after = schedule.copy()?.lex_ge_union_map(schedule.copy()?)?;
            dependences.copy()?.intersect(not_after)?.is_empty()
        };
        run().map_err(isl_err)
    }
}

pub fn text(map: &UnionMap) -> String {
    map.to_str().map(str::to_string).unwrap_or_else(|e| format!("<{e}>"))
}

pub fn set_text(set: &UnionSet) -> String {
    set.to_str().map(str::to_string).unwrap_or_else(|e| format!("<{e}>"))
}

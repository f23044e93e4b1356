//! `pb-fuse`: fuse a chain of loop nests producing temporaries into the
//! nest that consumes them, by overlapped tiling with recomputation — the
//! image-pipeline fusion of the spec (blur-x into blur-y, the stages of
//! unsharp mask and Harris corner, time steps of a stencil) and tail fusion
//! of elementwise consumers into the contraction feeding them.
//!
//! The consumer (the statements touching the arrays that outlive the SCoP:
//! one, or several of the same rank and rows, such as a softmax's
//! exponentials and row sums left to the product that follows) is tiled
//! along the largest output's rows; each tile recomputes the parts of
//! the temporaries it reads, halos included, in small tile-local buffers
//! (`memref.alloca` in a `memref.alloca_scope`), so the full-size
//! temporaries disappear. Row tiles are independent: the tile loops (batch
//! dimensions outer, row tiles inner) are emitted as one `affine.parallel`
//! band, so each thread's share is one contiguous stretch of memory.
//! Inside a tile, where every statement writes one row of the output's
//! rank and reads the temporaries at its own row plus constants (stencils,
//! image pipelines), the statements advance row by row together, each
//! producer as many rows ahead of its readers as they read below their own
//! (Halide's sliding window; `fusion::InTile::leads`, legal by ISL): each
//! row of a temporary is computed once per tile and read while in cache,
//! and its buffer keeps only those live rows, indexed modulo their count
//! (storage folding, `fusion::row_folds`), so the model counts only them
//! against the caches and the stack, and tall tiles (little recomputed
//! halo) win. Otherwise each nest runs over all of
//! its rows of the tile before the next.
//! Inside a tile, each nest's contiguous loop
//! (the one moving the last index of its write) is put innermost when the
//! dependences allow it, so `pb-vectorize` applies, and consumer nests with
//! the same loops share them when ISL finds every dependence still forward
//! (a softmax's exponentials and their row sum, a layer norm's centering
//! and sum of squares: one pass over each row instead of two). Planning,
//! footprints and legality come from `pb_polyhedral::fusion` (ISL).
//!
//! The model (no search, no timing): the last dimension is not tiled (whole
//! rows: unit-stride streams, constant-bound vector loops); leading
//! dimensions (batch, channels) get tiles of 1. When a statement reads a
//! temporary across the rows of planes (a window over `H` of an `N x H x W
//! x C` map stored channels-last), rows of whole planes (`W x C`, `H`
//! tiled) are planned too, and the cheaper of both families wins. For each
//! power-of-two row
//! tile `B` (with at least one tile per core), ISL gives the local buffers,
//! hence the recomputation of each producer (tiles x local size / array
//! size - 1) and the tile's footprint (local buffers + its block of the
//! output). Estimated time = arithmetic work
//! (instances x ops, a transcendental function or a division weighed as the
//! several ops it expands to, producers scaled by their recomputation) at the
//! vector rate + moving each array outside the tiles once + traffic of
//! local buffers that exceed the cache budget + re-reading, on each pass
//! over the tile's rows after the first, what of the tile exceeds the
//! first-level cache (layer norm: 8-row tiles, ~8% faster than 128) + a
//! small cost per tile;
//! unfused = the work + every nest streaming the arrays it touches that
//! exceed the cache budget + writing and reading every temporary (at the
//! shared cache's rate when it fits there, else memory's). The
//! cheapest `B` wins if it beats unfused; `report=true` prints the numbers.
//!
//! It refuses (and leaves the nests as they are) when the arrays that
//! outlive the SCoP differ in rank or rows, a statement touches two of
//! them in different tiles, a temporary is read outside the SCoP or
//! through a view, a statement reads the array it writes at another
//! element, a nest holds more than one statement, or a contraction (matmul,
//! convolution over channels) is among the producers or the consumers (it
//! would lose pb-register-tile's micro-kernel).
//! After a refusal for contractions, the nests between them (without the
//! contractions and their accumulators' fills) are tried on their own:
//! attention's softmax between Q K^T and P V. Gathers (`memref.load` at
//! computed indices) of arrays no nest of the run writes are inexact reads
//! of inputs: no dependence, no footprint, cloned into the tiles with their
//! statement (a bilateral grid's slicing fuses with what reads it). A
//! gather of an array the run writes splits the run between the two; a run
//! the polyhedral model cannot read otherwise is cut at the nests it cannot
//! read alone, and the nests between are tried. A refused run made of
//! independent chains (no array one chain writes is touched by another: two
//! pyramids built level by level, their nests interleaved in program order)
//! has each chain's nests moved together and tried as a run of its own,
//! before any cut.
//!
//! Runs of the same structure (a model's repeated layers) are planned once
//! and the plan applied to each (`fuse_cache`).

use crate::fuse_cache::{self, Applied, Planned};
use crate::report;
use std::collections::HashMap;
use melior::{
    ir::{operation::OperationLike, r#type::{MemRefType, ShapedTypeLike}, OperationRef, Type, ValueLike},
    Context,
};
use pb_polyhedral::{
    codegen::{Codegen, Locals, Redirect, Redirects, Target},
    driver,
    fusion::{self, Groups, Plan, Tiling},
    scop::Statement,
    Model, Scop,
};
use pb_support::{budget, ffi, ir::is_named, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};
use pb_support::target::TargetDesc;

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-fuse",
    summary: "Fuse producer nests into their consumer by overlapped tiling with tile-local temporaries",
    description: "For each SCoP whose live-out arrays share their rows and whose temporaries are \
used only inside it, tiles the consumers along the output rows, recomputes the needed parts of the \
temporaries per tile (halos included) in tile-local buffers and runs the row tiles in parallel. Tile \
size from a model of recomputation and per-core cache capacity. Refuses live-outs of other shapes, \
escaping temporaries, views, in-place stencils and contractions (left to pb-register-tile; the nests \
between contractions are tried alone).",
    anchor: "func.func",
    options: &[
        PassOption { name: "cores", kind: OptionKind::UInt, default: "0", help: "Cores to share tiles among (0: the host's)" },
        PassOption {
            name: "cache-bytes",
            kind: OptionKind::UInt,
            default: "0",
            help: "Per-core cache the tile's local buffers should fit in (0: half the host's L2)",
        },
        PassOption {
            name: "outer-cache-bytes",
            kind: OptionKind::UInt,
            default: "0",
            help: "Shared last-level cache that takes what spills from the per-core budget (0: the host's L3; none: 1)",
        },
        PassOption {
            name: "inner-cache-bytes",
            kind: OptionKind::UInt,
            default: "0",
            help: "Per-core first-level cache the passes over a tile should find its rows in (0: half the host's L1; none: 1)",
        },
        PassOption { name: "lanes", kind: OptionKind::UInt, default: "16", help: "f32 vector lanes (the model's arithmetic rate)" },
        PassOption {
            name: "row-tile",
            kind: OptionKind::UInt,
            default: "0",
            help: "Use this row tile (a power of two from 4) instead of the model's choice (0: the model's)",
        },
        PassOption {
            name: "sliding",
            kind: OptionKind::Bool,
            default: "true",
            help: "Let a tile's statements advance row by row together where the dependences allow (false: each nest over all of its rows in turn)",
        },
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Explain each decision on stderr" },
        PassOption {
            name: "deadline-ms",
            kind: OptionKind::UInt,
            default: "0",
            help: "Compile-budget deadline (ms since the Unix epoch; 0: none): runs not planned by then stay unfused",
        },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    // The host is probed only for options left at 0 (the cpu pipeline sets both).
    let host = std::cell::OnceCell::new();
    let host = || host.get_or_init(TargetDesc::host);
    let cores = match options.uint("cores") {
        0 => host().cores.max(1) as i64,
        n => n as i64,
    };
    let budget = match options.uint("cache-bytes") {
        0 => host().cache_bytes(2).map(|b| b / 2).unwrap_or(512 * 1024) as i64,
        n => n as i64,
    };
    let inner = match options.uint("inner-cache-bytes") {
        0 => host().cache_bytes(1).map(|b| b as i64 / 2),
        1 => None,
        n => Some(n as i64),
    };
    let outer = match options.uint("outer-cache-bytes") {
        0 => host().cache_bytes(3).unwrap_or(0) as i64,
        n => n as i64,
    };
    Box::new(Fuse {
        cores,
        budget,
        inner,
        outer,
        lanes: options.uint("lanes").max(1) as i64,
        row_tile: options.uint("row-tile") as i64,
        sliding: options.bool("sliding"),
        report: options.bool("report"),
        deadline_ms: options.uint("deadline-ms"),
    })
}

#[derive(Clone)]
struct Fuse {
    cores: i64,
    budget: i64,
    /// First-level cache per core (bytes; `None`: not modelled).
    inner: Option<i64>,
    /// Shared cache beyond the per-core one (bytes; 0 or 1: none).
    outer: i64,
    lanes: i64,
    /// A row tile forced by the user (0: the model's choice).
    row_tile: i64,
    /// Rows of a tile may advance together (`fusion::InTile::leads`).
    sliding: bool,
    report: bool,
    /// The compile budget's deadline (`pb_support::budget`; 0: none).
    deadline_ms: u64,
}

impl Fuse {
    fn ops_per_second(&self) -> f64 {
        OPS_PER_LANE_PER_SECOND * (self.lanes * self.cores) as f64
    }

    fn bytes_per_second(&self) -> f64 {
        MEMORY_BYTES_PER_SECOND
    }

    /// Rate of the traffic of tile buffers beyond the per-core budget: the
    /// shared cache's when every core's tile fits there, else memory's.
    fn spill_bytes_per_second(&self, footprint: i64) -> f64 {
        if footprint * self.cores <= self.outer / 2 {
            OUTER_CACHE_BYTES_PER_SECOND
        } else {
            MEMORY_BYTES_PER_SECOND
        }
    }
}

/// Machine rates of the model: vector arithmetic per core (lanes x 2 ops
/// per cycle at ~2 GHz, conservatively) and memory bandwidth shared by all
/// cores (a typical 2-channel server slice). Estimates to compare options,
/// not predictions of run time.
const OPS_PER_LANE_PER_SECOND: f64 = 4.0e9;
const MEMORY_BYTES_PER_SECOND: f64 = 10.0e9;
/// A shared last-level cache (L3): several times memory's bandwidth.
const OUTER_CACHE_BYTES_PER_SECOND: f64 = 40.0e9;
/// A core re-reading a tile's rows from its second-level cache (~64
/// bytes per cycle at ~3 GHz), when they do not fit the first level.
const INNER_SPILL_BYTES_PER_SECOND: f64 = 200.0e9;
/// Entering a tile (loop set-up, scheduling): ~300 cycles.
const TILE_OVERHEAD_SECONDS: f64 = 1.0e-7;
/// Products with longer reductions (see [`is_contraction`]) are left to
/// pb-register-tile, producers and consumers alike (Q K^T's 64, a
/// convolution's channels x taps): its micro-kernels run several times
/// faster than the loops of a fused tile, which recomputing or storing the
/// result once does not offset (a Q K^T fused as the producer of the copy
/// after it ran ~8x slower; efficientnet_b0's 16-channel expansions and its
/// 27-step stem convolution, fused, ran at half their register-tiled rate).
/// Shorter products (an image pipeline's 3x3 colour matrix) fuse: a
/// register tile has too few steps to amortize loading and storing its
/// accumulators. Filters whose weights are the same for every output
/// element (an image's 3x3 or 5x5 blur) are not products.
const MIN_TILED_REDUCTION: i64 = 8;
/// Local buffers live on the stack of a worker thread.
const MAX_LOCAL_BYTES: i64 = 2 << 20;
/// The smallest row tile tried; larger ones double it up to the rows.
const FIRST_ROW_TILE: i64 = 4;

impl RustPass for Fuse {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "memref"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        // Runs front to back (a run's allocations may sit among an earlier
        // run's ops; fusing a later run first could erase them); segments
        // of a refused run are tried next, in order.
        let mut work: std::collections::VecDeque<_> = driver::function_runs(func).into();
        // Plans by run structure (`fuse_cache`): a model's repeated layers
        // are planned once.
        let mut plans: HashMap<String, Planned> = HashMap::new();
        while let Some(run) = work.pop_front() {
            // Read before the run's ops are replaced.
            let location = run[0].location();
            if budget::passed(self.deadline_ms) {
                // What is left stays as it is: correct, unfused code.
                let nests: usize =
                    std::iter::once(&run).chain(work.iter()).map(|r| r.iter().filter(|op| is_named(**op, "affine.for")).count()).sum();
                budget::warn_skipped(location, INFO.argument, &format!("{} runs of {nests} loop nests from here on left unfused", work.len() + 1));
                break;
            }
            let outcome = ffi::with_context(func, |context| self.fuse_run(context, &run, &mut plans));
            // A refused run of independent chains (two pyramids built level
            // by level, their nests interleaved in program order): each
            // chain, made contiguous, is tried on its own.
            if let Err(Refusal::Left(message) | Refusal::Cut(message, _) | Refusal::Split(message, _)) = &outcome {
                let chains = independent_chains(&run);
                if chains.len() > 1 {
                    if self.report {
                        // (instead of the cut the refusal proposed)
                        let reason = message.split(" (the nests between").next().unwrap_or(message);
                        report::note(location, INFO.argument, &format!("{reason} (its {} independent chains are tried alone)", chains.len()));
                    }
                    for chain in chains.into_iter().rev() {
                        work.push_front(chain);
                    }
                    continue;
                }
            }
            let message = match outcome {
                Ok(message) | Err(Refusal::Left(message)) => message,
                // The nests between the contractions may still fuse (a
                // softmax between two matrix products), or those between
                // the nests of a pooled output (a depthwise convolution
                // and its activation before a squeeze-excitation's pool).
                Err(Refusal::Cut(message, cut)) => {
                    for segment in segments(&run, &cut, false).into_iter().rev() {
                        work.push_front(segment);
                    }
                    message
                }
                Err(Refusal::Split(message, splits)) => {
                    for segment in segments(&run, &splits, true).into_iter().rev() {
                        work.push_front(segment);
                    }
                    message
                }
                Err(Refusal::Failed(message)) => {
                    ffi::emit_error(location, &message);
                    return Err(PassFailed);
                }
            };
            if self.report {
                report::note(location, INFO.argument, &message);
            }
        }
        Ok(())
    }
}

/// The parts of `run` at its nests number `at` (positions among the run's
/// nests), with two nests or more: those nests are left out (`keep` false:
/// the parts between them) or each starts a part (`keep` true: the run
/// split before them).
fn segments<'c, 'a>(run: &[OperationRef<'c, 'a>], at: &[usize], keep: bool) -> Vec<Vec<OperationRef<'c, 'a>>> {
    let mut segments = vec![Vec::new()];
    let mut nest = 0;
    for op in run {
        let is_nest = is_named(*op, "affine.for");
        let boundary = is_nest && at.contains(&nest);
        if boundary {
            segments.push(Vec::new());
        }
        if !boundary || keep {
            if let Some(current) = segments.last_mut() {
                current.push(*op);
            }
        }
        nest += usize::from(is_nest);
    }
    segments.retain(|s| s.iter().filter(|op| is_named(**op, "affine.for")).count() >= 2);
    segments
}

/// The nests of `run` grouped into chains that share no array one of them
/// writes (connected through every array some nest of the run writes; read-
/// only inputs do not connect), each chain's nests moved together, in
/// order, to just before its last nest, and returned as a run of its own;
/// fewer than two chains of two nests or more: nothing moves, none
/// returned. Moving a nest past nests of other chains is legal: they touch
/// no array either writes; the hoistable ops between (buffers, views,
/// constants) neither use a nest nor are used by one defined before them.
fn independent_chains<'c, 'a>(run: &[OperationRef<'c, 'a>]) -> Vec<Vec<OperationRef<'c, 'a>>> {
    let nests: Vec<OperationRef> = run.iter().copied().filter(|op| is_named(*op, "affine.for")).collect();
    if nests.len() < 4 {
        return Vec::new();
    }
    let Ok(scop) = Scop::extract_accesses(run) else { return Vec::new() };
    let mut parent: Vec<usize> = (0..nests.len()).collect();
    fn find(parent: &mut [usize], k: usize) -> usize {
        let mut root = k;
        while parent[root] != root {
            root = parent[root];
        }
        parent[k] = root;
        root
    }
    let written: std::collections::HashSet<usize> =
        scop.statements.iter().flat_map(|s| s.accesses.iter().filter(|a| a.write).map(|a| a.array)).collect();
    let mut first_nest_of: HashMap<usize, usize> = HashMap::new();
    for statement in &scop.statements {
        let nest = statement.beta[0];
        for access in statement.accesses.iter().filter(|a| written.contains(&a.array)) {
            let other = *first_nest_of.entry(access.array).or_insert(nest);
            let (a, b) = (find(&mut parent, nest), find(&mut parent, other));
            parent[a.max(b)] = a.min(b);
        }
    }
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let mut chain_of: HashMap<usize, usize> = HashMap::new();
    for k in 0..nests.len() {
        let root = find(&mut parent, k);
        let index = *chain_of.entry(root).or_insert_with(|| {
            chains.push(Vec::new());
            chains.len() - 1
        });
        chains[index].push(k);
    }
    if chains.iter().filter(|c| c.len() >= 2).count() < 2 {
        return Vec::new();
    }
    chains
        .into_iter()
        .filter(|chain| chain.len() >= 2)
        .map(|chain| {
            let last = nests[*chain.last().expect("a chain has nests")];
            for &k in &chain[..chain.len() - 1] {
                ffi::move_before(nests[k], last);
            }
            chain.iter().map(|&k| nests[k]).collect()
        })
        .collect()
}

/// Why a run the polyhedral model cannot read is left: cut at the nests
/// it cannot read alone (a gather's `memref.load` at computed indices), so
/// that the nests between them fuse on their own (local laplacian's
/// pyramid levels between its level lookups); left whole when no nest is
/// to blame (or every one is).
///
/// Gathers read inputs only: where a nest gathers from an array another
/// nest of the run writes, the run is split between them (before the later
/// of the two), each part tried on its own.
fn refuse_unreadable(run: &[OperationRef], message: &str) -> Refusal {
    let nests: Vec<OperationRef> = run.iter().copied().filter(|op| is_named(*op, "affine.for")).collect();
    let cut: Vec<usize> = (0..nests.len()).filter(|&k| Scop::extract_with_gathers(&nests[k..=k]).is_err()).collect();
    if !cut.is_empty() && cut.len() < nests.len() {
        return Refusal::Cut(
            format!("not fused: {message} (cut at the {} nests it cannot read alone; the nests between them are tried alone)", cut.len()),
            cut,
        );
    }
    let mut splits: Vec<usize> = Vec::new();
    if cut.is_empty() {
        if let Ok(scop) = Scop::extract_accesses(run) {
            for reader in &scop.statements {
                for gather in reader.accesses.iter().filter(|a| is_named(a.op, "memref.load")) {
                    for writer in scop.statements.iter().filter(|w| w.accesses.iter().any(|a| a.write && a.array == gather.array)) {
                        let (r, w) = (reader.beta[0], writer.beta[0]);
                        if r != w {
                            splits.push(r.max(w));
                        }
                    }
                }
            }
        }
    }
    splits.sort_unstable();
    splits.dedup();
    if splits.is_empty() {
        return Refusal::from(message.to_string());
    }
    Refusal::Split(format!("not fused: {message} (split before {} nests that gather from or write what another gathers)", splits.len()), splits)
}

enum Refusal {
    /// Nothing changed; the reason.
    Left(String),
    /// Nothing changed (the reason); the nests between those at these
    /// positions (contractions, writers of outputs with other rows) may
    /// fuse on their own.
    Cut(String, Vec<usize>),
    /// Nothing changed (the reason); the parts of the run split before the
    /// nests at these positions may fuse on their own.
    Split(String, Vec<usize>),
    /// The IR may be damaged (code generation failed half-way): an error.
    Failed(String),
}

impl From<String> for Refusal {
    fn from(message: String) -> Self {
        Refusal::Left(format!("not fused: {message}"))
    }
}

struct Choice {
    size: i64,
    /// Trailing dimensions of the output a row holds whole (1: rows of
    /// its last dimension; 2: rows of whole planes).
    whole: usize,
    /// Rows along the tiled dimension (`size` to a tile).
    rows: i64,
    recompute: f64,
    /// Bytes the tile keeps in cache (see the model).
    footprint: i64,
    /// Bytes of its local buffers (on a worker's stack).
    stack: i64,
    tiles: i64,
    /// Estimated seconds (model).
    cost: f64,
    plan: Plan,
    /// Passes over a tile's rows (see [`passes_over_rows`]).
    passes: usize,
}

impl Fuse {
    fn fuse_run<'c>(
        &self,
        context: &'c Context,
        run: &[OperationRef<'c, '_>],
        plans: &mut HashMap<String, Planned>,
    ) -> Result<String, Refusal> {
        let scop = match Scop::extract_with_gathers(run) {
            Ok(scop) => scop,
            Err(e) => return Err(refuse_unreadable(run, &e.to_string())),
        };
        let key = fuse_cache::key(run, &scop);
        let (planned, again) = match plans.get(&key) {
            Some(planned) => (planned.clone(), true),
            None => {
                let planned = self.plan_run(&scop)?;
                plans.insert(key, planned.clone());
                (planned, false)
            }
        };
        let again = |message: String| if again { format!("{message} (planned once for identical runs)") } else { message };
        match planned {
            Planned::Fused(message, applied) => {
                self.apply(context, &scop, &applied).map_err(Refusal::Failed)?;
                Ok(again(message))
            }
            Planned::Left(message) => Err(Refusal::Left(again(message))),
            Planned::Cut(message, cut) => Err(Refusal::Cut(again(message), cut)),
        }
    }

    /// What to do with `scop`: its plan, or why not and where to cut it.
    /// An error only when planning itself failed.
    fn plan_run(&self, scop: &Scop) -> Result<Planned, Refusal> {
        match self.fuse_scop(scop) {
            Ok((message, applied)) => Ok(Planned::Fused(message, applied)),
            // Nests that keep the SCoP from fusing whole (a global pool in
            // a squeeze-excitation): those between them may fuse.
            Err(Refusal::Left(message)) => {
                let barriers = fusion::barriers(scop, &|array| scop.is_private(array));
                if barriers.is_empty() {
                    return Ok(Planned::Left(message));
                }
                let names: Vec<&str> = barriers.iter().map(|s| scop.statements[*s].name.as_str()).collect();
                let cut = barriers.iter().map(|s| scop.statements[*s].beta[0]).collect();
                Ok(Planned::Cut(format!("{message} (the nests between {} are tried alone)", names.join(",")), cut))
            }
            Err(Refusal::Cut(message, cut)) => Ok(Planned::Cut(message, cut)),
            Err(failed) => Err(failed),
        }
    }

    fn fuse_scop(&self, scop: &Scop) -> Result<(String, Applied), Refusal> {
        // Contractions are left whole for pb-register-tile, whose
        // micro-kernels beat anything a fused tile of them would run
        // (a transpose fused into Q K^T ran at a fifth of the rate). Checked
        // first: a model's function is one run, and its dependences (the
        // model below) cost seconds, to no use when it is cut anyway.
        if let Some(s) = (0..scop.statements.len()).find(|s| is_contraction(&scop.statements[*s])) {
            // A consumer writes what outlives the loop nests.
            let removable = |array| scop.is_private(array);
            let writes_output =
                scop.statements[s].accesses.iter().any(|a| a.write && !fusion::contractible(scop, a.array, &removable));
            let role = if writes_output { "consumer" } else { "producer" };
            let message = format!(
                "not fused: {role} {} is a contraction: left whole for pb-register-tile (the nests between contractions are tried alone)",
                scop.statements[s].name
            );
            // Every contraction, with the nests initializing their
            // accumulators (a zero fill belongs with its product).
            let accumulators: Vec<usize> = scop
                .statements
                .iter()
                .filter(|s| is_contraction(s))
                .filter_map(|s| s.accesses.iter().find(|a| a.write).map(|a| a.array))
                .collect();
            let cut = scop
                .statements
                .iter()
                .filter(|s| s.accesses.iter().filter(|a| a.write).all(|a| accumulators.contains(&a.array)))
                .map(|s| s.beta[0])
                .collect();
            return Err(Refusal::Cut(message, cut));
        }
        let model = Model::new(scop)?;
        let groups = fusion::classify(scop, &|array| scop.is_private(array))?;
        let output = &scop.arrays[groups.output];
        let rank = output.shape.len();
        if rank < 2 || output.shape.iter().any(|n| *n <= 0) {
            return Err(Refusal::from("the output is not a statically shaped array of rank 2 or more".to_string()));
        }
        // Work of each statement (instances x arithmetic ops) and bytes of
        // each temporary: the two sides of the model.
        let work: Vec<f64> = scop.statements.iter().map(|s| instances(scop, s) * arithmetic_ops(s)).collect();
        let all_work: f64 = work.iter().sum();
        // Unfused, each temporary is written and read back: from the shared
        // cache when it fits there with room to spare (a small map's
        // activations), else from memory.
        let temporaries_seconds: f64 = groups
            .contracted
            .iter()
            .map(|a| {
                let bytes = array_elements(scop, *a) * scop.arrays[*a].element_bytes as f64;
                2.0 * bytes / if bytes <= self.outer as f64 / 2.0 { OUTER_CACHE_BYTES_PER_SECOND } else { self.bytes_per_second() }
            })
            .sum();
        // Memory traffic: unfused, every nest streams each array it touches
        // that is larger than the cache budget (and writes and reads the
        // temporaries); fused, each array outside the tiles moves once.
        let array_bytes = |a: usize| array_elements(scop, a) * scop.arrays[a].element_bytes as f64;
        let streamed: f64 = scop
            .statements
            .iter()
            .map(|s| {
                let mut arrays: Vec<usize> = s.accesses.iter().map(|a| a.array).collect();
                arrays.sort();
                arrays.dedup();
                arrays.iter().map(|a| array_bytes(*a)).filter(|b| *b > self.budget as f64).sum::<f64>()
            })
            .sum();
        let outside: f64 = (0..scop.arrays.len()).filter(|a| !groups.contracted.contains(a)).map(array_bytes).sum();
        let unfused = all_work / self.ops_per_second() + streamed / self.bytes_per_second() + temporaries_seconds;
        // Rows hold the output's last dimension whole (`N x C x H x W`
        // tiled along H), or its last two (rows of whole planes: `N x H x
        // W x C` tiled along H, so that a window over H and W recomputes
        // only the halo above and below a tile, not around each row of
        // W). Planes are planned where some statement reads a temporary
        // across their rows and a tile of the fewest rows fits the cache
        // budget, and then first: rows of the last dimension would tile H
        // by one and recompute the window's whole height on every tile, so
        // they are planned only if no plane tile can be. The model picks
        // the cheapest tile.
        let plane_bytes = output.shape[rank - 2] * output.shape[rank - 1] * output.element_bytes;
        let planes = rank >= 3
            && output.shape[rank - 3] > 1
            && FIRST_ROW_TILE.min(output.shape[rank - 3]) * plane_bytes <= self.budget
            && windows_across_planes(scop, &groups.contracted);
        let wholes = if planes { vec![2, 1] } else { vec![1] };
        let mut first_refusal = None;
        let mut ordered: Option<fusion::InTile> = None;
        let mut choices = Vec::new();
        for whole in wholes {
            if whole == 1 && !choices.is_empty() {
                break;
            }
            let row_dim = rank - 1 - whole;
            let rows = output.shape[row_dim];
            let leading: i64 = output.shape[..row_dim].iter().product();
            let row_length: i64 = output.shape[row_dim + 1..].iter().product();
            let tiling_for = |size: i64| Tiling {
                sizes: (0..rank).map(|d| if d < row_dim { Some(1) } else if d == row_dim { Some(size) } else { None }).collect(),
                // Batch dimensions outer, row tiles inner: the parallel band
                // below collapses them, and each thread's share is one
                // contiguous stretch of memory (row tiles outer had each
                // thread jump between the heads of a softmax every few rows).
                order: (0..=row_dim).collect(),
            };
            // Whether tiles can own what they write does not depend on the order
            // inside a tile, which costs the most to find (legal permutations
            // and jams, per statement pair): a refused SCoP (a global pool's
            // sums shared by every row tile) is refused before paying for it.
            // The smallest tile is the first planned below, whose refusal
            // refuses the family of tiles.
            if FIRST_ROW_TILE < rows * 2 {
                if let Err(refusal) = fusion::check_tiles(scop, &model, &groups, &tiling_for(FIRST_ROW_TILE)) {
                    first_refusal.get_or_insert(refusal);
                    continue;
                }
            }
            // The orders and jams inside a tile once; the sliding window
            // per row position.
            let base = match &mut ordered {
                Some(base) => base,
                slot => slot.insert(fusion::order_in_tile(scop, &model, &groups, &|s: &Statement| contiguous_last(s))?),
            };
            let mut in_tile = if base.row_from_end == whole + 1 { base.clone() } else { base.with_rows_at(&model, scop, &groups, whole + 1)? };
            if !self.sliding {
                in_tile.leads = None;
            }
            // Each pass over a tile's rows after the first finds them in the
            // first-level cache only if the tile fits there.
            let passes = passes_over_rows(scop, &in_tile, output.shape[rank - 1]);
            let rereads = passes.saturating_sub(1) as f64;
            let mut size = FIRST_ROW_TILE;
            while size < rows * 2 {
                let plan = match fusion::plan(scop, &model, &groups, &tiling_for(size), &in_tile) {
                    Ok(plan) => plan,
                    Err(refusal) if whole > 1 => {
                        first_refusal.get_or_insert(refusal);
                        break;
                    }
                    Err(refusal) => return Err(Refusal::from(refusal)),
                };
                let tiles = (rows + size - 1) / size * leading;
                // The tile's working set: its local buffers and its block of the
                // output (consumers may pass over it several times).
                let output_rows = size.min(rows) * row_length * output.element_bytes;
                let stack: i64 = plan.slots.iter().map(|l| l.bytes(scop.arrays[l.array].element_bytes)).sum();
                // What the tile keeps in cache: all of its buffers and its block
                // of the output; advancing row by row, only the rows of each
                // buffer the next rows still read (its halo and the row being
                // written) and the output row.
                let footprint: i64 = if plan.sliding {
                    let row_bytes = row_length * output.element_bytes;
                    // (A folded buffer holds just those rows.)
                    row_bytes
                        + plan
                            .slots
                            .iter()
                            .zip(&plan.locals)
                            .map(|(slot, local)| {
                                let bytes = slot.bytes(scop.arrays[slot.array].element_bytes);
                                if local.fold.is_some() {
                                    return bytes;
                                }
                                let local_rows =
                                    slot.shape.len().checked_sub(whole + 1).and_then(|k| slot.shape.get(k)).copied().unwrap_or(1).max(1);
                                let live = (local_rows - size.min(rows) + 1).clamp(1, local_rows);
                                bytes / local_rows * live
                            })
                            .sum::<i64>()
                } else {
                    stack + output_rows
                };
                let recompute_of = |array: usize| -> f64 {
                    plan.locals.iter().find(|l| l.array == array).map_or(0.0, |l| {
                        let local: i64 = l.shape.iter().product();
                        (tiles * local) as f64 / array_elements(scop, array).max(1.0) - 1.0
                    })
                };
                let recompute = groups.contracted.iter().map(|a| recompute_of(*a)).fold(0.0, f64::max);
                let mut fused_work = 0.0;
                for (index, s) in scop.statements.iter().enumerate() {
                    let written = s.accesses.iter().find(|a| a.write).map(|a| a.array);
                    let extra = if groups.producers.contains(&index) { written.map_or(0.0, recompute_of) } else { 0.0 };
                    fused_work += work[index] * (1.0 + extra.max(0.0));
                }
                // What exceeds the cache budget spills (written and read back
                // once per tile), to the shared cache if it fits there.
                let spill = 2.0 * (tiles * (footprint - self.budget).max(0)) as f64;
                // Re-reading what exceeds the first-level cache, per pass.
                let inner_spill = self.inner.map_or(0.0, |inner| rereads * (tiles * (footprint - inner).max(0)) as f64);
                let cost = fused_work / self.ops_per_second()
                    + outside / self.bytes_per_second()
                    + spill / self.spill_bytes_per_second(footprint)
                    + inner_spill / (INNER_SPILL_BYTES_PER_SECOND * self.cores as f64)
                    + tiles as f64 * TILE_OVERHEAD_SECONDS / self.cores as f64;
                choices.push(Choice { size, whole, rows, recompute, footprint, stack, tiles, cost, plan, passes });
                // Larger tiles only grow the buffers past the stack limit, or
                // further past the cache budget once the cost turns up there.
                let rising = choices.len() >= 2 && choices[choices.len() - 2].cost < cost && choices[choices.len() - 2].whole == whole;
                if size >= rows || stack > MAX_LOCAL_BYTES || (footprint > self.budget && rising) {
                    break;
                }
                size *= 2;
            }
        }
        if choices.is_empty() {
            if let Some(refusal) = first_refusal {
                return Err(Refusal::from(refusal));
            }
        }
        let parallel_enough = |c: &Choice| (c.rows + c.size - 1) / c.size >= self.cores.min(c.rows);
        let chosen = choices
            .iter()
            .filter(|c| self.row_tile == 0 || c.size == self.row_tile)
            .filter(|c| c.stack <= MAX_LOCAL_BYTES && parallel_enough(c))
            .min_by(|a, b| a.cost.total_cmp(&b.cost));
        let Some(chosen) = chosen else {
            if self.row_tile != 0 {
                return Err(Refusal::from(format!("row tile {} is not a candidate (a power of two from 4 within the rows, local buffers within a thread's stack)", self.row_tile)));
            }
            let smallest = choices.iter().map(|c| c.stack).min().unwrap_or(0);
            return Err(Refusal::from(format!(
                "tile-local buffers would not fit on a thread's stack ({} KiB for the smallest row tile, limit {} KiB)",
                smallest / 1024,
                MAX_LOCAL_BYTES / 1024
            )));
        };
        if self.row_tile == 0 && chosen.cost >= unfused {
            return Err(Refusal::from(format!(
                "the model prefers the nests apart: fused ~{:.2} ms (row tile {}, recomputation {:.0}%) vs unfused ~{:.2} ms",
                chosen.cost * 1e3,
                chosen.size,
                chosen.recompute * 100.0,
                unfused * 1e3
            )));
        }
        let plan = &chosen.plan;
        let message = self.describe(scop, &groups, plan, chosen, unfused);
        // The outermost generated loops are the tile loops with more than
        // one iteration (ISL drops single-valued ones): the parallel band.
        let row_tiles = (chosen.rows + chosen.size - 1) / chosen.size;
        let row_dim = rank - 1 - chosen.whole;
        let multi = output.shape[..row_dim].iter().chain(std::iter::once(&row_tiles)).filter(|n| **n > 1).count();
        let parallel_depth = if chosen.tiles > 1 && self.cores > 1 { multi } else { 0 };
        let params = format!("[{}] -> {{ : }}", scop.param_names().join(", "));
        let tree = pb_polyhedral::ast::generate(&model.ctx, &params, &plan.schedule).map_err(Refusal::from)?;
        // Every tile's statements must run in one loop nest over the tiles:
        // its local buffers live there. ISL may give a statement needed by
        // one tile only (a class token concatenated before the rows of a
        // transposed image, needed by the first row tile) a loop nest of
        // its own before the tile loop, which would write buffers no tile
        // reads.
        if !one_loop_nest(&tree, multi) {
            return Err(Refusal::from(
                "ISL gives some statement of a tile a loop nest outside the tile loop (its local buffers would not be the tile's)"
                    .to_string(),
            ));
        }
        let applied = Applied {
            redirects: plan.redirects.clone(),
            slots: plan.slots.clone(),
            slot_of: plan.slot_of.clone(),
            contracted: groups.contracted.clone(),
            tree,
            parallel_depth,
        };
        Ok((message, applied))
    }

    /// The report line of a fusion: what was fused, the tile, its buffers,
    /// the budgets of the model and its estimates.
    fn describe(&self, scop: &Scop, groups: &Groups, plan: &Plan, chosen: &Choice, unfused: f64) -> String {
        let passes = chosen.passes;
        let names = |list: &[usize]| list.iter().map(|s| scop.statements[*s].name.clone()).collect::<Vec<_>>().join(",");
        let locals: Vec<String> = plan
            .locals
            .iter()
            .map(|l| {
                let shape: Vec<String> = l.stored_shape().iter().map(|n| n.to_string()).collect();
                let folded = l.fold.map_or(String::new(), |(dim, _)| format!(" (rows folded from {})", l.shape[dim]));
                format!("{}[{}]{folded}", scop.arrays[l.array].name, shape.join("x"))
            })
            .collect();
        format!(
            "fused producers {} into consumers {} of {}: row tile {}{} ({} parallel tiles{}), tile-local {} in {} buffer{} = {} KiB, \
{} KiB in cache (budget {} KiB{}), recomputation {:.1}%; model: ~{:.2} ms fused vs ~{:.2} ms unfused",
            names(&groups.producers),
            names(&groups.consumers),
            scop.arrays[groups.output].name,
            chosen.size,
            if chosen.whole > 1 { " of whole planes" } else { "" },
            chosen.tiles,
            if plan.sliding { ", rows advancing together" } else { "" },
            locals.join(" "),
            plan.slots.len(),
            if plan.slots.len() == 1 { "" } else { "s" },
            chosen.stack / 1024,
            chosen.footprint / 1024,
            self.budget / 1024,
            self.inner.map_or(String::new(), |inner| format!(
                "; {} pass{} over the rows, first-level cache {} KiB",
                passes,
                if passes == 1 { "" } else { "es" },
                inner / 1024
            )),
            chosen.recompute * 100.0,
            chosen.cost * 1e3,
            unfused * 1e3
        )
    }

    fn apply<'c, 'a>(&self, context: &'c Context, scop: &Scop<'c, 'a>, applied: &Applied) -> Result<(), String> {
        let mut redirects = Redirects::new();
        for (statement, position, local, indices) in &applied.redirects {
            let op = scop.statements[*statement].accesses[*position].op;
            redirects.insert(
                pb_polyhedral::codegen::op_id(op),
                Redirect { target: Target::Local(applied.slot_of[*local]), indices: indices.clone() },
            );
        }
        let mut types = Vec::new();
        for slot in &applied.slots {
            let element = MemRefType::try_from(scop.arrays[slot.array].values[0].r#type()).map_err(|e| e.to_string())?.element();
            types.push(Type::from(MemRefType::new(element, &slot.shape, None, None)));
        }
        let mut codegen = Codegen::new(context, scop, &redirects);
        codegen.locals = Some(Locals { types, parallel_depth: applied.parallel_depth });
        codegen.replace_scop(&applied.tree)?;
        // The contracted arrays are now unused: drop them (and their deallocations).
        for &array in &applied.contracted {
            // SAFETY: the arrays' values are defined outside the SCoP's
            // nests (`Scop::extract` allows no views or allocations in a
            // loop body), so they survive `replace_scop`; the contracted
            // arrays are distinct (sorted, deduplicated) and have distinct
            // view roots, and nothing here uses the SCoP's handles to them
            // again.
            unsafe { pb_support::ir::erase_dead_buffer(scop.arrays[array].values[0]) };
        }
        Ok(())
    }
}

/// Whether `tree` starts with `depth` perfectly nested loops (blocks of a
/// single child looked through): the loops over the tiles, holding every
/// statement of every tile.
fn one_loop_nest(tree: &pb_polyhedral::ast::Tree, depth: usize) -> bool {
    use pb_polyhedral::ast::Tree;
    if depth == 0 {
        return true;
    }
    match tree {
        Tree::For { body, .. } => one_loop_nest(body, depth - 1),
        Tree::Block(children) => matches!(children.as_slice(), [only] if one_loop_nest(only, depth)),
        _ => false,
    }
}

/// Whether a statement reads a temporary (of `contracted`) at another
/// third-to-last index than the one it writes: a window across the rows of
/// planes.
fn windows_across_planes(scop: &Scop, contracted: &[usize]) -> bool {
    scop.statements.iter().any(|s| {
        let Some(write) = s.accesses.iter().find(|a| a.write) else { return false };
        let rank = write.indices.len();
        rank >= 3
            && s.accesses.iter().any(|a| {
                !a.write && contracted.contains(&a.array) && a.indices.len() == rank && a.indices[rank - 3] != write.indices[rank - 3]
            })
    })
}

/// Passes over a tile's rows: nests (jammed ones count once) whose
/// innermost loop runs along a whole row of `row_length` (layer norm: mean,
/// centering with the sum of squares, normalization; softmax: max,
/// exponentials with their sum, division).
fn passes_over_rows(scop: &Scop, in_tile: &fusion::InTile, row_length: i64) -> usize {
    let mut groups: Vec<usize> = scop
        .statements
        .iter()
        .enumerate()
        .filter(|(_, s)| s.bounds.last().and_then(|b| b.constant()).is_some_and(|(lo, hi)| hi - lo == row_length))
        .map(|(index, _)| in_tile.jammed[index].0)
        .collect();
    groups.sort();
    groups.dedup();
    groups.len()
}

/// Statement instances (product of constant trip counts; the written
/// array's size when bounds are not constant).
fn instances(scop: &Scop, s: &Statement) -> f64 {
    let mut count = 1.0;
    for bounds in &s.bounds {
        match bounds.constant() {
            Some((lower, upper)) => count *= (upper - lower).max(0) as f64 / bounds.step as f64,
            None => return s.accesses.iter().find(|a| a.write).map_or(1.0, |a| array_elements(scop, a.array)),
        }
    }
    count
}

/// Arithmetic ops of a statement (at least one: a copy still moves data).
fn arithmetic_ops(s: &Statement) -> f64 {
    let count: f64 = s.ops.iter().map(|op| op_weight(op.name().as_string_ref().as_str().unwrap_or(""))).sum();
    count.max(1.0)
}

/// Work of one op in additions' worth: a transcendental function is a
/// polynomial and its range reduction once `pb-expand-math` has expanded it
/// (15-25 instructions), a division or square root several times an
/// addition's throughput; index arithmetic and memory ops none (the
/// statement's accesses count in the traffic). What a fused tile recomputes
/// of a producer ending in SiLU (`x / (1 + exp(-x))`) is then weighed as
/// the work it is, not as five additions.
fn op_weight(name: &str) -> f64 {
    match name {
        "math.exp" | "math.exp2" | "math.expm1" | "math.log" | "math.log2" | "math.log10" | "math.log1p" | "math.tanh"
        | "math.erf" | "math.powf" | "math.sin" | "math.cos" | "math.atan" | "math.atan2" | "math.fpowi" => 16.0,
        "arith.divf" | "math.sqrt" | "math.rsqrt" | "arith.remf" => 4.0,
        _ if name.starts_with("arith.") || name.starts_with("math.") => 1.0,
        _ => 0.0,
    }
}

fn array_elements(scop: &Scop, array: usize) -> f64 {
    scop.arrays[array].shape.iter().map(|n| (*n).max(1) as f64).product()
}

/// A contraction (matmul, convolution over channels): a reduction longer
/// than [`MIN_TILED_REDUCTION`] steps over two operands that both move with it (a
/// row max or sum reads one) and that each follow an output dimension the
/// other does not (a filter applied alike to every pixel is not one).
fn is_contraction(s: &Statement) -> bool {
    let Some(write) = s.accesses.iter().find(|a| a.write) else { return false };
    let reductions: Vec<usize> =
        (0..s.loops.len()).filter(|d| !write.indices.iter().any(|e| e.uses_dim(*d))).collect();
    // Output dimensions with more than one iteration.
    let outputs: Vec<usize> = (0..s.loops.len())
        .filter(|d| write.indices.iter().any(|e| e.uses_dim(*d)))
        .filter(|d| s.bounds[*d].constant().is_none_or(|(lower, upper)| upper - lower > 1))
        .collect();
    let moving: Vec<Vec<usize>> = s
        .accesses
        .iter()
        .filter(|a| !a.write && a.array != write.array)
        .filter(|a| a.indices.iter().any(|e| reductions.iter().any(|d| e.uses_dim(*d))))
        .map(|a| outputs.iter().copied().filter(|d| a.indices.iter().any(|e| e.uses_dim(*d))).collect())
        .collect();
    // Two operands that each follow an output dimension the other does not
    // (A's rows and B's columns; an image's pixels and a filter bank's
    // output channels).
    let own = |a: &Vec<usize>, b: &Vec<usize>| a.iter().any(|d| !b.contains(d));
    let product = moving.iter().enumerate().any(|(i, a)| moving.iter().skip(i + 1).any(|b| own(a, b) && own(b, a)));
    reduction_trips(s) > MIN_TILED_REDUCTION && product
}

/// Iterations of the loops that do not move the statement's write (its
/// reduction), `i64::MAX` when not constant.
fn reduction_trips(s: &Statement) -> i64 {
    let Some(write) = s.accesses.iter().find(|a| a.write) else { return 0 };
    let mut trips: i64 = 1;
    for (d, bounds) in s.bounds.iter().enumerate() {
        if write.indices.iter().any(|e| e.uses_dim(d)) {
            continue;
        }
        let trip = bounds.constant().map(|(lower, upper)| upper - lower);
        trips = trips.saturating_mul(trip.unwrap_or(i64::MAX));
    }
    trips
}

/// Loop order putting last the loop that moves the last index of the
/// statement's write with unit stride, when every access is then contiguous,
/// of stride 2 (a strided convolution's input: `pb-vectorize` gathers it
/// with two loads and a shuffle) or uniform along it (a row reduction
/// `sum[i] += x[i][j]` keeps `j` innermost: moving `i` there would read `x`
/// by columns); others in place.
fn contiguous_last(s: &Statement) -> Vec<usize> {
    let depth = s.loops.len();
    let identity: Vec<usize> = (0..depth).collect();
    let Some(write) = s.accesses.iter().find(|a| a.write) else { return identity };
    let Some(last) = write.indices.last() else { return identity };
    let along = |k: usize| {
        s.accesses.iter().all(|a| match a.indices.split_last() {
            Some((l, front)) => !front.iter().any(|e| e.uses_dim(k)) && matches!(l.coefficient(k), Some(0..=2)),
            None => true,
        })
    };
    match (0..depth).rev().find(|k| last.coefficient(*k) == Some(1)) {
        Some(k) if along(k) => {
            let mut order: Vec<usize> = (0..depth).filter(|d| *d != k).collect();
            order.push(k);
            order
        }
        _ => identity,
    }
}


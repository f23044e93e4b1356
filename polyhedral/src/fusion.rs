//! Producer-consumer fusion by overlapped tiling (the PolyMage strategy the
//! spec describes): the consumer — the statements writing the one array a
//! SCoP leaves behind — is tiled along that array's index; each tile first
//! recomputes exactly the instances of the producer statements whose values
//! it reads (halos included, computed by ISL as the image of the tile
//! through the access relations, transitively through producer chains),
//! into small tile-local buffers, then runs the consumer on the tile.
//! Intermediate arrays never exist at full size, tiles are independent (the
//! outermost tile loop is parallel), and every loop is clipped to the
//! original domains by ISL, so sizes need not divide.
//!
//! Inside a tile, consumer nests with the same loops are jammed (one loop,
//! statements in turn) where the dependences allow (`jam`), and where
//! every statement writes rows of the output's rank read at constant row
//! offsets, all statements advance row by row together (`row_leads`:
//! Halide's sliding window; each temporary row computed once per tile),
//! and each temporary's buffer keeps only the rows still to be read,
//! indexed modulo their count (`row_folds`: Halide's storage folding).
//! Consumers' writes that a later consumer of the tile overwrites before
//! any read are dropped (`drop_overwritten`).
//!
//! This module plans: which arrays are contracted, the extended domains
//! (`P[t.., x..]`: tile coordinates, then the original counters), the
//! schedule, the local buffer boxes and the access redirections. The cost
//! model that picks tile sizes lives with the pass (`pb-fuse`).
//!
//! Legality is structural and checked before anything changes:
//! - contracted arrays are allocated in the function and used only by the
//!   SCoP's accesses (and deallocations after it);
//! - a statement reads an array it writes only at the element it writes
//!   (accumulation);
//! - consumers (statements touching the output) touch it at one element per
//!   instance, which places them in a tile; temporaries they write (row sums
//!   of a softmax) are *owned* by tiles: each element written in one tile
//!   only, and every instance reading an owned element finds its writer in
//!   its own tile (checked with ISL);
//! - nobody else writes an array that is read;
//! - each nest is perfect with one statement (its loops may be permuted
//!   inside a tile; the permutation is checked against the dependences).

use crate::aff::Aff;
use crate::model::{access_map, isl_err, IslResult, Model};
use crate::scop::{Scop, Statement};
use isl_rs::{Map, Set, UnionMap};
use melior::ir::{r#type::{MemRefType, ShapedTypeLike}, ValueLike};

/// What to tile and how.
#[derive(Clone, Debug)]
pub struct Tiling {
    /// Tile size per output dimension (`None`: the whole extent).
    pub sizes: Vec<Option<i64>>,
    /// Order of the tile loops, outermost first (output dimension numbers;
    /// only tiled dimensions).
    pub order: Vec<usize>,
}

/// A tile-local buffer replacing a contracted array.
#[derive(Clone, Debug)]
pub struct LocalBuffer {
    pub array: usize,
    pub shape: Vec<i64>,
    /// Per dimension: the tile loop (position in `Tiling::order`) the
    /// buffer's origin moves with and its factor, and the constant offset:
    /// local index = e - factor * t - offset.
    pub origin: Vec<(Option<usize>, i64, i64)>,
    /// Storage folding ([`row_folds`]): the dimension of rows and how many
    /// of them the buffer keeps (indexed modulo that), when fewer than the
    /// box's extent there. `shape` stays the box the tile touches.
    pub fold: Option<(usize, i64)>,
}

impl LocalBuffer {
    /// The allocated extents: the box, its rows folded.
    pub fn stored_shape(&self) -> Vec<i64> {
        let mut shape = self.shape.clone();
        if let Some((dim, rows)) = self.fold {
            shape[dim] = rows;
        }
        shape
    }
}


#[derive(Debug)]
pub struct Groups {
    /// The output whose rows make the tiles (the largest of `outputs`).
    pub output: usize,
    /// Every array that outlives the SCoP (`output` first), all of its rank
    /// and its extents on the tiled dimensions (all but the last): a
    /// softmax between two matrix products leaves its exponentials, row
    /// sums and masked-row flags to the second.
    pub outputs: Vec<usize>,
    pub producers: Vec<usize>,
    pub consumers: Vec<usize>,
    pub contracted: Vec<usize>,
}

/// The arrays a SCoP writes, split into those it may contract (allocated
/// in the function, used only here) and those that outlive it, the largest
/// first.
fn written_arrays(scop: &Scop, removable: &dyn Fn(usize) -> bool) -> (Vec<usize>, Vec<usize>) {
    let mut written: Vec<usize> =
        scop.statements.iter().flat_map(|s| s.accesses.iter().filter(|a| a.write).map(|a| a.array)).collect();
    written.sort();
    written.dedup();
    let contracted: Vec<usize> = written.iter().copied().filter(|a| contractible(scop, *a, removable)).collect();
    let mut outputs: Vec<usize> = written.iter().copied().filter(|a| !contracted.contains(a)).collect();
    let elements = |a: usize| scop.arrays[a].shape.iter().map(|n| (*n).max(1)).product::<i64>();
    outputs.sort_by_key(|a| std::cmp::Reverse(elements(*a)));
    (contracted, outputs)
}

/// Whether the SCoP may contract `array` if it writes it: allocated in the
/// function, one buffer, and `removable` (used only by the SCoP). Written
/// arrays that are not outlive the SCoP.
pub fn contractible(scop: &Scop, array: usize, removable: &dyn Fn(usize) -> bool) -> bool {
    scop.arrays[array].local && removable(array) && scop.arrays[array].values.len() == 1
}

/// Whether `other` has the rank of `shape` and its extents on every
/// dimension but the last (the rows tiles are cut along).
fn same_rows(shape: &[i64], other: &[i64]) -> bool {
    other.len() == shape.len() && other[..shape.len().saturating_sub(1)] == shape[..shape.len().saturating_sub(1)]
}

/// The statements that keep a SCoP from fusing whole, whose removal may
/// let the nests between them fuse on their own (`pb-fuse` tries those):
/// - writers of an array that outlives the SCoP with other rows than the
///   largest such array (a squeeze-excitation's pooled `N x C x 1 x 1`
///   beside a depthwise convolution's `N x C x H x W` output); but where an
///   output is a plain copy of another (a max pool's result copied into
///   the next convolution's padded input), the writers of the copy instead;
/// - writers of an array of the output's rank that sums the rows away
///   (extent 1 where the output's rows are more): a global pool, whose
///   consumers need every row of what it reads, so a row tile holding it
///   holds whole images.
pub fn barriers(scop: &Scop, removable: &dyn Fn(usize) -> bool) -> Vec<usize> {
    let (_, outputs) = written_arrays(scop, removable);
    let Some(&output) = outputs.first() else { return Vec::new() };
    let shape = &scop.arrays[output].shape;
    let rank = shape.len();
    let pools = |array: usize| {
        let other = &scop.arrays[array].shape;
        rank >= 2 && other.len() == rank && other[rank - 2] == 1 && shape[rank - 2] > 1
    };
    // An output that is a plain copy of another output (a block's result
    // copied into the next convolution's padded input, as well as kept for
    // its residual add): its writers are cut rather than what it copies,
    // which its producers may still fuse into (a max pool and the padded
    // activation it reads).
    let copies: Vec<usize> = scop.statements.iter().filter_map(|s| copy_between_outputs(s, &outputs)).collect();
    let odd = |array: usize| {
        if !copies.is_empty() {
            return copies.contains(&array) || pools(array);
        }
        (outputs.contains(&array) && !same_rows(shape, &scop.arrays[array].shape)) || pools(array)
    };
    (0..scop.statements.len())
        .filter(|s| scop.statements[*s].accesses.iter().any(|a| a.write && odd(a.array)))
        .collect()
}

/// The array `s` writes when it only copies one output of `outputs` into
/// another (one load, one store, index arithmetic).
fn copy_between_outputs(s: &Statement, outputs: &[usize]) -> Option<usize> {
    let [first, second] = s.accesses.as_slice() else { return None };
    let (read, write) = if first.write { (second, first) } else { (first, second) };
    if read.write || !write.write || read.array == write.array || !outputs.contains(&read.array) || !outputs.contains(&write.array) {
        return None;
    }
    let stores_the_load = pb_support::ffi::operand(write.op, 0).and_then(pb_support::ffi::defining_op) == Some(read.op);
    let only_indices = s.ops.iter().all(|op| *op == read.op || *op == write.op || pb_support::ir::is_named(*op, "affine.apply"));
    (stores_the_load && only_indices).then_some(write.array)
}

/// Splits the statements into producers of contracted arrays and consumers
/// of the outputs, or says why the SCoP does not fit the scheme.
pub fn classify(scop: &Scop, removable: &dyn Fn(usize) -> bool) -> Result<Groups, String> {
    let (contracted, outputs) = written_arrays(scop, removable);
    let written: Vec<usize> = contracted.iter().chain(&outputs).copied().collect();
    let Some(&output) = outputs.first() else {
        return Err("no array outlives the loop nests".into());
    };
    if contracted.is_empty() {
        return Err("no temporary array to contract".into());
    }
    let shape = &scop.arrays[output].shape;
    for &other in &outputs[1..] {
        let other_shape = &scop.arrays[other].shape;
        if !same_rows(shape, other_shape) {
            return Err(format!(
                "arrays {} ({:?}) and {} ({:?}) outlive the loop nests with different row structures",
                scop.arrays[output].name, shape, scop.arrays[other].name, other_shape
            ));
        }
    }
    let mut groups = Groups { output, outputs, producers: Vec::new(), consumers: Vec::new(), contracted };
    // (Inexact reads of arrays no statement writes, gathers of inputs,
    // carry no dependence and need no footprint.)
    for (index, s) in scop.statements.iter().enumerate() {
        if s.accesses.iter().any(|a| !a.exact && (a.write || written.contains(&a.array))) {
            return Err(format!("{} accesses memory through a view", s.name));
        }
        let writes: Vec<_> = s.accesses.iter().filter(|a| a.write).collect();
        if writes.is_empty() {
            return Err(format!("{} writes nothing", s.name));
        }
        // Statements touching an output are tiled by that access: all of
        // their accesses to one output must be at one element.
        let mut is_consumer = false;
        for &o in &groups.outputs {
            let output_accesses: Vec<_> = s.accesses.iter().filter(|a| a.array == o).collect();
            is_consumer |= !output_accesses.is_empty();
            if output_accesses.windows(2).any(|w| w[0].indices != w[1].indices) {
                return Err(format!("{} reads {} at another element than it writes", s.name, scop.arrays[o].name));
            }
        }
        // Reads of an array this statement writes must be at a written element.
        for r in s.accesses.iter().filter(|a| !a.write) {
            if let Some(w) = writes.iter().find(|w| w.array == r.array) {
                if w.indices != r.indices {
                    return Err(format!("{} reads {} at another element than it writes", s.name, scop.arrays[r.array].name));
                }
            }
        }
        if is_consumer {
            groups.consumers.push(index);
        } else if s.accesses.iter().any(|a| written.contains(&a.array) && !groups.contracted.contains(&a.array)) {
            return Err(format!("{} reads an array the loop nests leave behind without writing one", s.name));
        } else {
            groups.producers.push(index);
        }
    }
    // Every nest is perfect with a single statement.
    for s in &scop.statements {
        if s.beta.iter().skip(1).any(|b| *b != 0) {
            return Err(format!("the nest of {} is not perfect", s.name));
        }
    }
    let mut nests: Vec<usize> = scop.statements.iter().map(|s| s.beta[0]).collect();
    nests.sort();
    if nests.windows(2).any(|w| w[0] == w[1]) {
        return Err("a nest holds more than one statement".into());
    }
    Ok(groups)
}

fn dims(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|k| format!("{prefix}{k}")).collect()
}

/// A tile-local allocation shared by locals whose lifetimes in the tile do
/// not overlap (a chain of stencil steps needs two buffers, not one per
/// step).
#[derive(Clone, Debug)]
pub struct Slot {
    pub shape: Vec<i64>,
    /// One of the arrays it holds (they all have its element type).
    pub array: usize,
}

impl Slot {
    pub fn bytes(&self, element_bytes: i64) -> i64 {
        self.shape.iter().product::<i64>() * element_bytes
    }
}

/// The planned fusion of one SCoP.
pub struct Plan {
    /// `{ S[t.., x..] -> [t.., nest, x permuted.., 0..] }` for all statements.
    pub schedule: UnionMap,
    pub locals: Vec<LocalBuffer>,
    /// The allocations, and the slot of each local.
    pub slots: Vec<Slot>,
    pub slot_of: Vec<usize>,
    /// Tile loop count (the leading arguments of every call).
    pub tile_dims: usize,
    /// The tile's statements advance row by row together ([`InTile::leads`]).
    pub sliding: bool,
    /// Redirected accesses: (statement, access position, local buffer, indices
    /// over the call arguments).
    pub redirects: Vec<(usize, usize, usize, Vec<Aff>)>,
}

/// Whether row tiles of `tiling` can own what their consumers write: the
/// first part of [`plan`], which needs no order inside the tile (cheap
/// next to [`order_in_tile`], so a refusal comes before that is paid).
pub fn check_tiles(scop: &Scop, model: &Model, groups: &Groups, tiling: &Tiling) -> IslResult<()> {
    tile_instances(scop, model, groups, tiling).map(|_| ())
}

/// Per statement, its instances in each tile (`T[t] -> S[x]`), and per
/// contracted array every element a tile touches.
struct TileInstances {
    instances: Vec<Option<Map>>,
    footprint: Vec<Option<Map>>,
}

/// The instances of each statement per tile and the footprints of the
/// contracted arrays, after checking that each element the consumers write
/// belongs to one tile and that no tile reads what another one writes.
fn tile_instances(scop: &Scop, model: &Model, groups: &Groups, tiling: &Tiling) -> IslResult<TileInstances> {
    let params = scop.param_names();
    let ctx = &model.ctx;
    let n_tiles = tiling.order.len();
    let t = dims("t", n_tiles);
    let tile_space = format!("T[{}]", t.join(", "));

    // Instances of each statement per tile: `T[t] -> S[x]`.
    let mut instances: Vec<Option<Map>> = (0..scop.statements.len()).map(|_| None).collect();
    for &c in &groups.consumers {
        let s = &scop.statements[c];
        // Tiled by its write to an output (else its read of one); its other
        // output accesses must fall in the same tile.
        let touches = |a: &&crate::scop::Access| groups.outputs.contains(&a.array);
        let write = s
            .accesses
            .iter()
            .filter(touches)
            .find(|a| a.write)
            .or_else(|| s.accesses.iter().find(touches))
            .ok_or("consumer without output access")?;
        for other in s.accesses.iter().filter(touches) {
            if tiling.order.iter().any(|&dim| other.indices[dim] != write.indices[dim]) {
                return Err(format!("{} touches two outputs in different tiles", s.name));
            }
        }
        let d = dims("i", s.loops.len());
        let mut constraints = Vec::new();
        for (position, &dim) in tiling.order.iter().enumerate() {
            let index = write.indices[dim].to_isl(&d, &params);
            let size = tiling.sizes[dim].ok_or("an untiled dimension in the tile order")?;
            constraints.push(format!("{} = floor(({index})/{size})", t[position]));
        }
        let text = format!(
            "{}{{ {}[{}] -> {tile_space} : {} }}",
            scop.param_prefix(),
            s.name,
            d.join(", "),
            constraints.join(" and ")
        );
        let domain = Set::read_from_str(ctx, &scop.domain(s)).map_err(isl_err)?;
        let map = Map::read_from_str(ctx, &text).and_then(|m| m.intersect_domain(domain)).and_then(|m| m.reverse()).map_err(isl_err)?;
        instances[c] = Some(map);
    }
    drop_overwritten(scop, model, groups, &mut instances)?;

    // Per tile (`T[t] -> A[e]`) and contracted array: `demand`, the elements
    // later instances of the tile still need from earlier writers, and
    // `footprint`, every element the tile touches (the local buffer's box).
    let mut demand: Vec<Option<Map>> = (0..scop.arrays.len()).map(|_| None).collect();
    let mut footprint: Vec<Option<Map>> = (0..scop.arrays.len()).map(|_| None).collect();
    let union_into = |maps: &mut Vec<Option<Map>>, array: usize, elements: Map| -> IslResult<()> {
        maps[array] = Some(union(maps[array].take(), elements)?);
        Ok(())
    };
    // The elements of contracted arrays a statement's instances access.
    let accessed = |index: usize, inst: &Map, write: Option<bool>| -> IslResult<Vec<(usize, Map)>> {
        let s = &scop.statements[index];
        let mut all = Vec::new();
        for a in s.accesses.iter().filter(|a| groups.contracted.contains(&a.array) && write.is_none_or(|w| a.write == w)) {
            let access = access_map(ctx, scop, s, &a.indices, a.array)?;
            all.push((a.array, inst.copy().and_then(|i| i.apply_range(access)).map_err(isl_err)?));
        }
        Ok(all)
    };
    for &c in &groups.consumers {
        let inst = instances[c].as_ref().ok_or("consumer instances")?.copy().map_err(isl_err)?;
        for (array, elements) in accessed(c, &inst, None)? {
            union_into(&mut footprint, array, elements.copy().map_err(isl_err)?)?;
            union_into(&mut demand, array, elements)?;
        }
    }
    // Arrays consumers write (owned by tiles) keep their whole demand for
    // the ownership check below.
    let consumer_written: Vec<usize> = groups
        .consumers
        .iter()
        .flat_map(|c| scop.statements[*c].accesses.iter().filter(|a| a.write).map(|a| a.array))
        .collect();
    let first_consumer = groups.consumers.iter().map(|c| scop.statements[*c].beta[0]).min().unwrap_or(usize::MAX);
    // Producers, last first: the instances writing an element some later
    // instance of the tile needs.
    let mut producers = groups.producers.clone();
    producers.sort_by_key(|p| std::cmp::Reverse(scop.statements[*p].beta[0]));
    for &p in &producers {
        let s = &scop.statements[p];
        let mut needed: Option<Map> = None;
        for w in s.accesses.iter().filter(|a| a.write) {
            let Some(elements) = demand[w.array].as_ref() else { continue };
            let access = access_map(ctx, scop, s, &w.indices, w.array)?;
            let inst = elements.copy().and_then(|e| e.apply_range(access.reverse()?)).map_err(isl_err)?;
            needed = Some(union(needed, inst)?);
        }
        let needed = match needed {
            Some(n) => n.coalesce().map_err(isl_err)?,
            None => return Err(format!("{} computes values no tile uses", s.name)),
        };
        for (array, elements) in accessed(p, &needed, None)? {
            union_into(&mut footprint, array, elements)?;
        }
        // What this producer writes, earlier writers need not: when every
        // instance that demanded it runs after this one (all consumers
        // follow it), the copy of a border-and-interior update only
        // computes the border.
        if s.beta[0] < first_consumer {
            for (array, written) in accessed(p, &needed, Some(true))? {
                if consumer_written.contains(&array) {
                    continue;
                }
                if let Some(current) = demand[array].take() {
                    demand[array] = Some(current.subtract(written).and_then(|d| d.coalesce()).map_err(isl_err)?);
                }
            }
        }
        for (array, elements) in accessed(p, &needed, Some(false))? {
            union_into(&mut demand, array, elements)?;
        }
        instances[p] = Some(needed);
    }

    // Temporaries written by consumers are owned by tiles.
    let mut owned: Vec<Option<Map>> = (0..scop.arrays.len()).map(|_| None).collect();
    for &c in &groups.consumers {
        let inst = instances[c].as_ref().ok_or("consumer instances")?;
        for (array, written) in accessed(c, inst, Some(true))? {
            union_into(&mut owned, array, written)?;
        }
    }
    // So are the outputs: each element written in one tile, and what a
    // tile's consumers read of an output that consumers write, its own.
    let mut output_reads: Vec<Option<Map>> = (0..scop.arrays.len()).map(|_| None).collect();
    for &c in &groups.consumers {
        let s = &scop.statements[c];
        let inst = instances[c].as_ref().ok_or("consumer instances")?;
        for a in s.accesses.iter().filter(|a| groups.outputs.contains(&a.array)) {
            let access = access_map(ctx, scop, s, &a.indices, a.array)?;
            let elements = inst.copy().and_then(|i| i.apply_range(access)).map_err(isl_err)?;
            union_into(if a.write { &mut owned } else { &mut output_reads }, a.array, elements)?;
        }
    }
    for &array in &groups.outputs {
        if let Some(read) = output_reads[array].take() {
            demand[array] = Some(read);
        }
    }
    for &array in groups.contracted.iter().chain(&groups.outputs) {
        let (Some(owned), Some(read)) = (owned[array].take(), demand[array].as_ref()) else { continue };
        let name = &scop.arrays[array].name;
        if !owned.copy().and_then(|o| o.reverse()).and_then(|r| r.is_single_valued()).map_err(isl_err)? {
            return Err(format!("tiles would share elements of {name}, which the consumers write"));
        }
        let everywhere = owned.copy().and_then(|o| o.range()).map_err(isl_err)?;
        let needed = read.copy().and_then(|r| r.intersect_range(everywhere)).map_err(isl_err)?;
        if !needed.is_subset(&owned).map_err(isl_err)? {
            return Err(format!("a tile reads elements of {name} that another tile's consumers write"));
        }
    }
    Ok(TileInstances { instances, footprint })
}

/// Dead writes of consumers: the instances of a consumer whose element a
/// later consumer of the same tile overwrites, with no statement reading
/// the array in between (nor the overwriting one), are dropped. PyTorch's
/// `b = a.clone(); b[1:-1, 1:-1] = ...` into an output then copies only the
/// border (producers get the same from `demand` below).
fn drop_overwritten(scop: &Scop, model: &Model, groups: &Groups, instances: &mut [Option<Map>]) -> IslResult<()> {
    let ctx = &model.ctx;
    let statements = &scop.statements;
    let reads = |index: usize, array: usize| statements[index].accesses.iter().any(|a| !a.write && a.array == array);
    let mut by_nest: Vec<usize> = (0..statements.len()).collect();
    by_nest.sort_by_key(|s| statements[*s].beta[0]);
    for &c in &groups.consumers {
        let Some(write) = single_write(&statements[c]) else { continue };
        if reads(c, write.array) {
            continue;
        }
        // Elements of the array later consumers of each tile overwrite
        // before anything reads it (`T[t] -> A[e]`).
        let mut killed: Option<Map> = None;
        for &later in by_nest.iter().filter(|l| statements[**l].beta[0] > statements[c].beta[0]) {
            if reads(later, write.array) {
                break;
            }
            let Some(other) = single_write(&statements[later]).filter(|w| w.array == write.array) else { continue };
            let Some(inst) = instances[later].as_ref().filter(|_| groups.consumers.contains(&later)) else { break };
            let access = access_map(ctx, scop, &statements[later], &other.indices, other.array)?;
            killed = Some(union(killed, inst.copy().and_then(|i| i.apply_range(access)).map_err(isl_err)?)?);
        }
        let Some(killed) = killed else { continue };
        let Some(inst) = instances[c].take() else { continue };
        // `[T[t] -> S[x]] -> [T[t] -> A[f(x)]]`: the instances whose element
        // their tile overwrites.
        let access = access_map(ctx, scop, &statements[c], &write.indices, write.array)?;
        let pairs = inst
            .copy()
            .and_then(|i| i.domain_map())
            .and_then(|tiles| tiles.range_product(inst.copy()?.range_map()?.apply_range(access)?))
            .map_err(isl_err)?;
        let dead = pairs.intersect_range(killed.wrap().map_err(isl_err)?).and_then(|p| p.domain()).and_then(|d| d.unwrap()).map_err(isl_err)?;
        instances[c] = Some(inst.subtract(dead).and_then(|i| i.coalesce()).map_err(isl_err)?);
    }
    Ok(())
}

/// Builds the plan for `tiling`, with the order inside a tile from
/// [`order_in_tile`].
pub fn plan(scop: &Scop, model: &Model, groups: &Groups, tiling: &Tiling, in_tile: &InTile) -> IslResult<Plan> {
    let TileInstances { instances, footprint } = tile_instances(scop, model, groups, tiling)?;
    let ctx = &model.ctx;
    let n_tiles = tiling.order.len();
    let t = dims("t", n_tiles);

    // Local buffer boxes, their rows folded when the tile slides.
    let folds = in_tile.leads.as_ref().map(|leads| row_folds(scop, groups, leads, in_tile.row_from_end));
    let mut locals = Vec::new();
    for &array in &groups.contracted {
        let Some(elements) = footprint[array].as_ref() else { continue };
        let mut local = local_box(ctx, scop, array, elements, tiling, &t)?;
        let fold = folds.as_ref().and_then(|f| f.iter().find(|(a, _)| *a == array)).and_then(|(_, rows)| *rows);
        let dim = local.shape.len().checked_sub(in_tile.row_from_end);
        if let (Some(rows), Some(dim)) = (fold, dim) {
            if rows < local.shape[dim] {
                local.fold = Some((dim, rows));
            }
        }
        locals.push(local);
    }

    // Extended domains and the schedule: tile loops, then the order inside
    // a tile.
    let mut schedule: Option<UnionMap> = None;
    for (index, s) in scop.statements.iter().enumerate() {
        let inst = instances[index].as_ref().ok_or_else(|| format!("{} is neither producer nor consumer", s.name))?;
        let domain: Set = inst.copy().and_then(|m| m.wrap()).and_then(|w| w.flatten()).and_then(|f| f.set_tuple_name(&s.name)).map_err(isl_err)?;
        let x = dims("i", s.loops.len());
        let mut time: Vec<String> = t.clone();
        if let Some(leads) = &in_tile.leads {
            let row = written_row(s, in_tile.row_from_end).ok_or("sliding rows without a written row")?;
            time.push(format!("{} - {}", row.to_isl(&x, &scop.param_names()), leads[index]));
        }
        time.extend(time_in_tile(scop, &in_tile.orders, &in_tile.jammed, index));
        let all: Vec<String> = t.iter().chain(x.iter()).cloned().collect();
        let text = format!("{}{{ {}[{}] -> [{}] }}", scop.param_prefix(), s.name, all.join(", "), time.join(", "));
        let map = Map::read_from_str(ctx, &text).and_then(|m| m.intersect_domain(domain)).map_err(isl_err)?;
        let map = UnionMap::from_map(map).map_err(isl_err)?;
        schedule = Some(match schedule {
            Some(previous) => previous.union(map).map_err(isl_err)?,
            None => map,
        });
    }

    // Accesses to contracted arrays go to the local buffers.
    let mut redirects = Vec::new();
    for (index, s) in scop.statements.iter().enumerate() {
        for (position, a) in s.accesses.iter().enumerate() {
            let Some(local) = locals.iter().position(|l| l.array == a.array) else { continue };
            let buffer = &locals[local];
            let shifted: Vec<Aff> = (0..s.loops.len()).map(|k| Aff::Dim(n_tiles + k)).collect();
            let indices = a
                .indices
                .iter()
                .zip(&buffer.origin)
                .enumerate()
                .map(|(dim, (e, (tile, factor, offset)))| {
                    let mut local_index = e.substitute(&shifted).plus(Aff::Const(-offset));
                    if let Some(tile) = tile {
                        local_index = local_index.minus(Aff::Dim(*tile).scale(*factor));
                    }
                    match buffer.fold {
                        Some((fold_dim, rows)) if fold_dim == dim => Aff::Mod(Box::new(local_index), rows),
                        _ => local_index,
                    }
                })
                .collect();
            redirects.push((index, position, local, indices));
        }
    }
    let (slots, slot_of) = if in_tile.leads.is_some() {
        // Rows of every temporary are live all through the tile (as many
        // as its fold keeps).
        let slots = locals.iter().map(|l| Slot { shape: l.stored_shape(), array: l.array }).collect();
        (slots, (0..locals.len()).collect())
    } else {
        let groups_in_tile: Vec<usize> = in_tile.jammed.iter().map(|(group, _)| *group).collect();
        share_buffers(scop, &locals, &groups_in_tile)
    };
    Ok(Plan { schedule: schedule.ok_or("empty SCoP")?, locals, slots, slot_of, tile_dims: n_tiles, sliding: in_tile.leads.is_some(), redirects })
}

/// `previous ∪ map` (just `map` if there is no `previous`).
fn union(previous: Option<Map>, map: Map) -> IslResult<Map> {
    match previous {
        Some(previous) => previous.union(map).map_err(isl_err),
        None => Ok(map),
    }
}

/// Assigns locals to slots: inside a tile the groups of nests (see `jam`)
/// run one after the other, so a local is live from the first group
/// touching it to the last; locals of one element type and rank whose live ranges
/// do not overlap share a slot (the largest extent in each dimension).
/// A local's contents at its first nest are undefined either way (tiles
/// reuse their buffers), and producers write every element read.
fn share_buffers(scop: &Scop, locals: &[LocalBuffer], group: &[usize]) -> (Vec<Slot>, Vec<usize>) {
    let live = |array: usize| -> (usize, usize) {
        let nests = (0..scop.statements.len())
            .filter(|s| scop.statements[*s].accesses.iter().any(|a| a.array == array))
            .map(|s| group[s]);
        nests.fold((usize::MAX, 0), |(first, last), b| (first.min(b), last.max(b)))
    };
    let element = |array: usize| MemRefType::try_from(scop.arrays[array].values[0].r#type()).ok().map(|t| t.element());
    let mut order: Vec<usize> = (0..locals.len()).collect();
    order.sort_by_key(|l| live(locals[*l].array).0);
    let mut slots: Vec<Slot> = Vec::new();
    let mut busy_until: Vec<usize> = Vec::new();
    let mut slot_of = vec![0; locals.len()];
    for l in order {
        let local = &locals[l];
        let (first, last) = live(local.array);
        let same_kind = |slot: &Slot| {
            slot.shape.len() == local.shape.len() && element(slot.array).is_some() && element(slot.array) == element(local.array)
        };
        let free = (0..slots.len()).find(|k| busy_until[*k] < first && same_kind(&slots[*k]));
        let k = match free {
            Some(k) => {
                for (extent, own) in slots[k].shape.iter_mut().zip(&local.shape) {
                    *extent = (*extent).max(*own);
                }
                k
            }
            None => {
                slots.push(Slot { shape: local.shape.clone(), array: local.array });
                busy_until.push(0);
                slots.len() - 1
            }
        };
        busy_until[k] = last;
        slot_of[l] = k;
    }
    (slots, slot_of)
}

/// The smallest box holding the tile's elements of `array`, each dimension
/// anchored to the tile loop it moves with (when one bounds it best).
fn local_box(
    ctx: &isl_rs::Context,
    scop: &Scop,
    array: usize,
    elements: &Map,
    tiling: &Tiling,
    t: &[String],
) -> IslResult<LocalBuffer> {
    let info = &scop.arrays[array];
    let e = dims("e", info.shape.len());
    let wrapped = format!("[T[{}] -> {}[{}]]", t.join(", "), info.name, e.join(", "));
    // The range of `expr` over the elements of the tiles (those with tile
    // coordinate `position` equal to `at`, when given).
    let range_at = |expr: String, at: Option<(usize, i64)>| -> IslResult<Option<(i64, i64)>> {
        let only = at.map_or(String::new(), |(position, value)| format!(" : {} = {value}", t[position]));
        let text = format!("{}{{ {wrapped} -> [{expr}]{only} }}", scop.param_prefix());
        let offsets = elements
            .copy()
            .and_then(|m| m.wrap())
            .and_then(|w| w.apply(Map::read_from_str(ctx, &text)?))
            .map_err(isl_err)?;
        // Parameters would make the box symbolic: treat as unbounded.
        let offsets = offsets.project_out_all_params().map_err(isl_err)?;
        if !offsets.is_bounded().map_err(isl_err)? || offsets.is_empty().map_err(isl_err)? {
            return Ok(None);
        }
        let low = offsets.copy().and_then(|o| o.dim_min_val(0)).and_then(|v| v.get_num_si()).map_err(isl_err)?;
        let high = offsets.dim_max_val(0).and_then(|v| v.get_num_si()).map_err(isl_err)?;
        Ok(Some((low, high)))
    };
    let range = |expr: String| range_at(expr, None);
    let mut shape = Vec::new();
    let mut origin = Vec::new();
    for name in &e {
        let mut best: Option<(Option<usize>, i64, i64, i64)> =
            range(name.clone())?.map(|(low, high)| (None, 0, low, high - low + 1));
        for (position, &dim) in tiling.order.iter().enumerate() {
            let Some(size) = tiling.sizes[dim] else { continue };
            // The origin moves with the tile by the tile size, or by what the
            // tiles' first elements advance from one inner tile to the next
            // (twice the size through a stride-2 window, half of it through
            // an upsampling). Either factor gives a box that holds each
            // tile's elements (its extent is their range over all tiles);
            // the tighter wins.
            // (Probed between tiles 1 and 2, whose first rows no border
            // clips, else 0 and 1; tiles of one, the batch dimensions', are
            // not probed.)
            let mut factors = vec![size];
            if size > 1 {
                let at = |tile: i64| range_at(name.clone(), Some((position, tile)));
                let (first, second) = match (at(1)?, at(2)?) {
                    (Some(first), Some(second)) => (Some(first), Some(second)),
                    (second, _) => (at(0)?, second),
                };
                if let (Some((first, _)), Some((second, _))) = (first, second) {
                    if second > first && second - first != size {
                        factors.push(second - first);
                    }
                }
            }
            for factor in factors {
                if let Some((low, high)) = range(format!("{name} - {factor} * {}", t[position]))? {
                    if best.as_ref().is_none_or(|b| high - low + 1 < b.3) {
                        best = Some((Some(position), factor, low, high - low + 1));
                    }
                }
            }
        }
        let (tile, factor, offset, extent) = best.ok_or_else(|| format!("unbounded tile footprint of {}", info.name))?;
        shape.push(extent);
        origin.push((tile, factor, offset));
    }
    Ok(LocalBuffer { array, shape, origin, fold: None })
}

/// The order of statement instances inside a tile, which does not depend
/// on the tile sizes (computed once per SCoP, before trying sizes).
#[derive(Clone)]
pub struct InTile {
    /// Per statement, its loops outermost first.
    pub orders: Vec<Vec<usize>>,
    /// Per statement, (group, place) from `jam`.
    pub jammed: Vec<(usize, usize)>,
    /// When the statements of a tile advance row by row together (see
    /// [`row_leads`]): per statement, how many rows ahead of its readers it
    /// runs. `None`: each nest runs over all of its rows of the tile before
    /// the next.
    pub leads: Option<Vec<i64>>,
    /// Which index of a written array is its row, counted from the end: 2
    /// (rows of whole last dimensions, `N x C x H x W` tiled along `H`), 3
    /// (rows of whole planes, `N x H x W x C` tiled along `H`).
    pub row_from_end: usize,
}

impl InTile {
    /// The same orders and jams with rows at another index of the written
    /// arrays (`row_from_end`), the sliding window found again for them.
    pub fn with_rows_at(&self, model: &Model, scop: &Scop, groups: &Groups, row_from_end: usize) -> IslResult<InTile> {
        let leads = row_leads(model, scop, groups, &self.orders, &self.jammed, row_from_end)?;
        Ok(InTile { orders: self.orders.clone(), jammed: self.jammed.clone(), leads, row_from_end })
    }
}

/// Loop orders inside the tile (`permutation(s)` proposes one per
/// statement, kept only if the dependences allow it) and the jammed
/// groups.
pub fn order_in_tile(
    scop: &Scop,
    model: &Model,
    groups: &Groups,
    permutation: &dyn Fn(&Statement) -> Vec<usize>,
) -> IslResult<InTile> {
    let mut orders = Vec::new();
    for s in &scop.statements {
        let mut order = permutation(s);
        if !permutation_is_legal(model, scop, s, &order)? {
            order = (0..s.loops.len()).collect();
        }
        orders.push(order);
    }
    let jammed = jam(model, scop, groups, &orders)?;
    let leads = row_leads(model, scop, groups, &orders, &jammed, 2)?;
    Ok(InTile { orders, jammed, leads, row_from_end: 2 })
}

/// The row each statement writes (index `row_from_end` from the end of its
/// one written array, the second-to-last for rows of whole last
/// dimensions: rows are the tiled dimension of the output, and a filter's
/// `N x 1 x H x W` temporaries have the rows of an `N x H x W` output), as
/// an affine function of its loops.
fn written_row(s: &Statement, row_from_end: usize) -> Option<Aff> {
    let write = single_write(s)?;
    if write.indices.len() < row_from_end.max(2) {
        return None;
    }
    Some(write.indices[write.indices.len() - row_from_end].clone())
}

/// The write of a statement that writes once.
fn single_write<'s, 'c, 'a>(s: &'s Statement<'c, 'a>) -> Option<&'s crate::scop::Access<'c, 'a>> {
    let mut writes = s.accesses.iter().filter(|a| a.write);
    match (writes.next(), writes.next()) {
        (Some(write), None) => Some(write),
        _ => None,
    }
}

/// Halide's sliding window, found by the dependences: inside a row tile, the
/// statements advance one row at a time together (`[row - lead, nest,
/// loops..]`), each row of a temporary computed once per tile just before
/// the rows that read it, instead of each nest running over all of its rows
/// of the tile before the next. Then a taller tile costs no more cache: what
/// is live is a few rows per temporary (what the next rows still read), not
/// whole tile buffers, so row tiles can grow until the recomputed halo is
/// small. Per statement, its lead: 0 for consumers; a producer runs as far
/// ahead of each reader as the furthest row below the reader's own that it
/// reads (`lead(P) = max over readers R (lead(R) + row read - row written)`).
/// `None` when a statement writes no single array of rank 2 or more, a
/// read's row is not the reader's row plus a constant, or the resulting
/// order breaks a dependence (checked with ISL on the untiled domains, as
/// `jam` checks its groups).
fn row_leads(
    model: &Model,
    scop: &Scop,
    groups: &Groups,
    orders: &[Vec<usize>],
    at: &[(usize, usize)],
    row_from_end: usize,
) -> IslResult<Option<Vec<i64>>> {
    let n = scop.statements.len();
    let rows: Vec<Option<Aff>> = scop.statements.iter().map(|s| written_row(s, row_from_end)).collect();
    if rows.iter().any(|r| r.is_none()) || groups.producers.is_empty() {
        return Ok(None);
    }
    let rows: Vec<Aff> = rows.into_iter().flatten().collect();
    let fixed_rows: Vec<Aff> = scop.statements.iter().zip(&rows).map(|(s, r)| fixed(s, r)).collect();
    // Readers before writers: latest nest first.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|s| std::cmp::Reverse(scop.statements[*s].beta[0]));
    let mut leads = vec![0i64; n];
    for &p in &order {
        if groups.consumers.contains(&p) {
            continue;
        }
        let Some(write) = scop.statements[p].accesses.iter().find(|a| a.write) else { return Ok(None) };
        let mut lead: Option<i64> = None;
        for (r, reader) in scop.statements.iter().enumerate() {
            if reader.beta[0] <= scop.statements[p].beta[0] {
                continue;
            }
            for read in reader.accesses.iter().filter(|a| !a.write && a.array == write.array) {
                let row = read.indices.len().checked_sub(row_from_end).and_then(|k| read.indices.get(k));
                let Some(offset) = row.and_then(|i| fixed(reader, i).constant_difference(&fixed_rows[r])) else {
                    return Ok(None);
                };
                lead = Some(lead.unwrap_or(i64::MIN).max(leads[r] + offset));
            }
        }
        leads[p] = lead.unwrap_or(0).max(0);
    }
    // The order: [row - lead, time in tile..] for every statement.
    let mut maps = Vec::new();
    for (index, s) in scop.statements.iter().enumerate() {
        let x = dims("i", s.loops.len());
        let step = format!("{} - {}", rows[index].to_isl(&x, &scop.param_names()), leads[index]);
        let mut time = vec![step];
        time.extend(time_in_tile(scop, orders, at, index));
        maps.push(format!("{}[{}] -> [{}]", s.name, x.join(", "), time.join(", ")));
    }
    let schedule = model.union_map(&format!("[{}] -> {{ {} }}", scop.param_names().join(", "), maps.join("; ")))?;
    if !model.respects(model.dependences()?, &schedule)? {
        return Ok(None);
    }
    Ok(Some(leads))
}

/// `e` over `s`'s loops with its loops of one iteration replaced by their
/// constant (a unit dimension folded into a linearized index, `2044 * d1 +
/// d2` with d1 = 0, is row d2).
fn fixed(s: &Statement, e: &Aff) -> Aff {
    let values: Vec<Aff> = (0..s.loops.len())
        .map(|k| match s.bounds[k].constant() {
            Some((low, high)) if high == low + 1 => Aff::Const(low),
            _ => Aff::Dim(k),
        })
        .collect();
    e.substitute(&values)
}

/// Storage folding of a sliding window (Halide's `fold_storage`): per
/// contracted array, how many of its rows are live at once when the tile's
/// statements advance row by row with `leads`. A writer `w` writes row `y`
/// at step `y - lead(w)`; a reader `r` reading row `y` at `off` rows from
/// its own row reads it at step `y - off - lead(r)`, `lead(w) - lead(r) -
/// off` steps later. Row `y + F` is first written at step `y + F - max
/// lead(w)`, so with `F` one more than the largest such lag every read of
/// row `y` comes at an earlier step than the write that reuses its place:
/// the buffer needs `F` rows, indexed modulo `F`, whatever the tile's
/// height. `None` for an array whose reads are not at constant row offsets
/// (then its rows stay whole).
pub fn row_folds(scop: &Scop, groups: &Groups, leads: &[i64], row_from_end: usize) -> Vec<(usize, Option<i64>)> {
    let statements = &scop.statements;
    let written_rows: Vec<Option<Aff>> = statements.iter().map(|s| written_row(s, row_from_end).map(|r| fixed(s, &r))).collect();
    groups
        .contracted
        .iter()
        .map(|&array| {
            let writers: Vec<usize> =
                (0..statements.len()).filter(|w| statements[*w].accesses.iter().any(|a| a.write && a.array == array)).collect();
            let Some(earliest) = writers.iter().map(|w| leads[*w]).max() else { return (array, None) };
            let mut lag = 0i64;
            for (r, reader) in statements.iter().enumerate() {
                for read in reader.accesses.iter().filter(|a| !a.write && a.array == array) {
                    let row = read.indices.len().checked_sub(row_from_end).and_then(|k| read.indices.get(k));
                    let offset = match (row, &written_rows[r]) {
                        (Some(row), Some(own)) => fixed(reader, row).constant_difference(own),
                        _ => None,
                    };
                    let Some(offset) = offset else { return (array, None) };
                    lag = lag.max(earliest - leads[r] - offset);
                }
            }
            (array, Some(lag + 1))
        })
        .collect()
}

/// Statement `index`'s time inside a tile: its group, its loops in order
/// (padded to the deepest nest), its place in the group.
fn time_in_tile(scop: &Scop, orders: &[Vec<usize>], at: &[(usize, usize)], index: usize) -> Vec<String> {
    let depth = scop.statements.iter().map(|s| s.loops.len()).max().unwrap_or(0);
    let s = &scop.statements[index];
    let x = dims("i", s.loops.len());
    let mut time = vec![at[index].0.to_string()];
    time.extend(orders[index].iter().map(|k| x[*k].clone()));
    time.extend((s.loops.len()..depth).map(|_| "0".to_string()));
    time.push(at[index].1.to_string());
    time
}

/// Per statement, (group, place): consumer nests with the same loops (constant
/// bounds, in the same chosen order) share them, statement after statement
/// in each iteration, where every dependence of the SCoP stays forward
/// (checked with ISL on the original domains; the tile loops only select
/// instances, and inside a tile this is their order). A nest joins a later
/// one (run at its time: a softmax's exponentials wait past the row sums'
/// zero fill to share the sums' loop) or an earlier one. A softmax's
/// exponentials and their row sum are then one pass over each row, and
/// store-to-load forwarding removes the reread. Groups are numbered in
/// nest order; a nest alone is a group of its own.
fn jam(model: &Model, scop: &Scop, groups: &Groups, orders: &[Vec<usize>]) -> IslResult<Vec<(usize, usize)>> {
    let n = scop.statements.len();
    let bounds = |s: &Statement| s.bounds.iter().map(|b| b.constant().filter(|_| b.step == 1)).collect::<Option<Vec<_>>>();
    let same_loops = |a: usize, b: usize| {
        let (sa, sb) = (&scop.statements[a], &scop.statements[b]);
        // Consumers only: producers run before them, in nest order, which
        // the demand computation above relies on.
        groups.consumers.contains(&a)
            && groups.consumers.contains(&b)
            && sa.loops.len() == sb.loops.len()
            && orders[a] == orders[b]
            && bounds(sa).is_some()
            && bounds(sa) == bounds(sb)
    };
    // (time of the group: a nest position, place in it)
    let mut at: Vec<(usize, usize)> = scop.statements.iter().map(|s| (s.beta[0], 0)).collect();
    let mut by_nest: Vec<usize> = (0..n).collect();
    by_nest.sort_by_key(|s| scop.statements[*s].beta[0]);
    for (k, &b) in by_nest.iter().enumerate() {
        for &a in by_nest[..k].iter().rev() {
            if !same_loops(a, b) {
                continue;
            }
            // a's group runs at b's time, before b...
            let mut later = at.clone();
            let a_time = at[a].0;
            let mut moved: Vec<usize> = (0..n).filter(|s| at[*s].0 == a_time).collect();
            moved.sort_by_key(|s| at[*s].1);
            for (place, s) in moved.iter().enumerate() {
                later[*s] = (at[b].0, place);
            }
            later[b] = (at[b].0, moved.len());
            let window = (a_time, at[b].0);
            if schedule_is_legal(model, scop, orders, &later, window)? {
                at = later;
                break;
            }
            // ...or b runs in a's group, after it.
            let mut earlier = at.clone();
            earlier[b] = (a_time, moved.len());
            if schedule_is_legal(model, scop, orders, &earlier, window)? {
                at = earlier;
                break;
            }
        }
    }
    // Number the groups in order of time.
    let mut times: Vec<usize> = at.iter().map(|(t, _)| *t).collect();
    times.sort();
    times.dedup();
    Ok(at.iter().map(|(t, place)| (times.iter().position(|x| x == t).unwrap_or(0), *place)).collect())
}

/// Does the untiled schedule `[time, loops in order.., place]` keep every
/// dependence forward? Only statements at times in `window` moved (those
/// before or after it keep their order with everything), so only the
/// dependences among those are checked.
fn schedule_is_legal(
    model: &Model,
    scop: &Scop,
    orders: &[Vec<usize>],
    at: &[(usize, usize)],
    window: (usize, usize),
) -> IslResult<bool> {
    let inside: Vec<usize> = (0..scop.statements.len()).filter(|s| (window.0..=window.1).contains(&at[*s].0)).collect();
    let mut maps = Vec::new();
    let mut members: Option<isl_rs::UnionSet> = None;
    for &index in &inside {
        let s = &scop.statements[index];
        let x = dims("i", s.loops.len());
        maps.push(format!("{}[{}] -> [{}]", s.name, x.join(", "), time_in_tile(scop, orders, at, index).join(", ")));
        let domain = isl_rs::UnionSet::read_from_str(&model.ctx, &scop.domain(s)).map_err(isl_err)?;
        members = Some(match members {
            Some(m) => m.union(domain).map_err(isl_err)?,
            None => domain,
        });
    }
    let Some(members) = members else { return Ok(true) };
    let schedule = model.union_map(&format!("[{}] -> {{ {} }}", scop.param_names().join(", "), maps.join("; ")))?;
    model.respects(&model.dependences_among(members)?, &schedule)
}

/// Does running statement `s`'s loops in `order` keep every dependence
/// between two of its own instances forward?
fn permutation_is_legal(model: &Model, scop: &Scop, s: &Statement, order: &[usize]) -> IslResult<bool> {
    if order.iter().enumerate().all(|(k, o)| k == *o) {
        return Ok(true);
    }
    let x = dims("i", s.loops.len());
    let permuted: Vec<String> = order.iter().map(|k| x[*k].clone()).collect();
    let text = format!("[{}] -> {{ {}[{}] -> [{}] }}", scop.param_names().join(", "), s.name, x.join(", "), permuted.join(", "));
    let schedule = model.union_map(&text)?;
    let domain = isl_rs::UnionSet::read_from_str(&model.ctx, &scop.domain(s)).map_err(isl_err)?;
    model.respects(&model.dependences_among(domain)?, &schedule)
}

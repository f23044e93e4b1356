//! `pb-matrix-tile`: contractions of bfloat16 or 8-bit integers on the
//! CPU's matrix unit (Intel AMX: eight tile registers of 16 rows x 64
//! bytes, `tdpbf16ps` and `tdpb[su][su]d`), or, where the target has no
//! tiles for the element type, on its 512-bit dot-product instructions
//! (`vdpbf16ps`, VNNI's `vpdpbusd`: the same kernel, each block's sums in
//! vector accumulators instead of tiles; see `Unit`).
//!
//! For a perfect nest whose single statement is the multiply-accumulate
//! `C[..i..j] += ext(A[..i..k..]) * ext(B[..k..j])` with bf16 operands and
//! an f32 accumulator (`arith.extf`, `mulf`, `addf`), or i8 operands and an
//! i32 accumulator (`arith.extsi`/`extui`, `muli`, `addi`), the loops get
//! roles from the accesses as in `pb-register-tile`: `j` is C's last index
//! (unit stride), `i` a C index that A uses and B does not, the reductions
//! `k` the loops in no C index (any number of them: a convolution's
//! channels and window, the one A reads contiguously innermost). When
//! `i`'s rows are not whole 32-row blocks, the C loops just outside it
//! that A uses and B does not join the rows (`M = N * H * W` for a
//! channels-last convolution, the loops' values back by floordiv and mod).
//! The other C loops stay outer loops around the kernel. The output, per
//! outer iteration:
//!
//! ```text
//! pack B: Bp[n / 16][k / g][n % 16 * g + k % g] (the tile unit's pair/quad
//!         layout, g = 4 bytes / element size, in panels of 16 columns so
//!         that each B tile is one contiguous kilobyte; zero-padded to 32
//!         columns; once per version of the weights when B is a static
//!         argument and `prepacked`)
//! for ib (32-row blocks; parallel):             S[ib]: 32x32 sums
//!   pack A: Ap[32][k] (this block's rows of the flattened reductions,
//!           zero-padded to one tile's K: 32 bf16 or 64 i8; by vectors
//!           along A's contiguous run of reductions)
//!   for jb (32-column blocks):
//!     c00, c01, c10, c11 = 0                      (4 accumulator tiles)
//!     for k by one tile's K: two A tiles, two B tiles, four products
//!     S[ib] = the four tiles; C[rows, columns that exist] += S[ib]
//! ```
//!
//! The block of sums `S` is on the stack of its block's iteration (in an
//! alloca scope), written and read back while in L1. When C is a
//! temporary, zero-filled just before, whose one reader is an elementwise
//! nest reading each element once (a quantized layer's requantization),
//! that nest's statement runs on each element of `S` in place of the
//! store into C (`contraction_epilogue`): C is neither stored nor read
//! back, and the epilogue's loop is the one `pb-vectorize` takes.
//!
//! Variants: A read in place (one contiguous reduction, whole tiles); A
//! packed whole before the blocks when the column blocks are shared by the
//! cores instead (more column than row blocks: each core then reads a
//! share of B) or when A does not change with the outer loops; C's tiles
//! loaded and stored in place for whole blocks; a zero fill of C just
//! before absorbed (sums stored, not added).
//!
//! The register tile is 2 x 2 accumulator tiles because the unit has eight
//! tile registers: four accumulators, two A and two B tiles. Packing both
//! operands makes every layout (transposed operands, a convolution's
//! windows, strided inputs) one kernel, and pads the edges with zeros, so
//! any M, N and K run on whole tiles; only the 32 x 32 blocks at the edges
//! add fewer elements of S into C.
//!
//! Products are exact and summed in f32 (i32) as PyTorch's oneDNN kernels
//! on the same unit do; each C element gets its sum added once, so a zero
//! fill or a bias in C before the nest is kept.
//!
//! Refuses (leaves the nest to `pb-register-tile` and the vectorizer, which
//! compute the same in f32 lanes): other statements, element types without
//! a matrix unit in `units`, non-constant bounds, a single row or column (a
//! vector product, bound by memory). Fewer than 16 rows or columns are
//! padded as edges are.

use melior::{
    ir::{
        r#type::ShapedTypeLike, operation::OperationLike, Attribute, OperationRef, Type, Value, ValueLike,
    },
    Context,
};
use crate::contraction_roles::{self, rewrite, Roles};
use crate::emit_at::Emit;
use pb_polyhedral::{aff::mlir_map, scop::Statement, Aff, Scop};
use pb_support::{ffi, ir::{is_named, is_static_argument}, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

use crate::{contraction_epilogue, epilogue_split, text_kernel};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-matrix-tile",
    summary: "bf16 and int8 contractions on the CPU's matrix unit (AMX tiles), operands packed into its layouts",
    description: "Rewrites perfect nests computing C[..i..j] += ext(A[..i..k]) * ext(B[..k..j]) (bf16 -> f32 \
or i8 -> i32) into a packing copy of A (rows x flattened reductions, zero-padded), a packing copy of B \
in the tile unit's pair/quad layout, and a parallel loop over 32x32 blocks of C computed by 2x2 \
accumulator tiles (amx.tile_mulf / amx.tile_muli), added into C through a block buffer on the stack; \
or, when C is a zero-filled temporary read once per element by one elementwise nest (a \
requantization), that nest applied to each block of sums instead of storing C. Without tiles for the \
element type, AVX512-BF16's or VNNI's dot products compute each block (8 rows x 2 vectors of \
accumulators at a time, B's groups as packed, A's broadcast). Runs only for the element types whose \
unit is in `units`; other nests are left unchanged.",
    anchor: "func.func",
    options: &[
        PassOption {
            name: "units",
            kind: OptionKind::String,
            default: "",
            help: "Matrix and dot-product units of the target, '+'-separated: amx-bf16, amx-int8, avx512-vnni, avx512-bf16",
        },
        PassOption { name: "cores", kind: OptionKind::UInt, default: "1", help: "Cores sharing the row blocks" },
        PassOption {
            name: "l1-bytes",
            kind: OptionKind::UInt,
            default: "32768",
            help: "L1 data cache of a core: the dot-product kernels' reductions run in chunks whose B rows fit in a third of it",
        },
        PassOption {
            name: "prepacked",
            kind: OptionKind::Bool,
            default: "false",
            help: "Pack a B read from a static argument (a model's weight) once, into a buffer kept between calls, again when the pool's prepared flag is 0",
        },
        PassOption { name: "report", kind: OptionKind::Bool, default: "false", help: "Explain each decision on stderr" },
    ],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    let units = options.string("units");
    Box::new(MatrixTile {
        bf16: units.split('+').any(|u| u == "amx-bf16"),
        int8: units.split('+').any(|u| u == "amx-int8"),
        dot_bf16: units.split('+').any(|u| u == "avx512-bf16"),
        vnni: units.split('+').any(|u| u == "avx512-vnni"),
        cores: options.uint("cores").max(1) as i64,
        l1_bytes: options.uint("l1-bytes").max(1024) as i64,
        prepacked: options.bool("prepacked"),
        report: options.bool("report"),
    })
}

#[derive(Clone)]
struct MatrixTile {
    bf16: bool,
    int8: bool,
    /// `vdpbf16ps` (AVX512-BF16), for bf16 products without AMX-BF16.
    dot_bf16: bool,
    /// `vpdpbusd` (AVX512-VNNI), for u8 x s8 products without AMX-INT8.
    vnni: bool,
    cores: i64,
    l1_bytes: i64,
    prepacked: bool,
    report: bool,
}

/// Rows and columns of one accumulator tile; the register tile is 2 x 2 of them.
const TILE: i64 = 16;
const BLOCK: i64 = 2 * TILE;

impl RustPass for MatrixTile {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "amx", "arith", "llvm", "memref", "scf", "ub", "vector"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        if !self.bf16 && !self.int8 && !self.dot_bf16 && !self.vnni {
            return Ok(());
        }
        // Epilogues applied by a kernel: erased once every nest is visited
        // (the walk holds the list of nests).
        let mut applied = Vec::new();
        // A refusal's reason is reported as a decision is.
        text_kernel::rewrite_each_nest(func, INFO.argument, self.report, |context, nest| {
            self.tile(context, nest, &mut applied).unwrap_or_else(Some)
        });
        for (epilogue, copies) in applied {
            // SAFETY: a top-level SCoP nest (no results) whose statement the
            // kernel now computes; nothing reads what it wrote in between.
            unsafe { ffi::erase(epilogue) };
            contraction_epilogue::erase_dead_copies(&copies);
        }
        Ok(())
    }
}

/// The element types of a product and the unit instruction computing it.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    /// bf16 x bf16 summed in f32 (`tdpbf16ps`).
    Bf16,
    /// i8 x i8 summed in i32; `true` where that operand is unsigned (`tdpb[su][su]d`).
    Int8 { a_unsigned: bool, b_unsigned: bool },
}

impl Kind {
    /// Elements of one 4-byte group of the unit's B layout.
    fn group(self) -> i64 {
        match self {
            Kind::Bf16 => 2,
            Kind::Int8 { .. } => 4,
        }
    }
    /// Reductions per tile product (64 bytes of a tile row).
    fn depth(self) -> i64 {
        16 * self.group()
    }
    /// Bytes of one narrow element.
    fn bytes(self) -> i64 {
        4 / self.group()
    }
    fn narrow(self) -> &'static str {
        match self {
            Kind::Bf16 => "bf16",
            Kind::Int8 { .. } => "i8",
        }
    }
    fn wide(self) -> &'static str {
        match self {
            Kind::Bf16 => "f32",
            Kind::Int8 { .. } => "i32",
        }
    }
    fn add(self) -> &'static str {
        match self {
            Kind::Bf16 => "arith.addf",
            Kind::Int8 { .. } => "arith.addi",
        }
    }
}

/// What computes a product's sums.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Unit {
    /// AMX tiles: 2 x 2 accumulator tiles of 16 x 16 per 32 x 32 block.
    Amx,
    /// Dot-product instructions on 512-bit vectors (`vpdpbusd`,
    /// `vdpbf16ps`): each lane sums one group of the B layout times the
    /// A row's group broadcast to all lanes; 8 rows x 2 vectors of
    /// accumulators at a time.
    Dot,
}

/// Rows of a block summed at once by the dot-product instructions: 8 x 2
/// accumulators, 2 B vectors and a broadcast A group take 19 of the 32
/// vector registers.
const DOT_ROWS: i64 = 8;

/// Reductions per step of the unit: a tile row's 64 bytes (AMX) or one
/// 4-byte group (a vector lane's dot product).
fn depth(kind: Kind, unit: Unit) -> i64 {
    match unit {
        Unit::Amx => kind.depth(),
        Unit::Dot => kind.group(),
    }
}

/// A recognized product: its element types and its loops' roles
/// (`contraction_roles::Roles`, reached through `Deref`).
struct Product {
    kind: Kind,
    roles: Roles,
}

impl std::ops::Deref for Product {
    type Target = Roles;
    fn deref(&self) -> &Roles {
        &self.roles
    }
}

impl Product {
    /// Rounds `n` up to a multiple of `to`.
    fn padded(n: i64, to: i64) -> i64 {
        (n + to - 1) / to * to
    }
}

impl MatrixTile {
    fn tile<'c, 'a>(
        &self,
        context: &'c Context,
        nest: OperationRef<'c, 'a>,
        applied: &mut Vec<contraction_epilogue::Applied<'c, 'a>>,
    ) -> Result<Option<String>, String> {
        let Ok(scop) = Scop::extract(&[nest]) else { return Ok(None) };
        let [statement] = scop.statements.as_slice() else { return Ok(None) };
        let Some(p) = recognize(statement) else { return Ok(None) };
        // AMX where the target has it for the element type, else the
        // vector dot-product instructions (VNNI multiplies unsigned by
        // signed bytes only).
        let unit = match p.kind {
            Kind::Bf16 if self.bf16 => Unit::Amx,
            Kind::Bf16 if self.dot_bf16 => Unit::Dot,
            Kind::Int8 { .. } if self.int8 => Unit::Amx,
            // Signed by signed: A's bytes offset by 128 into unsigned ones,
            // the offset's products taken back out (see `dot_products`).
            Kind::Int8 { a_unsigned, b_unsigned } if self.vnni && !(a_unsigned && b_unsigned) => Unit::Dot,
            Kind::Int8 { .. } if self.vnni => {
                return Err("not on the matrix unit: VNNI multiplies unsigned by signed bytes, both operands are unsigned".to_string());
            }
            _ => return Err(format!("not on the matrix unit: the target has no unit for {} products", p.kind.narrow())),
        };
        let (m, n, k) = (p.m(), p.trip(p.j), p.k());
        // Fewer rows or columns than a tile are padded with zeros like any
        // edge: the unit still does more per instruction than 8-bit or bf16
        // lanes (a 7 x 7 feature map's 49 columns of a convolution, a
        // 14-column row). A single row or column is a vector product,
        // bound by memory, not by products: left to the vector lanes.
        if m < 2 || n < 2 {
            return Err(format!("not on the matrix unit: {m} rows x {n} columns, a vector product (bound by memory)"));
        }
        // A zero fill of all of C just before is absorbed: the sums are
        // stored, not added (no fill pass over C, no read of it).
        let fill = crate::register_tile::zero_fill_before(nest, statement, p.c, &p.bounds);
        // The elementwise nest reading C once per element (a
        // requantization) applied to each block of sums in cache: C is
        // neither stored nor read back. Only from a zero fill (the sums
        // are then all of C's value).
        let memref = |k: usize, operand: usize| statement.accesses[k].op.operand(operand).map_err(|_| "access without its memref");
        if fill.is_some() {
            // A nest reading this product's sums and another product's
            // (a residual block's projection shortcut) is split first, so
            // that each kernel takes in its own part.
            epilogue_split::split_two_products(context, nest, memref(p.c, 1)?);
        }
        let epilogue = match fill {
            Some(_) => contraction_epilogue::find(nest, memref(p.c, 1)?, [memref(p.a, 0)?, memref(p.b, 0)?]),
            None => None,
        };
        if let Some(epilogue) = &epilogue {
            for op in &epilogue.moved {
                ffi::move_before(*op, nest);
            }
        }
        let how = emit_kernel(context, nest, statement, &p, unit, (self.cores, self.l1_bytes, self.prepacked, fill.is_some()), epilogue.as_ref())?;
        if let Some(epilogue) = epilogue {
            applied.push((epilogue.nest, epilogue.copies));
        }
        // SAFETY: `Scop::extract` accepted the nest, so its loops have no results and nothing defined
        // inside it is used outside it; the SCoP's handles are not used after this point.
        unsafe { ffi::erase(nest) };
        if let Some(fill) = fill {
            // SAFETY: the fill is a top-level loop nest before `nest` (`zero_fill_before`), already
            // visited by `rewrite_each_nest`; a SCoP nest has no results.
            unsafe { ffi::erase(fill) };
        }
        let (mp, np, kp) = (Product::padded(m, BLOCK), Product::padded(n, BLOCK), Product::padded(k, depth(p.kind, unit)));
        Ok(Some(format!(
            "{}: {} products, {m}x{n} over {k} reductions ({} loops) as 32x32 blocks of {}, \
padded to {mp}x{np}x{kp}; {how}{}{}",
            match unit {
                Unit::Amx => "matrix unit",
                Unit::Dot => "dot products",
            },
            p.kind.narrow(),
            p.reductions.len(),
            match unit {
                Unit::Amx => "2x2 tiles".to_string(),
                Unit::Dot => format!("{DOT_ROWS}x32 vector accumulators"),
            },
            if p.outer.is_empty() { String::new() } else { format!(", per iteration of {} outer loops", p.outer.len()) },
            if p.i_outer.is_empty() {
                String::new()
            } else {
                let loops: Vec<String> = p.i_outer.iter().chain(std::iter::once(&p.i)).map(|d| p.trip(*d).to_string()).collect();
                format!(", rows: {} flattened", loops.join(" x "))
            }
        )))
    }
}


/// The multiply-accumulate statement and its roles, if it is one.
fn recognize<'c, 'a>(s: &Statement<'c, 'a>) -> Option<Product> {
    let mac = contraction_roles::multiply_accumulate(s)?;
    // (type, unsigned) of an extended operand.
    let extended = |ext: Option<OperationRef<'c, 'a>>| -> Option<(&'static str, bool)> {
        let ext = ext?;
        let source = ext.operand(0).ok()?.r#type().to_string();
        let result = ext.result(0).ok()?.r#type().to_string();
        let kind = match (ext.name().as_string_ref().as_str().ok()?, source.as_str(), result.as_str()) {
            ("arith.extf", "bf16", "f32") => "bf16",
            ("arith.extsi", "i8", "i32") => "i8s",
            ("arith.extui", "i8", "i32") => "i8u",
            _ => return None,
        };
        Some((kind, kind == "i8u"))
    };
    let (tx, ux) = extended(mac.x.1)?;
    let (ty, uy) = extended(mac.y.1)?;
    let float = tx == "bf16" && ty == "bf16";
    let int = tx != "bf16" && ty != "bf16";
    let names_ok = if float {
        is_named(mac.add, "arith.addf") && is_named(mac.mul, "arith.mulf")
    } else {
        int && is_named(mac.add, "arith.addi") && is_named(mac.mul, "arith.muli")
    };
    if !names_ok {
        return None;
    }
    let (roles, a_is_x) = contraction_roles::roles(s, &mac, BLOCK, false)?;
    let (a_unsigned, b_unsigned) = if a_is_x { (ux, uy) } else { (uy, ux) };
    let kind = if float { Kind::Bf16 } else { Kind::Int8 { a_unsigned, b_unsigned } };
    Some(Product { kind, roles })
}


/// `dim + offset`.
fn shifted(dim: usize, offset: i64) -> Aff {
    Aff::Dim(dim).plus(Aff::Const(offset))
}

/// Is `memref` laid out row-major without gaps (what a tile load assumes
/// of all but its row stride)?
fn identity_layout(memref: Value) -> bool {
    melior::ir::r#type::MemRefType::try_from(memref.r#type()).is_ok_and(ffi::has_identity_layout)
}

/// Are `indices` `[..outer.., row + c, column + c']` with `row` and
/// `column` each a loop with coefficient 1, and the others over `outer`
/// alone? (The access then reads tiles in place: rows `row`, elements
/// along `column`.)
fn tile_shaped(indices: &[Aff], row: usize, column: usize, outer: &[usize]) -> bool {
    let n = indices.len();
    n >= 2 && alone(&indices[n - 1], column) && alone(&indices[n - 2], row) && over_only(&indices[..n - 2], outer)
}

/// Is `e` loop `d` with coefficient 1 plus a constant, no other loop?
fn alone(e: &Aff, d: usize) -> bool {
    e.coefficient(d) == Some(1) && (0..64).all(|o| o == d || !e.uses_dim(o))
}

/// Do `indices` use no loops but `loops`?
fn over_only(indices: &[Aff], loops: &[usize]) -> bool {
    indices.iter().all(|e| (0..64).all(|d| !e.uses_dim(d) || loops.contains(&d)))
}

/// Are A's rows, flattened from `i_outer` and `i`, one run of memory with
/// the reduction along each (a channels-last 1x1 convolution of stride 1:
/// `A[n][h][w][c]`, row `(n * H + h) * W + w`)? Its indices must be
/// `[..outer.., i_outer.., i, k]`, each joined loop alone with coefficient
/// 1, and every joined dimension but the first cover its whole extent
/// from 0: then row r + 1 starts one row stride (the reduction's extent)
/// after row r, across the joined dimensions' boundaries, and A's tiles
/// (or groups) are read in place.
fn rows_contiguous(p: &Product, indices: &[Aff], a_mem: Value) -> bool {
    let Ok(shape) = melior::ir::r#type::MemRefType::try_from(a_mem.r#type()) else { return false };
    let joined: Vec<usize> = p.i_outer.iter().copied().chain(std::iter::once(p.i)).collect();
    // Loops of one iteration index as their one value (a 1x1 window's).
    let one_value: Vec<Aff> =
        (0..p.bounds.len()).map(|d| if p.trip(d) == 1 { Aff::Const(p.bounds[d].0) } else { Aff::Dim(d) }).collect();
    let indices: Vec<Aff> = indices.iter().map(|e| e.substitute(&one_value)).collect();
    let n = indices.len();
    if n < joined.len() + 1 || !alone(&indices[n - 1], p.reductions[0]) {
        return false;
    }
    let first = n - 1 - joined.len();
    joined.iter().enumerate().all(|(q, &d)| {
        let e = &indices[first + q];
        // The index's value at the loop's first iteration: 0 for all but
        // the first joined dimension, whose start only moves the base.
        let start = e.constant_difference(&Aff::Dim(d)).map(|offset| offset + p.bounds[d].0);
        alone(e, d)
            && (q == 0
                || (start == Some(0) && matches!(shape.dim_size(first + q), Ok(melior::ir::r#type::DimSize::Static(size)) if size as i64 == p.trip(d))))
    }) && over_only(&indices[..first], &p.outer)
}

/// The kernel in place of `nest` (left for the caller to erase). Fast
/// paths where the shapes allow: A's tiles read in place (rows of one
/// contiguous reduction, whole tiles), C's tiles loaded and stored in
/// place (whole blocks), B packed 16 columns at a time with vector
/// shuffles (contiguous columns).
fn emit_kernel<'c>(
    context: &'c Context,
    nest: OperationRef<'c, '_>,
    s: &Statement<'c, '_>,
    p: &Product,
    unit: Unit,
    (cores, l1_bytes, prepacked, c_zero): (i64, i64, bool, bool),
    epilogue: Option<&contraction_epilogue::Epilogue<'c, '_>>,
) -> Result<String, String> {
    let e = Emit { context, location: nest.location() };
    let kind = p.kind;
    let (narrow, wide, g, depth) = (kind.narrow(), kind.wide(), kind.group(), depth(kind, unit));
    let (m, n, k) = (p.m(), p.trip(p.j), p.k());
    let (mp, np, kp) = (Product::padded(m, BLOCK), Product::padded(n, BLOCK), Product::padded(k, depth));
    let a_mem: Value = s.accesses[p.a].op.operand(0).map_err(|_| "A")?;
    let b_mem: Value = s.accesses[p.b].op.operand(0).map_err(|_| "B")?;
    let c_mem: Value = s.accesses[p.c].op.operand(1).map_err(|_| "C")?;
    let (a_index, b_index, c_index) = (&s.accesses[p.a].indices, &s.accesses[p.b].indices, &s.accesses[p.c].indices);
    let whole_blocks = m % BLOCK == 0 && n % BLOCK == 0;
    let a_in_place = p.reductions.len() == 1
        && m % BLOCK == 0
        && k % depth == 0
        && identity_layout(a_mem)
        && (if p.i_outer.is_empty() {
            tile_shaped(a_index, p.i, p.reductions[0], &p.outer)
        } else {
            rows_contiguous(p, a_index, a_mem)
        });
    let c_in_place = unit == Unit::Amx
        && epilogue.is_none()
        && whole_blocks && p.i_outer.is_empty() && identity_layout(c_mem) && tile_shaped(c_index, p.i, p.j, &p.outer);
    let b_vectors = n >= TILE
        && k % g == 0
        && identity_layout(b_mem)
        && b_index.split_last().is_some_and(|(last, front)| {
            last.coefficient(p.j) == Some(1) && !front.iter().any(|x| x.uses_dim(p.j))
        });
    // B's rows run along the reduction (a linear layer's weight, [n][k]):
    // g-element groups are 32-bit words, and packing is a transpose of
    // words, done 16 x 16 words at a time in registers.
    let b_transposed = !b_vectors
        && p.reductions.len() == 1
        && n % TILE == 0
        && k % (TILE * g) == 0
        && identity_layout(b_mem)
        && b_index.split_last().is_some_and(|(last, front)| {
            last.coefficient(p.reductions[0]) == Some(1)
                && !last.uses_dim(p.j)
                && front.iter().filter(|x| x.uses_dim(p.j)).count() == 1
                && front.iter().all(|x| !x.uses_dim(p.j) || x.coefficient(p.j) == Some(1))
        });
    let a_how = match (a_in_place, a_pack_lanes(p, a_index, a_mem).1) {
        (true, _) => "read in place".to_string(),
        (false, 1) => "packed".to_string(),
        (false, lanes) => format!("packed by {lanes}-element vectors"),
    };
    let after = nest.next_in_block().ok_or("the nest ends its block")?;
    // Packs that do not depend on the outer loops (a convolution's
    // weights, under its output rows) run once, before them.
    let uses_outer = |index: &[Aff]| index.iter().any(|x| p.outer.iter().any(|d| x.uses_dim(*d)));
    let hoist_a = !a_in_place && !uses_outer(a_index);
    let hoist_b = !uses_outer(b_index);
    // A B read from a model's weight is packed once per version of the
    // weights, into a buffer the pool keeps between calls.
    let b_once = prepacked && hoist_b && is_static_argument(b_mem);
    let stale = if b_once { Some(crate::register_tile::stale_flag(context, nest)?) } else { None };
    // The cores share the row blocks when there are enough of them, else
    // the first outer loop (each iteration then packs into buffers of its own).
    let row_blocks = mp / BLOCK;
    let outer_trip = p.outer.first().map_or(1, |d| p.trip(*d));
    let parallel_outer = cores > 1 && row_blocks < 2 * cores && outer_trip >= cores && outer_trip > row_blocks;
    // Otherwise the cores share the blocks of whichever of rows and
    // columns has more of them: each core then reads a share of the larger
    // operand (a 7x7 map's convolution: 2 row blocks, 16 column blocks, so
    // each core streams half of the weights instead of all of them).
    let col_blocks = np / BLOCK;
    let by_columns = cores > 1 && !parallel_outer && col_blocks > row_blocks;
    // With the row blocks outermost, each packs its own rows of A just
    // before its products, into a block-sized buffer of its own: the rows
    // stay in cache for every column block (a batch of feature maps packed
    // whole was megabytes written and read back from memory). Not for an
    // A the outer loops do not change (packed once, before them).
    let a_per_block = !a_in_place && !by_columns && !parallel_outer && (p.outer.is_empty() || !hoist_a);
    let a_how = if a_per_block { format!("{a_how} a row block at a time") } else { a_how };
    let c_how = match (epilogue, c_zero) {
        (Some(epilogue), _) => format!("its epilogue ({} ops) applied to each block of sums in cache (C not stored)", epilogue.ops.len()),
        (None, true) => "C's zero fill absorbed (sums stored), ".to_string(),
        (None, false) => String::new(),
    };
    let b_when = match (b_once, by_columns) {
        (true, true) => ", once per version of the weights, its column blocks shared by the cores",
        (true, false) => ", once per version of the weights",
        (false, true) => ", its column blocks shared by the cores",
        (false, false) => "",
    };
    // The buffers (packed A, packed B): whether each is needed, its type,
    // and whether it is written per outer iteration (then, with the outer
    // loop parallel, each iteration allocates its own). The block of sums
    // is on the stack of each block loop iteration (below).
    let buffers = [
        (!a_in_place && !a_per_block, format!("memref<{mp}x{kp}x{narrow}>"), !hoist_a),
        (!b_once, format!("memref<{}x{}x{}x{narrow}>", np / TILE, kp / g, TILE * g), !hoist_b),
    ];
    let private = |(needed, _, per_iteration): &(bool, String, bool)| *needed && parallel_outer && *per_iteration;
    let [mut ap, mut bp] = buffers.clone().map(|buffer| {
        (buffer.0 && !private(&buffer)).then(|| e.alloc(nest, "memref.alloc", &buffer.1))
    });
    for buffer in [ap, bp].into_iter().flatten() {
        e.op(after, "memref.dealloc", &[buffer], &[], &[]);
    }
    let zero = e.constant(nest, narrow, if kind == Kind::Bf16 { "0.0" } else { "0" });
    let full = |trip: i64| vec![Aff::Const(trip)];

    // Outer loops around everything.
    let mut env: Vec<Value> = Vec::new();
    let mut dims: Vec<Option<Aff>> = vec![None; p.bounds.len()];
    let mut at_end = nest;
    for (q, &d) in p.outer.iter().enumerate() {
        if q == 0 && parallel_outer {
            let (iv, end) = e.parallel(at_end, p.trip(d));
            dims[d] = Some(shifted(env.len(), p.bounds[d].0));
            env.push(iv);
            // Buffers of this iteration, freed at its end; what follows
            // goes before the frees.
            let mut made = Vec::new();
            for (slot, buffer) in [&mut ap, &mut bp].into_iter().zip(&buffers) {
                if private(buffer) {
                    let value = e.alloc(end, "memref.alloc", &buffer.1);
                    *slot = Some(value);
                    made.push(value);
                }
            }
            at_end = end;
            for (n, buffer) in made.iter().enumerate() {
                let free = e.op(end, "memref.dealloc", &[*buffer], &[], &[]);
                if n == 0 {
                    at_end = free;
                }
            }
            continue;
        }
        let (iv, _, end, _) = e.for_loop(at_end, (p.bounds[d].0, &full(p.bounds[d].1)), 1, &env, &[]);
        dims[d] = Some(Aff::Dim(env.len()));
        env.push(iv);
        at_end = end;
    }
    let bp = match bp {
        Some(bp) => bp,
        None => crate::register_tile::persistent_buffer(context, nest, &buffers[1].1)?,
    };
    let at = at_end;
    let outer_env = env.clone();
    let outer_dims = dims.clone();
    // Where each pack goes: before the outer loops, or inside them.
    // (The op after `zero`'s constant: the first outer loop, or the nest.)
    let before_outer = ffi::defining_op(zero).and_then(|z| z.next_in_block()).expect("the nest follows");
    let top: (OperationRef, Vec<Value>, Vec<Option<Aff>>) = (before_outer, Vec::new(), vec![None; p.bounds.len()]);
    let inner: (OperationRef, Vec<Value>, Vec<Option<Aff>>) = (at, outer_env.clone(), outer_dims.clone());
    let (a_at, a_env, a_dims) = if hoist_a { top.clone() } else { inner.clone() };
    let (mut b_at, b_env, b_dims) = if hoist_b { top } else { inner };
    if let Some(stale) = stale {
        // Under `scf.if` on the prepared flag: B's pack and its padding.
        b_at = crate::register_tile::when_stale(context, b_at, stale)?;
    }
    // Pack A: Ap[row][flat k] = A, zero-padded (whole, here; or a block
    // of rows at a time inside the row-block loop, below).
    if let (Some(ap), false) = (ap, a_per_block) {
        pack_a(&e, p, (a_index, a_mem), (a_at, &a_env, &a_dims), (&full(m), Aff::Const(0)), ap);
        for (rows, columns) in [((0, m), (k, kp)), ((m, mp), (0, kp))] {
            zero_fill(&e, a_at, (zero, ap), (rows, columns), &a_env, |r, c| vec![r, c]);
        }
    }
    // Pack B: Bp[n / 16][flat k / g][n % 16 * g + flat k % g] = B.
    // Columns packed by vectors (whole groups of 16); the rest one by one.
    let vector_columns = if b_vectors || b_transposed { n / TILE * TILE } else { 0 };
    if b_vectors {
        // g rows of 16 columns interleaved by shuffles into 16 groups of g.
        let mut env = b_env.clone();
        let (q, _, end, _) = e.for_loop(b_at, (0, &full(k / g)), 1, &env, &[]);
        env.push(q);
        let (column, _, end, _) = e.for_loop(end, (0, &full(vector_columns)), TILE, &env, &[]);
        env.push(column);
        let (qd, nd) = (env.len() - 2, env.len() - 1);
        let vector = |lanes: i64| e.ty(&format!("vector<{lanes}x{narrow}>"));
        let rows: Vec<Value> = (0..g)
            .map(|t| {
                let mut dims = b_dims.clone();
                p.unflatten(&p.reductions, &Aff::Dim(qd).scale(g).plus(Aff::Const(t)), &mut dims);
                dims[p.j] = Some(shifted(nd, p.bounds[p.j].0));
                let map = e.attr(&mlir_map(env.len(), 0, &rewrite(b_index, &dims, &p.bounds)));
                let operands: Vec<Value> = std::iter::once(b_mem).chain(env.iter().copied()).collect();
                e.value(end, "affine.vector_load", &operands, vector(TILE), &[("map", map)])
            })
            .collect();
        let interleave = |x: Value<'c, '_>, y: Value<'c, '_>, lanes: i64| {
            let mask: Vec<String> = (0..lanes).flat_map(|l| [l, l + lanes]).map(|l| l.to_string()).collect();
            let mask = e.attr(&format!("array<i64: {}>", mask.join(", ")));
            e.value(end, "vector.shuffle", &[x, y], vector(2 * lanes), &[("mask", mask)])
        };
        let packed = if g == 2 {
            interleave(rows[0], rows[1], TILE)
        } else {
            let (even, odd) = (interleave(rows[0], rows[2], TILE), interleave(rows[1], rows[3], TILE));
            interleave(even, odd, 2 * TILE)
        };
        let panel = Aff::FloorDiv(Box::new(Aff::Dim(nd)), TILE);
        let map = e.attr(&mlir_map(env.len(), 0, &[panel, Aff::Dim(qd), Aff::Const(0)]));
        let operands: Vec<Value> = [packed, bp].into_iter().chain(env.iter().copied()).collect();
        e.op(end, "affine.vector_store", &operands, &[], &[("map", map)]);
    } else if b_transposed {
        // 16 rows of 16 words along k, transposed into 16 rows of Bp.
        let mut env = b_env.clone();
        let (q, _, end, _) = e.for_loop(b_at, (0, &full(k / (TILE * g))), 1, &env, &[]);
        env.push(q);
        let (column, _, end, _) = e.for_loop(end, (0, &full(n)), TILE, &env, &[]);
        env.push(column);
        let (qd, nd) = (env.len() - 2, env.len() - 1);
        let bytes = e.ty(&format!("vector<{}x{narrow}>", TILE * g));
        let words = e.ty(&format!("vector<{TILE}xi32>"));
        let square = e.ty(&format!("vector<{TILE}x{TILE}xi32>"));
        let operands: Vec<Value> = std::iter::once(b_mem).chain(env.iter().copied()).collect();
        let mut block = e.value(end, "ub.poison", &[], square, &[("value", e.attr("#ub.poison"))]);
        for r in 0..TILE {
            let mut dims = b_dims.clone();
            dims[p.reductions[0]] = Some(Aff::Dim(qd).scale(TILE * g).plus(Aff::Const(p.bounds[p.reductions[0]].0)));
            dims[p.j] = Some(Aff::Dim(nd).plus(Aff::Const(r + p.bounds[p.j].0)));
            let map = e.attr(&mlir_map(env.len(), 0, &rewrite(b_index, &dims, &p.bounds)));
            let row = e.value(end, "affine.vector_load", &operands, bytes, &[("map", map)]);
            let row = e.value(end, "vector.bitcast", &[row], words, &[]);
            let position = e.attr(&format!("array<i64: {r}>"));
            block = e.value(end, "vector.insert", &[row, block], square, &[("static_position", position)]);
        }
        let turned = e.value(end, "vector.transpose", &[block], square, &[("permutation", e.attr("array<i64: 1, 0>"))]);
        for s in 0..TILE {
            let position = e.attr(&format!("array<i64: {s}>"));
            let row = e.value(end, "vector.extract", &[turned], words, &[("static_position", position)]);
            let row = e.value(end, "vector.bitcast", &[row], bytes, &[]);
            let panel = Aff::FloorDiv(Box::new(Aff::Dim(nd)), TILE);
            let map = e.attr(&mlir_map(env.len(), 0, &[panel, Aff::Dim(qd).scale(TILE).plus(Aff::Const(s)), Aff::Const(0)]));
            let operands: Vec<Value> = [row, bp].into_iter().chain(env.iter().copied()).collect();
            e.op(end, "affine.vector_store", &operands, &[], &[("map", map)]);
        }
    }
    if vector_columns < n {
        let mut env = b_env.clone();
        let mut dims = b_dims.clone();
        let first = env.len();
        let inner = reduction_loops(&e, b_at, p, &p.reductions, &mut env, &mut dims);
        let (column, _, end, _) = e.for_loop(inner, (vector_columns, &full(n)), 1, &env, &[]);
        dims[p.j] = Some(shifted(env.len(), p.bounds[p.j].0));
        env.push(column);
        let value = e.load(end, b_mem, &rewrite(b_index, &dims, &p.bounds), &env);
        e.store(end, value, bp, &grouped(flat_index(p, &p.reductions, first), Aff::Dim(env.len() - 1), g), &env);
    }
    // Zero the padding of Bp: reductions k..kp of every column, columns n..np.
    zero_fill(&e, b_at, (zero, bp), ((k, kp), (0, n)), &b_env, |kf, column| grouped(kf, column, g));
    zero_fill(&e, b_at, (zero, bp), ((0, kp / g), (n * g, np * g)), &b_env, |q, c| {
        vec![Aff::FloorDiv(Box::new(c.clone()), TILE * g), q, Aff::Mod(Box::new(c), TILE * g)]
    });

    // Rows or columns of a block that exist: bounds that are constants
    // where every block is whole in that dimension (a constant column loop
    // is one the vectorizer takes: C's add runs 16 lanes at a time).
    let left = |size: i64, block: usize| -> Vec<Aff> {
        if size % BLOCK == 0 {
            vec![Aff::Const(BLOCK)]
        } else {
            vec![Aff::Const(BLOCK), Aff::Const(size).plus(Aff::Dim(block).scale(-BLOCK))]
        }
    };
    // The blocks of C: parallel over 32-row blocks when there are cores to share them.
    let mut env = outer_env.clone();
    let (first_trip, second_trip) = if by_columns { (col_blocks, row_blocks) } else { (row_blocks, col_blocks) };
    let (first, end) = if cores > 1 && first_trip > 1 && !parallel_outer {
        e.parallel(at, first_trip)
    } else {
        let (iv, _, end, _) = e.for_loop(at, (0, &full(first_trip)), 1, &env, &[]);
        (iv, end)
    };
    env.push(first);
    // The 32x32 sums of a block, between the tiles and C: one block on the
    // stack per iteration of the block loop (in an alloca scope, freed at
    // the iteration's end), written and read back while in L1. (One block
    // per row block of a buffer as large as C had each block's tile
    // stores miss the cache: as much traffic again as C's.)
    let (end, scratch) = if c_in_place {
        (end, None)
    } else {
        let end = e.alloca_scope(end);
        (end, Some(e.alloc(end, "memref.alloca", &format!("memref<{BLOCK}x{BLOCK}x{wide}>"))))
    };
    let first_end = end;
    // A's rows of this row block, packed into a buffer of the iteration.
    let a_block = if a_per_block {
        let block = e.alloc(end, "memref.alloc", &format!("memref<{BLOCK}x{kp}x{narrow}>"));
        let ibd = env.len() - 1;
        // The reductions past K read as zeros, and so do the last block's
        // missing rows.
        let zeroed_from = if m % BLOCK == 0 { k } else { 0 };
        zero_fill(&e, end, (zero, block), ((0, BLOCK), (zeroed_from, kp)), &env, |r, c| vec![r, c]);
        pack_a(&e, p, (a_index, a_mem), (end, &env, &outer_dims), (&left(m, ibd), Aff::Dim(ibd).scale(BLOCK)), block);
        Some(block)
    } else {
        None
    };
    let (second, _, end, _) = e.for_loop(end, (0, &full(second_trip)), 1, &env, &[]);
    env.push(second);
    let (ibd, jbd) = if by_columns { (env.len() - 1, env.len() - 2) } else { (env.len() - 2, env.len() - 1) };
    // A's indices at row `row` of the block and reduction `k` (flattened).
    let a_at = |row: Aff, k: Aff| -> Vec<Aff> {
        match (a_block, ap) {
            (Some(_), _) => vec![row, k],
            (None, Some(_)) => vec![Aff::Dim(ibd).scale(BLOCK).plus(row), k],
            (None, None) => {
                let mut dims = outer_dims.clone();
                p.set_row(Aff::Dim(ibd).scale(BLOCK).plus(row), &mut dims);
                dims[p.reductions[0]] = Some(k.plus(Aff::Const(p.bounds[p.reductions[0]].0)));
                rewrite(a_index, &dims, &p.bounds)
            }
        }
    };
    let a_source = a_block.or(ap).unwrap_or(a_mem);
    let scratch = if unit == Unit::Dot {
        let scratch = scratch.ok_or("dot products sum through the block buffer")?;
        dot_products(&e, end, kind, (a_source, &a_at), (bp, Aff::Dim(jbd)), (kp, &env), (scratch, l1_bytes));
        scratch
    } else {
        let acc_type = e.ty(&format!("!amx.tile<{TILE}x{TILE}x{wide}>"));
        let operand_type = e.ty(&format!("!amx.tile<{TILE}x{depth}x{narrow}>"));
        let corners = [(0, 0), (0, TILE), (TILE, 0), (TILE, TILE)];
        // C's indices at a corner of the block, over `env`.
        let c_corner = |(row, column): (i64, i64)| {
            let mut dims = outer_dims.clone();
            p.set_row(Aff::Dim(ibd).scale(BLOCK).plus(Aff::Const(row)), &mut dims);
            dims[p.j] = Some(Aff::Dim(jbd).scale(BLOCK).plus(Aff::Const(column + p.bounds[p.j].0)));
            rewrite(c_index, &dims, &p.bounds)
        };
        let initial: Vec<Value> = if c_in_place && !c_zero {
            corners.iter().map(|corner| e.load_tile(end, c_mem, &c_corner(*corner), &env, acc_type)).collect()
        } else {
            // Four zero tiles, not one used four times: a tile value shared by
            // loop-carried accumulators is copied through the stack (there is
            // no tile move), three kilobyte spills per block.
            (0..4).map(|_| e.value(end, "amx.tile_zero", &[], acc_type, &[])).collect()
        };
        let (kk, acc, body_end, k_loop) = e.for_loop(end, (0, &full(kp)), depth, &env, &initial);
        let mut k_env = env.clone();
        k_env.push(kk);
        let kkd = k_env.len() - 1;
        let a_tile = |row: i64| a_at(Aff::Const(row), Aff::Dim(kkd));
        let a0 = e.load_tile(body_end, a_source, &a_tile(0), &k_env, operand_type);
        let a1 = e.load_tile(body_end, a_source, &a_tile(TILE), &k_env, operand_type);
        let b_row = Aff::FloorDiv(Box::new(Aff::Dim(kkd)), g);
        // Each 16-column panel's tile is one contiguous kilobyte.
        let panel = Aff::Dim(jbd).scale(BLOCK / TILE);
        let b0 = e.load_tile(body_end, bp, &[panel.clone(), b_row.clone(), Aff::Const(0)], &k_env, operand_type);
        let b1 = e.load_tile(body_end, bp, &[panel.plus(Aff::Const(1)), b_row, Aff::Const(0)], &k_env, operand_type);
        let (name, flags): (&str, Vec<(&str, Attribute)>) = match kind {
            Kind::Bf16 => ("amx.tile_mulf", vec![]),
            Kind::Int8 { a_unsigned, b_unsigned } => (
                "amx.tile_muli",
                [("isZextLhs", a_unsigned), ("isZextRhs", b_unsigned)]
                    .into_iter()
                    .filter(|(_, on)| *on)
                    .map(|(flag, _)| (flag, Attribute::unit(context)))
                    .collect(),
            ),
        };
        let products: Vec<Value> = [(a0, b0, 0), (a0, b1, 1), (a1, b0, 2), (a1, b1, 3)]
            .into_iter()
            .map(|(x, y, t)| e.value(body_end, name, &[x, y, acc[t]], acc_type, &flags))
            .collect();
        ffi::set_operands(body_end, &products);
        let tiles: Vec<Value> = (0..4).map(|t| k_loop.result(t).expect("tile").into()).collect();
        let Some(scratch) = scratch else {
            // The sums (started from C) go back to C.
            for (corner, tile) in corners.iter().zip(&tiles) {
                e.store_tile(end, c_mem, &c_corner(*corner), &env, *tile);
            }
            if let Some(block) = a_block {
                e.op(first_end, "memref.dealloc", &[block], &[], &[]);
            }
            return Ok(describe(&a_how, b_when, &c_how, c_in_place, b_vectors, b_transposed, (vector_columns, n)));
        };
        // The four tiles into the scratch block, then into C where it exists.
        for ((row, column), tile) in corners.iter().zip(&tiles) {
            e.store_tile(end, scratch, &[Aff::Const(*row), Aff::Const(*column)], &env, *tile);
        }
        scratch
    };
    let rows_left = left(m, ibd);
    let (r, _, r_end, _) = e.for_loop(end, (0, &rows_left), 1, &env, &[]);
    env.push(r);
    let columns_left = left(n, jbd);
    let (c, _, c_end, _) = e.for_loop(r_end, (0, &columns_left), 1, &env, &[]);
    env.push(c);
    let (rd, cd) = (env.len() - 2, env.len() - 1);
    let mut dims = outer_dims;
    p.set_row(Aff::Dim(ibd).scale(BLOCK).plus(Aff::Dim(rd)), &mut dims);
    dims[p.j] = Some(Aff::Dim(jbd).scale(BLOCK).plus(Aff::Dim(cd)).plus(Aff::Const(p.bounds[p.j].0)));
    let c_at = rewrite(c_index, &dims, &p.bounds);
    let sum = e.load(c_end, scratch, &[Aff::Dim(rd), Aff::Dim(cd)], &env);
    if let Some(epilogue) = epilogue {
        // C's column index, when it is the column loop from 0: the
        // epilogue's loops along it come from the block and the column in
        // it without a division of their sum (`(jb * 32 + c) mod 64` is
        // `(jb mod 2) * 32 + c`), so the column loop stays one the
        // vectorizer takes.
        let column = c_index.iter().position(|x| *x == Aff::Dim(p.j)).filter(|_| p.bounds[p.j].0 == 0).map(|q| (q, jbd, cd));
        apply_epilogue(&e, c_end, epilogue, sum, (&c_at, column), &env);
        if let Some(block) = a_block {
            e.op(first_end, "memref.dealloc", &[block], &[], &[]);
        }
        return Ok(describe(&a_how, b_when, &c_how, c_in_place, b_vectors, b_transposed, (vector_columns, n)));
    }
    let new = if c_zero {
        sum
    } else {
        let old = e.load(c_end, c_mem, &c_at, &env);
        e.value(c_end, kind.add(), &[old, sum], old.r#type(), &[])
    };
    e.store(c_end, new, c_mem, &c_at, &env);
    if let Some(block) = a_block {
        e.op(first_end, "memref.dealloc", &[block], &[], &[]);
    }
    Ok(describe(&a_how, b_when, &c_how, c_in_place, b_vectors, b_transposed, (vector_columns, n)))
}

/// The sums of one 32 x 32 block by dot-product instructions into
/// `scratch`, before `at`: per group of `DOT_ROWS` rows, `2 * DOT_ROWS`
/// vector accumulators over the reductions, one group (4 bytes) at a
/// time: the B vectors of the block's two 16-column panels (their lanes'
/// groups, as packed) and each row's A group broadcast to all lanes.
/// `a_at(row, k)`: A's indices over `env` and the loops made here; `jb`:
/// the block's column index over `env`; `cache_bytes`: a core's L1.
fn dot_products<'c, 'a>(
    e: &Emit<'c>,
    at: OperationRef<'c, 'a>,
    kind: Kind,
    (a_source, a_at): (Value<'c, 'a>, &dyn Fn(Aff, Aff) -> Vec<Aff>),
    (bp, jb): (Value<'c, 'a>, Aff),
    (kp, env): (i64, &[Value<'c, 'a>]),
    (scratch, cache_bytes): (Value<'c, 'a>, i64),
) {
    let (narrow, wide, g) = (kind.narrow(), kind.wide(), kind.group());
    let lanes = TILE;
    let acc_type = e.ty(&format!("vector<{lanes}x{wide}>"));
    let operand_type = e.ty(&format!("vector<{}x{narrow}>", lanes * g));
    let group_type = e.ty(&format!("vector<{g}x{narrow}>"));
    let (intrinsic, zero) = match kind {
        Kind::Bf16 => ("llvm.x86.avx512bf16.dpbf16ps.512", "dense<0.0>"),
        Kind::Int8 { .. } => ("llvm.x86.avx512.vpdpbusd.512", "dense<0>"),
    };
    let zero = e.constant(at, &format!("vector<{lanes}x{wide}>"), zero);
    // Signed A by signed B: vpdpbusd's unsigned operand is A + 128 (its
    // bytes with the top bit flipped), which adds 128 * sum(B) to every
    // row's sums; that is summed alongside, once per row group (the
    // offset's bytes times B's), and subtracted at the end.
    let offset = kind == Kind::Int8 { a_unsigned: false, b_unsigned: false };
    let offset_bytes = offset.then(|| {
        let attr = e.attr(&format!("dense<-2139062144> : vector<{lanes}xi32>"));
        let words = e.value(at, "arith.constant", &[], e.ty(&format!("vector<{lanes}xi32>")), &[("value", attr)]);
        (words, e.value(at, "vector.bitcast", &[words], operand_type, &[]))
    });
    let mut env: Vec<Value> = env.to_vec();
    let vector_store = |at: OperationRef<'c, 'a>, value: Value<'c, 'a>, indices: &[Aff], env: &[Value<'c, 'a>]| {
        let map = e.attr(&mlir_map(env.len(), 0, indices));
        let operands: Vec<Value> = [value, scratch].into_iter().chain(env.iter().copied()).collect();
        e.op(at, "affine.vector_store", &operands, &[], &[("map", map)]);
    };
    // Reductions in chunks of `chunk` when B's rows of the block (32
    // columns) for all of them would not stay in a third of L1 while the
    // four row groups read them (a 1024-deep bf16 product: 64 KB); the
    // sums then start from the block buffer, zeroed first.
    let chunk = (cache_bytes / 3 / (BLOCK * kind.bytes())).max(g) / g * g;
    let (at, first, k_upper) = if kp > chunk {
        let (r, _, r_end, _) = e.for_loop(at, (0, &[Aff::Const(BLOCK)]), 1, &env, &[]);
        let mut r_env = env.clone();
        r_env.push(r);
        for q in 0..2 {
            vector_store(r_end, zero, &[Aff::Dim(env.len()), Aff::Const(q * lanes)], &r_env);
        }
        let (kc, _, kc_end, _) = e.for_loop(at, (0, &[Aff::Const(kp)]), chunk, &env, &[]);
        env.push(kc);
        let kcd = env.len() - 1;
        (kc_end, Some(kcd), vec![Aff::Const(chunk), Aff::Const(kp).plus(Aff::Dim(kcd).scale(-1))])
    } else {
        (at, None, vec![Aff::Const(kp)])
    };
    let (rows, _, rows_end, _) = e.for_loop(at, (0, &[Aff::Const(BLOCK)]), DOT_ROWS, &env, &[]);
    env.push(rows);
    let rd = env.len() - 1;
    // Accumulator t's place in the block buffer: row t / 2 of the group,
    // the block's t % 2-th 16 columns.
    let slot = |t: i64| [Aff::Dim(rd).plus(Aff::Const(t / 2)), Aff::Const(t % 2 * lanes)];
    let accumulators = 2 * DOT_ROWS as usize + if offset { 2 } else { 0 };
    let initial: Vec<Value> = match first {
        None => vec![zero; accumulators],
        Some(_) => (0..2 * DOT_ROWS)
            .map(|t| {
                let map = e.attr(&mlir_map(env.len(), 0, &slot(t)));
                let operands: Vec<Value> = std::iter::once(scratch).chain(env.iter().copied()).collect();
                e.value(rows_end, "affine.vector_load", &operands, acc_type, &[("map", map)])
            })
            .chain(if offset { vec![zero, zero] } else { vec![] })
            .collect(),
    };
    let (kk, acc, body_end, k_loop) = e.for_loop(rows_end, (0, &k_upper), g, &env, &initial);
    let mut k_env = env.clone();
    k_env.push(kk);
    let kkd = k_env.len() - 1;
    // The reduction's index, and B's row (a chunk's start is a multiple of g).
    let (k_at, b_row) = match first {
        None => (Aff::Dim(kkd), Aff::FloorDiv(Box::new(Aff::Dim(kkd)), g)),
        Some(kcd) => (
            Aff::Dim(kcd).plus(Aff::Dim(kkd)),
            Aff::FloorDiv(Box::new(Aff::Dim(kcd)), g).plus(Aff::FloorDiv(Box::new(Aff::Dim(kkd)), g)),
        ),
    };
    let vector_load = |memref: Value<'c, 'a>, indices: &[Aff], ty: Type<'c>| {
        let map = e.attr(&mlir_map(k_env.len(), 0, indices));
        let operands: Vec<Value> = std::iter::once(memref).chain(k_env.iter().copied()).collect();
        e.value(body_end, "affine.vector_load", &operands, ty, &[("map", map)])
    };
    // The two panels' groups at reduction kk (each a 64-byte row of Bp).
    let b: Vec<Value> = (0..2)
        .map(|q| vector_load(bp, &[jb.clone().scale(2).plus(Aff::Const(q)), b_row.clone(), Aff::Const(0)], operand_type))
        .collect();
    let word = e.ty("vector<1xi32>");
    let words = e.ty(&format!("vector<{lanes}xi32>"));
    let i32_type = e.ty("i32");
    let intrinsic = e.attr(&format!("\"{intrinsic}\""));
    let dot = |acc: Value<'c, 'a>, x: Value<'c, 'a>, y: Value<'c, 'a>| {
        let attributes = [
            ("intrin", intrinsic),
            ("fastmathFlags", e.attr("#llvm.fastmath<none>")),
            ("op_bundle_sizes", e.attr("array<i32>")),
            ("operandSegmentSizes", e.attr("array<i32: 3, 0>")),
        ];
        e.value(body_end, "llvm.call_intrinsic", &[acc, x, y], acc_type, &attributes)
    };
    let mut sums = Vec::new();
    for r in 0..DOT_ROWS {
        // Row r's group as one 32-bit word in every lane.
        let group = vector_load(a_source, &a_at(Aff::Dim(rd).plus(Aff::Const(r)), k_at.clone()), group_type);
        let group = e.value(body_end, "vector.bitcast", &[group], word, &[]);
        let group = e.value(body_end, "vector.extract", &[group], i32_type, &[("static_position", e.attr("array<i64: 0>"))]);
        let mut splat = e.value(body_end, "vector.broadcast", &[group], words, &[]);
        if let Some((flip, _)) = offset_bytes {
            splat = e.value(body_end, "arith.xori", &[splat, flip], words, &[]);
        }
        let a = e.value(body_end, "vector.bitcast", &[splat], operand_type, &[]);
        for (q, b) in b.iter().enumerate() {
            // vpdpbusd's first operand is the unsigned one.
            let (x, y) = match kind {
                Kind::Int8 { a_unsigned: false, b_unsigned: true } => (*b, a),
                _ => (a, *b),
            };
            sums.push(dot(acc[2 * r as usize + q], x, y));
        }
    }
    if let Some((_, bytes)) = offset_bytes {
        for (q, b) in b.iter().enumerate() {
            sums.push(dot(acc[2 * DOT_ROWS as usize + q], bytes, *b));
        }
    }
    ffi::set_operands(body_end, &sums);
    let result = |t: i64| -> Value<'c, 'a> { k_loop.result(t as usize).expect("accumulator").into() };
    for t in 0..2 * DOT_ROWS {
        let mut sum = result(t);
        if offset {
            sum = e.value(rows_end, "arith.subi", &[sum, result(2 * DOT_ROWS + t % 2)], acc_type, &[]);
        }
        vector_store(rows_end, sum, &slot(t), &env);
    }
}

/// The epilogue's statement at the element of C whose indices are `c_at`
/// (over `env`), before `at`: its loads (the sum for C's), a copy of each
/// arithmetic op, its store.
fn apply_epilogue<'c, 'a>(
    e: &Emit<'c>,
    at: OperationRef<'c, 'a>,
    epilogue: &contraction_epilogue::Epilogue<'c, '_>,
    sum: Value<'c, 'a>,
    (c_at, column): (&[Aff], Option<(usize, usize, usize)>),
    env: &[Value<'c, 'a>],
) {
    // The epilogue's loops, as C's indices here.
    let dims: Vec<Aff> = epilogue
        .to_c
        .iter()
        .map(|to| match *to {
            None => Aff::Const(0),
            // Along the column `jb * 32 + c` (c < 32): a stride that is a
            // multiple of 32 divides the block index alone; a unit stride
            // over a multiple of 32 columns keeps `c` whole.
            Some((q, stride, trip, outermost)) if column.is_some_and(|(cq, _, _)| cq == q) && (stride % BLOCK == 0 || trip % BLOCK == 0) => {
                let (_, jb, c) = column.expect("checked");
                if stride % BLOCK == 0 {
                    let divided = Aff::FloorDiv(Box::new(Aff::Dim(jb)), stride / BLOCK);
                    if outermost { divided } else { Aff::Mod(Box::new(divided), trip) }
                } else if stride == 1 {
                    let block = if outermost { Aff::Dim(jb) } else { Aff::Mod(Box::new(Aff::Dim(jb)), trip / BLOCK) };
                    block.scale(BLOCK).plus(Aff::Dim(c))
                } else {
                    let divided = Aff::FloorDiv(Box::new(c_at[q].clone()), stride);
                    if outermost { divided } else { Aff::Mod(Box::new(divided), trip) }
                }
            }
            Some((q, stride, trip, outermost)) => {
                let divided = if stride == 1 { c_at[q].clone() } else { Aff::FloorDiv(Box::new(c_at[q].clone()), stride) };
                if outermost { divided } else { Aff::Mod(Box::new(divided), trip) }
            }
        })
        .collect();
    contraction_epilogue::apply(
        at,
        epilogue,
        sum,
        &dims,
        |at, memref, indices| e.load(at, memref, indices, env),
        |at, value, memref, indices| e.store(at, value, memref, indices, env),
    );
}

/// Loops over `reductions` (some of `p`'s) over their original ranges,
/// nested at `at` (their variables pushed on `env`, each reduction's
/// dimension set in `dims`); returns the innermost body's end.
fn reduction_loops<'c, 'a>(
    e: &Emit<'c>,
    at: OperationRef<'c, 'a>,
    p: &Product,
    reductions: &[usize],
    env: &mut Vec<Value<'c, 'a>>,
    dims: &mut [Option<Aff>],
) -> OperationRef<'c, 'a> {
    let mut inner = at;
    for &r in reductions {
        let (iv, _, end, _) = e.for_loop(inner, (p.bounds[r].0, &[Aff::Const(p.bounds[r].1)]), 1, env, &[]);
        dims[r] = Some(Aff::Dim(env.len()));
        env.push(iv);
        inner = end;
    }
    inner
}


/// Packs rows `base + [0, upper)` of A (flattened rows) into rows
/// `[0, upper)` of `ap` (`Ap[row][flat k]`), at `a_at` inside the loops of
/// `a_env` (whose dimensions `a_dims` gives): by vectors along A's
/// contiguous run of reductions where it has one (`a_pack_lanes`), else
/// element by element. Padding is the caller's.
fn pack_a<'c, 'a>(
    e: &Emit<'c>,
    p: &Product,
    (a_index, a_mem): (&[Aff], Value<'c, 'a>),
    (a_at, a_env, a_dims): (OperationRef<'c, 'a>, &[Value<'c, 'a>], &[Option<Aff>]),
    (upper, base): (&[Aff], Aff),
    ap: Value<'c, 'a>,
) {
    let mut env = a_env.to_vec();
    let mut dims = a_dims.to_vec();
    let (row, _, end, _) = e.for_loop(a_at, (0, upper), 1, &env, &[]);
    p.set_row(base.plus(Aff::Dim(env.len())), &mut dims);
    env.push(row);
    let first = env.len();
    let (run_from, lanes) = a_pack_lanes(p, a_index, a_mem);
    let (inner, to) = if lanes > 1 {
        // Loops over the reductions before the run, then one loop along
        // the run (its reductions' values by floordiv and mod); the run is
        // the innermost `run` elements of the flat reduction index.
        let (before, along) = p.reductions.split_at(run_from);
        let inner = reduction_loops(e, end, p, before, &mut env, &mut dims);
        let run: i64 = along.iter().map(|r| p.trip(*r)).product();
        let (iv, _, end, _) = e.for_loop(inner, (0, &[Aff::Const(run)]), lanes, &env, &[]);
        let position = Aff::Dim(env.len());
        env.push(iv);
        p.unflatten(along, &position, &mut dims);
        (end, [Aff::Dim(first - 1), flat_index(p, before, first).scale(run).plus(position)])
    } else {
        (reduction_loops(e, end, p, &p.reductions, &mut env, &mut dims), [Aff::Dim(first - 1), flat_index(p, &p.reductions, first)])
    };
    let from = rewrite(a_index, &dims, &p.bounds);
    if lanes > 1 {
        let vector = e.ty(&format!("vector<{lanes}x{}>", p.kind.narrow()));
        let operands: Vec<Value> = std::iter::once(a_mem).chain(env.iter().copied()).collect();
        let value = e.value(inner, "affine.vector_load", &operands, vector, &[("map", e.attr(&mlir_map(env.len(), 0, &from)))]);
        let operands: Vec<Value> = [value, ap].into_iter().chain(env.iter().copied()).collect();
        e.op(inner, "affine.vector_store", &operands, &[], &[("map", e.attr(&mlir_map(env.len(), 0, &to)))]);
    } else {
        let value = e.load(inner, a_mem, &from, &env);
        e.store(inner, value, ap, &to, &env);
    }
}

/// The row-major flattened index of `reductions` (some of `p`'s), whose
/// loops are at `env[first..]`.
fn flat_index(p: &Product, reductions: &[usize], first: usize) -> Aff {
    let mut expr = Aff::Const(0);
    let mut stride = 1;
    for (q, r) in reductions.iter().enumerate().rev() {
        expr = expr.plus(Aff::Dim(first + q).plus(Aff::Const(-p.bounds[*r].0)).scale(stride));
        stride *= p.trip(*r);
    }
    expr
}

/// Where A's contiguous run starts among the reductions, and the elements
/// per vector when A is packed by vectors along it: the run is the
/// innermost reductions that walk A's memory contiguously (a channels-last
/// convolution's input channels, with the window's columns too when the
/// channels are A's whole last dimension); vectors of 64, 32 or 16 bytes
/// that divide it, or one vector of the whole run when it is shorter; 1
/// (element by element) otherwise.
fn a_pack_lanes(p: &Product, a_index: &[Aff], a_mem: Value) -> (usize, i64) {
    let shape = pb_dialects::type_utils::memref_static_shape(a_mem.r#type());
    let Some(shape) = shape.filter(|_| identity_layout(a_mem)) else {
        return (p.reductions.len(), 1);
    };
    if shape.len() != a_index.len() {
        return (p.reductions.len(), 1);
    }
    // A's address as one expression (row-major strides).
    let mut address = Aff::Const(0);
    let mut stride = 1;
    for (index, n) in a_index.iter().zip(&shape).rev() {
        address = address.plus(index.clone().scale(stride));
        stride *= n;
    }
    // The run: the innermost reductions whose steps move A's address by
    // exactly the length of the run inside them (1 for the innermost).
    let mut run_from = p.reductions.len();
    let mut run = 1;
    for (q, &r) in p.reductions.iter().enumerate().rev() {
        if address.coefficient(r) != Some(run) {
            break;
        }
        run_from = q;
        run *= p.trip(r);
    }
    let bytes = if p.kind == Kind::Bf16 { 2 } else { 1 };
    let lanes = [64, 32, 16].into_iter().map(|b| b / bytes).find(|lanes| run % lanes == 0);
    match lanes {
        Some(lanes) => (run_from, lanes),
        // A short run (a first layer's 3 channels times a window row: 21
        // bytes) is one vector of its own length.
        None if run > 1 && run * bytes <= 64 => (run_from, run),
        None => (p.reductions.len(), 1),
    }
}

/// Stores `zero` into `memref` at `to(row, column)` for the rows and
/// columns of the two ranges (loops at `at`, inside the loops of `env`);
/// nothing when a range is empty.
fn zero_fill<'c, 'a>(
    e: &Emit<'c>,
    at: OperationRef<'c, 'a>,
    (zero, memref): (Value<'c, 'a>, Value<'c, 'a>),
    (rows, columns): ((i64, i64), (i64, i64)),
    env: &[Value<'c, 'a>],
    to: impl Fn(Aff, Aff) -> Vec<Aff>,
) {
    if rows.0 >= rows.1 || columns.0 >= columns.1 {
        return;
    }
    let mut env = env.to_vec();
    let (row, _, end, _) = e.for_loop(at, (rows.0, &[Aff::Const(rows.1)]), 1, &env, &[]);
    env.push(row);
    let (column, _, end, _) = e.for_loop(end, (columns.0, &[Aff::Const(columns.1)]), 1, &env, &[]);
    env.push(column);
    let n = env.len();
    e.store(end, zero, memref, &to(Aff::Dim(n - 2), Aff::Dim(n - 1)), &env);
}

/// B's packed position of flattened reduction `kf` in `column`: panels of
/// 16 columns, each a run of rows of `g` reductions per column
/// (`[column / 16, kf / g, column % 16 * g + kf % g]`), so that one tile
/// of a panel (16 rows of 64 bytes) is contiguous.
fn grouped(kf: Aff, column: Aff, g: i64) -> Vec<Aff> {
    vec![
        Aff::FloorDiv(Box::new(column.clone()), TILE),
        Aff::FloorDiv(Box::new(kf.clone()), g),
        Aff::Mod(Box::new(column), TILE).scale(g).plus(Aff::Mod(Box::new(kf), g)),
    ]
}

/// The report's words for how the operands move (`a`: how A does;
/// `b_when`: when B is packed, if not every call; `c_how`: what became of
/// C's initial value).
fn describe(a: &str, b_when: &str, c_how: &str, c_in_place: bool, b_vectors: bool, b_transposed: bool, (vectors, n): (i64, i64)) -> String {
    let how = if b_vectors {
        "by vector shuffles"
    } else if b_transposed {
        "by 16x16 word transposes"
    } else {
        "element by element"
    };
    let b = match vectors {
        0 => "element by element".to_string(),
        _ if vectors == n => how.to_string(),
        _ => format!("{how} ({vectors} columns) and element by element ({})", n - vectors),
    };
    // An epilogue's description says where the sums go.
    let c = if c_how.contains("epilogue") {
        c_how.trim_end_matches(", ").to_string()
    } else if c_in_place {
        format!("{c_how}C tiles loaded and stored in place")
    } else {
        format!("{c_how}C added from a block buffer")
    };
    format!("A {a}, B packed {b}{b_when}, {c}")
}

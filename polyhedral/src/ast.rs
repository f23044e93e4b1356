//! Code generation, first half: an ISL schedule becomes an ISL AST
//! (`isl_ast_build_node_from_schedule_map`), which is read into [`Tree`], a
//! small loop tree with affine bounds that [`crate::codegen`] turns into
//! `affine.for`/`affine.if` ops. isl-rs has no AST-build bindings; the few
//! calls needed are declared here against the ISL library it links.

use crate::aff::Aff;
use crate::model::{isl_err, IslResult};
use isl_rs::{ASTExpr, ASTExprOpType, ASTExprType, ASTNode, ASTNodeType, Context, Set, UnionMap};

#[allow(non_camel_case_types)]
type isl_ptr = usize;

extern "C" {
    fn isl_ast_build_from_context(set: isl_ptr) -> isl_ptr;
    fn isl_ast_build_node_from_schedule_map(build: isl_ptr, schedule: isl_ptr) -> isl_ptr;
    fn isl_ast_build_free(build: isl_ptr) -> isl_ptr;
    fn isl_options_set_ast_build_atomic_upper_bound(ctx: isl_ptr, value: i32) -> i32;
    fn isl_options_set_ast_build_detect_min_max(ctx: isl_ptr, value: i32) -> i32;
    fn isl_ast_node_get_type(node: isl_ptr) -> i32;
}

/// The node's kind. isl-rs 0.3.1 maps `isl_ast_node_type` off by one (its
/// `For` is ISL's error value), so the raw value is read here.
fn node_type(node: &ASTNode) -> ASTNodeType {
    // SAFETY: reads the type of a live node.
    match unsafe { isl_ast_node_get_type(node.ptr) } {
        1 => ASTNodeType::For,
        2 => ASTNodeType::If,
        3 => ASTNodeType::Block,
        4 => ASTNodeType::Mark,
        5 => ASTNodeType::User,
        _ => ASTNodeType::Error,
    }
}

/// A generated loop tree. In expressions, `Dim(k)` is the iterator of the
/// k-th enclosing `For` and `Sym(p)` the SCoP parameter `P{p}`.
#[derive(Debug, Clone, PartialEq)]
pub enum Tree {
    For { lower: Vec<Aff>, upper: Vec<Aff>, step: i64, body: Box<Tree> },
    If { conditions: Vec<Condition>, then: Box<Tree>, otherwise: Option<Box<Tree>> },
    Block(Vec<Tree>),
    /// An instance of statement `statement` with its original loop counters
    /// (and any extra leading dimensions the transformation added).
    Call { statement: String, args: Vec<Aff> },
}

/// `expr >= 0`, or `expr == 0` when `equality`.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub expr: Aff,
    pub equality: bool,
}

/// Generates the loop tree executing `schedule` (`{ S[i] -> [t] }`, all
/// ranges of one dimension) under parameter context `params` (`[P0] -> { : }`).
pub fn generate(ctx: &Context, params: &str, schedule: &UnionMap) -> IslResult<Tree> {
    let context = Set::read_from_str(ctx, params).map_err(isl_err)?;
    let schedule = schedule.copy().map_err(isl_err)?;
    // SAFETY: ISL takes ownership of `context` and `schedule` (so they must
    // not be freed by their wrappers) and returns a node we own.
    let node = unsafe {
        isl_options_set_ast_build_atomic_upper_bound(ctx.ptr, 1);
        isl_options_set_ast_build_detect_min_max(ctx.ptr, 1);
        let build = isl_ast_build_from_context(context.ptr);
        std::mem::forget(context);
        let node = isl_ast_build_node_from_schedule_map(build, schedule.ptr);
        std::mem::forget(schedule);
        isl_ast_build_free(build);
        node
    };
    if node == 0 {
        return Err(format!("ISL could not generate code: {}", ctx.last_error_msg()));
    }
    let node = ASTNode { ptr: node, should_free_on_drop: true };
    Reader { iterators: Vec::new() }.node(&node)
}

struct Reader {
    /// Names of the enclosing iterators, outermost first.
    iterators: Vec<String>,
}

fn unsupported(what: &str) -> String {
    format!("generated code has {what}, which affine loops cannot express")
}

impl Reader {
    fn node(&mut self, node: &ASTNode) -> IslResult<Tree> {
        match node_type(node) {
            ASTNodeType::For => self.for_node(node),
            ASTNodeType::If => {
                let disjuncts = self.conditions(&node.if_get_cond().map_err(isl_err)?)?;
                let then = self.node(&node.if_get_then_node().map_err(isl_err)?)?;
                let mut otherwise = if node.if_has_else_node().map_err(isl_err)? {
                    Some(Box::new(self.node(&node.if_get_else_node().map_err(isl_err)?)?))
                } else {
                    None
                };
                // `if (A || B) T else E` is `if (A) T else if (B) T else E`:
                // affine.if takes only conjunctions, so a disjunction (a
                // strided, padded convolution's guard) repeats its branch.
                for conditions in disjuncts.into_iter().rev() {
                    otherwise = Some(Box::new(Tree::If { conditions, then: Box::new(then.clone()), otherwise }));
                }
                Ok(*otherwise.expect("a condition has at least one disjunct"))
            }
            ASTNodeType::Block => {
                let list = node.block_get_children().map_err(isl_err)?;
                let count = list.size().map_err(isl_err)?;
                let mut children = Vec::new();
                for i in 0..count {
                    children.push(self.node(&list.get_at(i).map_err(isl_err)?)?);
                }
                Ok(Tree::Block(children))
            }
            ASTNodeType::Mark => self.node(&node.mark_get_node().map_err(isl_err)?),
            ASTNodeType::User => {
                let call = node.user_get_expr().map_err(isl_err)?;
                let statement = id_name(&call.get_op_arg(0).map_err(isl_err)?)?;
                let args = self.op_args(&call, 1)?;
                Ok(Tree::Call { statement, args })
            }
            ASTNodeType::Error => Err("ISL AST error".into()),
        }
    }

    fn for_node(&mut self, node: &ASTNode) -> IslResult<Tree> {
        let iterator = id_name(&node.for_get_iterator().map_err(isl_err)?)?;
        let init = node.for_get_init().map_err(isl_err)?;
        let lower = self.flatten(&init, ASTExprOpType::Max)?;
        let step = self.expr(&node.for_get_inc().map_err(isl_err)?)?.constant().ok_or_else(|| unsupported("a non-constant step"))?;
        let cond = node.for_get_cond().map_err(isl_err)?;
        let upper = self.upper_bounds(&cond, &iterator)?;
        self.iterators.push(iterator);
        let body = self.node(&node.for_get_body().map_err(isl_err)?);
        self.iterators.pop();
        Ok(Tree::For { lower, upper, step, body: Box::new(body?) })
    }

    /// `c <= e` / `c < e` (possibly a conjunction) as exclusive upper bounds.
    fn upper_bounds(&mut self, cond: &ASTExpr, iterator: &str) -> IslResult<Vec<Aff>> {
        let op = cond.get_op_type().map_err(isl_err)?;
        if matches!(op, ASTExprOpType::And | ASTExprOpType::AndThen) {
            let mut bounds = self.upper_bounds(&cond.get_op_arg(0).map_err(isl_err)?, iterator)?;
            bounds.extend(self.upper_bounds(&cond.get_op_arg(1).map_err(isl_err)?, iterator)?);
            return Ok(bounds);
        }
        let lhs = cond.get_op_arg(0).map_err(isl_err)?;
        if lhs.get_type().map_err(isl_err)? != ASTExprType::Id || id_name(&lhs)? != iterator {
            return Err(unsupported("a loop condition not of the form 'iterator <= bound'"));
        }
        let bounds = self.flatten(&cond.get_op_arg(1).map_err(isl_err)?, ASTExprOpType::Min)?;
        match op {
            ASTExprOpType::Le => Ok(bounds.into_iter().map(|b| b.plus(Aff::Const(1))).collect()),
            ASTExprOpType::Lt => Ok(bounds),
            _ => Err(unsupported("a loop condition other than < or <=")),
        }
    }

    /// The operands of nested `max` (or `min`) expressions, or the
    /// expression itself.
    fn flatten(&mut self, expr: &ASTExpr, op: ASTExprOpType) -> IslResult<Vec<Aff>> {
        if expr.get_type().map_err(isl_err)? == ASTExprType::Op && expr.get_op_type().map_err(isl_err)? == op {
            let mut all = Vec::new();
            for i in 0..expr.get_op_n_arg().map_err(isl_err)? {
                all.extend(self.flatten(&expr.get_op_arg(i).map_err(isl_err)?, op)?);
            }
            return Ok(all);
        }
        Ok(vec![self.expr(expr)?])
    }

    /// `cond` in disjunctive normal form: it holds when all conditions of
    /// one of the returned lists hold.
    fn conditions(&mut self, cond: &ASTExpr) -> IslResult<Vec<Vec<Condition>>> {
        let op = cond.get_op_type().map_err(isl_err)?;
        let arg = |i| cond.get_op_arg(i).map_err(isl_err);
        if matches!(op, ASTExprOpType::And | ASTExprOpType::AndThen) {
            let (left, right) = (self.conditions(&arg(0)?)?, self.conditions(&arg(1)?)?);
            return Ok(left
                .iter()
                .flat_map(|l| right.iter().map(move |r| l.iter().chain(r).cloned().collect()))
                .collect());
        }
        if matches!(op, ASTExprOpType::Or | ASTExprOpType::OrElse) {
            let mut all = self.conditions(&arg(0)?)?;
            all.extend(self.conditions(&arg(1)?)?);
            return Ok(all);
        }
        let comparison = matches!(
            op,
            ASTExprOpType::Ge | ASTExprOpType::Le | ASTExprOpType::Gt | ASTExprOpType::Lt | ASTExprOpType::Eq
        );
        if !comparison {
            return Err(unsupported("a non-affine condition"));
        }
        let (a, b) = (self.expr(&arg(0)?)?, self.expr(&arg(1)?)?);
        let (expr, equality) = match op {
            ASTExprOpType::Ge => (a.minus(b), false),
            ASTExprOpType::Le => (b.minus(a), false),
            ASTExprOpType::Gt => (a.minus(b).plus(Aff::Const(-1)), false),
            ASTExprOpType::Lt => (b.minus(a).plus(Aff::Const(-1)), false),
            _ => (a.minus(b), true),
        };
        Ok(vec![vec![Condition { expr, equality }]])
    }

    /// The arguments of an operation expression from position `first` on.
    fn op_args(&mut self, expr: &ASTExpr, first: i32) -> IslResult<Vec<Aff>> {
        let count = expr.get_op_n_arg().map_err(isl_err)?;
        (first..count).map(|i| self.expr(&expr.get_op_arg(i).map_err(isl_err)?)).collect()
    }

    fn expr(&mut self, expr: &ASTExpr) -> IslResult<Aff> {
        match expr.get_type().map_err(isl_err)? {
            ASTExprType::Int => {
                let value = expr.get_val().map_err(isl_err)?;
                value.get_num_si().map_err(isl_err)
                    .map(Aff::Const)
            }
            ASTExprType::Id => {
                let name = id_name(expr)?;
                if let Some(depth) = self.iterators.iter().position(|i| *i == name) {
                    Ok(Aff::Dim(depth))
                } else if let Some(p) = name.strip_prefix('P').and_then(|p| p.parse().ok()) {
                    Ok(Aff::Sym(p))
                } else {
                    Err(format!("unknown name '{name}' in generated code"))
                }
            }
            ASTExprType::Op => {
                let op = expr.get_op_type().map_err(isl_err)?;
                let args = self.op_args(expr, 0)?;
                let constant = |a: &Aff| a.constant().filter(|c| *c > 0).ok_or_else(|| unsupported("division by a non-constant"));
                match (op, args.as_slice()) {
                    (ASTExprOpType::Minus, [a]) => Ok(a.clone().scale(-1)),
                    (ASTExprOpType::Add, [a, b]) => Ok(a.clone().plus(b.clone())),
                    (ASTExprOpType::Sub, [a, b]) => Ok(a.clone().minus(b.clone())),
                    (ASTExprOpType::Mul, [a, b]) => match (a.constant(), b.constant()) {
                        (Some(c), _) => Ok(b.clone().scale(c)),
                        (_, Some(c)) => Ok(a.clone().scale(c)),
                        _ => Err(unsupported("a product of variables")),
                    },
                    (ASTExprOpType::FdivQ | ASTExprOpType::PdivQ | ASTExprOpType::Div, [a, b]) => {
                        Ok(Aff::FloorDiv(Box::new(a.clone()), constant(b)?))
                    }
                    (ASTExprOpType::PdivR | ASTExprOpType::ZdivR, [a, b]) => Ok(Aff::Mod(Box::new(a.clone()), constant(b)?)),
                    _ => Err(unsupported(&format!("the expression operator {op:?}"))),
                }
            }
            ASTExprType::Error => Err("ISL AST expression error".into()),
        }
    }
}

fn id_name(expr: &ASTExpr) -> IslResult<String> {
    let id = expr.get_id().map_err(isl_err)?;
    id.get_name().map(str::to_string).map_err(isl_err)
}

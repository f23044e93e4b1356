//! A small affine expression tree shared by the three representations the
//! polyhedral layer moves between: MLIR affine maps (read from access and
//! bound maps), ISL's textual syntax (domains, access relations) and ISL AST
//! expressions (generated loop bounds and statement arguments).
//!
//! Variables are positional: `Dim(k)` is the k-th loop of whatever is the
//! context (a statement's enclosing loops, or the generated loops), `Sym(p)`
//! the p-th parameter of the SCoP.

use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Aff {
    Const(i64),
    Dim(usize),
    Sym(usize),
    Add(Box<Aff>, Box<Aff>),
    /// Multiplication by a constant (affine).
    Mul(i64, Box<Aff>),
    FloorDiv(Box<Aff>, i64),
    CeilDiv(Box<Aff>, i64),
    Mod(Box<Aff>, i64),
}

impl Aff {
    pub fn plus(self, other: Aff) -> Aff {
        match (&self, &other) {
            (Aff::Const(0), _) => other,
            (_, Aff::Const(0)) => self,
            (Aff::Const(a), Aff::Const(b)) => Aff::Const(a + b),
            _ => Aff::Add(Box::new(self), Box::new(other)),
        }
    }

    pub fn scale(self, factor: i64) -> Aff {
        match self {
            _ if factor == 1 => self,
            Aff::Const(c) => Aff::Const(c * factor),
            other => Aff::Mul(factor, Box::new(other)),
        }
    }

    pub fn minus(self, other: Aff) -> Aff {
        self.plus(other.scale(-1))
    }

    /// Rebuilds the expression with each variable (`Dim`/`Sym`) replaced by
    /// `f(variable)`.
    pub fn map_vars(&self, f: &dyn Fn(&Aff) -> Aff) -> Aff {
        match self {
            Aff::Dim(_) | Aff::Sym(_) => f(self),
            Aff::Const(_) => self.clone(),
            Aff::Add(a, b) => a.map_vars(f).plus(b.map_vars(f)),
            Aff::Mul(c, a) => a.map_vars(f).scale(*c),
            Aff::FloorDiv(a, c) => Aff::FloorDiv(Box::new(a.map_vars(f)), *c),
            Aff::CeilDiv(a, c) => Aff::CeilDiv(Box::new(a.map_vars(f)), *c),
            Aff::Mod(a, c) => Aff::Mod(Box::new(a.map_vars(f)), *c),
        }
    }

    /// Replaces `Dim(k)` by `dims[k]`; symbols stay.
    pub fn substitute(&self, dims: &[Aff]) -> Aff {
        self.map_vars(&|v| match v {
            Aff::Dim(k) => dims[*k].clone(),
            other => other.clone(),
        })
    }

    /// Replaces `Dim(k)` by `dims[k]` and `Sym(p)` by `syms[p]`.
    pub fn substitute_all(&self, dims: &[Aff], syms: &[Aff]) -> Aff {
        self.map_vars(&|v| match v {
            Aff::Dim(k) => dims[*k].clone(),
            Aff::Sym(p) => syms[*p].clone(),
            other => other.clone(),
        })
    }

    /// The coefficient of `Dim(k)` when the expression is linear in it (`k`
    /// not under a division or modulo); `None` otherwise.
    pub fn coefficient(&self, k: usize) -> Option<i64> {
        match self {
            Aff::Dim(d) => Some(i64::from(*d == k)),
            Aff::Sym(_) | Aff::Const(_) => Some(0),
            Aff::Add(a, b) => Some(a.coefficient(k)? + b.coefficient(k)?),
            Aff::Mul(c, a) => Some(c * a.coefficient(k)?),
            Aff::FloorDiv(a, _) | Aff::CeilDiv(a, _) | Aff::Mod(a, _) => (!a.uses_dim(k)).then_some(0),
        }
    }

    /// `self - other` when it is a constant (the same linear function of
    /// the loops and no symbols, up to an offset): `i + 2` from `i` is 2.
    pub fn constant_difference(&self, other: &Aff) -> Option<i64> {
        let difference = self.clone().minus(other.clone());
        if difference.uses_symbols() {
            return None;
        }
        let dims = difference.max_dim().map_or(0, |d| d + 1);
        if (0..dims).any(|k| difference.coefficient(k) != Some(0)) {
            return None;
        }
        difference.substitute(&vec![Aff::Const(0); dims]).constant()
    }

    /// The largest `Dim` index used, if any.
    fn max_dim(&self) -> Option<usize> {
        match self {
            Aff::Dim(d) => Some(*d),
            Aff::Const(_) | Aff::Sym(_) => None,
            Aff::Add(a, b) => a.max_dim().max(b.max_dim()),
            Aff::Mul(_, a) | Aff::FloorDiv(a, _) | Aff::CeilDiv(a, _) | Aff::Mod(a, _) => a.max_dim(),
        }
    }

    /// Does the expression use any `Sym`?
    pub fn uses_symbols(&self) -> bool {
        match self {
            Aff::Sym(_) => true,
            Aff::Dim(_) | Aff::Const(_) => false,
            Aff::Add(a, b) => a.uses_symbols() || b.uses_symbols(),
            Aff::Mul(_, a) | Aff::FloorDiv(a, _) | Aff::CeilDiv(a, _) | Aff::Mod(a, _) => a.uses_symbols(),
        }
    }

    /// Does the expression use `Dim(k)`?
    pub fn uses_dim(&self, k: usize) -> bool {
        match self {
            Aff::Dim(d) => *d == k,
            Aff::Const(_) | Aff::Sym(_) => false,
            Aff::Add(a, b) => a.uses_dim(k) || b.uses_dim(k),
            Aff::Mul(_, a) | Aff::FloorDiv(a, _) | Aff::CeilDiv(a, _) | Aff::Mod(a, _) => a.uses_dim(k),
        }
    }

    /// The constant value, if the expression has no variables.
    pub fn constant(&self) -> Option<i64> {
        match self {
            Aff::Const(c) => Some(*c),
            Aff::Dim(_) | Aff::Sym(_) => None,
            Aff::Add(a, b) => Some(a.constant()? + b.constant()?),
            Aff::Mul(c, a) => Some(c * a.constant()?),
            Aff::FloorDiv(a, c) => Some(a.constant()?.div_euclid(*c)),
            Aff::CeilDiv(a, c) => Some(-(-a.constant()?).div_euclid(*c)),
            Aff::Mod(a, c) => Some(a.constant()?.rem_euclid(*c)),
        }
    }

    /// ISL syntax, with the given names for dims and symbols.
    pub fn to_isl(&self, dims: &[String], syms: &[String]) -> String {
        let mut out = String::new();
        self.write(&mut out, &|k| dims[k].clone(), &|p| syms[p].clone(), Syntax::Isl);
        out
    }

    /// MLIR affine expression syntax (`d0`, `s0`, `floordiv`, `mod`).
    pub fn to_mlir(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, &|k| format!("d{k}"), &|p| format!("s{p}"), Syntax::Mlir);
        out
    }

    /// MLIR affine syntax with the given names for dims and symbols (e.g.
    /// SSA values, for the custom syntax of `affine.load %m[%i + 1]`).
    pub fn to_mlir_named(&self, dims: &[String], syms: &[String]) -> String {
        let mut out = String::new();
        self.write(&mut out, &|k| dims[k].clone(), &|p| syms[p].clone(), Syntax::Mlir);
        out
    }

    fn write(&self, out: &mut String, dim: &dyn Fn(usize) -> String, sym: &dyn Fn(usize) -> String, syntax: Syntax) {
        match self {
            Aff::Const(c) => {
                let _ = write!(out, "{c}");
            }
            Aff::Dim(k) => out.push_str(&dim(*k)),
            Aff::Sym(p) => out.push_str(&sym(*p)),
            Aff::Add(a, b) => {
                out.push('(');
                a.write(out, dim, sym, syntax);
                out.push_str(" + ");
                b.write(out, dim, sym, syntax);
                out.push(')');
            }
            Aff::Mul(c, a) => {
                let _ = write!(out, "({c} * ");
                a.write(out, dim, sym, syntax);
                out.push(')');
            }
            Aff::FloorDiv(a, c) | Aff::CeilDiv(a, c) | Aff::Mod(a, c) => {
                let (isl_fn, mlir_op) = match self {
                    Aff::FloorDiv(..) => ("floor", "floordiv"),
                    Aff::CeilDiv(..) => ("ceil", "ceildiv"),
                    _ => ("", "mod"),
                };
                match (syntax, isl_fn) {
                    (Syntax::Isl, "") => {
                        out.push('(');
                        a.write(out, dim, sym, syntax);
                        let _ = write!(out, " mod {c})");
                    }
                    (Syntax::Isl, f) => {
                        let _ = write!(out, "{f}((");
                        a.write(out, dim, sym, syntax);
                        let _ = write!(out, ")/{c})");
                    }
                    (Syntax::Mlir, _) => {
                        out.push('(');
                        a.write(out, dim, sym, syntax);
                        let _ = write!(out, " {mlir_op} {c})");
                    }
                }
            }
        }
    }

    /// Reads an MLIR affine expression; `None` for semi-affine forms
    /// (products of variables, division by non-constants).
    pub fn from_mlir(expr: melior::ir::AffineExpr) -> Option<Aff> {
        // melior's accessors below are safe functions that read the kind
        // they name; each is called only after the matching kind test.
        if expr.is_constant() {
            return Some(Aff::Const(expr.constant_value()));
        }
        if expr.is_dim() {
            return Some(Aff::Dim(expr.dim_position()));
        }
        if expr.is_symbol() {
            return Some(Aff::Sym(expr.symbol_position()));
        }
        // Every other affine expression is a binary one.
        let (lhs, rhs) = (expr.lhs(), expr.rhs());
        if expr.is_add() {
            return Some(Aff::from_mlir(lhs)?.plus(Aff::from_mlir(rhs)?));
        }
        let (a, b) = (Aff::from_mlir(lhs)?, Aff::from_mlir(rhs)?);
        if expr.is_mul() {
            return match (a.constant(), b.constant()) {
                (Some(c), _) => Some(b.scale(c)),
                (_, Some(c)) => Some(a.scale(c)),
                _ => None,
            };
        }
        let c = b.constant().filter(|c| *c > 0)?;
        if expr.is_floor_div() {
            Some(Aff::FloorDiv(Box::new(a), c))
        } else if expr.is_ceil_div() {
            Some(Aff::CeilDiv(Box::new(a), c))
        } else if expr.is_mod() {
            Some(Aff::Mod(Box::new(a), c))
        } else {
            None
        }
    }
}

#[derive(Clone, Copy)]
enum Syntax {
    Isl,
    Mlir,
}

/// `affine_map<(d0, ..)[s0, ..] -> (results)>` text.
pub fn mlir_map(dims: usize, syms: usize, results: &[Aff]) -> String {
    let names = |prefix: &str, n: usize| (0..n).map(|k| format!("{prefix}{k}")).collect::<Vec<_>>().join(", ");
    let results: Vec<String> = results.iter().map(Aff::to_mlir).collect();
    format!("affine_map<({})[{}] -> ({})>", names("d", dims), names("s", syms), results.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_both_syntaxes() {
        let e = Aff::FloorDiv(Box::new(Aff::Dim(0).plus(Aff::Sym(0).scale(2))), 4).plus(Aff::Const(-1));
        let dims = vec!["i".to_string()];
        let syms = vec!["N".to_string()];
        assert_eq!(e.to_isl(&dims, &syms), "(floor(((i + (2 * N)))/4) + -1)");
        assert_eq!(e.to_mlir(), "(((d0 + (2 * s0)) floordiv 4) + -1)");
        assert_eq!(mlir_map(1, 0, &[Aff::Dim(0)]), "affine_map<(d0)[] -> (d0)>");
    }

    #[test]
    fn substitutes_dims() {
        let e = Aff::Dim(1).plus(Aff::Dim(0).scale(3));
        let s = e.substitute(&[Aff::Const(2), Aff::Dim(0).plus(Aff::Const(1))]);
        assert_eq!(s.to_mlir(), "((d0 + 1) + 6)");
        assert!(s.uses_dim(0) && !s.uses_dim(1));
        assert_eq!(Aff::Mod(Box::new(Aff::Const(-3)), 4).constant(), Some(1));
    }
}

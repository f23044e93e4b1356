//! Entry points for passes: find the SCoPs of a function, and replace a SCoP
//! by the code of a new schedule.

use crate::ast;
use crate::codegen::{Codegen, Redirects};
use crate::model::Model;
use crate::scop::{candidate_runs, Scop};
use isl_rs::UnionMap;
use melior::{
    ir::{operation::OperationLike, OperationRef, RegionLike},
    Context,
};

/// The candidate runs of nests in the body of `func` (a `func.func`).
pub fn function_runs<'c, 'a>(func: OperationRef<'c, 'a>) -> Vec<Vec<OperationRef<'c, 'a>>> {
    let Some(block) = func.region(0).ok().and_then(|r| r.first_block()) else { return Vec::new() };
    candidate_runs(block)
}

/// Generates code for `schedule` and puts it in place of the SCoP.
pub fn regenerate<'c, 'a>(
    context: &'c Context,
    scop: &Scop<'c, 'a>,
    model: &Model,
    schedule: &UnionMap,
    redirects: &Redirects<'c, 'a>,
) -> Result<(), String> {
    let params = format!("[{}] -> {{ : }}", scop.param_names().join(", "));
    let tree = ast::generate(&model.ctx, &params, schedule)?;
    Codegen::new(context, scop, redirects).replace_scop(&tree)
}

//! Parsing MLIR source text into a module, keeping the file name in locations.
//!
//! `mlirOperationCreateParse` takes a file name but wants exactly one
//! top-level op; `mlirModuleCreateParse` wraps many ops in a module but names
//! the file `-`. We try the first and fall back to the second, renaming `-` in
//! the locations of top-level and nested ops to the real name.

use crate::ffi;
use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, OperationMutLike, WalkOrder, WalkResult},
        Location, Module,
    },
    Context,
};

const NOT_ONE_OP: &str = "source must contain a single top-level operation";

/// Parses `text` as a module; `name` is the file name put in locations.
/// Returns `None` if parsing failed; the errors went to the context's
/// diagnostic handlers.
pub fn parse_module<'c>(context: &'c Context, text: &str, name: &str) -> Option<Module<'c>> {
    // Swallow only the "not exactly one op" complaint of the first attempt.
    let mut many_ops = false;
    let flag = &mut many_ops as *mut bool;
    let id = context.attach_diagnostic_handler(move |diagnostic| {
        let hit = diagnostic.to_string().starts_with(NOT_ONE_OP);
        if hit {
            // SAFETY: the handler is detached below, while `many_ops` is alive.
            unsafe { *flag = true };
        }
        hit
    });
    let parsed = ffi::parse_operation(context, text, name);
    context.detach_diagnostic_handler(id);

    if let Some(operation) = parsed {
        if operation.name().as_string_ref().as_str() == Ok("builtin.module") {
            return Module::from_operation(operation);
        }
        let module = Module::new(Location::new(context, name, 1, 1));
        module.body().append_operation(operation);
        return Some(module);
    }
    if !many_ops {
        return None;
    }
    let mut module = Module::parse(context, text)?;
    rename_file(&mut module, "-", name);
    Some(module)
}

/// Replaces file name `from` with `to` in plain file:line:col op locations.
fn rename_file(module: &mut Module, from: &str, to: &str) {
    module.as_operation_mut().walk_mut(WalkOrder::PreOrder, |mut op| {
        let location = op.location();
        if location.is_file_line_col_range()
            && location.file_line_col_range_filename().as_string_ref().as_str() == Ok(from)
        {
            let renamed = ffi::file_line_col_location(
                location,
                to,
                location.file_line_col_range_start_line(),
                location.file_line_col_range_start_column(),
            );
            op.set_location(renamed);
        }
        WalkResult::Advance
    });
}

//! Builds an MLIR pass manager from a pipeline that mixes our passes with
//! upstream ones.
//!
//! Leaves named like one of our [`PassInfo`]s become Rust passes; every other
//! leaf is handed to upstream's textual parser (`mlirOpPassManagerAddPipeline`)
//! so upstream keeps parsing its own names and options. Like mlir-opt, a pass
//! restricted to an op (say `func.func`) placed directly under
//! `builtin.module` is nested implicitly.

use crate::{
    ffi,
    pass_info::PassInfo,
    pipeline::{self, Element},
    upstream,
};
use melior::pass::OperationPassManager;

/// Why a pipeline could not be built; `position` is a byte offset into the
/// pipeline text when known.
#[derive(Debug, Clone, PartialEq)]
pub struct BuildError {
    pub message: String,
    pub position: Option<usize>,
}

impl BuildError {
    /// The message, followed by the pipeline with a caret when the position
    /// is known.
    pub fn render(&self, text: &str) -> String {
        match self.position {
            Some(position) => pipeline::PipelineError { message: self.message.clone(), position }.render(text),
            None => self.message.clone(),
        }
    }
}

/// The passes a pipeline can name, besides upstream's.
#[derive(Clone, Copy)]
pub struct Registry<'a> {
    pub passes: &'a [&'static PassInfo],
}

impl Registry<'_> {
    pub fn find(&self, argument: &str) -> Option<&'static PassInfo> {
        self.passes.iter().copied().find(|p| p.argument == argument)
    }

    /// Names of ours and upstream's passes close to `name`, for "did you mean".
    pub fn suggestions(&self, name: &str) -> Vec<&'static str> {
        let candidates = self.passes.iter().map(|p| p.argument).chain(upstream::all().map(|p| p.argument));
        let mut scored: Vec<_> = candidates
            .map(|c| (edit_distance(name, c), c))
            .filter(|(d, c)| *d <= (name.len().max(c.len()) / 3).max(2))
            .collect();
        scored.sort();
        scored.into_iter().take(3).map(|(_, c)| c).collect()
    }
}

/// Adds `text` (pipeline syntax) to `manager`, which runs on `root` ops
/// (normally `builtin.module`). An outermost `root(...)` or `any(...)` is
/// taken as the manager itself.
pub fn add_pipeline(
    manager: OperationPassManager,
    root: &str,
    text: &str,
    registry: Registry,
) -> Result<(), BuildError> {
    let elements = pipeline::parse(text).map_err(|e| BuildError { message: e.message, position: Some(e.position) })?;
    match elements.as_slice() {
        [Element::Nested { anchor, elements, .. }] if anchor == root || anchor == "any" => {
            add_elements(manager, anchor, elements, registry)
        }
        _ => add_elements(manager, root, &elements, registry),
    }
}

/// Adds parsed elements to `manager`, which runs on `anchor` ops.
pub fn add_elements(
    manager: OperationPassManager,
    anchor: &str,
    elements: &[Element],
    registry: Registry,
) -> Result<(), BuildError> {
    for element in elements {
        match element {
            Element::Nested { anchor: nested, elements, .. } => {
                add_elements(manager.nested_under(nested), nested, elements, registry)?;
            }
            Element::Pass { name, options, position } => {
                let error = |message: String| BuildError { message, position: Some(*position) };
                if let Some(info) = registry.find(name) {
                    let pass = info.instantiate(options).map_err(error)?;
                    if needs_nesting(anchor, info.anchor) {
                        manager.nested_under(info.anchor).add_pass(pass);
                    } else if !info.anchor.is_empty() && anchor != "any" && info.anchor != anchor {
                        return Err(error(format!(
                            "pass '{name}' runs on '{}' ops and cannot be nested under '{anchor}'",
                            info.anchor
                        )));
                    } else {
                        manager.add_pass(pass);
                    }
                    continue;
                }
                let target = match upstream::find(name) {
                    Some(pass) if needs_nesting(anchor, pass.anchor) => manager.nested_under(pass.anchor),
                    Some(_) => manager,
                    None => {
                        let mut message = format!("'{name}' is not a polyblocks or upstream MLIR pass");
                        let suggestions = registry.suggestions(name);
                        if !suggestions.is_empty() {
                            message.push_str(&format!("; did you mean {}?", suggestions.join(", ")));
                        }
                        return Err(error(message));
                    }
                };
                ffi::add_upstream_pipeline(target, &element.to_string()).map_err(error)?;
            }
        }
    }
    Ok(())
}

/// mlir-opt's implicit nesting: a pass restricted to another op type, placed
/// at module level, runs on every nested op of that type.
fn needs_nesting(current: &str, pass_anchor: &str) -> bool {
    current == "builtin.module" && !pass_anchor.is_empty() && pass_anchor != "builtin.module"
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

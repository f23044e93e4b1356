//! `pb-isl-roundtrip`: a test of the polyhedral layer. Each SCoP (run of
//! affine nests, see `pb_polyhedral::scop`) is read into ISL and regenerated
//! from its original schedule through ISL's AST generator, so lit tests can
//! check that extraction and code generation preserve the program. Nests
//! that are not SCoPs are left untouched with a remark saying why.
//!
//! ```mlir
//! affine.for %i = 0 to 10 { affine.for %j = 0 to %n { S(%i, %j) } }
//! // is regenerated as the same nest; bounds may be rewritten as ISL
//! // simplified them (empty iterations are never executed).
//! ```

use melior::ir::{operation::OperationLike, OperationRef};
use pb_polyhedral::{codegen::Redirects, driver, Model, Scop};
use crate::report;
use pb_support::{ffi, OptionKind, PassFailed, PassId, PassInfo, PassOption, PassOptions, RustPass};

static ID: PassId = PassId::new();

pub static INFO: PassInfo = PassInfo {
    argument: "pb-isl-roundtrip",
    summary: "Test pass: read each affine SCoP into ISL and regenerate it from its original schedule",
    description: "Extracts domains, accesses and the 2d+1 schedule of each run of affine nests into \
ISL, builds the ISL AST of the original schedule and replaces the nests by the generated affine \
loops. For testing the extraction and code generation that pb-tile and pb-fuse are built on.",
    anchor: "func.func",
    options: &[PassOption {
        name: "print",
        kind: OptionKind::Bool,
        default: "false",
        help: "Also print each SCoP's ISL domain, accesses, schedule and dependences to stderr",
    }],
    id: &ID,
    create,
};

fn create(options: &PassOptions) -> Box<dyn RustPass> {
    Box::new(IslRoundtrip { print: options.bool("print") })
}

#[derive(Clone)]
struct IslRoundtrip {
    print: bool,
}

impl RustPass for IslRoundtrip {
    fn dependent_dialects(&self) -> &'static [&'static str] {
        &["affine", "memref"]
    }

    fn run(&mut self, func: OperationRef<'_, '_>) -> Result<(), PassFailed> {
        for run in driver::function_runs(func) {
            // Read before the run's ops are replaced.
            let location = run[0].location();
            let scop = match Scop::extract(&run) {
                Ok(scop) => scop,
                Err(reason) => {
                    report::note(location, INFO.argument, &format!("left unchanged, not a SCoP: {reason}"));
                    continue;
                }
            };
            let result = Model::new(&scop).and_then(|model| {
                if self.print {
                    print_model(&model)?;
                }
                ffi::with_context(func, |context| {
                    let schedule = model.schedule.copy().map_err(pb_polyhedral::model::isl_err)?;
                    driver::regenerate(context, &scop, &model, &schedule, &Redirects::new())
                })
            });
            if let Err(message) = result {
                ffi::emit_error(location, &message);
                return Err(PassFailed);
            }
        }
        Ok(())
    }
}

fn print_model(model: &Model) -> Result<(), String> {
    use pb_polyhedral::model::{set_text, text};
    let dependences = model.dependences()?;
    eprintln!(
        "domain: {}\nreads: {}\nwrites: {}\nschedule: {}\ndependences: {}",
        set_text(&model.domain),
        text(&model.reads),
        text(&model.writes),
        text(&model.schedule),
        text(dependences)
    );
    Ok(())
}

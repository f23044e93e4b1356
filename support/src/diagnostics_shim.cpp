// Remarks and warnings through MLIR's diagnostic engine, which MLIR 22's C
// API cannot emit (it has `mlirEmitError` only). Wrapped by the safe
// `pb_support::ffi::{emit_remark, emit_warning}`; compiled by build.rs.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Diagnostics.h"

extern "C" {

// `location` must be a live location; `message` a NUL-terminated string.
void pbEmitRemark(MlirLocation location, const char *message) {
  mlir::emitRemark(unwrap(location), message);
}

// As pbEmitRemark, with warning severity.
void pbEmitWarning(MlirLocation location, const char *message) {
  mlir::emitWarning(unwrap(location), message);
}

} // extern "C"

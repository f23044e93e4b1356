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
    if let Some((offset, message)) = upstream_parser_crash(text) {
        let line = text[..offset].matches('\n').count() + 1;
        let column = offset - text[..offset].rfind('\n').map_or(0, |newline| newline + 1) + 1;
        ffi::emit_error(Location::new(context, name, line, column), &message);
        return None;
    }
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
    let mut module = ffi::parse_module(context, text)?;
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

/// The custom forms of these ops end their operands with `keyword = [i64,
/// ...]`, and MLIR 22's parsers of them (`parseDenseI64ArrayAttr` in
/// LinalgOps.cpp) store whatever `DenseI64ArrayAttr::parse` returns: on a
/// malformed list that is a null attribute, and the parser crashes
/// (segfault) instead of reporting the error. Found by the engine fuzzer
/// (docs/fuzzing.md).
const DENSE_I64_LIST_OPS: [(&str, &str); 3] =
    [("linalg.reduce", "dimensions"), ("linalg.broadcast", "dimensions"), ("linalg.transpose", "permutation")];

/// Where `text` would crash MLIR 22's parser, and the error to report
/// instead: a [`DENSE_I64_LIST_OPS`] op in custom form whose list is not
/// `[` 64-bit integers (or `true`/`false`) separated by commas `]`. Strings
/// and `//` comments are skipped; the first `keyword =` after the op name is
/// the op's own in any input that parses.
fn upstream_parser_crash(text: &str) -> Option<(usize, String)> {
    let bytes = text.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.' | b'-');
    let mut pending: Option<(&str, &str)> = None;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => i = skip_string(bytes, i),
            b'/' if bytes.get(i + 1) == Some(&b'/') => i = skip_comment(bytes, i),
            b if b.is_ascii_alphabetic() || b == b'_' || matches!(b, b'%' | b'@' | b'^' | b'#' | b'!') => {
                let start = i;
                i += 1;
                while i < bytes.len() && is_word(bytes[i]) {
                    i += 1;
                }
                let word = &text[start..i];
                if let Some(&(op, keyword)) = DENSE_I64_LIST_OPS.iter().find(|(op, _)| *op == word) {
                    pending = Some((op, keyword));
                } else if let Some((op, keyword)) = pending.filter(|(_, keyword)| *keyword == word) {
                    let equals = skip_space(bytes, i);
                    if bytes.get(equals) == Some(&b'=') {
                        pending = None;
                        let value = skip_space(bytes, equals + 1);
                        if !is_i64_list(text, value) {
                            return Some((
                                value,
                                format!(
                                    "expected '[' 64-bit integers ']' after '{keyword} =' of '{op}' \
(refused: MLIR 22's parser crashes on this)"
                                ),
                            ));
                        }
                    }
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Past the string literal opening at `start` (backslash escapes).
fn skip_string(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
        i += if bytes[i] == b'\\' { 2 } else { 1 };
    }
    (i + 1).min(bytes.len())
}

fn skip_comment(bytes: &[u8], start: usize) -> usize {
    bytes[start..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| start + n)
}

/// Past white space and comments from `i`.
fn skip_space(bytes: &[u8], mut i: usize) -> usize {
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | 0) => i += 1,
            Some(b'/') if bytes.get(i + 1) == Some(&b'/') => i = skip_comment(bytes, i),
            _ => return i,
        }
    }
}

/// Whether `text[start..]` begins with `[]` or `[` comma-separated 64-bit
/// integers `]` (decimal or hexadecimal, optionally negated; `true`, `false`).
fn is_i64_list(text: &str, start: usize) -> bool {
    let bytes = text.as_bytes();
    if bytes.get(start) != Some(&b'[') {
        return false;
    }
    let mut i = skip_space(bytes, start + 1);
    if bytes.get(i) == Some(&b']') {
        return true;
    }
    loop {
        let negative = bytes.get(i) == Some(&b'-');
        if negative {
            i = skip_space(bytes, i + 1);
        }
        let end = i + bytes[i..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        let word = &text[i..end];
        let value = if let Some(hex) = word.strip_prefix("0x") {
            u64::from_str_radix(hex, 16).ok().map(i128::from)
        } else if word.bytes().all(|b| b.is_ascii_digit()) {
            word.parse::<i128>().ok()
        } else if !negative && (word == "true" || word == "false") {
            Some(0)
        } else {
            None
        };
        let Some(value) = value.map(|v| if negative { -v } else { v }) else { return false };
        if i64::try_from(value).is_err() {
            return false;
        }
        i = skip_space(bytes, end);
        match bytes.get(i) {
            Some(b',') => i = skip_space(bytes, i + 1),
            Some(b']') => return true,
            _ => return false,
        }
    }
}

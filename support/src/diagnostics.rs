//! MLIR diagnostics as plain Rust values, and their rendering.
//!
//! A [`DiagnosticCapture`] is attached to a context and records every
//! diagnostic (with its notes) instead of letting MLIR print it, so that the
//! driver decides how to show them (`file:line:col: error: ...` with the
//! source line and a caret) or checks them (`--verify-diagnostics`).
//! Diagnostics nobody took are not lost: the capture prints them on stderr
//! when it is dropped (pb-compile, which takes diagnostics only to report a
//! failure, prints the passes' remarks and budget warnings that way).

use crate::ffi;
use melior::{
    diagnostic::{Diagnostic, DiagnosticHandlerId, DiagnosticSeverity},
    Context,
};
use std::{
    fmt,
    sync::{Arc, Mutex},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Remark,
    Note,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Remark => "remark",
            Severity::Note => "note",
        })
    }
}

/// A file position: name, 1-based line, 1-based column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    pub line: usize,
    pub column: usize,
}

/// One diagnostic, detached from MLIR.
#[derive(Clone, Debug, PartialEq)]
pub struct Captured {
    pub severity: Severity,
    /// `None` for unknown locations (and line 0, which MLIR uses for "the
    /// whole file").
    pub position: Option<Position>,
    pub message: String,
    pub notes: Vec<Captured>,
}

impl Captured {
    fn from_mlir(diagnostic: &Diagnostic) -> Self {
        let severity = match diagnostic.severity() {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Remark => Severity::Remark,
            DiagnosticSeverity::Note => Severity::Note,
        };
        let position = ffi::file_line_col(diagnostic.location())
            .filter(|(_, line, _)| *line > 0)
            .map(|(file, line, column)| Position { file, line, column });
        let notes = (0..diagnostic.note_count())
            .filter_map(|i| diagnostic.note(i).ok())
            .map(|note| Captured::from_mlir(&note))
            .collect();
        Captured { severity, position, message: diagnostic.to_string(), notes }
    }

    /// `file:line:col: error: message`, then the source line with a caret
    /// when `source` (the text of the file the position names) is given,
    /// then the notes.
    pub fn render(&self, source: Option<&str>) -> String {
        let mut out = String::new();
        self.render_into(&mut out, source);
        out
    }

    /// `render` with the excerpt taken from `text` when the diagnostic is in
    /// file `file` (diagnostics of other files get no excerpt).
    pub fn render_from(&self, file: &str, text: &str) -> String {
        let same_file = self.position.as_ref().is_some_and(|p| p.file == file);
        self.render(same_file.then_some(text))
    }

    fn render_into(&self, out: &mut String, source: Option<&str>) {
        match &self.position {
            Some(p) => {
                out.push_str(&format!("{}:{}:{}: {}: {}\n", p.file, p.line, p.column, self.severity, self.message))
            }
            None => out.push_str(&format!("{}: {}\n", self.severity, self.message)),
        }
        if let (Some(p), Some(text)) = (&self.position, source) {
            if let Some(line) = text.lines().nth(p.line - 1) {
                out.push_str(line);
                out.push('\n');
                out.push_str(&" ".repeat(p.column.saturating_sub(1)));
                out.push_str("^\n");
            }
        }
        for note in &self.notes {
            note.render_into(out, source);
        }
    }
}

/// Records the diagnostics of a context while alive.
pub struct DiagnosticCapture<'c> {
    context: &'c Context,
    id: Option<DiagnosticHandlerId>,
    store: Arc<Mutex<Vec<Captured>>>,
}

impl<'c> DiagnosticCapture<'c> {
    /// Starts recording. Recorded diagnostics are not printed by MLIR. The
    /// handler may run on any thread (passes run in parallel); MLIR calls
    /// handlers one at a time, and the store is behind a mutex.
    pub fn attach(context: &'c Context) -> Self {
        let store = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&store);
        let id = context.attach_diagnostic_handler(move |diagnostic| {
            if let Ok(mut list) = sink.lock() {
                list.push(Captured::from_mlir(&diagnostic));
            }
            true
        });
        Self { context, id: Some(id), store }
    }

    /// Takes the diagnostics recorded so far.
    pub fn take(&self) -> Vec<Captured> {
        self.store.lock().map(|mut list| std::mem::take(&mut *list)).unwrap_or_default()
    }

    /// True if an error was recorded and not yet taken.
    pub fn has_errors(&self) -> bool {
        self.store.lock().map(|list| list.iter().any(|d| d.severity == Severity::Error)).unwrap_or(false)
    }
}

impl Drop for DiagnosticCapture<'_> {
    /// Detaches, then prints on stderr the diagnostics not taken (remarks
    /// and warnings of a run that succeeded), one line each
    /// (`file:line:col: remark: ...`), in the order they were reported.
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.context.detach_diagnostic_handler(id);
        }
        let left: String = self.take().iter().map(|d| d.render(None)).collect();
        if !left.is_empty() {
            use std::io::Write;
            let _ = std::io::stderr().lock().write_all(left.as_bytes());
        }
    }
}

//! The textual pass-pipeline grammar of MLIR, as a tree we can inspect.
//!
//! ```text
//! pipeline ::= element (',' element)*
//! element  ::= name ('{' options '}')?          // a pass (or a registered pipeline)
//!            | op-name '(' pipeline? ')'        // a nested pass manager
//! ```
//!
//! MLIR 22's C API cannot register external passes by name, so the driver
//! must see the structure itself: our passes become Rust passes, every other
//! leaf goes to upstream's parser (see [`crate::pass_builder`]).

use std::fmt;

/// One element of a pipeline.
#[derive(Clone, Debug, PartialEq)]
pub enum Element {
    /// A pass or registered pipeline, with the raw text of its options.
    Pass { name: String, options: String, position: usize },
    /// `anchor(...)`: the elements run on every nested op named `anchor`.
    Nested { anchor: String, elements: Vec<Element>, position: usize },
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Element::Pass { name, options, .. } if options.is_empty() => write!(f, "{name}"),
            Element::Pass { name, options, .. } => write!(f, "{name}{{{options}}}"),
            Element::Nested { anchor, elements, .. } => write!(f, "{anchor}({})", join(elements)),
        }
    }
}

/// Prints elements separated by commas, in pipeline syntax.
pub fn join(elements: &[Element]) -> String {
    elements.iter().map(ToString::to_string).collect::<Vec<_>>().join(",")
}

/// A syntax error at a byte offset of the pipeline text.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineError {
    pub message: String,
    pub position: usize,
}

impl PipelineError {
    /// The message, the pipeline text and a caret under the offending byte.
    pub fn render(&self, text: &str) -> String {
        let column = text[..self.position.min(text.len())].chars().count();
        format!("{}\n  {}\n  {}^", self.message, text, " ".repeat(column))
    }
}

/// Parses a pipeline string into its elements.
pub fn parse(text: &str) -> Result<Vec<Element>, PipelineError> {
    let mut parser = Parser { text, pos: 0, depth: 0 };
    let elements = parser.elements()?;
    parser.skip_space();
    if parser.pos < text.len() {
        let c = parser.peek().unwrap_or(' ');
        let hint = if c == ')' { "unbalanced ')'" } else { "expected ',' or end of pipeline" };
        return parser.error(format!("{hint}, found '{c}'"));
    }
    Ok(elements)
}

/// Deeper nesting than this is rejected (no real pipeline comes close), so a
/// hostile pipeline string cannot overflow the stack.
const MAX_DEPTH: usize = 256;

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, PipelineError> {
        Err(PipelineError { message: message.into(), position: self.pos })
    }

    fn elements(&mut self) -> Result<Vec<Element>, PipelineError> {
        let mut elements = Vec::new();
        self.skip_space();
        if self.peek().is_none_or(|c| c == ')') {
            return Ok(elements);
        }
        loop {
            elements.push(self.element()?);
            self.skip_space();
            if self.peek() != Some(',') {
                return Ok(elements);
            }
            self.pos += 1;
        }
    }

    fn element(&mut self) -> Result<Element, PipelineError> {
        self.skip_space();
        let position = self.pos;
        let name = self.name()?;
        self.skip_space();
        match self.peek() {
            Some('(') => {
                self.pos += 1;
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return self.error(format!("pipeline nested deeper than {MAX_DEPTH} levels"));
                }
                let elements = self.elements()?;
                self.depth -= 1;
                self.skip_space();
                if self.peek() != Some(')') {
                    return match self.peek() {
                        None => Err(PipelineError {
                            message: format!("unbalanced '(': '{name}(' is never closed"),
                            position,
                        }),
                        Some(c) => self.error(format!("expected ',' or ')', found '{c}'")),
                    };
                }
                self.pos += 1;
                Ok(Element::Nested { anchor: name, elements, position })
            }
            Some('{') => {
                let options = self.options()?;
                Ok(Element::Pass { name, options, position })
            }
            _ => Ok(Element::Pass { name, options: String::new(), position }),
        }
    }

    fn name(&mut self) -> Result<String, PipelineError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || "-_.$".contains(c)) {
            self.pos += 1;
        }
        if start == self.pos {
            return match self.peek() {
                None => self.error("expected a pass or op name, found end of pipeline"),
                Some(c) => self.error(format!("expected a pass or op name, found '{c}'")),
            };
        }
        Ok(self.text[start..self.pos].to_string())
    }

    /// Reads `{...}` (balanced, quotes respected) and returns its inside.
    fn options(&mut self) -> Result<String, PipelineError> {
        let open = self.pos;
        let mut depth = 0;
        let mut quote = None;
        for (offset, c) in self.text[open..].char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, '"' | '\'') => quote = Some(c),
                (None, '{') => depth += 1,
                (None, '}') => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = open + offset + 1;
                        return Ok(self.text[open + 1..open + offset].trim().to_string());
                    }
                }
                _ => {}
            }
        }
        Err(PipelineError { message: "unbalanced '{': pass options are never closed".into(), position: open })
    }
}

//! `stablehlo`: the subset of OpenXLA's StableHLO the engine takes from JAX
//! and TensorFlow, and the importer of its pretty text.
//!
//! StableHLO is not part of upstream MLIR: MLIR 22 cannot parse the text
//! that `jax.jit(f).lower(...).compiler_ir("stablehlo")` and TensorFlow's
//! `experimental_get_compiler_ir(...)(stage="stablehlo")` print. The dialect
//! (`irdl/stablehlo.irdl.mlir`) declares the ops we support with builtin
//! attributes only; [`import`] reads the pretty text (`stablehlo.add %0, %1 :
//! tensor<4xf32> loc(#loc3)`, `dims = [0, 1]`, `contracting_dims = [1] x
//! [0]`, `dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`, short and
//! region forms of `reduce`, `#locN = loc(...)` aliases, ...) and builds the
//! module with `OperationBuilder`: `func.func`/`func.return`/`func.call` and
//! our generic `stablehlo.*` ops, every op at its source location.
//! `pb-legalize-stablehlo` (pb-conversions) lowers them to linalg.
//!
//! Types and dense constants are parsed by MLIR's own type and attribute
//! parsers; everything StableHLO-specific is parsed here. Input the engine
//! does not support (an op we have no lowering for, a reducer other than one
//! binary op, a reduction over several operands) is an error naming the op
//! and its source location (`unsupported StableHLO op 'stablehlo.sort' at
//! loc("f.py":3:4)`); malformed text is an error at its line and column.
//!
//! Generic-form attributes (what `import` writes and the pass reads):
//!
//! | op | attributes |
//! |---|---|
//! | `broadcast_in_dim` | `broadcast_dimensions = array<i64: ...>` |
//! | `transpose` | `permutation = array<i64: ...>` |
//! | `compare` | `comparison_direction = "GT"`, optional `compare_type = "FLOAT"` |
//! | `constant` | `value = dense<...> : tensor<...>` |
//! | `iota` | `iota_dimension = 0 : i64` |
//! | `slice` | `start_indices`, `limit_indices`, `strides` (dense arrays) |
//! | `concatenate` | `dimension : i64` (two operands; n-ary ones become a chain) |
//! | `pad` | `edge_padding_low`, `edge_padding_high`, `interior_padding` |
//! | `dot_general` | `lhs_/rhs_batching_dimensions`, `lhs_/rhs_contracting_dimensions` (`dot` becomes one) |
//! | `reduce` | `dimensions`, `reducer = "add"` (the combining op's name) |
//! | `convolution` | `input_/kernel_/output_` dimension numbers, `window_strides`, `padding` (low, high per spatial dimension), `lhs_dilation`, `rhs_dilation`, `feature_group_count`, `batch_group_count` |

use melior::{
    ir::{
        attribute::{DenseI64ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, IntegerType, RankedTensorType},
        Attribute, Block, Identifier, Location, Module, Operation, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use pb_support::{ffi, source};
use std::{cell::RefCell, collections::HashMap};

/// Elementwise ops of one operand (`convert` and `reshape` included: their
/// pretty form is the same).
pub const UNARY: &[&str] = &[
    "abs", "negate", "exponential", "exponential_minus_one", "log", "log_plus_one", "sqrt", "rsqrt", "cbrt", "tanh",
    "logistic", "floor", "ceil", "round_nearest_even", "round_nearest_afz", "sine", "cosine", "tan", "sign", "not",
    "is_finite", "convert", "reshape",
];

/// Elementwise ops of two operands.
pub const BINARY: &[&str] =
    &["add", "subtract", "multiply", "divide", "maximum", "minimum", "power", "remainder", "and", "or", "xor", "atan2"];

/// The reducers `reduce` takes: a region of one of these ops.
pub const REDUCERS: &[&str] = &["add", "maximum", "minimum", "multiply", "and", "or"];

/// Whether `text` holds StableHLO in pretty form (an unquoted `stablehlo.` or
/// `chlo.` op name at the start of a statement): the text [`import`] reads
/// rather than MLIR's parser.
pub fn is_pretty(text: &str) -> bool {
    text.lines().any(|line| {
        let line = line.trim_start();
        let op = match line.strip_prefix('%') {
            Some(_) => line.split_once("= ").map_or("", |(_, op)| op),
            None => line,
        };
        op.starts_with("stablehlo.") || op.starts_with("chlo.")
    })
}

/// Parses `text` as a module: pretty StableHLO through [`import`], anything
/// else through MLIR's parser (`pb_support::source::parse_module`). `None`
/// after errors went to the context's diagnostic handlers.
pub fn parse_source<'c>(context: &'c Context, text: &str, name: &str) -> Option<Module<'c>> {
    if is_pretty(text) {
        import(context, text, name)
    } else {
        source::parse_module(context, text, name)
    }
}

/// Imports StableHLO pretty text (a `module` of `func.func`s, as JAX and
/// TensorFlow print it) into a module of `func` and generic `stablehlo`
/// ops. `name` is the file name of locations that point into `text`.
/// Returns `None` after emitting an error.
pub fn import<'c>(context: &'c Context, text: &str, name: &str) -> Option<Module<'c>> {
    let mut parser = Parser::new(context, text, name);
    match parser.module() {
        Ok(module) => Some(module),
        Err(Error { pos, message }) => {
            ffi::emit_error(parser.text_location(pos), &message);
            None
        }
    }
}

struct Error {
    pos: usize,
    message: String,
}

type Parsed<T> = Result<T, Error>;

/// What a statement of a function body parsed into, before it is built.
struct Statement<'c> {
    name: String,
    operands: Vec<String>,
    attributes: Vec<(&'static str, Attribute<'c>)>,
    results: Vec<Type<'c>>,
    /// The dimension of a concatenation (of any number of operands).
    concatenated: Option<usize>,
}

struct Parser<'c, 't> {
    context: &'c Context,
    text: &'t str,
    file: &'t str,
    pos: usize,
    /// `#locN` aliases: the text inside their `loc(...)`.
    aliases: HashMap<&'t str, &'t str>,
    /// The aliases in the order they are defined.
    alias_order: Vec<(&'t str, usize)>,
    resolved: RefCell<HashMap<String, Location<'c>>>,
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'-')
}

impl<'c, 't> Parser<'c, 't> {
    fn new(context: &'c Context, text: &'t str, file: &'t str) -> Self {
        let mut aliases = HashMap::new();
        let mut alias_order = Vec::new();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            if let Some(rest) = line.strip_prefix('#') {
                if let Some((alias, body)) = rest.split_once(" = loc(") {
                    if let Some(body) = body.trim_end().strip_suffix(')') {
                        aliases.insert(alias.trim(), body);
                        alias_order.push((alias.trim(), offset));
                    }
                }
            }
            offset += line.len();
        }
        Self { context, text, file, pos: 0, aliases, alias_order, resolved: RefCell::new(HashMap::new()) }
    }

    fn bytes(&self) -> &'t [u8] {
        self.text.as_bytes()
    }

    fn text_location(&self, pos: usize) -> Location<'c> {
        let pos = pos.min(self.text.len());
        let line = self.text[..pos].matches('\n').count() + 1;
        let column = pos - self.text[..pos].rfind('\n').map_or(0, |n| n + 1) + 1;
        Location::new(self.context, self.file, line, column)
    }

    fn error<T>(&self, message: impl Into<String>) -> Parsed<T> {
        Err(Error { pos: self.pos, message: message.into() })
    }

    fn skip_space(&mut self) {
        let bytes = self.bytes();
        while self.pos < bytes.len() {
            match bytes[self.pos] {
                b' ' | b'\t' | b'\n' | b'\r' => self.pos += 1,
                b'/' if bytes.get(self.pos + 1) == Some(&b'/') => {
                    while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes().get(self.pos).copied()
    }

    fn starts_with(&mut self, token: &str) -> bool {
        self.skip_space();
        self.text[self.pos..].starts_with(token)
    }

    /// Consumes `token` if it comes next (a word only when whole).
    fn eat(&mut self, token: &str) -> bool {
        if !self.starts_with(token) {
            return false;
        }
        let end = self.pos + token.len();
        if token.bytes().all(is_ident) && self.bytes().get(end).is_some_and(|b| is_ident(*b)) {
            return false;
        }
        self.pos = end;
        true
    }

    fn expect(&mut self, token: &str) -> Parsed<()> {
        if self.eat(token) {
            Ok(())
        } else {
            let found: String = self.text[self.pos..].chars().take(20).take_while(|c| *c != '\n').collect();
            self.error(format!("expected '{token}', found '{found}'"))
        }
    }

    /// A bare identifier (letters, digits, `_ . $ -`).
    fn word(&mut self) -> Parsed<&'t str> {
        self.skip_space();
        let start = self.pos;
        while self.bytes().get(self.pos).is_some_and(|b| is_ident(*b)) {
            self.pos += 1;
        }
        if start == self.pos {
            return self.error("expected a name");
        }
        Ok(&self.text[start..self.pos])
    }

    fn integer(&mut self) -> Parsed<i64> {
        self.skip_space();
        let start = self.pos;
        if self.bytes().get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        while self.bytes().get(self.pos).is_some_and(u8::is_ascii_digit) {
            self.pos += 1;
        }
        self.text[start..self.pos].parse().or_else(|_| {
            self.pos = start;
            self.error("expected an integer")
        })
    }

    /// `[1, 2]` (or `[]`).
    fn integer_list(&mut self) -> Parsed<Vec<i64>> {
        self.expect("[")?;
        let mut values = Vec::new();
        if self.eat("]") {
            return Ok(values);
        }
        loop {
            values.push(self.integer()?);
            if self.eat("]") {
                return Ok(values);
            }
            self.expect(",")?;
        }
    }

    /// `[true, false]`.
    fn bool_list(&mut self) -> Parsed<Vec<bool>> {
        self.expect("[")?;
        let mut values = Vec::new();
        if self.eat("]") {
            return Ok(values);
        }
        loop {
            match self.word()? {
                "true" => values.push(true),
                "false" => values.push(false),
                _ => return self.error("expected 'true' or 'false'"),
            }
            if self.eat("]") {
                return Ok(values);
            }
            self.expect(",")?;
        }
    }

    /// Past a string literal starting at `pos`.
    fn string_end(&self, pos: usize) -> usize {
        let bytes = self.bytes();
        let mut i = pos + 1;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        (i + 1).min(bytes.len())
    }

    fn string(&mut self) -> Parsed<&'t str> {
        if self.peek() != Some(b'"') {
            return self.error("expected a string");
        }
        let start = self.pos;
        self.pos = self.string_end(start);
        Ok(&self.text[start + 1..self.pos - 1])
    }

    /// Skips a balanced `{...}`, `[...]`, `(...)` or `<...>` group starting
    /// at the next character, strings included; returns its text.
    fn balanced(&mut self) -> Parsed<&'t str> {
        self.skip_space();
        let start = self.pos;
        let mut depth = 0usize;
        let bytes = self.bytes();
        while self.pos < bytes.len() {
            match bytes[self.pos] {
                b'"' => {
                    self.pos = self.string_end(self.pos);
                    continue;
                }
                b'{' | b'[' | b'(' | b'<' => depth += 1,
                b'-' if bytes.get(self.pos + 1) == Some(&b'>') => self.pos += 1,
                b'}' | b']' | b')' | b'>' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.pos += 1;
                        return Ok(&self.text[start..self.pos]);
                    }
                }
                _ if depth == 0 => return self.error("expected a bracketed group"),
                _ => {}
            }
            self.pos += 1;
        }
        self.pos = start;
        self.error("unbalanced brackets")
    }

    /// A type: a word, then a `<...>` group if one follows.
    fn ty(&mut self) -> Parsed<Type<'c>> {
        self.skip_space();
        let start = self.pos;
        if self.peek() == Some(b'(') {
            return self.error("expected a type");
        }
        self.word()?;
        if self.bytes().get(self.pos) == Some(&b'<') {
            self.balanced()?;
        }
        let text = &self.text[start..self.pos];
        match Type::parse(self.context, text) {
            Some(ty) if RankedTensorType::try_from(ty).is_ok_and(|t| has_static_shape(t.into())) => Ok(ty),
            Some(ty) if RankedTensorType::try_from(ty).is_ok() => {
                self.pos = start;
                self.error(format!("unsupported dynamically shaped type '{text}' (static shapes only)"))
            }
            Some(ty) => Ok(ty),
            None => {
                self.pos = start;
                self.error(format!("unsupported type '{text}'"))
            }
        }
    }

    /// An optional attribute dictionary, skipped (`{mhlo.frontend_attributes
    /// = ...}`, argument shardings): nothing in it changes the computation.
    fn skip_dictionary(&mut self) -> Parsed<()> {
        if self.peek() == Some(b'{') {
            self.balanced()?;
        }
        Ok(())
    }

    /// `loc(...)` if it comes next; `default` otherwise.
    fn location(&mut self, default: Location<'c>) -> Parsed<Location<'c>> {
        if !self.eat("loc(") {
            return Ok(default);
        }
        let start = self.pos - 1;
        self.pos = start;
        let group = self.balanced()?;
        let body = &group[1..group.len() - 1];
        self.resolve(body, start + 1, 0)
    }

    /// The location written `body` (inside `loc(...)`); `pos` is where it is
    /// in the text, for errors.
    fn resolve(&self, body: &str, pos: usize, depth: usize) -> Parsed<Location<'c>> {
        let fail = |message: String| Err(Error { pos, message });
        if depth > 256 {
            return fail("location aliases nest too deep (a cycle?)".into());
        }
        let mut cursor = LocationCursor { text: body.trim(), pos: 0 };
        let location = self.location_body(&mut cursor, pos, depth).and_then(|l| {
            cursor.skip_space();
            if cursor.pos == cursor.text.len() {
                Ok(l)
            } else {
                Err(format!("unexpected '{}' in a location", &cursor.text[cursor.pos..]))
            }
        });
        location.or_else(fail)
    }

    fn location_body(&self, c: &mut LocationCursor, pos: usize, depth: usize) -> Result<Location<'c>, String> {
        c.skip_space();
        if c.eat("unknown") {
            return Ok(Location::unknown(self.context));
        }
        if c.rest().starts_with('#') {
            let alias = c.take_while(|b| is_ident(b) || b == b'#');
            let key = &alias[1..];
            if let Some(location) = self.resolved.borrow().get(key) {
                return Ok(*location);
            }
            let body = self.aliases.get(key).ok_or_else(|| format!("unknown location alias '{alias}'"))?;
            let location = self.resolve(body, pos, depth + 1).map_err(|e| e.message)?;
            self.resolved.borrow_mut().insert(key.to_string(), location);
            return Ok(location);
        }
        if c.eat("callsite(") {
            let callee = self.location_body(c, pos, depth + 1)?;
            c.skip_space();
            if !c.eat("at") {
                return Err("expected 'at' in a callsite location".into());
            }
            let caller = self.location_body(c, pos, depth + 1)?;
            c.skip_space();
            if !c.eat(")") {
                return Err("expected ')' after a callsite location".into());
            }
            return Ok(Location::call_site(callee, caller));
        }
        if c.eat("fused") {
            c.skip_space();
            if c.rest().starts_with('<') {
                // Metadata: dropped.
                let mut depth = 0;
                while let Some(b) = c.next() {
                    match b {
                        b'<' => depth += 1,
                        b'>' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                c.skip_space();
            }
            if !c.eat("[") {
                return Err("expected '[' in a fused location".into());
            }
            let mut locations = Vec::new();
            c.skip_space();
            if !c.eat("]") {
                loop {
                    locations.push(self.location_body(c, pos, depth + 1)?);
                    c.skip_space();
                    if c.eat("]") {
                        break;
                    }
                    if !c.eat(",") {
                        return Err("expected ',' or ']' in a fused location".into());
                    }
                }
            }
            if locations.len() == 1 {
                return Ok(locations[0]);
            }
            return Ok(Location::fused(self.context, &locations, Attribute::unit(self.context)));
        }
        if c.rest().starts_with('"') {
            let name = c.string()?;
            if c.eat(":") {
                let line = c.number()?;
                if !c.eat(":") {
                    return Err("expected ':' and a column in a file location".into());
                }
                let column = c.number()?;
                c.skip_space();
                if c.eat("to") {
                    // A range: only its start is kept.
                    c.skip_space();
                    if c.eat(":") {
                        c.number()?;
                    } else {
                        c.number()?;
                        if c.eat(":") {
                            c.number()?;
                        }
                    }
                }
                return Ok(Location::new(self.context, &name, line, column));
            }
            c.skip_space();
            let child = if c.eat("(") {
                let child = self.location_body(c, pos, depth + 1)?;
                c.skip_space();
                if !c.eat(")") {
                    return Err("expected ')' after a name location's child".into());
                }
                child
            } else {
                Location::unknown(self.context)
            };
            return Ok(Location::name(self.context, &name, child));
        }
        Err(format!("unsupported location '{}'", c.rest()))
    }

    /// The module: `module @name attributes {...} { func.func ... }`, or
    /// bare `func.func`s.
    fn module(&mut self) -> Parsed<Module<'c>> {
        // Aliases in the order they are defined: each refers to earlier
        // ones, so resolving never nests deep.
        for (alias, offset) in self.alias_order.clone() {
            let location = self.resolve(self.aliases[alias], offset, 0)?;
            self.resolved.borrow_mut().insert(alias.to_string(), location);
        }
        // Location aliases may come first (TensorFlow prints some there).
        while self.peek() == Some(b'#') {
            self.skip_line();
        }
        let start = self.pos;
        let mut wrapped = false;
        let mut symbol = None;
        if self.eat("module") {
            wrapped = true;
            if self.peek() == Some(b'@') {
                self.pos += 1;
                symbol = Some(self.word()?);
            }
            if self.eat("attributes") {
                self.skip_dictionary()?;
            }
            self.expect("{")?;
        }
        let module = Module::new(Location::unknown(self.context));
        loop {
            match self.peek() {
                None if !wrapped => break,
                None => return self.error("expected '}' closing the module"),
                Some(b'}') if wrapped => {
                    self.pos += 1;
                    break;
                }
                Some(b'#') if !wrapped => break,
                _ => {}
            }
            if self.eat("func.func") {
                let func = self.function()?;
                module.body().append_operation(func);
            } else if self.starts_with("sdy.") {
                // Shardy mesh declarations: only XLA's partitioner reads them.
                self.skip_line();
            } else {
                let what = self.text[self.pos..].split_whitespace().next().unwrap_or("").to_string();
                return self.error(format!("unsupported top-level op '{what}' in StableHLO (expected func.func)"));
            }
        }
        if wrapped {
            // The module's own location and name carry nothing the engine uses.
            self.location(self.text_location(start))?;
            let _ = symbol;
            self.expect_end()?;
        }
        Ok(module)
    }

    /// After the module only location aliases (and dialect resources) may come.
    fn expect_end(&mut self) -> Parsed<()> {
        while let Some(b) = self.peek() {
            if b == b'#' {
                self.skip_line();
            } else if self.starts_with("{-#") {
                return self.error("dialect resources (dense_resource constants) are not supported");
            } else {
                return self.error("unexpected text after the module");
            }
        }
        Ok(())
    }

    fn skip_line(&mut self) {
        while self.pos < self.text.len() && self.bytes()[self.pos] != b'\n' {
            if self.bytes()[self.pos] == b'"' {
                self.pos = self.string_end(self.pos);
            } else {
                self.pos += 1;
            }
        }
    }

    /// `func.func [public|private] @name(%arg: type {attrs} loc(..), ...)
    /// [-> type | (type {attrs}, ...)] [attributes {...}] { body } loc(..)`
    /// (`func.func` already read).
    fn function(&mut self) -> Parsed<Operation<'c>> {
        let start = self.pos;
        let private = if self.eat("private") {
            true
        } else {
            self.eat("public");
            false
        };
        self.expect("@")?;
        let name = self.word()?;
        self.expect("(")?;
        let mut arguments = Vec::new();
        let mut names = Vec::new();
        if !self.eat(")") {
            loop {
                let argument = self.value_name()?;
                self.expect(":")?;
                let ty = self.ty()?;
                self.skip_dictionary()?;
                let location = self.location(self.text_location(self.pos))?;
                arguments.push((ty, location));
                names.push(argument);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let mut results = Vec::new();
        if self.eat("->") {
            if self.eat("(") {
                if !self.eat(")") {
                    loop {
                        results.push(self.ty()?);
                        self.skip_dictionary()?;
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
            } else {
                results.push(self.ty()?);
            }
        }
        if self.eat("attributes") {
            self.skip_dictionary()?;
        }
        self.expect("{")?;
        let block = Block::new(&arguments);
        self.body(&block, &names)?;
        let location = self.location(self.text_location(start))?;
        let region = Region::new();
        region.append_block(block);
        let inputs: Vec<Type> = arguments.iter().map(|(t, _)| *t).collect();
        let function_type = FunctionType::new(self.context, &inputs, &results);
        let mut attributes = vec![
            (Identifier::new(self.context, "sym_name"), StringAttribute::new(self.context, name).into()),
            (Identifier::new(self.context, "function_type"), TypeAttribute::new(function_type.into()).into()),
        ];
        if private {
            attributes.push((Identifier::new(self.context, "sym_visibility"), StringAttribute::new(self.context, "private").into()));
        }
        OperationBuilder::new("func.func", location)
            .add_attributes(&attributes)
            .add_regions([region])
            .build()
            .map_err(|e| Error { pos: start, message: format!("invalid function @{name}: {e}") })
    }

    /// `%name` (its text, with the `%`).
    fn value_name(&mut self) -> Parsed<&'t str> {
        self.skip_space();
        if self.bytes().get(self.pos) != Some(&b'%') {
            return self.error("expected a value name ('%...')");
        }
        let start = self.pos;
        self.pos += 1;
        while self.bytes().get(self.pos).is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b'-')) {
            self.pos += 1;
        }
        Ok(&self.text[start..self.pos])
    }

    /// A use: `%name` or `%name#index`.
    fn use_name(&mut self) -> Parsed<String> {
        let name = self.value_name()?;
        if self.bytes().get(self.pos) == Some(&b'#') {
            self.pos += 1;
            let index = self.integer()?;
            return Ok(format!("{name}#{index}"));
        }
        Ok(name.to_string())
    }

    /// The statements of a function body up to its closing `}`.
    fn body(&mut self, block: &Block<'c>, arguments: &[&str]) -> Parsed<()> {
        let mut values: HashMap<String, Value<'c, '_>> = HashMap::new();
        for (i, name) in arguments.iter().enumerate() {
            let argument = block.argument(i).map_err(|e| Error { pos: self.pos, message: e.to_string() })?;
            values.insert(name.to_string(), argument.into());
        }
        loop {
            if self.peek() == Some(b'}') {
                self.pos += 1;
                return Ok(());
            }
            if self.peek().is_none() {
                return self.error("expected '}' closing the function");
            }
            let start = self.pos;
            let mut defined = Vec::new();
            if self.peek() == Some(b'%') {
                loop {
                    let name = self.value_name()?;
                    let count = if self.bytes().get(self.pos) == Some(&b':') {
                        self.pos += 1;
                        self.integer()? as usize
                    } else {
                        1
                    };
                    defined.push((name, count));
                    if !self.eat(",") {
                        break;
                    }
                }
                self.expect("=")?;
            }
            let op_start = self.pos;
            let statement = self.statement(&values)?;
            let location = self.location(self.text_location(op_start))?;
            let operands = statement
                .operands
                .iter()
                .map(|name| {
                    values.get(name).copied().ok_or_else(|| Error { pos: op_start, message: format!("use of undefined value '{name}'") })
                })
                .collect::<Parsed<Vec<_>>>()?;
            let attributes: Vec<(Identifier, Attribute)> =
                statement.attributes.iter().map(|(n, a)| (Identifier::new(self.context, n), *a)).collect();
            let build = |operands: &[Value<'c, '_>], results: &[Type<'c>]| {
                OperationBuilder::new(&statement.name, location)
                    .add_operands(operands)
                    .add_results(results)
                    .add_attributes(&attributes)
                    .build()
                    .map_err(|e| Error { pos: op_start, message: format!("cannot build '{}': {e}", statement.name) })
            };
            let mut operands = operands;
            if statement.name == "stablehlo.concatenate" && operands.len() > 2 {
                // IRDL ops take two: an n-ary concatenation is a chain.
                let dimension = statement.concatenated.unwrap_or(0);
                while operands.len() > 2 {
                    let ty = concatenated_type(operands[0].r#type(), operands[1].r#type(), dimension)
                        .ok_or_else(|| Error { pos: op_start, message: "'stablehlo.concatenate' of mismatched tensors".into() })?;
                    let first = block.append_operation(build(&operands[..2], &[ty])?);
                    operands.splice(..2, [first.result(0).expect("one result").into()]);
                }
            }
            let operation = block.append_operation(build(&operands, &statement.results)?);
            let count: usize = defined.iter().map(|(_, n)| n).sum();
            if count != operation.result_count() {
                return Err(Error {
                    pos: start,
                    message: format!("'{}' has {} results, {count} named", statement.name, operation.result_count()),
                });
            }
            let mut index = 0;
            for (name, n) in defined {
                for k in 0..n {
                    let value: Value = operation.result(index).expect("counted").into();
                    if n == 1 {
                        values.insert(name.to_string(), value);
                    }
                    values.insert(format!("{name}#{k}"), value);
                    index += 1;
                }
            }
        }
    }

    /// `(T, T) -> T` or `(T, T) -> (T, T)`, or one type `T` standing for
    /// `operands` operands and one result of type `T`.
    fn signature(&mut self, operands: usize) -> Parsed<(Vec<Type<'c>>, Vec<Type<'c>>)> {
        self.expect(":")?;
        if self.eat("(") {
            let mut inputs = Vec::new();
            if !self.eat(")") {
                loop {
                    inputs.push(self.ty()?);
                    if self.eat(")") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            self.expect("->")?;
            let mut results = Vec::new();
            if self.eat("(") {
                if !self.eat(")") {
                    loop {
                        results.push(self.ty()?);
                        if self.eat(")") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
            } else {
                results.push(self.ty()?);
            }
            return Ok((inputs, results));
        }
        let ty = self.ty()?;
        if self.eat("->") {
            // chlo's unary form `T -> T`.
            let result = self.ty()?;
            return Ok((vec![ty; operands], vec![result]));
        }
        Ok((vec![ty; operands], vec![ty]))
    }

    /// Whether the signature after the operands at the cursor is `(...) -> ...`.
    fn signature_is_functional(&mut self) -> bool {
        let rest = &self.text[self.pos..];
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        line.split_once(" : ").is_some_and(|(_, signature)| signature.trim_start().starts_with('('))
    }

    /// Comma-separated uses.
    fn uses(&mut self) -> Parsed<Vec<String>> {
        let mut names = vec![self.use_name()?];
        while self.peek() == Some(b',') {
            let save = self.pos;
            self.pos += 1;
            if self.peek() != Some(b'%') {
                self.pos = save;
                break;
            }
            names.push(self.use_name()?);
        }
        Ok(names)
    }

    fn array(&self, values: &[i64]) -> Attribute<'c> {
        DenseI64ArrayAttribute::new(self.context, values).into()
    }

    fn i64(&self, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(IntegerType::new(self.context, 64).into(), value).into()
    }

    fn str(&self, value: &str) -> Attribute<'c> {
        StringAttribute::new(self.context, value).into()
    }

    /// Checks `operands` (by name) have the types the signature states.
    fn check_types(&self, values: &HashMap<String, Value<'c, '_>>, operands: &[String], types: &[Type<'c>], op: &str, pos: usize) -> Parsed<()> {
        if operands.len() != types.len() {
            return Err(Error { pos, message: format!("'{op}' has {} operands and {} operand types", operands.len(), types.len()) });
        }
        for (name, ty) in operands.iter().zip(types) {
            let value = values.get(name).ok_or_else(|| Error { pos, message: format!("use of undefined value '{name}'") })?;
            if value.r#type() != *ty {
                return Err(Error { pos, message: format!("'{op}': '{name}' is a {} but the signature says {ty}", value.r#type()) });
            }
        }
        Ok(())
    }

    /// One statement after its `%results =`, up to (not including) its
    /// location.
    fn statement(&mut self, values: &HashMap<String, Value<'c, '_>>) -> Parsed<Statement<'c>> {
        let start = self.pos;
        if self.peek() == Some(b'"') {
            let name = self.string()?.to_string();
            if name == "stablehlo.reduce_window" {
                return self.reduce_window(values, start);
            }
            self.pos = start;
            return self.unsupported(&name);
        }
        let word = self.word()?;
        let op = match word {
            "return" | "func.return" => {
                let operands = if self.peek() == Some(b'%') { self.uses()? } else { vec![] };
                let mut types = Vec::new();
                if self.eat(":") {
                    loop {
                        types.push(self.ty()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                }
                self.check_types(values, &operands, &types, "func.return", start)?;
                return Ok(Statement { name: "func.return".into(), operands, attributes: vec![], results: vec![], concatenated: None });
            }
            "call" | "func.call" => {
                self.expect("@")?;
                let callee = self.word()?;
                self.expect("(")?;
                let operands = if self.eat(")") {
                    vec![]
                } else {
                    let uses = self.uses()?;
                    self.expect(")")?;
                    uses
                };
                self.skip_dictionary()?;
                let (inputs, results) = self.signature(operands.len())?;
                self.check_types(values, &operands, &inputs, "func.call", start)?;
                let callee = FlatSymbolRefAttribute::new(self.context, callee).into();
                return Ok(Statement { name: "func.call".into(), operands, attributes: vec![("callee", callee)], results, concatenated: None });
            }
            _ => word,
        };
        if op == "chlo.square" {
            // x * x: chlo's square is a multiply of the operand by itself.
            let operand = self.use_name()?;
            self.skip_dictionary()?;
            let (inputs, results) = self.signature(1)?;
            self.check_types(values, std::slice::from_ref(&operand), &inputs, op, start)?;
            return Ok(Statement {
                name: "stablehlo.multiply".into(),
                operands: vec![operand.clone(), operand],
                attributes: vec![],
                results,
                concatenated: None,
            });
        }
        let Some(short) = op.strip_prefix("stablehlo.") else {
            self.pos = start;
            return self.unsupported(op);
        };
        // `dot` is a dot_general contracting lhs' last and rhs' first dimension.
        let name = if short == "dot" { "stablehlo.dot_general".to_string() } else { format!("stablehlo.{short}") };
        let mut attributes: Vec<(&'static str, Attribute<'c>)> = Vec::new();
        let operands: Vec<String>;
        let (inputs, results);
        let mut concatenated = None;
        match short {
            "select" | "clamp" if !self.signature_is_functional() => {
                // `: pred_type, type` (select) or `: bound_type, type` (clamp).
                operands = self.uses()?;
                self.expect(":")?;
                let first = self.ty()?;
                let ty = if self.eat(",") { self.ty()? } else { first };
                inputs = if short == "select" { vec![first, ty, ty] } else { vec![first, ty, first] };
                results = vec![ty];
            }
            _ if UNARY.contains(&short) || BINARY.contains(&short) || matches!(short, "select" | "clamp") => {
                operands = self.uses()?;
                self.skip_dictionary()?;
                (inputs, results) = self.signature(operands.len())?;
            }
            "constant" => {
                self.skip_space();
                let value_start = self.pos;
                self.word()?;
                if self.bytes().get(self.pos) == Some(&b'<') {
                    self.balanced()?;
                }
                let value = &self.text[value_start..self.pos];
                self.skip_dictionary()?;
                operands = vec![];
                (inputs, results) = self.signature(0)?;
                let text = format!("{value} : {}", results[0]);
                let attribute = Attribute::parse(self.context, &text)
                    .ok_or_else(|| Error { pos: value_start, message: format!("unsupported constant '{value}'") })?;
                attributes.push(("value", attribute));
            }
            "compare" => {
                let direction = self.word()?;
                if !["EQ", "NE", "LT", "LE", "GT", "GE"].contains(&direction) {
                    return self.error(format!("unknown comparison direction '{direction}'"));
                }
                self.expect(",")?;
                let lhs = self.use_name()?;
                self.expect(",")?;
                let rhs = self.use_name()?;
                attributes.push(("comparison_direction", self.str(direction)));
                if self.eat(",") {
                    let kind = self.word()?;
                    attributes.push(("compare_type", self.str(kind)));
                }
                operands = vec![lhs, rhs];
                self.skip_dictionary()?;
                (inputs, results) = self.signature(2)?;
            }
            "broadcast_in_dim" | "transpose" => {
                operands = vec![self.use_name()?];
                self.expect(",")?;
                self.expect("dims")?;
                self.expect("=")?;
                let dims = self.integer_list()?;
                let key = if short == "transpose" { "permutation" } else { "broadcast_dimensions" };
                attributes.push((key, self.array(&dims)));
                self.skip_dictionary()?;
                (inputs, results) = self.signature(1)?;
            }
            "iota" => {
                self.expect("dim")?;
                self.expect("=")?;
                let dim = self.integer()?;
                attributes.push(("iota_dimension", self.i64(dim)));
                operands = vec![];
                (inputs, results) = self.signature(0)?;
            }
            "slice" => {
                operands = vec![self.use_name()?];
                self.expect("[")?;
                let (mut starts, mut limits, mut strides) = (vec![], vec![], vec![]);
                if !self.eat("]") {
                    loop {
                        starts.push(self.integer()?);
                        self.expect(":")?;
                        limits.push(self.integer()?);
                        strides.push(if self.eat(":") { self.integer()? } else { 1 });
                        if self.eat("]") {
                            break;
                        }
                        self.expect(",")?;
                    }
                }
                attributes.push(("start_indices", self.array(&starts)));
                attributes.push(("limit_indices", self.array(&limits)));
                attributes.push(("strides", self.array(&strides)));
                (inputs, results) = self.signature(1)?;
            }
            "concatenate" => {
                let uses = self.uses()?;
                self.expect(",")?;
                self.expect("dim")?;
                self.expect("=")?;
                let dim = self.integer()?;
                (inputs, results) = self.signature(uses.len())?;
                self.check_types(values, &uses, &inputs, &name, start)?;
                if uses.len() < 2 {
                    self.pos = start;
                    return self.unsupported_because(&name, "one operand");
                }
                operands = uses;
                concatenated = usize::try_from(dim).ok();
                attributes.push(("dimension", self.i64(dim)));
            }
            "pad" => {
                operands = self.uses()?;
                for (keyword, key) in [("low", "edge_padding_low"), ("high", "edge_padding_high"), ("interior", "interior_padding")] {
                    self.expect(",")?;
                    self.expect(keyword)?;
                    self.expect("=")?;
                    let list = self.integer_list()?;
                    attributes.push((key, self.array(&list)));
                }
                (inputs, results) = self.signature(operands.len())?;
            }
            "dot" | "dot_general" => {
                operands = self.uses()?;
                let (mut batch, mut contract) = ((vec![], vec![]), (vec![], vec![]));
                let dot_form = short == "dot";
                while self.eat(",") {
                    let key = self.word()?;
                    self.expect("=")?;
                    match key {
                        "batching_dims" | "contracting_dims" => {
                            let lhs = self.integer_list()?;
                            self.expect("x")?;
                            let rhs = self.integer_list()?;
                            if key == "batching_dims" {
                                batch = (lhs, rhs);
                            } else {
                                contract = (lhs, rhs);
                            }
                        }
                        "precision" => {
                            self.balanced()?;
                        }
                        "algorithm" => return self.error(format!("unsupported 'algorithm' of '{name}'")),
                        _ => return self.error(format!("unknown '{key}' of '{name}'")),
                    }
                }
                self.skip_dictionary()?;
                (inputs, results) = self.signature(operands.len())?;
                if dot_form {
                    let rank = RankedTensorType::try_from(inputs.first().copied().unwrap_or(results[0])).map_or(1, |t| rank_of(t.into()));
                    contract = (vec![rank as i64 - 1], vec![0]);
                }
                attributes.push(("lhs_batching_dimensions", self.array(&batch.0)));
                attributes.push(("rhs_batching_dimensions", self.array(&batch.1)));
                attributes.push(("lhs_contracting_dimensions", self.array(&contract.0)));
                attributes.push(("rhs_contracting_dimensions", self.array(&contract.1)));
            }
            "reduce" => {
                self.expect("(")?;
                let input = self.use_name()?;
                self.expect("init")?;
                self.expect(":")?;
                let init = self.use_name()?;
                self.expect(")")?;
                if self.eat(",") {
                    self.pos = start;
                    return self.unsupported_because(&name, "a reduction of several operands");
                }
                let mut reducer = None;
                if self.eat("applies") {
                    let op = self.word()?;
                    reducer = Some(op.strip_prefix("stablehlo.").unwrap_or(op).to_string());
                }
                self.expect("across")?;
                self.expect("dimensions")?;
                self.expect("=")?;
                let dims = self.integer_list()?;
                operands = vec![input, init];
                (inputs, results) = self.signature(2)?;
                if reducer.is_none() {
                    // The region form: `reducer(%a: T, %b: T) { %r = op %a, %b ...; stablehlo.return %r }`.
                    let region_start = self.pos;
                    self.location(Location::unknown(self.context))?;
                    reducer = Some(self.reducer_region().map_err(|_| Error {
                        pos: region_start,
                        message: format!(
                            "unsupported StableHLO op '{name}' at {}: its reducer is not one of {}",
                            self.line_location(start),
                            REDUCERS.join(", ")
                        ),
                    })?);
                }
                let reducer = reducer.expect("set");
                if !REDUCERS.contains(&reducer.as_str()) {
                    self.pos = start;
                    return self.unsupported_because(&name, &format!("reducer 'stablehlo.{reducer}'"));
                }
                attributes.push(("dimensions", self.array(&dims)));
                attributes.push(("reducer", self.str(&reducer)));
            }
            "convolution" => {
                self.expect("(")?;
                operands = self.uses()?;
                self.expect(")")?;
                self.convolution_attributes(&mut attributes)?;
                (inputs, results) = self.signature(operands.len())?;
            }
            _ => {
                self.pos = start;
                return self.unsupported(&name);
            }
        }
        self.check_types(values, &operands, &inputs, &name, start)?;
        if results.len() != 1 {
            return Err(Error { pos: start, message: format!("'{name}' must have one result") });
        }
        Ok(Statement { name, operands, attributes, results, concatenated })
    }

    /// `"stablehlo.reduce_window"(%x, %init) <{window_dimensions = array<i64: ...>,
    /// window_strides = ..., padding = dense<...> : tensor<Nx2xi64>, base_dilations = ...,
    /// window_dilations = ...}> ({ ^bb0(%a: T, %b: T): %r = stablehlo.op %a, %b : T
    /// stablehlo.return %r : T }) : (types) -> type` (generic form: the op has no
    /// custom syntax). Base dilations must be 1; the reducer one of [`REDUCERS`].
    fn reduce_window(&mut self, values: &HashMap<String, Value<'c, '_>>, start: usize) -> Parsed<Statement<'c>> {
        let name = "stablehlo.reduce_window";
        self.expect("(")?;
        let operands = self.uses()?;
        self.expect(")")?;
        if operands.len() != 2 {
            self.pos = start;
            return self.unsupported_because(name, "a reduction of several operands");
        }
        self.expect("<")?;
        let properties_start = self.pos;
        let properties = self.balanced()?;
        self.expect(">")?;
        let dictionary = Attribute::parse(self.context, properties)
            .and_then(|a| melior::ir::attribute::DictionaryAttribute::try_from(a).ok())
            .ok_or_else(|| Error { pos: properties_start, message: format!("malformed properties of '{name}'") })?;
        let read = |key: &str| -> Option<Vec<i64>> {
            let attribute = dictionary.element_by_name(key)?;
            if let Ok(array) = DenseI64ArrayAttribute::try_from(attribute) {
                return Some((0..array.len()).map(|i| array.element(i).unwrap_or(0)).collect());
            }
            // padding: dense<...> : tensor<Nx2xi64> (a splat or the pairs).
            let elements = melior::ir::attribute::DenseElementsAttribute::try_from(attribute).ok()?;
            let count = RankedTensorType::try_from(melior::ir::attribute::AttributeLike::r#type(&attribute)).ok().map_or(0, |t| {
                use melior::ir::r#type::{DimSize, ShapedTypeLike};
                (0..t.rank()).map(|d| if let Ok(DimSize::Static(n)) = t.dim_size(d) { n as i64 } else { 0 }).product::<i64>()
            });
            Some((0..count as usize).map(|i| elements.i64_element(i).unwrap_or(0)).collect())
        };
        let window = read("window_dimensions").ok_or_else(|| Error { pos: properties_start, message: format!("'{name}' needs window_dimensions") })?;
        let rank = window.len();
        let strides = read("window_strides").unwrap_or_else(|| vec![1; rank]);
        let padding = read("padding").unwrap_or_else(|| vec![0; 2 * rank]);
        let dilations = read("window_dilations").unwrap_or_else(|| vec![1; rank]);
        if read("base_dilations").is_some_and(|d| d.iter().any(|v| *v != 1)) {
            self.pos = start;
            return self.unsupported_because(name, "base dilations");
        }
        if strides.len() != rank || padding.len() != 2 * rank || dilations.len() != rank {
            return Err(Error { pos: properties_start, message: format!("'{name}': window attributes of different ranks") });
        }
        self.expect("(")?;
        let region_start = self.pos;
        let reducer = self.generic_reducer_region().map_err(|_| Error {
            pos: region_start,
            message: format!("unsupported StableHLO op '{name}' at {}: its reducer is not one of {}", self.line_location(start), REDUCERS.join(", ")),
        })?;
        self.expect(")")?;
        let (inputs, results) = self.signature(2)?;
        self.check_types(values, &operands, &inputs, name, start)?;
        if results.len() != 1 {
            return Err(Error { pos: start, message: format!("'{name}' must have one result") });
        }
        let attributes = vec![
            ("window_dimensions", self.array(&window)),
            ("window_strides", self.array(&strides)),
            ("padding", self.array(&padding)),
            ("window_dilations", self.array(&dilations)),
            ("reducer", self.str(&reducer)),
        ];
        Ok(Statement { name: name.into(), operands, attributes, results, concatenated: None })
    }

    /// `{ ^bb0(%a: T, %b: T): %r = stablehlo.op %a, %b : T stablehlo.return %r : T }`
    /// (a generic op's region): the op's short name, one of [`REDUCERS`].
    fn generic_reducer_region(&mut self) -> Parsed<String> {
        self.expect("{")?;
        self.expect("^bb0")?;
        let (a, b) = self.reducer_arguments()?;
        self.expect(":")?;
        self.reducer_body(a, b)
    }

    /// `reducer(%a: T, %b: T) { %r = stablehlo.op %a, %b : T; stablehlo.return %r : T }`:
    /// the op's short name.
    fn reducer_region(&mut self) -> Parsed<String> {
        self.expect("reducer")?;
        let (a, b) = self.reducer_arguments()?;
        self.expect("{")?;
        let short = self.reducer_body(a, b)?;
        self.location(Location::unknown(self.context))?;
        Ok(short)
    }

    /// `(%a: T, %b: T)`, each with an optional location: the two names.
    fn reducer_arguments(&mut self) -> Parsed<(&'t str, &'t str)> {
        self.expect("(")?;
        let a = self.value_name()?;
        self.expect(":")?;
        self.ty()?;
        self.location(Location::unknown(self.context))?;
        self.expect(",")?;
        let b = self.value_name()?;
        self.expect(":")?;
        self.ty()?;
        self.location(Location::unknown(self.context))?;
        self.expect(")")?;
        Ok((a, b))
    }

    /// `%r = stablehlo.op %a, %b : T stablehlo.return %r : T }` (the body of
    /// a reducer region of arguments `a`, `b`): the op's short name, one of
    /// [`REDUCERS`].
    fn reducer_body(&mut self, a: &str, b: &str) -> Parsed<String> {
        let result = self.value_name()?;
        self.expect("=")?;
        let op = self.word()?.to_string();
        let lhs = self.use_name()?;
        self.expect(",")?;
        let rhs = self.use_name()?;
        self.expect(":")?;
        self.ty()?;
        self.location(Location::unknown(self.context))?;
        self.expect("stablehlo.return")?;
        let returned = self.use_name()?;
        self.expect(":")?;
        self.ty()?;
        self.location(Location::unknown(self.context))?;
        self.expect("}")?;
        let operands_ok = (lhs == a && rhs == b) || (lhs == b && rhs == a);
        let short = op.strip_prefix("stablehlo.").unwrap_or("");
        if !operands_ok || returned != result || !REDUCERS.contains(&short) {
            return self.error("unsupported reducer");
        }
        Ok(short.to_string())
    }

    /// `dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {...}
    /// {batch_group_count = 1 : i64, ...}`.
    fn convolution_attributes(&mut self, attributes: &mut Vec<(&'static str, Attribute<'c>)>) -> Parsed<()> {
        self.expect("dim_numbers")?;
        self.expect("=")?;
        let input = self.layout(&["b", "f"])?;
        self.expect("x")?;
        let kernel = self.layout(&["i", "o"])?;
        self.expect("->")?;
        let output = self.layout(&["b", "f"])?;
        let spatial = input.2.len();
        if kernel.2.len() != spatial || output.2.len() != spatial {
            return self.error("convolution layouts disagree on the number of spatial dimensions");
        }
        let mut strides = vec![1; spatial];
        let mut padding = vec![0; 2 * spatial];
        let mut lhs_dilation = vec![1; spatial];
        let mut rhs_dilation = vec![1; spatial];
        if self.eat(",") {
            self.expect("window")?;
            self.expect("=")?;
            self.expect("{")?;
            while !self.eat("}") {
                let key = self.word()?;
                self.expect("=")?;
                match key {
                    "stride" => strides = self.integer_list()?,
                    "lhs_dilate" => lhs_dilation = self.integer_list()?,
                    "rhs_dilate" => rhs_dilation = self.integer_list()?,
                    "pad" => {
                        self.expect("[")?;
                        padding.clear();
                        if !self.eat("]") {
                            loop {
                                padding.extend(self.integer_list()?);
                                if self.eat("]") {
                                    break;
                                }
                                self.expect(",")?;
                            }
                        }
                    }
                    "reverse" => {
                        if self.bool_list()?.contains(&true) {
                            return self.error("unsupported window reversal in 'stablehlo.convolution'");
                        }
                    }
                    _ => return self.error(format!("unknown window field '{key}' of 'stablehlo.convolution'")),
                }
                self.eat(",");
            }
        }
        let (mut feature_groups, mut batch_groups) = (1, 1);
        if self.eat("{") {
            while !self.eat("}") {
                let key = self.word()?;
                self.expect("=")?;
                match key {
                    "feature_group_count" | "batch_group_count" => {
                        let value = self.integer()?;
                        if self.eat(":") {
                            self.ty()?;
                        }
                        if key == "feature_group_count" {
                            feature_groups = value;
                        } else {
                            batch_groups = value;
                        }
                    }
                    _ => {
                        // precision_config and the like: no effect on f32 results.
                        self.skip_space();
                        if matches!(self.peek(), Some(b'[' | b'{' | b'<' | b'(')) {
                            self.balanced()?;
                        } else {
                            self.word()?;
                            if self.eat(":") {
                                self.ty()?;
                            }
                        }
                    }
                }
                self.eat(",");
            }
        }
        for (key, values) in [("window_strides", &strides), ("lhs_dilation", &lhs_dilation), ("rhs_dilation", &rhs_dilation)] {
            if values.len() != spatial {
                return self.error(format!("'{key}' of 'stablehlo.convolution' needs {spatial} values"));
            }
        }
        if padding.len() != 2 * spatial {
            return self.error(format!("'pad' of 'stablehlo.convolution' needs {spatial} pairs"));
        }
        attributes.extend([
            ("input_batch_dimension", self.i64(input.0)),
            ("input_feature_dimension", self.i64(input.1)),
            ("input_spatial_dimensions", self.array(&input.2)),
            ("kernel_input_feature_dimension", self.i64(kernel.0)),
            ("kernel_output_feature_dimension", self.i64(kernel.1)),
            ("kernel_spatial_dimensions", self.array(&kernel.2)),
            ("output_batch_dimension", self.i64(output.0)),
            ("output_feature_dimension", self.i64(output.1)),
            ("output_spatial_dimensions", self.array(&output.2)),
            ("window_strides", self.array(&strides)),
            ("padding", self.array(&padding)),
            ("lhs_dilation", self.array(&lhs_dilation)),
            ("rhs_dilation", self.array(&rhs_dilation)),
            ("feature_group_count", self.i64(feature_groups)),
            ("batch_group_count", self.i64(batch_groups)),
        ]);
        Ok(())
    }

    /// `[b, 0, 1, f]`: the positions of the two named dimensions and of the
    /// spatial ones, in spatial order.
    fn layout(&mut self, named: &[&str; 2]) -> Parsed<(i64, i64, Vec<i64>)> {
        self.expect("[")?;
        let (mut first, mut second) = (None, None);
        let mut spatial: Vec<(i64, i64)> = Vec::new();
        let mut position = 0;
        loop {
            let word = self.word()?;
            if word == named[0] {
                first = Some(position);
            } else if word == named[1] {
                second = Some(position);
            } else if let Ok(k) = word.parse::<i64>() {
                spatial.push((k, position));
            } else {
                return self.error(format!("unexpected '{word}' in convolution dimension numbers"));
            }
            position += 1;
            if self.eat("]") {
                break;
            }
            self.expect(",")?;
        }
        spatial.sort();
        if spatial.iter().enumerate().any(|(i, (k, _))| *k != i as i64) {
            return self.error("convolution spatial dimensions must be numbered 0, 1, ...");
        }
        match (first, second) {
            (Some(a), Some(b)) => Ok((a, b, spatial.into_iter().map(|(_, p)| p).collect())),
            _ => self.error(format!("convolution dimension numbers need '{}' and '{}'", named[0], named[1])),
        }
    }

    /// The location written at the end of the statement starting at `pos`
    /// (or of the region-closing line of a multi-line op), for messages; its
    /// line and column in the text if none.
    fn line_location(&self, pos: usize) -> String {
        let line_start = self.text[..pos].rfind('\n').map_or(0, |n| n + 1);
        let indent = self.text[line_start..].len() - self.text[line_start..].trim_start().len();
        let mut line_end = self.text[pos..].find('\n').map_or(self.text.len(), |n| pos + n);
        let first = self.text[line_start..line_end].trim_end();
        if first.ends_with('{') || first.ends_with("({") {
            // The op's last line: the next one at its indentation starting with '}'.
            let mut at = line_end;
            while at < self.text.len() {
                let next_end = self.text[at + 1..].find('\n').map_or(self.text.len(), |n| at + 1 + n);
                let line = &self.text[(at + 1).min(next_end)..next_end];
                if line.len() > indent && line[..indent].trim().is_empty() && line[indent..].starts_with('}') {
                    line_end = next_end;
                    break;
                }
                at = next_end;
            }
        }
        let line = &self.text[line_start..line_end];
        if let Some(index) = line.rfind(" loc(") {
            let body_start = line_start + index + 5;
            let mut depth = 1;
            let mut end = body_start;
            let bytes = self.bytes();
            while end < line_end && depth > 0 {
                match bytes[end] {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    b'"' => {
                        end = self.string_end(end);
                        continue;
                    }
                    _ => {}
                }
                end += 1;
            }
            if let Ok(location) = self.resolve(&self.text[body_start..end.saturating_sub(1)], body_start, 0) {
                return location.to_string();
            }
        }
        self.text_location(pos).to_string()
    }

    fn unsupported<T>(&self, op: &str) -> Parsed<T> {
        Err(Error { pos: self.pos, message: format!("unsupported StableHLO op '{op}' at {}", self.line_location(self.pos)) })
    }

    fn unsupported_because<T>(&self, op: &str, why: &str) -> Parsed<T> {
        Err(Error {
            pos: self.pos,
            message: format!("unsupported StableHLO op '{op}' at {} ({why})", self.line_location(self.pos)),
        })
    }
}

/// The type of `a` and `b` concatenated along `dimension`.
fn concatenated_type<'c>(a: Type<'c>, b: Type<'c>, dimension: usize) -> Option<Type<'c>> {
    use melior::ir::r#type::{DimSize, ShapedTypeLike};
    let (a, b) = (RankedTensorType::try_from(a).ok()?, RankedTensorType::try_from(b).ok()?);
    let dims = |t: &RankedTensorType<'c>| -> Option<Vec<u64>> {
        (0..t.rank()).map(|d| match t.dim_size(d) { Ok(DimSize::Static(n)) => Some(n), _ => None }).collect()
    };
    let (mut shape, other) = (dims(&a)?, dims(&b)?);
    if shape.len() != other.len() || dimension >= shape.len() {
        return None;
    }
    shape[dimension] += other[dimension];
    Some(RankedTensorType::new(&shape, a.element(), None).into())
}

fn rank_of(ty: Type) -> usize {
    use melior::ir::r#type::ShapedTypeLike;
    RankedTensorType::try_from(ty).map_or(0, |t| t.rank())
}

fn has_static_shape(ty: Type) -> bool {
    use melior::ir::r#type::{DimSize, ShapedTypeLike};
    RankedTensorType::try_from(ty)
        .map(|t| (0..t.rank()).all(|d| matches!(t.dim_size(d), Ok(DimSize::Static(_)))))
        .unwrap_or(false)
}

/// A cursor over the text of one location.
struct LocationCursor<'s> {
    text: &'s str,
    pos: usize,
}

impl<'s> LocationCursor<'s> {
    fn rest(&self) -> &'s str {
        &self.text[self.pos..]
    }

    fn skip_space(&mut self) {
        while self.rest().starts_with(|c: char| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        if self.rest().starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.text.as_bytes().get(self.pos).copied();
        self.pos += 1;
        b
    }

    fn take_while(&mut self, keep: impl Fn(u8) -> bool) -> &'s str {
        let start = self.pos;
        while self.text.as_bytes().get(self.pos).is_some_and(|b| keep(*b)) {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }

    fn number(&mut self) -> Result<usize, String> {
        self.skip_space();
        self.take_while(|b| b.is_ascii_digit()).parse().map_err(|_| "expected a number in a location".to_string())
    }

    /// A string literal with `\"` and `\\` escapes, unescaped.
    fn string(&mut self) -> Result<String, String> {
        if !self.eat("\"") {
            return Err("expected a string".into());
        }
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        out.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                    }
                }
                c => out.push(c),
            }
        }
        Err("unterminated string in a location".into())
    }
}

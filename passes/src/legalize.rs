//! `legalize`: writes out, in primitive instructions and calls of
//! functions written once in POST IR, the operations whose Python meaning
//! would otherwise be written in each backend: the last pass before code
//! generation, so the backends (LLVM, C, QBE, wasm) get the same
//! instructions and the meaning lives here alone. A backend declares what
//! it lowers natively ([`Features`], one table per backend, which
//! `codegen::prepare` passes in [`PassOptions::features`]); everything else
//! is written out.
//!
//! Always written out, for every backend:
//!
//! - Integer `fdiv` and `mod` (floor division and modulo) become the
//!   truncating `quot` and `rem` and the floor adjustment (a nonzero
//!   remainder whose sign differs from the divisor's moves the quotient
//!   down by one and the remainder up by the divisor), in selects. A
//!   divisor of -1 gives the wrapped negation and 0 (`MIN // -1` wraps, at
//!   every level); a zero divisor, which only a program compiled without
//!   division checks reaches, gives 0. So `quot` and `rem` never see a zero
//!   divisor or `MIN / -1`, which are undefined in every target. With a
//!   constant divisor other than 0 and -1 none of that is written, and an
//!   unsigned division or modulo is its truncating one.
//! - Integer `pow` becomes a loop of squarings: `r = 1; while e > 0: if e &
//!   1: r *= b; e >>= 1; if e: b *= b` on locals, the multiplications
//!   wrapping. A negative exponent (only without division checks) gives 1,
//!   an unsigned one is never negative.
//! - `postc.ovf.pow(base, exp)`, the test `insert-checks` writes before an
//!   integer `pow` at -O0 (or with overflow checks), becomes the same loop
//!   with each product it uses tested by `postc.ovf.mul` before it is
//!   made, leaving with `true` at the first that overflows; the base is
//!   squared only while bits remain, so a square no product uses does not
//!   count, as in the interpreter.
//! - Float `fdiv` and `mod` become calls of `postc.py.floordiv` and
//!   `postc.py.mod` (CPython's `float_floor_div` and `float_rem` through
//!   `fmod`: signed zeros, infinities and NaN as CPython, a zero divisor as
//!   NumPy), complex `div` and `pow` calls of `postc.py.cdiv` and
//!   `postc.py.cpow` (CPython's `_Py_c_quot` and `complex_pow`). These are
//!   written once in POST IR (`legalize/python.pir`); the module gets a
//!   copy of each function it calls, and the intrinsic imports (`fmod`,
//!   `floor`, ...) those use, under `postc.` names no program can take.
//!   They compute in Float64 (Complex128): a narrower operand is widened
//!   exactly and the result rounded once, as the reference interpreter
//!   does.
//! - Complex `add`, `sub` and `neg` become the operation on each part in
//!   the part's dtype (as the interpreter computes them), set into a
//!   local; complex `eq` and `ne` compare the parts (`and`, `or`); a
//!   `cast` from or to a complex dtype goes through the parts as NumPy
//!   casts (between complex dtypes each part converts; a real value is the
//!   real part, the imaginary part +0.0; to Bool, whether either part is
//!   nonzero; to another dtype, the real part, saturating to an integer as
//!   any float→integer cast). So a backend only stores, loads, copies,
//!   passes and takes apart complex values.
//! - A complex `abs` becomes libm's `hypot` of the parts widened to
//!   Float64, rounded once (CPython's `abs`), through the intrinsic import
//!   `postc.hypot`.
//! - A Float32 or Float16 `pow` becomes the Float64 one on widened
//!   operands, its result rounded once: every backend calls libm's `pow`,
//!   never `powf`.
//! - Integer true division (`div` of integers, a float result) divides
//!   the operands converted to the result's dtype, as the interpreter
//!   does.
//! - The length of a Str (`getfield %s, len`, its code points) becomes a
//!   call of `postc.str.len` (`legalize/text.pir`), which counts the bytes
//!   that do not continue a UTF-8 sequence through the two reads of a
//!   Str's bytes every backend lowers, `getfield %s, nbytes` and
//!   `text.byte`. The length of a Bytes is its byte count, which the
//!   backends read, and stays.
//! - The comparisons `eq ne lt le gt ge` of two Str or two Bytes compare
//!   the bytes as unsigned, the first that differs deciding and else the
//!   shorter (a prefix of the other) sorting first, as the interpreter
//!   does (UTF-8 puts a Str in code-point order so). `eq` becomes a call
//!   of `postc.str.eq` (`legalize/text.pir`), which tests the byte counts
//!   before it reads a byte, and `ne` its `not`; an ordering becomes a
//!   call of `postc.str.cmp`, -1, 0 or 1, compared with 0. Both read the
//!   bytes as `postc.str.len` does. Of Bytes they are `postc.bytes.eq`
//!   and `postc.bytes.cmp`: the same functions with Bytes parameters,
//!   made from the Str ones, as the two reads take either.
//!
//! Written out where the backend does not declare it:
//!
//! - Float16 arithmetic: without [`Features::float16_arithmetic`], `add
//!   sub mul div` and comparisons of Float16 operands become the Float32
//!   instruction on operands widened exactly, each Float16 result narrowed
//!   once (Float32 holds twice Float16's precision and two bits more, so
//!   the double rounding is innocuous); the backend then only stores,
//!   loads, passes and converts Float16 values and flips or clears their
//!   sign bit (`neg`, `abs`: a widened round trip would cost two
//!   conversions for one bit operation).
//! - Float16 conversions: without [`Features::float16_conversions`], a
//!   `cast` from Float16 calls `postc.f16.widen` (exact, to Float32; then
//!   a cast to the target) and a `cast` to Float16 calls
//!   `postc.f16.narrow` (from Float64, after a cast of the operand,
//!   rounded once to nearest even), and so do the conversions written
//!   here for the rewrites above. Both are integer operations on the bits
//!   through `bitcast` (`legalize/float16.pir`), so the backend only moves
//!   Float16 bits. Float64 holds every Float32 and every integer Float16
//!   can reach exactly, so going through it rounds once.
//! - A float→integer `cast` saturates (NaN is 0): without
//!   [`Features::saturating_casts`] the operand is replaced by 0 outside
//!   the dtype's range and the bounds are selected after the conversion,
//!   so the conversion the backend lowers only ever sees a value that
//!   truncates into range.
//! - A complex `mul`: without [`Features::complex_products`] it becomes
//!   CPython's (and NumPy's) product of the parts in line, `(ar*br -
//!   ai*bi, ar*bi + ai*br)` in Float64 (a Complex64's parts widened
//!   exactly, each part of the result rounded once, as the interpreter
//!   computes it), set into a local. In line, not as a call of a function
//!   written once: such a call took 1.6x the time through C and 1.7x
//!   through QBE (`benches/python/complexmul.py`).
//!
//! Nothing written here overflows where the original instruction does not,
//! so the reference interpreter, which at -O0 panics on any overflowing
//! `add sub mul`, gives the legalized function the original's meaning.
//!
//! It does not touch the checks: `insert-checks` has already guarded the
//! zero divisor, the negative exponent, a complex zero to a negative or
//! complex power and (at -O0) the overflow of a power, with the original
//! instruction's location; the instructions written here carry that
//! location too, and the overflow test's loop computes only the condition
//! of the check `insert-checks` wrote. Float `pow` is libm's `pow`, which
//! every backend calls: NumPy's meaning, not CPython's exceptions.

use crate::analysis::AnalysisSet;
use crate::rewrite::{NameGen, Rewriter};
use crate::scratch::{Scratch, Workers};
use crate::{PassInfo, PassOptions, Scope};
use postc_ir::body::{Body, Field, InstData, Literal, ValueId};
use postc_ir::builtins::OvfOp;
use postc_ir::diag::Diagnostic;
use postc_ir::{DType, Function, Loc, Module, Opcode, SrcLoc, TypeId, TypeTable};
use rayon::prelude::*;
use std::sync::LazyLock;

/// What a backend lowers natively, so that `legalize` leaves it alone: each
/// backend declares one table (`FEATURES` in its `mod.rs`). An operation
/// not listed here is written out for every backend.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Features {
    /// A float→integer `cast` that saturates, NaN giving 0, in one
    /// instruction (LLVM's `fptosi.sat`, wasm's `trunc_sat`). Without it a
    /// backend's conversion only sees values that truncate into range.
    pub saturating_casts: bool,
    /// Float16 `add sub mul div` and comparisons, each result rounded
    /// once (LLVM's `half`, C's `float` expression rounded to `_Float16`).
    /// Without it a backend sees Float16 only stored, loaded, passed,
    /// converted and in `neg` and `abs` (its sign bit): the others become
    /// the Float32 operation on operands widened exactly, the result
    /// narrowed once.
    pub float16_arithmetic: bool,
    /// Float16 converted from and to every other numeric dtype, exactly
    /// where it widens and rounded once where it narrows (LLVM's
    /// `fpext`/`fptrunc` of `half`, C's `_Float16`). Without it each such
    /// `cast` becomes calls of `postc.f16.widen` and `postc.f16.narrow`
    /// (`legalize/float16.pir`: integer operations on the bits), by way of
    /// Float32 or Float64, and the backend only moves Float16 bits and
    /// reinterprets them (`bitcast`).
    pub float16_conversions: bool,
    /// A complex `mul` as CPython's product, `(ar*br - ai*bi, ar*bi +
    /// ai*br)` in Float64, each part rounded once, in an operation of the
    /// backend's own. Only C declares it: GCC's vectoriser fuses the
    /// product's multiplications and additions whatever `-ffp-contract`
    /// says, so C computes it in a helper the vectoriser is kept out of.
    /// Without it the product is written out in line.
    pub complex_products: bool,
    /// The overflow tests `postc.ovf.add`, `sub`, `mul`, `neg` and `abs`
    /// (whether the wrapping operation differs from the exact one) in
    /// instructions of the backend's own (LLVM's `*.with.overflow`, C's
    /// `__builtin_*_overflow`). Without it each becomes integer operations
    /// that themselves never overflow: a narrow operation computed exactly
    /// in 64 bits and compared with its narrowed value, a 64-bit sum or
    /// difference compared with the bounds moved by the second operand's
    /// positive and negative parts, a 64-bit product with the bounds
    /// divided by the second operand.
    pub overflow_tests: bool,
}

impl Features {
    /// Nothing lowered natively: everything is written out (the default of
    /// [`PassOptions`], so that `postc-driver opt` and the tests of the
    /// passes see every rewrite).
    pub const NONE: Features = Features {
        saturating_casts: false,
        float16_arithmetic: false,
        float16_conversions: false,
        complex_products: false,
        overflow_tests: false,
    };
}

impl Default for Features {
    fn default() -> Self {
        Features::NONE
    }
}

pub struct Legalize;

pub static INFO: PassInfo = PassInfo {
    name: "legalize",
    description: "write Python's integer, float and complex //, %, / and **, complex sums, differences, negations, equality tests, casts and abs, the overflow test of an integer power, integer true division, the code-point length of a Str, the comparisons of text (and Float16 arithmetic and conversions, saturating casts and complex products where the backend does not lower them) out in primitives and calls of functions written once in POST IR",
    scope: Scope::Module,
    needs: AnalysisSet::NONE,
    keeps: AnalysisSet::NONE,
};

/// The functions of `legalize/python.pir`, `legalize/float16.pir` and
/// `legalize/text.pir`, each once per module that calls it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Helper {
    FloorDiv,
    Mod,
    ComplexDiv,
    ComplexPow,
    HalfWiden,
    HalfNarrow,
    StrLen,
    StrEq,
    StrCmp,
    BytesEq,
    BytesCmp,
}

impl Helper {
    const ALL: [Helper; 11] = [
        Helper::FloorDiv,
        Helper::Mod,
        Helper::ComplexDiv,
        Helper::ComplexPow,
        Helper::HalfWiden,
        Helper::HalfNarrow,
        Helper::StrLen,
        Helper::StrEq,
        Helper::StrCmp,
        Helper::BytesEq,
        Helper::BytesCmp,
    ];

    fn name(self) -> &'static str {
        match self {
            Helper::FloorDiv => "postc.py.floordiv",
            Helper::Mod => "postc.py.mod",
            Helper::ComplexDiv => "postc.py.cdiv",
            Helper::ComplexPow => "postc.py.cpow",
            Helper::HalfWiden => "postc.f16.widen",
            Helper::HalfNarrow => "postc.f16.narrow",
            Helper::StrLen => "postc.str.len",
            Helper::StrEq => "postc.str.eq",
            Helper::StrCmp => "postc.str.cmp",
            Helper::BytesEq => "postc.bytes.eq",
            Helper::BytesCmp => "postc.bytes.cmp",
        }
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }

    /// The helper of the libraries this one is made from, its Str
    /// parameters taken as Bytes: a comparison of Bytes reads the bytes
    /// through the same `getfield nbytes` and `text.byte` as that of Str,
    /// so `legalize/text.pir` writes it once.
    fn of_bytes(self) -> Option<Helper> {
        match self {
            Helper::BytesEq => Some(Helper::StrEq),
            Helper::BytesCmp => Some(Helper::StrCmp),
            _ => None,
        }
    }

    /// The helpers this one calls.
    fn calls(self) -> &'static [Helper] {
        match self {
            Helper::ComplexPow => &[Helper::ComplexDiv],
            _ => &[],
        }
    }
}

/// The helper libraries, parsed once.
static LIBRARIES: LazyLock<[Module; 3]> = LazyLock::new(|| {
    let parse = |file: &str, text: &str| match postc_ir::parse::parse_str(file, text) {
        Ok(m) => m,
        // The text is part of the compiler and a unit test parses and
        // verifies it: this cannot happen in a release.
        Err(e) => panic!("{file} does not parse: {e:?}"),
    };
    [
        parse("legalize/python.pir", include_str!("legalize/python.pir")),
        parse("legalize/float16.pir", include_str!("legalize/float16.pir")),
        parse("legalize/text.pir", include_str!("legalize/text.pir")),
    ]
});

/// Whether `name` is one of the library functions of float arithmetic
/// (`postc.py.*`), whose every operation must round as written: a backend
/// whose compiler may fuse operations keeps its optimiser out of them.
pub fn is_float_library_function(name: &str) -> bool {
    matches!(
        Helper::ALL.iter().find(|h| h.name() == name),
        Some(Helper::FloorDiv | Helper::Mod | Helper::ComplexDiv | Helper::ComplexPow)
    )
}

/// The symbol of the intrinsic import `name` of the libraries.
fn library_import(name: &str) -> Option<&'static String> {
    LIBRARIES.iter().find_map(|lib| lib.intrinsic_imports.get(name))
}

/// A copy of helper `h` for a module, without locations (they would name
/// the library's text).
fn helper_function(h: Helper) -> Function {
    let source = h.of_bytes().unwrap_or(h).name();
    let found = LIBRARIES.iter().find_map(|lib| lib.functions.iter().find(|f| f.name == source));
    let mut f = found.cloned().unwrap_or_else(|| Function::new(h.name()));
    if h.of_bytes().is_some() {
        f.name = h.name().to_owned();
        for p in f.body.params().collect::<Vec<_>>() {
            if f.body.types[p] == Some(TypeId::STR) {
                f.body.types[p] = Some(TypeId::scalar(DType::Bytes));
            }
        }
    }
    let body = &mut f.body;
    body.locs.raw_mut().iter_mut().for_each(|l| *l = Loc::NONE);
    body.far_locs.clear();
    body.src_file = None;
    body.pir_file = None;
    f.loc = None;
    f.doc = None;
    f.attrs.insert(postc_ir::FuncAttrs::INLINE);
    f
}

/// What the rewrites read besides the function.
#[derive(Clone, Copy)]
struct Context<'a> {
    types: &'a TypeTable,
    features: Features,
    /// The module's intrinsic imports of libm functions, by local name.
    libm: &'a [String],
}

/// The local names of `m`'s intrinsic imports of libm functions.
fn libm_imports(m: &Module) -> Vec<String> {
    let known = |(name, symbol): (&String, &String)| postc_ir::interp::is_known_intrinsic(symbol).then(|| name.clone());
    m.intrinsic_imports.iter().filter_map(known).collect()
}

/// The overflow test `callee` names, other than the power's (which is
/// always written out).
fn overflow_test(callee: &str) -> Option<OvfOp> {
    OvfOp::ALL.into_iter().find(|op| *op != OvfOp::Pow && op.name() == callee)
}

/// Whether instruction `v` of `body` is rewritten.
fn legalized(body: &Body, cx: Context<'_>, v: ValueId) -> bool {
    let (types, features) = (cx.types, cx.features);
    let dtype = |x: ValueId| body.types.get(x).copied().flatten().map(|t| types.dtype(t));
    let soft_half = |x: ValueId| !features.float16_arithmetic && dtype(x) == Some(DType::Float16);
    let half = Some(DType::Float16);
    match body.inst(v) {
        // The verifier has checked a built-in's operands.
        InstData::Call { callee, args } if callee == OvfOp::Pow.name() => args.len() == 2,
        InstData::Call { callee, .. } if overflow_test(callee).is_some() => !features.overflow_tests,
        // A libm function of Float16 operands: computed in Float64.
        InstData::Call { callee, args } => {
            !features.float16_conversions
                && cx.libm.iter().any(|n| n == callee)
                && (dtype(v) == half || args.iter().any(|a| dtype(a) == half))
        }
        InstData::Binary { op, left, .. } => {
            let Some(d) = dtype(v) else { return false };
            match op {
                Opcode::FDiv | Opcode::Mod => d.is_int() || d.is_float(),
                Opcode::Pow => d.is_int() || d.is_complex() || d == DType::Float32 || d == DType::Float16,
                Opcode::Div => d.is_complex() || dtype(left).is_some_and(|l| l.is_int()) || soft_half(v),
                Opcode::Mul => d.is_complex() && !features.complex_products || soft_half(v),
                Opcode::Add | Opcode::Sub => soft_half(v) || d.is_complex(),
                Opcode::Eq | Opcode::Ne => {
                    soft_half(left) || dtype(left).is_some_and(|l| l.is_complex() || l.is_text())
                }
                Opcode::Lt | Opcode::Le | Opcode::Gt | Opcode::Ge => {
                    soft_half(left) || dtype(left).is_some_and(|l| l.is_text())
                }
                _ => false,
            }
        }
        InstData::Unary { op: Opcode::Abs | Opcode::Neg, operand } => dtype(operand).is_some_and(|d| d.is_complex()),
        InstData::GetField { aggregate, field: Field::Len } => dtype(aggregate) == Some(DType::Str),
        InstData::Cast { operand } => {
            let (to, from) = (dtype(v), dtype(operand));
            let saturated = !features.saturating_casts
                && to.is_some_and(|d| d.is_int())
                && from.is_some_and(|f| f.is_float() || f.is_complex());
            let complex = to.is_some_and(|d| d.is_complex()) || from.is_some_and(|f| f.is_complex());
            saturated || complex || (!features.float16_conversions && to != from && (from == half || to == half))
        }
        _ => false,
    }
}

impl crate::ModulePass for Legalize {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&self, m: &mut Module, options: &PassOptions) -> Result<bool, Vec<Diagnostic>> {
        self.run_on_workers(m, options, &Workers::for_current_pool())
    }

    fn run_on_workers(
        &self,
        m: &mut Module,
        options: &PassOptions,
        workers: &Workers,
    ) -> Result<bool, Vec<Diagnostic>> {
        let features = options.features;
        let libm = libm_imports(m);
        let Module { types, functions, .. } = m;
        let cx = Context { types, features, libm: &libm };
        let results: Vec<Outcome> = functions
            .raw_mut()
            .par_iter_mut()
            .map(|f| {
                workers.with(|scratch| {
                    scratch.reset();
                    legalize_function(f, cx, scratch)
                })
            })
            .collect();
        let changed = results.iter().any(|r| r.changed);
        let mut wanted = results.iter().fold(0u16, |a, r| a | r.helpers);
        if results.iter().any(|r| r.uses_hypot) {
            if let Some(symbol) = library_import(HYPOT) {
                m.intrinsic_imports.entry(HYPOT.to_owned()).or_insert_with(|| symbol.clone());
            }
        }
        // The helpers the helpers call.
        for h in Helper::ALL {
            if wanted & h.bit() != 0 {
                wanted |= h.calls().iter().fold(0, |a, c| a | c.bit());
            }
        }
        let mut added = false;
        for h in Helper::ALL {
            if wanted & h.bit() == 0 || m.get_function(h.name()).is_some() {
                continue;
            }
            let mut f = helper_function(h);
            // The helpers hold no floor division nor complex arithmetic of
            // their own, but may convert a float to an integer.
            workers.with(|scratch| {
                scratch.reset();
                legalize_function(&mut f, Context { types: &m.types, features, libm: &[] }, scratch)
            });
            // The math functions it calls, under the library's `postc.`
            // names, which no program can import.
            for v in f.body.tags.ids() {
                if let InstData::Call { callee, .. } = f.body.inst(v) {
                    if let Some(symbol) = library_import(callee) {
                        m.intrinsic_imports.entry(callee.to_owned()).or_insert_with(|| symbol.clone());
                    }
                }
            }
            m.add_function(f);
            added = true;
        }
        Ok(changed || added)
    }
}

/// What rewriting one function did.
#[derive(Clone, Copy, Default)]
struct Outcome {
    changed: bool,
    /// The helpers it now calls, a bit per [`Helper`].
    helpers: u16,
    /// Whether it now calls libm's `hypot` (as [`HYPOT`]).
    uses_hypot: bool,
}

/// The intrinsic import a complex `abs` calls (the libraries' name).
const HYPOT: &str = "postc.hypot";

/// Rewrites one function.
fn legalize_function(func: &mut Function, cx: Context<'_>, scratch: &Scratch) -> Outcome {
    let (types, features) = (cx.types, cx.features);
    let old = std::mem::take(&mut func.body);
    if !old.tags.ids().any(|v| legalized(&old, cx, v)) {
        func.body = old;
        return Outcome::default();
    }
    let names = NameGen::new(&old);
    let labels = names.same_start();
    let mut w = Writer {
        rw: Rewriter::new(&old, scratch),
        names,
        labels,
        helpers: 0,
        soft_half_casts: !features.float16_conversions,
        native_overflow_tests: features.overflow_tests,
        native_saturating_casts: features.saturating_casts,
        uses_hypot: false,
    };
    for b in old.blocks.ids() {
        w.rw.begin_old_block(b);
        let d = old.blocks[b];
        let mut run_start = d.start;
        for i in d.start..d.end {
            let v = ValueId::from_u32(i);
            if !legalized(&old, cx, v) {
                continue;
            }
            let dtype = types.dtype(old.types[v].unwrap_or(TypeId::INT64));
            w.rw.copy_range(ValueId::from_u32(run_start), v);
            run_start = i + 1;
            let loc = old.loc(v);
            let result = match old.inst(v) {
                InstData::Cast { operand } => {
                    let from = types.dtype(old.types[operand].unwrap_or(TypeId::FLOAT64));
                    if from.is_complex() || dtype.is_complex() {
                        w.complex_cast(Some(v), operand, from, dtype, loc)
                    } else if !features.saturating_casts && dtype.is_int() && from.is_float() {
                        w.saturate(Some(v), from, dtype, operand, loc)
                    } else {
                        w.cast(Some(v), operand, from, dtype, loc)
                    }
                }
                InstData::Binary { op, left, right } => {
                    let operand_dtype = |x: ValueId| types.dtype(old.types[x].unwrap_or(TypeId::INT64));
                    let (ld, rd) = (operand_dtype(left), operand_dtype(right));
                    match op {
                        _ if ld.is_text() => w.text_comparison(v, op, ld, [left, right], loc),
                        Opcode::Pow if dtype.is_int() => w.power(v, dtype, left, right, loc),
                        _ if dtype.is_int() => w.floor(&old, v, op == Opcode::FDiv, dtype, left, right, loc),
                        // True division of integers divides the operands
                        // brought to the float result.
                        Opcode::Div if ld.is_int() => {
                            let (x, y) = (w.convert(left, ld, dtype, loc), w.convert(right, rd, dtype, loc));
                            if dtype == DType::Float16 && !features.float16_arithmetic {
                                w.float16(v, op, dtype, [x, y], loc)
                            } else {
                                w.named_as(v, Opcode::Div, TypeId::scalar(dtype), [x.as_u32(), y.as_u32()], &[], loc)
                            }
                        }
                        Opcode::Pow if dtype.is_float() => w.narrow_power(v, dtype, [left, right], loc),
                        Opcode::Mul if dtype.is_complex() => w.complex_product(v, dtype, [left, right], loc),
                        Opcode::Add | Opcode::Sub if dtype.is_complex() => {
                            w.complex_parts(v, op, dtype, &[left, right], loc)
                        }
                        Opcode::Eq | Opcode::Ne if ld.is_complex() => w.complex_equality(v, op, ld, [left, right], loc),
                        _ if ld == DType::Float16 && !matches!(op, Opcode::FDiv | Opcode::Mod) => {
                            w.float16(v, op, dtype, [left, right], loc)
                        }
                        _ => {
                            let h = match op {
                                Opcode::FDiv => Helper::FloorDiv,
                                Opcode::Mod => Helper::Mod,
                                Opcode::Div => Helper::ComplexDiv,
                                _ => Helper::ComplexPow,
                            };
                            w.call_helper(v, h, dtype, [(left, ld), (right, rd)], loc)
                        }
                    }
                }
                InstData::GetField { aggregate, .. } => {
                    w.call_unary(Some(v), Helper::StrLen, DType::Int64, aggregate, loc)
                }
                InstData::Unary { op: Opcode::Neg, operand } => w.complex_parts(v, Opcode::Neg, dtype, &[operand], loc),
                InstData::Unary { operand, .. } => {
                    let from = types.dtype(old.types[operand].unwrap_or(TypeId::scalar(DType::Complex128)));
                    w.complex_abs(v, from, dtype, operand, loc)
                }
                InstData::Call { callee, args } if overflow_test(callee).is_some() => {
                    let op = overflow_test(callee).expect("an overflow test");
                    let d = types.dtype(old.types[args.get(0).expect("an operand")].unwrap_or(TypeId::INT64));
                    w.overflows(Some(v), op, d, args.get(0).expect("an operand"), args.get(1), loc)
                }
                InstData::Call { callee, args } if callee != OvfOp::Pow.name() => {
                    let operands: Vec<(ValueId, DType)> =
                        args.iter().map(|a| (a, types.dtype(old.types[a].unwrap_or(TypeId::FLOAT64)))).collect();
                    w.wide_libm_call(v, callee, &operands, dtype, loc)
                }
                InstData::Call { args, .. } => {
                    let (Some(base), Some(exp)) = (args.get(0), args.get(1)) else {
                        unreachable!("`legalized` takes `postc.ovf.pow` with two operands")
                    };
                    let d = types.dtype(old.types[base].unwrap_or(TypeId::INT64));
                    w.power_overflows(v, d, base, exp, loc)
                }
                _ => unreachable!("only binary operations, casts, `abs`, a Str's `len` and calls are legalized"),
            };
            w.rw.drop_inst(v);
            w.rw.replace_uses(v, result);
        }
        w.rw.copy_range(ValueId::from_u32(run_start), ValueId::from_u32(d.end));
    }
    let (helpers, uses_hypot) = (w.helpers, w.uses_hypot);
    func.body = w.rw.finish();
    scratch.recycle(old);
    Outcome { changed: true, helpers, uses_hypot }
}

struct Writer<'a> {
    rw: Rewriter<'a>,
    names: NameGen,
    labels: NameGen,
    /// The helpers called so far, a bit per [`Helper`].
    helpers: u16,
    /// Whether a `cast` from or to Float16 becomes calls of
    /// `postc.f16.widen` and `postc.f16.narrow` (the backend does not
    /// declare [`Features::float16_conversions`]).
    soft_half_casts: bool,
    /// Whether the backend tests overflow itself ([`Features::overflow_tests`]).
    native_overflow_tests: bool,
    /// Whether the backend's float→integer casts saturate
    /// ([`Features::saturating_casts`]).
    native_saturating_casts: bool,
    /// Whether a call of `postc.hypot` was written (a complex `abs`).
    uses_hypot: bool,
}

impl Writer<'_> {
    fn value(
        &mut self,
        op: Opcode,
        ty: TypeId,
        ops: [u32; 2],
        extra: &[u32],
        base: &str,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let n = self.rw.fresh_name(&mut self.names, &[base.as_bytes()]);
        self.rw.emit_with_name(op, Some(ty), ops, extra, Some(n), loc)
    }

    fn binary(&mut self, op: Opcode, ty: TypeId, a: ValueId, b: ValueId, base: &str, loc: Option<SrcLoc>) -> ValueId {
        self.value(op, ty, [a.as_u32(), b.as_u32()], &[], base, loc)
    }

    fn select(&mut self, ty: TypeId, c: ValueId, t: ValueId, f: ValueId, base: &str, loc: Option<SrcLoc>) -> ValueId {
        self.value(Opcode::Select, ty, [c.as_u32(), 0], &[t.as_u32(), f.as_u32()], base, loc)
    }

    /// The constant `lit` of type `ty`, under a new name from `base`.
    fn constant(&mut self, ty: TypeId, lit: Literal<'_>, base: &str) -> ValueId {
        let n = self.rw.fresh_name(&mut self.names, &[base.as_bytes()]);
        self.rw.emit_const_with_name(ty, lit, Some(n), None)
    }

    /// The float constant `x` of dtype `d`.
    fn float(&mut self, d: DType, x: f64, base: &str) -> ValueId {
        self.constant(TypeId::scalar(d), Literal::Float(postc_ir::body::f64_to_float_bits(d, x)), base)
    }

    fn int(&mut self, ty: TypeId, x: i128, base: &str) -> ValueId {
        self.constant(ty, Literal::Int(x), base)
    }

    /// An instruction under the name of `v`, which it replaces.
    fn named_as(
        &mut self,
        v: ValueId,
        op: Opcode,
        ty: TypeId,
        ops: [u32; 2],
        extra: &[u32],
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let n = self.rw.copy_name(v);
        self.rw.emit_with_name(op, Some(ty), ops, extra, n, loc)
    }

    /// `x` of dtype `from` converted to `to` (nothing when they are equal).
    fn convert(&mut self, x: ValueId, from: DType, to: DType, loc: Option<SrcLoc>) -> ValueId {
        if from == to {
            return x;
        }
        self.cast(None, x, from, to, loc)
    }

    /// `x` of dtype `from` cast to the other dtype `to`, under the name of
    /// `v` when given: one `cast`, or where Float16's conversions are
    /// written out, a call of `postc.f16.widen` (to Float32, then cast) or
    /// of `postc.f16.narrow` (from Float64, after a cast).
    fn cast(&mut self, v: Option<ValueId>, x: ValueId, from: DType, to: DType, loc: Option<SrcLoc>) -> ValueId {
        if from.is_complex() || to.is_complex() {
            return self.complex_cast(v, x, from, to, loc);
        }
        let half = DType::Float16;
        if self.soft_half_casts && from == half {
            if to == DType::Float32 {
                return self.call_unary(v, Helper::HalfWiden, DType::Float32, x, loc);
            }
            let wide = self.call_unary(None, Helper::HalfWiden, DType::Float32, x, loc);
            return self.cast(v, wide, DType::Float32, to, loc);
        }
        if self.soft_half_casts && to == half {
            let wide = if from == DType::Float64 { x } else { self.cast(None, x, from, DType::Float64, loc) };
            return self.call_unary(v, Helper::HalfNarrow, half, wide, loc);
        }
        self.named_or_new(v, Opcode::Cast, TypeId::scalar(to), [x.as_u32(), 0], &[], "wide", loc)
    }

    /// An instruction under the name of `v` when given, else under a new
    /// name from `base`.
    fn named_or_new(
        &mut self,
        v: Option<ValueId>,
        op: Opcode,
        ty: TypeId,
        ops: [u32; 2],
        extra: &[u32],
        base: &str,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        match v {
            Some(v) => self.named_as(v, op, ty, ops, extra, loc),
            None => self.value(op, ty, ops, extra, base, loc),
        }
    }

    /// Call `v` of the libm function `callee` on Float16 operands (or with
    /// a Float16 result) where Float16's conversions are written out: the
    /// operands widened to Float64, the result rounded once from it, as
    /// the interpreter computes a math function.
    fn wide_libm_call(
        &mut self,
        v: ValueId,
        callee: &str,
        operands: &[(ValueId, DType)],
        d: DType,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let wide = DType::Float64;
        let mut items = vec![operands.len() as u32];
        for &(x, xd) in operands {
            items.push(self.convert(x, xd, wide, loc).as_u32());
        }
        let callee = self.rw.intern(callee);
        let r = self.value(Opcode::Call, TypeId::scalar(wide), [callee, 0], &items, "wide", loc);
        self.cast(Some(v), r, wide, d, loc)
    }

    /// A call of helper `h` on `x` with result dtype `d`, under the name
    /// of `v` when given.
    fn call_unary(&mut self, v: Option<ValueId>, h: Helper, d: DType, x: ValueId, loc: Option<SrcLoc>) -> ValueId {
        self.helpers |= h.bit();
        let callee = self.rw.intern(h.name());
        self.named_or_new(v, Opcode::Call, TypeId::scalar(d), [callee, 0], &[1, x.as_u32()], "half", loc)
    }

    /// Comparison `v` (`op`) of two texts of dtype `d` (Str or Bytes): `eq`
    /// the call of `postc.str.eq` (`postc.bytes.eq`), which tests the byte
    /// counts before it reads a byte, `ne` its `not`; an ordering the
    /// call of `postc.str.cmp` (`postc.bytes.cmp`), -1, 0 or 1, compared
    /// with 0.
    fn text_comparison(
        &mut self,
        v: ValueId,
        op: Opcode,
        d: DType,
        [a, b]: [ValueId; 2],
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let (eq, cmp) =
            if d == DType::Bytes { (Helper::BytesEq, Helper::BytesCmp) } else { (Helper::StrEq, Helper::StrCmp) };
        let h = if matches!(op, Opcode::Eq | Opcode::Ne) { eq } else { cmp };
        self.helpers |= h.bit();
        let callee = self.rw.intern(h.name());
        let items = [2, a.as_u32(), b.as_u32()];
        match op {
            Opcode::Eq => self.named_as(v, Opcode::Call, TypeId::BOOL, [callee, 0], &items, loc),
            Opcode::Ne => {
                let equal = self.value(Opcode::Call, TypeId::BOOL, [callee, 0], &items, "text.eq", loc);
                self.named_as(v, Opcode::Not, TypeId::BOOL, [equal.as_u32(), 0], &[], loc)
            }
            _ => {
                let ty = TypeId::scalar(DType::Int32);
                let order = self.value(Opcode::Call, ty, [callee, 0], &items, "text.order", loc);
                let zero = self.int(ty, 0, "zero");
                self.named_as(v, op, TypeId::BOOL, [order.as_u32(), zero.as_u32()], &[], loc)
            }
        }
    }

    /// Instruction `v` of dtype `d` as a call of helper `h` on its operands
    /// (value and dtype each): brought to `d` as the instruction would,
    /// widened exactly to Float64 or Complex128, the result rounded once
    /// to `d`.
    fn call_helper(
        &mut self,
        v: ValueId,
        h: Helper,
        d: DType,
        operands: [(ValueId, DType); 2],
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let wide = if d.is_complex() { DType::Complex128 } else { DType::Float64 };
        let mut items = [2u32, 0, 0];
        for (i, (x, xd)) in operands.into_iter().enumerate() {
            let at_d = self.convert(x, xd, d, loc);
            items[1 + i] = self.convert(at_d, d, wide, loc).as_u32();
        }
        self.helpers |= h.bit();
        let callee = self.rw.intern(h.name());
        let ty = TypeId::scalar(wide);
        if d == wide {
            return self.named_as(v, Opcode::Call, ty, [callee, 0], &items, loc);
        }
        let n = self.rw.fresh_name(&mut self.names, &[b"py"]);
        let r = self.rw.emit_with_name(Opcode::Call, Some(ty), [callee, 0], &items, Some(n), loc);
        self.cast(Some(v), r, wide, d, loc)
    }

    /// Instruction `v` (`op` with result dtype `d`) on Float16 operands,
    /// for a backend without Float16 arithmetic: the operands widened exactly and `op` done in Float32,
    /// a Float16 result narrowed once. Float32's 24 bits are at least twice
    /// Float16's 11 plus 2, so a sum, difference, product or quotient
    /// rounded to Float32 and then to Float16 is the correctly rounded
    /// Float16 one, as the interpreter computes it in Float64.
    fn float16(&mut self, v: ValueId, op: Opcode, d: DType, operands: [ValueId; 2], loc: Option<SrcLoc>) -> ValueId {
        let half = DType::Float16;
        let wide = DType::Float32;
        let x = self.convert(operands[0], half, wide, loc);
        let ops = if operands[1] == operands[0] {
            [x.as_u32(), x.as_u32()]
        } else {
            [x.as_u32(), self.convert(operands[1], half, wide, loc).as_u32()]
        };
        if d != half {
            // A comparison.
            return self.named_as(v, op, TypeId::scalar(d), ops, &[], loc);
        }
        let r = self.value(op, TypeId::scalar(wide), ops, &[], "wide", loc);
        self.cast(Some(v), r, wide, half, loc)
    }

    /// Part `field` (`real` or `imag`) of complex `x` of dtype `d`, widened
    /// exactly to Float64.
    fn wide_part(&mut self, x: ValueId, d: DType, field: Field, loc: Option<SrcLoc>) -> ValueId {
        let part = d.complex_part().unwrap_or(DType::Float64);
        let base: &[u8] = if field == Field::Real { b"re" } else { b"im" };
        let n = self.rw.fresh_name(&mut self.names, &[base]);
        let ops = [x.as_u32(), field as u32];
        let p = self.rw.emit_with_name(Opcode::GetField, Some(TypeId::scalar(part)), ops, &[], Some(n), loc);
        self.convert(p, part, DType::Float64, loc)
    }

    /// `abs` of complex `x` of dtype `from` (its magnitude, of dtype `to`):
    /// libm's `hypot` of the parts widened to Float64, rounded once, the
    /// intrinsic import `postc.hypot` added to the module.
    fn complex_abs(&mut self, v: ValueId, from: DType, to: DType, x: ValueId, loc: Option<SrcLoc>) -> ValueId {
        let (re, im) = (self.wide_part(x, from, Field::Real, loc), self.wide_part(x, from, Field::Imag, loc));
        self.uses_hypot = true;
        let callee = self.rw.intern(HYPOT);
        let items = [2, re.as_u32(), im.as_u32()];
        if to == DType::Float64 {
            return self.named_as(v, Opcode::Call, TypeId::FLOAT64, [callee, 0], &items, loc);
        }
        let h = self.value(Opcode::Call, TypeId::FLOAT64, [callee, 0], &items, "hypot", loc);
        self.cast(Some(v), h, DType::Float64, to, loc)
    }

    /// A complex `mul` of dtype `d`: CPython's (and NumPy's) product of the
    /// parts, `(ar*br - ai*bi, ar*bi + ai*br)`, in Float64 (a Complex64's
    /// parts widened exactly, each part of the result rounded once, as the
    /// interpreter computes it); the result is a local whose parts are set.
    fn complex_product(&mut self, v: ValueId, d: DType, [a, b]: [ValueId; 2], loc: Option<SrcLoc>) -> ValueId {
        let (ar, ai) = (self.wide_part(a, d, Field::Real, loc), self.wide_part(a, d, Field::Imag, loc));
        let (br, bi) = (self.wide_part(b, d, Field::Real, loc), self.wide_part(b, d, Field::Imag, loc));
        let f64 = TypeId::FLOAT64;
        let (p1, p2) =
            (self.binary(Opcode::Mul, f64, ar, br, "re", loc), self.binary(Opcode::Mul, f64, ai, bi, "re", loc));
        let re = self.binary(Opcode::Sub, f64, p1, p2, "re", loc);
        let (p3, p4) =
            (self.binary(Opcode::Mul, f64, ar, bi, "im", loc), self.binary(Opcode::Mul, f64, ai, br, "im", loc));
        let im = self.binary(Opcode::Add, f64, p3, p4, "im", loc);
        let part = d.complex_part().unwrap_or(DType::Float64);
        let (re, im) = (self.convert(re, DType::Float64, part, loc), self.convert(im, DType::Float64, part, loc));
        let result = self.named_as(v, Opcode::Let, TypeId::scalar(d), [a.as_u32(), 0], &[], loc);
        for (field, x) in [(Field::Real, re), (Field::Imag, im)] {
            self.rw.emit(Opcode::SetField, None, [result.as_u32(), 0], &[field as u32, x.as_u32()], None, loc);
        }
        result
    }

    /// Part `field` of complex `x` of dtype `d`, in the part's dtype.
    fn part(&mut self, x: ValueId, d: DType, field: Field, loc: Option<SrcLoc>) -> ValueId {
        let part = d.complex_part().unwrap_or(DType::Float64);
        let base = if field == Field::Real { "re" } else { "im" };
        self.value(Opcode::GetField, TypeId::scalar(part), [x.as_u32(), field as u32], &[], base, loc)
    }

    /// A complex value of dtype `d` under the name of `v` (when given): a
    /// local that starts as `init` (of dtype `d`) and whose parts are then
    /// set to `parts` (in `d`'s part dtype).
    fn complex_local(
        &mut self,
        v: Option<ValueId>,
        d: DType,
        init: ValueId,
        parts: &[(Field, ValueId)],
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let result = self.named_or_new(v, Opcode::Let, TypeId::scalar(d), [init.as_u32(), 0], &[], "complex", loc);
        for &(field, x) in parts {
            self.rw.emit(Opcode::SetField, None, [result.as_u32(), 0], &[field as u32, x.as_u32()], None, loc);
        }
        result
    }

    /// A complex `add` or `sub` (two operands) or `neg` (one) of dtype
    /// `d`: the operation on each part, in the part's dtype, as the
    /// interpreter computes it.
    fn complex_parts(
        &mut self,
        v: ValueId,
        op: Opcode,
        d: DType,
        operands: &[ValueId],
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let pty = TypeId::scalar(d.complex_part().unwrap_or(DType::Float64));
        let mut parts = [(Field::Real, v), (Field::Imag, v)];
        for (field, result) in &mut parts {
            let xs: Vec<u32> = operands.iter().map(|&x| self.part(x, d, *field, loc).as_u32()).collect();
            *result = self.value(op, pty, [xs[0], xs.get(1).copied().unwrap_or(0)], &[], "part", loc);
        }
        self.complex_local(Some(v), d, operands[0], &parts, loc)
    }

    /// A complex `eq` (both parts equal) or `ne` (either differs) of
    /// operands of dtype `d`.
    fn complex_equality(
        &mut self,
        v: ValueId,
        op: Opcode,
        d: DType,
        [a, b]: [ValueId; 2],
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let mut tests = [0u32; 2];
        for (k, field) in [Field::Real, Field::Imag].into_iter().enumerate() {
            let (x, y) = (self.part(a, d, field, loc), self.part(b, d, field, loc));
            tests[k] = self.binary(op, TypeId::BOOL, x, y, "same", loc).as_u32();
        }
        let join = if op == Opcode::Eq { Opcode::And } else { Opcode::Or };
        self.named_as(v, join, TypeId::BOOL, tests, &[], loc)
    }

    /// A `cast` from or to a complex dtype, as NumPy casts: to its own
    /// dtype a copy (a local); between complex dtypes each part converts;
    /// a real value becomes the real part, the imaginary part +0.0; a
    /// complex value cast to Bool is whether either part is nonzero, to
    /// any other dtype its real part cast (saturating to an integer where
    /// the backend's casts do not).
    fn complex_cast(&mut self, v: Option<ValueId>, x: ValueId, from: DType, to: DType, loc: Option<SrcLoc>) -> ValueId {
        if from == to {
            return self.named_or_new(v, Opcode::Let, TypeId::scalar(to), [x.as_u32(), 0], &[], "complex", loc);
        }
        let Some(to_part) = to.complex_part() else {
            let part = from.complex_part().unwrap_or(DType::Float64);
            if to == DType::Bool {
                let zero = self.float(part, 0.0, "zero");
                let re = self.part(x, from, Field::Real, loc);
                let im = self.part(x, from, Field::Imag, loc);
                let (re, im) = (
                    self.binary(Opcode::Ne, TypeId::BOOL, re, zero, "nonzero", loc),
                    self.binary(Opcode::Ne, TypeId::BOOL, im, zero, "nonzero", loc),
                );
                return self.named_or_new(v, Opcode::Or, TypeId::BOOL, [re.as_u32(), im.as_u32()], &[], "nonzero", loc);
            }
            let re = self.part(x, from, Field::Real, loc);
            if to.is_int() && !self.native_saturating_casts {
                return self.saturate(v, part, to, re, loc);
            }
            return self.cast(v, re, part, to, loc);
        };
        let zero = self.constant(TypeId::scalar(to), Literal::Complex(0, 0), "zero");
        let parts: Vec<(Field, ValueId)> = match from.complex_part() {
            Some(from_part) => [Field::Real, Field::Imag]
                .into_iter()
                .map(|field| {
                    let p = self.part(x, from, field, loc);
                    (field, self.convert(p, from_part, to_part, loc))
                })
                .collect(),
            None => vec![(Field::Real, self.convert(x, from, to_part, loc))],
        };
        self.complex_local(v, to, zero, &parts, loc)
    }

    /// A Float32 or Float16 `pow`: libm's `pow` on the operands widened,
    /// the result rounded once, as the interpreter does (`powf` can differ
    /// in the last place, and no target has a Float16 one).
    fn narrow_power(&mut self, v: ValueId, d: DType, [x, y]: [ValueId; 2], loc: Option<SrcLoc>) -> ValueId {
        let wide_x = self.convert(x, d, DType::Float64, loc);
        let wide_y = if y == x { wide_x } else { self.convert(y, d, DType::Float64, loc) };
        let r = self.binary(Opcode::Pow, TypeId::FLOAT64, wide_x, wide_y, "wide", loc);
        self.cast(Some(v), r, DType::Float64, d, loc)
    }

    /// A float `x` of dtype `from` cast to the integer dtype `to`,
    /// saturating, with NaN giving 0: the conversion sees `x` where it
    /// truncates into range and 0 elsewhere, and the bounds are selected
    /// after it.
    fn saturate(&mut self, v: Option<ValueId>, from: DType, to: DType, x: ValueId, loc: Option<SrcLoc>) -> ValueId {
        // Float16 widens exactly; its range is Float32's bounds' subset.
        let f = if from == DType::Float64 { DType::Float64 } else { DType::Float32 };
        let x = self.convert(x, from, f, loc);
        let fty = TypeId::scalar(f);
        let ty = TypeId::scalar(to);
        let bits = to.bits();
        // `lo < x < hi` truncates into range; `x <= lo` gives the minimum,
        // `x >= hi` the maximum (powers of two, exact in Float32).
        let (lo, hi, min, max) = if to.is_signed_int() {
            let half = 2f64.powi(bits as i32 - 1);
            (-half, half, -(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (-1.0, 2f64.powi(bits as i32), 0, (1i128 << bits) - 1)
        };
        let (lo, hi, zero) = (self.float(f, lo, "lo"), self.float(f, hi, "hi"), self.float(f, 0.0, "zero"));
        let b = TypeId::BOOL;
        let above_lo = self.binary(Opcode::Gt, b, x, lo, "above.lo", loc);
        let below_hi = self.binary(Opcode::Lt, b, x, hi, "below.hi", loc);
        let inside = self.binary(Opcode::And, b, above_lo, below_hi, "in.range", loc);
        let safe = self.select(fty, inside, x, zero, "in.range.value", loc);
        let t = self.value(Opcode::Cast, ty, [safe.as_u32(), 0], &[], "truncated", loc);
        let at_min = self.binary(Opcode::Le, b, x, lo, "at.min", loc);
        let at_max = self.binary(Opcode::Ge, b, x, hi, "at.max", loc);
        let (min, max) = (self.int(ty, min, "min"), self.int(ty, max, "max"));
        let low = self.select(ty, at_min, min, t, "low", loc);
        self.named_or_new(v, Opcode::Select, ty, [at_max.as_u32(), 0], &[max.as_u32(), low.as_u32()], "saturated", loc)
    }

    /// `left // right` or `left % right` on integers of dtype `d`.
    fn floor(
        &mut self,
        old: &Body,
        v: ValueId,
        div: bool,
        d: DType,
        left: ValueId,
        right: ValueId,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let ty = TypeId::scalar(d);
        let bool_ty = TypeId::BOOL;
        let truncating = if div { Opcode::Quot } else { Opcode::Rem };
        let divisor = match old.inst(right) {
            InstData::Const(Literal::Int(c)) => Some(c),
            _ => None,
        };
        if !d.is_signed_int() {
            // Floor is truncation; only a zero divisor needs care.
            if divisor.is_some_and(|c| c != 0) {
                return self.named_as(v, truncating, ty, [left.as_u32(), right.as_u32()], &[], loc);
            }
            let zero = self.int(ty, 0, "zero");
            let one = self.int(ty, 1, "one");
            let is_zero = self.binary(Opcode::Eq, bool_ty, right, zero, "by.zero", loc);
            let safe = self.select(ty, is_zero, one, right, "divisor", loc);
            let q = self.binary(truncating, ty, left, safe, if div { "quot" } else { "rem" }, loc);
            return self.named_as(v, Opcode::Select, ty, [is_zero.as_u32(), 0], &[zero.as_u32(), q.as_u32()], loc);
        }
        let zero = self.int(ty, 0, "zero");
        let special = divisor.is_none_or(|c| c == 0 || c == -1);
        // The divisor `quot` and `rem` see: never 0 nor -1.
        let one = self.int(ty, 1, "one");
        let (safe, by_zero, either) = if special {
            let minus_one = self.int(ty, -1, "minus.one");
            let by_zero = self.binary(Opcode::Eq, bool_ty, right, zero, "by.zero", loc);
            let by_minus_one = self.binary(Opcode::Eq, bool_ty, right, minus_one, "by.minus.one", loc);
            let either = self.binary(Opcode::Or, bool_ty, by_zero, by_minus_one, "special", loc);
            (self.select(ty, either, one, right, "divisor", loc), Some(by_zero), Some(either))
        } else {
            (right, None, None)
        };
        let r = self.binary(Opcode::Rem, ty, left, safe, "rem", loc);
        // A nonzero remainder of the other sign than the divisor: floor
        // rounds down where truncation rounded up.
        let nonzero = self.binary(Opcode::Ne, bool_ty, r, zero, "rem.nonzero", loc);
        let signs = self.binary(Opcode::BXor, ty, r, safe, "signs", loc);
        let differ = self.binary(Opcode::Lt, bool_ty, signs, zero, "signs.differ", loc);
        let adjust = self.binary(Opcode::And, bool_ty, nonzero, differ, "adjust", loc);
        // Neither arm overflows, so an interpreter run that checks overflow
        // (the -O0 semantics) sees none: `q - 1` only where the truncated
        // quotient was rounded up (never the minimum), `r + b` only where
        // the signs differ.
        let (floored_op, floored_ops) = if div {
            let q = self.binary(Opcode::Quot, ty, left, safe, "quot", loc);
            let down = self.value(Opcode::Cast, ty, [adjust.as_u32(), 0], &[], "down", loc);
            (Opcode::Sub, [q.as_u32(), down.as_u32()])
        } else {
            let up = self.select(ty, adjust, safe, zero, "up", loc);
            (Opcode::Add, [r.as_u32(), up.as_u32()])
        };
        let (Some(by_zero), Some(either)) = (by_zero, either) else {
            // A constant divisor other than 0 and -1: the floor is the result.
            return self.named_as(v, floored_op, ty, floored_ops, &[], loc);
        };
        let floored = self.value(floored_op, ty, floored_ops, &[], "floor", loc);
        // By -1: the wrapped negation (the minimum stays itself, negating
        // nothing that overflows), or 0; by 0: 0.
        let special_result = if div {
            let min = self.int(ty, -(1i128 << (d.bits() - 1)), "min");
            let is_min = self.binary(Opcode::Eq, bool_ty, left, min, "is.min", loc);
            let plain = self.select(ty, is_min, zero, left, "plain", loc);
            let negated = self.binary(Opcode::Sub, ty, zero, plain, "negated", loc);
            let wrapped = self.select(ty, is_min, left, negated, "wrapped", loc);
            self.select(ty, by_zero, zero, wrapped, "special.result", loc)
        } else {
            zero
        };
        let ops = [either.as_u32(), 0];
        self.named_as(v, Opcode::Select, ty, ops, &[special_result.as_u32(), floored.as_u32()], loc)
    }

    /// `base ** exp` on integers of dtype `d`, as a loop; the result is a
    /// local read after it.
    fn power(&mut self, v: ValueId, d: DType, base: ValueId, exp: ValueId, loc: Option<SrcLoc>) -> ValueId {
        let ty = TypeId::scalar(d);
        let bool_ty = TypeId::BOOL;
        let one = self.int(ty, 1, "one");
        let zero = self.int(ty, 0, "zero");
        let result = self.named_as(v, Opcode::Let, ty, [one.as_u32(), 0], &[], loc);
        let b = self.value(Opcode::Let, ty, [base.as_u32(), 0], &[], "pow.base", loc);
        let e = self.value(Opcode::Let, ty, [exp.as_u32(), 0], &[], "pow.exp", loc);
        let (head, body, exit) = (self.rw.new_block(), self.rw.new_block(), self.rw.new_block());
        self.rw.emit(Opcode::Br, None, [head.as_u32(), 0], &[], None, loc);
        let label = self.rw.fresh_name(&mut self.labels, &[b"pow.head"]);
        self.rw.begin_block_named(head, label);
        let stop = if d.is_signed_int() { Opcode::Le } else { Opcode::Eq };
        let done = self.binary(stop, bool_ty, e, zero, "pow.done", loc);
        self.rw.emit(Opcode::CondBr, None, [done.as_u32(), 0], &[exit.as_u32(), body.as_u32(), 0, 0], None, loc);
        let label = self.rw.fresh_name(&mut self.labels, &[b"pow.body"]);
        self.rw.begin_block_named(body, label);
        // A product the result does not use is a product by 1, and the base
        // is squared only while bits remain, so no multiplication overflows
        // unless the power does (which at -O0 `postc.ovf.pow` has checked).
        let bit = self.binary(Opcode::BAnd, ty, e, one, "pow.bit", loc);
        let odd = self.binary(Opcode::Ne, bool_ty, bit, zero, "pow.odd", loc);
        let factor = self.select(ty, odd, b, one, "pow.factor", loc);
        let times = self.binary(Opcode::Mul, ty, result, factor, "pow.times", loc);
        self.rw.emit(Opcode::Set, None, [result.as_u32(), times.as_u32()], &[], None, loc);
        let halved = self.binary(Opcode::Shr, ty, e, one, "pow.halved", loc);
        self.rw.emit(Opcode::Set, None, [e.as_u32(), halved.as_u32()], &[], None, loc);
        let more = self.binary(Opcode::Ne, bool_ty, halved, zero, "pow.more", loc);
        let square_by = self.select(ty, more, b, one, "pow.square.by", loc);
        let squared = self.binary(Opcode::Mul, ty, b, square_by, "pow.squared", loc);
        self.rw.emit(Opcode::Set, None, [b.as_u32(), squared.as_u32()], &[], None, loc);
        self.rw.emit(Opcode::Br, None, [head.as_u32(), 0], &[], None, loc);
        let label = self.rw.fresh_name(&mut self.labels, &[b"pow.done"]);
        self.rw.begin_block_named(exit, label);
        result
    }
}

impl Writer<'_> {
    /// Whether `op` (`postc.ovf.add`, `sub`, `mul`, `neg` or `abs`) on `a`
    /// (and `b`) of integer dtype `d` overflows, under the name of `v` when
    /// given: a call of the built-in where the backend tests overflow
    /// itself, else written out (see [`Features::overflow_tests`]). No
    /// operation written here overflows (the interpreter checks them at
    /// -O0) or divides by zero or `MIN` by -1.
    fn overflows(
        &mut self,
        v: Option<ValueId>,
        op: OvfOp,
        d: DType,
        a: ValueId,
        b: Option<ValueId>,
        loc: Option<SrcLoc>,
    ) -> ValueId {
        let bool_ty = TypeId::BOOL;
        let b = b.unwrap_or(a);
        // The test's result: under `v`'s name when it replaces `v`.
        let last = |w: &mut Self, op: Opcode, ops: [u32; 2], extra: &[u32]| {
            w.named_or_new(v, op, bool_ty, ops, extra, "ovf", loc)
        };
        if self.native_overflow_tests {
            let callee = self.rw.intern(op.name());
            let items: &[u32] = match op {
                OvfOp::Neg | OvfOp::Abs => &[1, a.as_u32()],
                _ => &[2, a.as_u32(), b.as_u32()],
            };
            return last(self, Opcode::Call, [callee, 0], items);
        }
        let ty = TypeId::scalar(d);
        let (signed, bits) = (d.is_signed_int(), d.bits());
        let (lo, hi) = d.int_range().unwrap_or((0, 0));
        let arith = match op {
            OvfOp::Add => Opcode::Add,
            OvfOp::Sub => Opcode::Sub,
            _ => Opcode::Mul,
        };
        match op {
            // `-MIN` and `abs(MIN)` of a signed dtype, `-x` of an unsigned
            // one but 0.
            OvfOp::Neg | OvfOp::Abs if signed => {
                let min = self.int(ty, lo, "min");
                last(self, Opcode::Eq, [a.as_u32(), min.as_u32()], &[])
            }
            OvfOp::Neg => {
                let zero = self.int(ty, 0, "zero");
                last(self, Opcode::Ne, [a.as_u32(), zero.as_u32()], &[])
            }
            OvfOp::Abs => {
                let name = match v {
                    Some(v) => self.rw.copy_name(v),
                    None => Some(self.rw.fresh_name(&mut self.names, &[b"ovf"])),
                };
                self.rw.emit_const_with_name(bool_ty, Literal::Bool(false), name, loc)
            }
            // Exact in 64 bits (an unsigned product in UInt64, the rest in
            // Int64, where an unsigned difference may go below zero): out of
            // range when narrowing changes it.
            _ if bits <= 32 => {
                let wide = if signed || op != OvfOp::Mul { DType::Int64 } else { DType::UInt64 };
                let (x, y) = (self.convert(a, d, wide, loc), self.convert(b, d, wide, loc));
                let r = self.binary(arith, TypeId::scalar(wide), x, y, "ovf.exact", loc);
                let narrowed = self.convert(r, wide, d, loc);
                let back = self.convert(narrowed, d, wide, loc);
                last(self, Opcode::Ne, [back.as_u32(), r.as_u32()], &[])
            }
            // 64 bits, against the bounds moved by `b`'s positive part
            // `b+` and its negative part `b-` (`b & ~(b >> 63)` and `b & (b
            // >> 63)`, one of them 0): a sum overflows past `MAX - b+` or
            // below `MIN - b-`, a difference past `MAX + b-` or below `MIN +
            // b+`. Neither bound can overflow, and no select is needed
            // (QBE's is a branch).
            OvfOp::Add | OvfOp::Sub if signed => {
                let (max, min) = (self.int(ty, hi, "max"), self.int(ty, lo, "min"));
                let width = self.int(ty, i128::from(bits) - 1, "width");
                let sign = self.binary(Opcode::Shr, ty, b, width, "ovf.sign", loc);
                let not_sign = self.value(Opcode::Inv, ty, [sign.as_u32(), 0], &[], "ovf.sign", loc);
                let positive = self.binary(Opcode::BAnd, ty, b, not_sign, "ovf.positive", loc);
                let negative = self.binary(Opcode::BAnd, ty, b, sign, "ovf.negative", loc);
                let (top, bottom) = if op == OvfOp::Add {
                    (
                        self.binary(Opcode::Sub, ty, max, positive, "ovf.top", loc),
                        self.binary(Opcode::Sub, ty, min, negative, "ovf.bottom", loc),
                    )
                } else {
                    (
                        self.binary(Opcode::Add, ty, max, negative, "ovf.top", loc),
                        self.binary(Opcode::Add, ty, min, positive, "ovf.bottom", loc),
                    )
                };
                let past = self.binary(Opcode::Gt, bool_ty, a, top, "ovf.past", loc);
                let below = self.binary(Opcode::Lt, bool_ty, a, bottom, "ovf.below", loc);
                last(self, Opcode::Or, [past.as_u32(), below.as_u32()], &[])
            }
            OvfOp::Add => {
                let max = self.int(ty, hi, "max");
                let room = self.binary(Opcode::Sub, ty, max, b, "ovf.room", loc);
                last(self, Opcode::Gt, [a.as_u32(), room.as_u32()], &[])
            }
            OvfOp::Sub => last(self, Opcode::Lt, [a.as_u32(), b.as_u32()], &[]),
            // A 64-bit product, against the quotients of the bounds by `b`
            // (truncating: for b > 0, `a` must lie in [MIN / b, MAX / b]; for
            // b < 0, in [MAX / b, MIN / b]); by 0 it does not overflow, by
            // -1 only `MIN` does.
            _ => {
                let (zero, one) = (self.int(ty, 0, "zero"), self.int(ty, 1, "one"));
                let by_zero = self.binary(Opcode::Eq, bool_ty, b, zero, "ovf.by.zero", loc);
                let max = self.int(ty, hi, "max");
                let no = self.constant(bool_ty, Literal::Bool(false), "no");
                let outcome = if signed {
                    let minus_one = self.int(ty, -1, "minus.one");
                    let by_minus_one = self.binary(Opcode::Eq, bool_ty, b, minus_one, "ovf.by.minus.one", loc);
                    let by_unit = self.binary(Opcode::Or, bool_ty, by_zero, by_minus_one, "ovf.by.unit", loc);
                    let divisor = self.select(ty, by_unit, one, b, "ovf.divisor", loc);
                    let min = self.int(ty, lo, "min");
                    let top = self.binary(Opcode::Quot, ty, max, divisor, "ovf.top", loc);
                    let bottom = self.binary(Opcode::Quot, ty, min, divisor, "ovf.bottom", loc);
                    let (above_top, below_top) = (
                        self.binary(Opcode::Gt, bool_ty, a, top, "ovf.above", loc),
                        self.binary(Opcode::Lt, bool_ty, a, top, "ovf.below", loc),
                    );
                    let (above_bottom, below_bottom) = (
                        self.binary(Opcode::Gt, bool_ty, a, bottom, "ovf.above", loc),
                        self.binary(Opcode::Lt, bool_ty, a, bottom, "ovf.below", loc),
                    );
                    let by_positive = self.binary(Opcode::Or, bool_ty, above_top, below_bottom, "ovf.by.positive", loc);
                    let by_negative = self.binary(Opcode::Or, bool_ty, below_top, above_bottom, "ovf.by.negative", loc);
                    let positive = self.binary(Opcode::Gt, bool_ty, b, zero, "ovf.positive", loc);
                    let outside = self.select(bool_ty, positive, by_positive, by_negative, "ovf.outside", loc);
                    let a_min = self.binary(Opcode::Eq, bool_ty, a, min, "ovf.min", loc);
                    self.select(bool_ty, by_minus_one, a_min, outside, "ovf.outside", loc)
                } else {
                    let divisor = self.select(ty, by_zero, one, b, "ovf.divisor", loc);
                    let top = self.binary(Opcode::Quot, ty, max, divisor, "ovf.top", loc);
                    self.binary(Opcode::Gt, bool_ty, a, top, "ovf.above", loc)
                };
                last(self, Opcode::Select, [by_zero.as_u32(), 0], &[no.as_u32(), outcome.as_u32()])
            }
        }
    }

    /// `postc.ovf.pow(base, exp)` on integers of dtype `d`: the loop of
    /// [`Writer::power`] with each product it uses tested by
    /// `postc.ovf.mul` first, leaving at the first that overflows (so no
    /// multiplication written here overflows); the result is a Bool local
    /// read after it. A negative exponent does not overflow (the check of
    /// the exponent's sign panics first).
    fn power_overflows(&mut self, v: ValueId, d: DType, base: ValueId, exp: ValueId, loc: Option<SrcLoc>) -> ValueId {
        let ty = TypeId::scalar(d);
        let bool_ty = TypeId::BOOL;
        let one = self.int(ty, 1, "one");
        let zero = self.int(ty, 0, "zero");
        let no = self.constant(bool_ty, Literal::Bool(false), "no");
        let overflowed = self.named_as(v, Opcode::Let, bool_ty, [no.as_u32(), 0], &[], loc);
        let r = self.value(Opcode::Let, ty, [one.as_u32(), 0], &[], "pow.result", loc);
        let b = self.value(Opcode::Let, ty, [base.as_u32(), 0], &[], "pow.base", loc);
        let e = self.value(Opcode::Let, ty, [exp.as_u32(), 0], &[], "pow.exp", loc);
        let [head, body, step, square, squared, over, exit] = [(); 7].map(|_| self.rw.new_block());
        let begin = |w: &mut Self, block, label: &str| {
            let label = w.rw.fresh_name(&mut w.labels, &[label.as_bytes()]);
            w.rw.begin_block_named(block, label);
        };
        let br = |w: &mut Self, to: postc_ir::BlockId| {
            w.rw.emit(Opcode::Br, None, [to.as_u32(), 0], &[], None, loc);
        };
        let condbr = |w: &mut Self, c: ValueId, t: postc_ir::BlockId, f: postc_ir::BlockId| {
            w.rw.emit(Opcode::CondBr, None, [c.as_u32(), 0], &[t.as_u32(), f.as_u32(), 0, 0], None, loc);
        };
        let mul_overflows = |w: &mut Self, x: ValueId, y: ValueId| w.overflows(None, OvfOp::Mul, d, x, Some(y), loc);
        br(self, head);
        begin(self, head, "powovf.head");
        let stop = if d.is_signed_int() { Opcode::Le } else { Opcode::Eq };
        let done = self.binary(stop, bool_ty, e, zero, "pow.done", loc);
        condbr(self, done, exit, body);
        begin(self, body, "powovf.body");
        let bit = self.binary(Opcode::BAnd, ty, e, one, "pow.bit", loc);
        let odd = self.binary(Opcode::Ne, bool_ty, bit, zero, "pow.odd", loc);
        let factor = self.select(ty, odd, b, one, "pow.factor", loc);
        let product_overflows = mul_overflows(self, r, factor);
        condbr(self, product_overflows, over, step);
        begin(self, step, "powovf.step");
        let times = self.binary(Opcode::Mul, ty, r, factor, "pow.times", loc);
        self.rw.emit(Opcode::Set, None, [r.as_u32(), times.as_u32()], &[], None, loc);
        let halved = self.binary(Opcode::Shr, ty, e, one, "pow.halved", loc);
        self.rw.emit(Opcode::Set, None, [e.as_u32(), halved.as_u32()], &[], None, loc);
        // The base is squared only while bits remain, as the interpreter
        // counts: a square no product uses cannot overflow the power.
        let more = self.binary(Opcode::Ne, bool_ty, halved, zero, "pow.more", loc);
        condbr(self, more, square, exit);
        begin(self, square, "powovf.square");
        let square_overflows = mul_overflows(self, b, b);
        condbr(self, square_overflows, over, squared);
        begin(self, squared, "powovf.squared");
        let sq = self.binary(Opcode::Mul, ty, b, b, "pow.squared", loc);
        self.rw.emit(Opcode::Set, None, [b.as_u32(), sq.as_u32()], &[], None, loc);
        br(self, head);
        begin(self, over, "powovf.over");
        let yes = self.constant(bool_ty, Literal::Bool(true), "yes");
        self.rw.emit(Opcode::Set, None, [overflowed.as_u32(), yes.as_u32()], &[], None, loc);
        br(self, exit);
        begin(self, exit, "powovf.done");
        overflowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_library_verifies_and_holds_every_helper() {
        for lib in LIBRARIES.iter() {
            let diags = postc_ir::verify::verify_module(lib);
            assert!(diags.is_empty(), "{diags:?}");
        }
        for h in Helper::ALL {
            let f = helper_function(h);
            assert!(f.body.num_insts() > 0, "{} is missing from the libraries", h.name());
            // Every call is of an intrinsic import or another helper.
            for v in f.body.tags.ids() {
                if let InstData::Call { callee, .. } = f.body.inst(v) {
                    let helper = Helper::ALL.iter().find(|c| c.name() == callee);
                    assert!(
                        library_import(callee).is_some() || helper.is_some_and(|c| h.calls().contains(c)),
                        "{} calls {callee}, which it does not declare",
                        h.name()
                    );
                }
            }
        }
        // The Bytes comparisons, made from the Str ones, verify on their own.
        let mut m = Module::new("bytes");
        for h in Helper::ALL.into_iter().filter(|h| h.of_bytes().is_some()) {
            m.add_function(helper_function(h));
        }
        let diags = postc_ir::verify::verify_module(&m);
        assert!(diags.is_empty(), "{diags:?}");
    }
}

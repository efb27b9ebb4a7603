//! Function bodies: lowering to the IR builder, with the locals' types
//! the typecheck gives.
//!
//! Which names are locals (and which of them are parameters, or quiet
//! because their declaration was refused) is the body's HIR's
//! (`crate::hir`), resolved once. The lowering walks the HIR's statements
//! (control flow, assignments, `return`, `assert`, `raise`) and lowers an expression by its [`hir::ExprId`]
//! (`FnLower::expr`): literals, names, operators, comparisons,
//! conditional expressions, attributes, tuples, subscripts (elements and
//! views of arrays, elements and slices of tuples), products (`@`,
//! `np.dot`) and calls are read from the HIR, and so are NumPy's array
//! creation, reductions and running sums (`arrays.rs`) and whole-array
//! fusion (`elementwise.rs`). Nothing reads ruff's syntax tree of the
//! body: only the function's signature and name come from its `def`.
//!
//! The locals' types come from the typecheck (`crate::typeck`): the body
//! is lowered once, reading them, and every local lives where they say (a
//! scalar in a `let` declared in the entry block, an array bound twice or
//! in a block too, a tuple as one local per element). A body is lowered
//! only when the typecheck accepted it, in a module with no error before
//! it ([`check_function`], then [`lower_function`]; see
//! `PyFrontend::define`), so the lowering reports nothing a user can
//! cause: the checks it still makes are internal errors
//! ([`FnLower::err`]). It does not infer types
//! either: a binding the typecheck's types do not hold (a local it left
//! untyped, a value wider than the local's type, a negative value in a
//! local it found never negative, an array bound again that it did not
//! find rebound) is not lowered, and is reported as an internal error.

use crate::declare::{python_scalar, FuncDecl, Global, GpuBuiltin, Namespace, MATH_CONSTANTS};
use crate::hir::{self, LocalKind};
use crate::pytypes::{arith, default_of, join, kind, promote, widens_to, Arith, Kind, Operand, Scalar};
use crate::source::SourceFile;
use crate::syntax::{deep, Lit};
use crate::typeck::{self, assignments};
use postc_ir::{
    BlockId, DType, Diagnostic, Field, FileId, Function, FunctionBuilder, Literal, Opcode, Program, TypeData, TypeId,
    TypeTable, ValueId,
};
use ruff_python_ast as ast;
use ruff_text_size::{Ranged, TextRange};
use std::collections::{BTreeSet, HashMap, HashSet};

pub(crate) mod arrays;
pub(crate) mod calls;
pub(crate) use calls::{
    argument_error, bind, callee_error, generic_argument_error, is_builtin, nth_argument, numpy_compiles, TargetError,
    EMPTY_DTYPE, EMPTY_FORM, EMPTY_LENGTH, KEYWORD_ARGUMENTS, STARRED_ARGUMENT, TYPE_OF_NO_PARAMETER,
};
pub(crate) mod diagonals;
pub(crate) mod elementwise;
pub(crate) mod expr;
pub(crate) mod gather;
pub(crate) mod grids;
pub(crate) mod histograms;
pub(crate) mod linalg;
pub(crate) mod lists;
pub(crate) mod maybe_none;
pub(crate) use maybe_none::optional_number_error;
pub(crate) mod nanreduce;
mod ndindex;
pub(crate) mod npfuncs;
pub(crate) mod numpy;
pub(crate) mod pairwise;
pub(crate) mod prange;
pub(crate) mod printing;
pub(crate) mod pymath;
pub(crate) mod range_local;
pub(crate) mod read_only;
pub(crate) mod sequences;
pub(crate) mod slicing;
pub(crate) mod sorting;
pub(crate) mod tuples;
mod unbound;

use calls::*;
use expr::*;
use numpy::*;
use pymath::*;

/// The signature of a callable function, wherever it is defined.
pub(crate) struct Callee {
    /// The name the IR call uses.
    pub name: String,
    pub params: Vec<TypeData>,
    /// The parameters' names, which keyword arguments are matched to.
    pub param_names: Vec<String>,
    /// Whether each parameter may be `None` (its type is its value's).
    pub maybe_none: Vec<bool>,
    /// The default values of the last `defaults.len()` parameters; `None`
    /// is a default of `None`.
    pub defaults: Vec<Option<(Lit, Scalar)>>,
    /// The defaults of array parameters, by their place in `defaults`.
    pub array_defaults: Vec<(usize, postc_ir::ArrayDefault)>,
    /// How many of the last parameters are keyword-only.
    pub keyword_only: usize,
    /// How many of the first parameters are positional-only.
    pub positional_only: usize,
    /// The result's type; for a result that may be `None`, its value's.
    pub ret: Option<TypeData>,
    pub ret_maybe_none: bool,
    /// The result is a Python number (an instance's whose `return`s all
    /// give one, see `generics`).
    pub ret_weak: bool,
    /// The tuples inside a tuple result (see `FuncDecl::result_groups`).
    pub result_groups: Vec<(usize, usize)>,
    /// The flags of a tuple result's elements that may be `None`.
    pub result_optional: Vec<usize>,
    /// The names of its dtype parameters (`dtype: type[Float64]`).
    pub dtype_params: Vec<String>,
    /// Why it has no result type (see `FuncDecl::no_result`).
    pub no_result: Option<crate::declare::NoResult>,
    /// The elements of the result that are lists (see
    /// `postc_ir::Function::list_results`).
    pub result_lists: Vec<usize>,
}

impl Callee {
    /// The callee a declaration of this module is, its types read in
    /// `types`.
    pub(crate) fn of_decl(d: &FuncDecl, types: &TypeTable) -> Callee {
        let ty = |t: TypeId| types.get(t).clone();
        Callee {
            name: d.name.clone(),
            params: d.params.iter().map(|(_, t)| ty(*t)).collect(),
            param_names: d.params.iter().map(|(n, _)| n.clone()).collect(),
            maybe_none: d.maybe_none.clone(),
            defaults: d.defaults.clone(),
            array_defaults: d.array_defaults.clone(),
            keyword_only: d.keyword_only,
            positional_only: d.positional_only,
            ret: d.ret.map(ty),
            ret_maybe_none: d.ret_maybe_none,
            ret_weak: d.ret_weak,
            result_groups: d.result_groups.clone(),
            result_optional: d.result_optional.clone(),
            dtype_params: d.dtype_params.iter().map(|p| p.name.clone()).collect(),
            result_lists: d.result_lists.clone(),
            no_result: d.no_result(),
        }
    }
}

/// What a body is lowered against.
pub(crate) struct ModuleCx<'a> {
    pub src: &'a SourceFile,
    pub file: FileId,
    pub globals: &'a HashMap<String, Global>,
    pub funcs: &'a [FuncDecl],
    /// The other modules of the program, for post imports.
    pub program: &'a Program,
    /// Local name → (module, source name) of every post import.
    pub post_imports: &'a indexmap::IndexMap<String, postc_ir::ImportedName>,
    /// Local name → libm symbol of every intrinsic import.
    pub intrinsics: &'a indexmap::IndexMap<String, String>,
    /// The parameters' default values of the program's POST Python
    /// modules, for calls of imported functions.
    pub imported_defaults: &'a DefaultsByModule,
    /// Whether the module can name `prange` (see [`module_may_prange`]).
    pub may_prange: bool,
    /// The module's generic functions and their instances.
    pub generics: &'a crate::generics::Generics,
    /// Where the final lowering of a module records, for each function
    /// it lowers without an error, the expressions it lowered that the
    /// typecheck left untyped (see [`crate::untyped_in_final_lowering`]);
    /// `None` in the rounds that find the functions' results, and where
    /// nobody asks.
    pub untyped_sink: Option<&'a std::cell::RefCell<Vec<String>>>,
}

/// Whether a module whose globals are `globals` can name `prange` (as
/// `prange`, `postc.prange` or an attribute of an imported module): only
/// its bodies need the uses of names a `prange` check reads. Decided once
/// per module, not once per body.
pub(crate) fn module_may_prange(globals: &HashMap<String, Global>) -> bool {
    globals
        .values()
        .any(|g| matches!(g, Global::Prange | Global::Namespace(Namespace::Postc) | Global::BoundaryModule(_)))
}

/// Module name → function name → the function's default values.
pub(crate) type DefaultsByModule = HashMap<String, HashMap<String, Vec<Option<(Lit, Scalar)>>>>;

/// A local's type, as the typecheck gives it.
#[derive(Clone, Debug, PartialEq)]
enum LocalTy {
    Scalar(Scalar),
    Array(TypeData),
    /// A tuple of this many elements, each a local of its own (see
    /// `tuples::element_local`).
    Tuple(usize),
}

#[derive(Clone, Debug, PartialEq)]
struct LocalInfo {
    ty: Option<LocalTy>,
    /// Fixed by an annotation or as a parameter: assignments must not narrow.
    fixed: bool,
    nonneg: bool,
    param: bool,
    /// A parameter whose annotation has errors, or a nested function's
    /// name: its uses stay quiet.
    poisoned: bool,
    /// An array local bound more than once or inside a block: it lives in
    /// a `let` declared in the entry block, which each binding `set`s.
    rebound: bool,
    /// A scalar that may be `None` (see `maybe_none.rs`).
    maybe_none: bool,
}

impl LocalInfo {
    /// A value the function is given, of type `ty`: a parameter, or a
    /// module-level array, read-only as an input array is.
    fn input(ty: LocalTy) -> Self {
        LocalInfo {
            ty: Some(ty),
            fixed: true,
            nonneg: false,
            param: true,
            poisoned: false,
            rebound: false,
            maybe_none: false,
        }
    }
}

/// A lowered expression.
#[derive(Clone, Debug)]
enum Val {
    /// A scalar in the IR.
    Num {
        v: ValueId,
        s: Scalar,
        nonneg: bool,
    },
    /// An array in the IR.
    Arr {
        v: ValueId,
        ty: TypeData,
    },
    /// A literal or constant not yet given a value.
    Lit {
        lit: Lit,
        s: Scalar,
    },
    /// A tuple: a fixed number of values, each lowered on its own (a tuple
    /// is never one value of the IR).
    Tuple(Vec<Val>),
    /// `None`, where a value that may be `None` may go.
    None,
    /// A scalar that may be `None`: whether it holds a number (Bool), and
    /// the number (zero when not).
    Maybe {
        present: ValueId,
        value: Box<Val>,
    },
    Void,
    /// An error was reported (or the value is an echo of one).
    Err,
}

/// The typecheck's types of `vals` (`Val::ty`) before the first that is
/// an error, for its checks of a call's arguments, and whether none is.
fn types_before_error<'v>(vals: impl Iterator<Item = &'v Val>) -> (Vec<Option<typeck::Ty>>, bool) {
    let mut tys = Vec::new();
    for v in vals {
        if matches!(v, Val::Err) {
            return (tys, false);
        }
        tys.push(v.ty());
    }
    (tys, true)
}

impl Val {
    /// Its type as the typecheck writes types; `None` for what has none
    /// there (`None`, a number that may be `None`, no value, an error).
    fn ty(&self) -> Option<typeck::Ty> {
        Some(match self {
            Val::Num { s, nonneg, .. } => typeck::Ty::Num { s: *s, nonneg: *nonneg },
            Val::Lit { lit, s } => typeck::Ty::Lit { lit: lit.clone(), s: *s },
            Val::Arr { ty, .. } => typeck::Ty::Arr(ty.clone()),
            Val::Tuple(elems) => typeck::Ty::Tuple(elems.iter().map(Val::ty).collect::<Option<_>>()?),
            Val::None | Val::Maybe { .. } | Val::Void | Val::Err => return None,
        })
    }

    fn scalar(&self) -> Option<Scalar> {
        match self {
            Val::Num { s, .. } | Val::Lit { s, .. } => Some(*s),
            _ => None,
        }
    }
    /// What the operator rules of `pytypes` see of a scalar.
    fn operand(&self) -> Option<Operand<'_>> {
        let (s, lit) = match self {
            Val::Num { s, .. } => (*s, None),
            Val::Lit { lit, s } => (*s, Some(lit)),
            _ => return None,
        };
        Some(Operand { s, nonneg: self.nonneg(), lit })
    }
    fn nonneg(&self) -> bool {
        match self {
            Val::Num { nonneg, s, .. } => *nonneg || s.dtype.is_unsigned_int(),
            Val::Lit { lit: Lit::Int(i), .. } => *i >= 0,
            Val::Lit { lit: Lit::Bool(_), .. } => true,
            _ => false,
        }
    }
}

/// A comparison: `ops[i]` compares `operands[i]` and `operands[i + 1]`.
struct CompareExpr<'h> {
    at: TextRange,
    ops: &'h [ast::CmpOp],
    operands: &'h [hir::ExprId],
}

/// The parts of a conditional expression, `body if test else orelse`.
struct IfExpr {
    at: TextRange,
    test: hir::ExprId,
    body: hir::ExprId,
    orelse: hir::ExprId,
}

/// The parts of a `for` statement.
struct ForLoop<'h> {
    id: hir::StmtId,
    at: TextRange,
    target: hir::ExprId,
    iter: hir::ExprId,
    body: &'h [hir::StmtId],
    orelse: &'h [hir::StmtId],
}

/// The bounds of a `range(...)`, as Int64 values (see
/// `FnLower::range_bounds`).
#[derive(Clone, Copy)]
struct RangeBounds {
    start: ValueId,
    stop: ValueId,
    step: ValueId,
    step_const: Option<i128>,
    /// Every value it gives is non-negative.
    nonneg: bool,
}

/// What a `for` loop over arrays reads at each step, by source: an
/// element of array `k`, or the counter of range `k`.
#[derive(Clone, Copy)]
enum Step {
    Array(usize),
    Range(usize),
}

/// The blocks of a `for` loop (see `FnLower::for_blocks`).
struct ForBlocks {
    head: BlockId,
    body: BlockId,
    latch: BlockId,
    exit: BlockId,
    done: BlockId,
}

/// What the presence analysis knows of a loop being lowered (see
/// [`FnLower::loop_end`]).
#[derive(Default)]
struct LoopPresence {
    /// What was known before it (less what its body may bind to what may
    /// be `None`): where its test fails, and its `else` starts.
    at_head: HashSet<String>,
    /// What is known at the end of its `else` (or where its test fails,
    /// without one), when that end is reached.
    normal: Option<HashSet<String>>,
    /// What was known at each of its `break`s.
    breaks: Vec<HashSet<String>>,
}

struct Loop {
    /// Where `continue` goes.
    next: BlockId,
    exit: BlockId,
    broken: bool,
    /// A `prange` loop that runs in parallel: no `break`.
    parallel: bool,
}

/// A call in the HIR: the callee, the positional arguments, then the
/// keywords.
#[derive(Clone, Copy)]
pub(super) struct CallExpr<'h> {
    /// The call itself.
    id: hir::ExprId,
    at: TextRange,
    func: hir::ExprId,
    args: &'h [hir::ExprId],
    keywords: &'h [hir::Keyword],
}

impl Ranged for CallExpr<'_> {
    fn range(&self) -> TextRange {
        self.at
    }
}

pub(crate) struct FnLower<'a, 'c> {
    cx: &'a ModuleCx<'c>,
    /// The body being lowered, its names resolved.
    hir: &'a hir::Body,
    types: &'a mut TypeTable,
    decl: &'a FuncDecl,
    b: FunctionBuilder,
    locals: HashMap<String, LocalInfo>,
    /// The IR value of each local: its `let`, parameter or bound array.
    slots: HashMap<String, ValueId>,
    diags: Vec<Diagnostic>,
    /// Bindings the typecheck's types do not hold (a local it left
    /// untyped, or typed narrower than the value bound): reported when
    /// the body has no other diagnostics (where it has, they are echoes
    /// of them), so that no body compiles with a wrong type.
    untyped: Vec<Diagnostic>,
    /// The expressions lowered without a type of the typecheck's (the
    /// literal `None` aside, which no type describes), recorded only when
    /// `cx.untyped_sink` asks for them.
    lowered_untyped: Vec<hir::ExprId>,
    /// Locals a binding of which was refused (its value reported): a read
    /// of one that finds it unbound echoes that error and reports nothing.
    refused_bindings: HashSet<String>,
    loops: Vec<Loop>,
    /// Whether the current block can still take instructions.
    open: bool,
    /// Depth of nested control flow (0: the function's top level).
    depth: u32,
    counter: u32,
    /// The `postc.math` symbols called as `math.f`.
    math_imports: BTreeSet<String>,
    /// Every occurrence of a name in the function (see
    /// [`prange::name_uses`]), for the checks of `prange` loops.
    name_uses: Vec<(String, ruff_text_size::TextSize, bool)>,
    /// How many `prange` loops that run in parallel enclose the code being
    /// lowered (one inside another runs serially).
    parallel_depth: u32,
    /// Inside a fused whole-array loop: what each leaf of the expression
    /// stands for (see `elementwise.rs`).
    element_of: HashMap<hir::ExprId, Val>,
    fusing: bool,
    /// The typecheck's type of each expression it types: whether an
    /// operand is an array, and so a whole-array expression, is read here.
    expr_types: la_arena::ArenaMap<hir::ExprId, typeck::Ty>,
    /// The typecheck's reads of locals that may be `None` where they may
    /// be (`typeck::presence`), which this one's `present` must agree with.
    absent_reads: la_arena::ArenaMap<hir::ExprId, ()>,
    /// The typecheck's reads of locals that may come before anything binds
    /// them (`typeck::unbound`), and the flag of each such local
    /// (`unbound.rs`).
    unbound_reads: la_arena::ArenaMap<hir::ExprId, ()>,
    bound_flags: HashMap<String, ValueId>,
    /// The reads of names that may see the memory of an input array or of
    /// a module-level array (see `read_only.rs`).
    read_only: read_only::ReadOnly,
    /// Locals bound to a NumPy dtype (`dtype = np.int_`), which `dtype=`
    /// arguments may name.
    dtype_locals: HashMap<String, DType>,
    /// Locals holding a `range`, by the variables of its bounds (see
    /// `range_local.rs`).
    range_locals: HashMap<String, RangeBounds>,
    /// The list locals, by the `let` of each one's buffer (declared on
    /// entry, see `lists.rs`; `None` for a list with no element type).
    lists: HashMap<String, Option<ValueId>>,
    /// The scalar parameters a binding widens, with their wider dtype: a
    /// variable of it, the argument converted on entry.
    widened_params: Vec<(String, DType)>,
    /// The tuple result of an unannotated function, as the typecheck
    /// found it from its `return`s (`typeck::results`): every `return`
    /// gives it (see [`FnLower::return_tuple`]).
    inferred_tuple: Option<TypeId>,
    /// The tuples inside that result (see `FuncDecl::result_groups`).
    inferred_groups: Vec<(usize, usize)>,
    /// The elements of an unannotated function's tuple result that some
    /// `return` gives as `None`, by place, with the type the others give
    /// them (see [`FnLower::optional_result_elements`]).
    optional_results: HashMap<usize, TypeData>,
    /// The flags of those elements in the IR's flat result.
    inferred_optional: Vec<usize>,
    /// The elements of that result that are lists (see `lists.rs`), by
    /// place in the IR's flat result.
    inferred_lists: Vec<usize>,
    /// The locals that may be `None` known to hold a number here (see
    /// `maybe_none.rs`).
    present: HashSet<String>,
    /// The loops being lowered, innermost last, for what is known after
    /// each.
    loop_presence: Vec<LoopPresence>,
    /// The presence flag of each local that may be `None`.
    flags: HashMap<String, ValueId>,
    /// The expression about to be lowered may be `None` (see
    /// [`FnLower::expr_maybe_none`]); taken by [`FnLower::expr`].
    accept_none: bool,
    /// Only the truth of the expression about to be lowered is read (see
    /// [`FnLower::condition_value`]); taken by [`FnLower::expr`].
    condition: bool,
}

/// A function's body the typecheck accepts, with what its lowering
/// reads: its HIR, its read-only memory and its types.
pub(crate) struct Checked {
    hir: hir::Body,
    read_only: read_only::ReadOnly,
    solved: typeck::LocalTypes,
}

impl Checked {
    /// Whether the body calls a function whose own errors leave its
    /// result unknown: the module has errors, and the body is not lowered.
    pub(crate) fn leans_on_errors(&self) -> bool {
        self.solved.calls_broken
    }
}

/// Typechecks one function's body: the body, ready to lower, or every
/// error the typecheck finds in it, in source order.
pub(crate) fn check_function(
    cx: &ModuleCx<'_>,
    types: &TypeTable,
    decl: &FuncDecl,
    def: &ast::StmtFunctionDef,
) -> Result<Checked, Vec<Diagnostic>> {
    with_dtype_params(cx, decl, |cx| {
        let hir = body_hir(cx, decl, def);
        let read_only = read_only::ReadOnly::of(cx, &hir, decl, types);
        let solved = solve_body(cx, types, decl, def, &hir, Some(&read_only));
        if solved.errors.is_empty() {
            return Ok(Checked { hir, read_only, solved });
        }
        // One error found by two checks (a list display the NumPy
        // function's check and the value's both refuse) is reported once.
        let mut seen = HashSet::new();
        let mut diags: Vec<Diagnostic> = (solved.errors.into_iter())
            .filter(|e| seen.insert((e.at, e.message.clone())))
            .map(|e| cx.src.error(&e.at, unversioned(e.message)))
            .collect();
        diags.sort_by_key(|d| d.pos.as_ref().map(|p| (p.line, p.col)));
        Err(diags)
    })
}

/// Lowers one function's body, which the typecheck accepted
/// ([`check_function`]), reading its types. Returns the function and the
/// `postc.math` functions it calls through the module
/// (`postc.math.f(...)`, called as `math.f`); diagnostics only for what
/// the typecheck should have refused (internal errors).
pub(crate) fn lower_function(
    cx: &ModuleCx<'_>,
    types: &mut TypeTable,
    decl: &FuncDecl,
    def: &ast::StmtFunctionDef,
    checked: Checked,
) -> Result<(Function, BTreeSet<String>), Vec<Diagnostic>> {
    with_dtype_params(cx, decl, |cx| lower_body(cx, types, decl, def, checked))
}

/// [`lower_function`] in `cx`, which holds the function's dtype
/// parameters.
fn lower_body(
    cx: &ModuleCx<'_>,
    types: &mut TypeTable,
    decl: &FuncDecl,
    def: &ast::StmtFunctionDef,
    checked: Checked,
) -> Result<(Function, BTreeSet<String>), Vec<Diagnostic>> {
    let Checked { hir, read_only, solved } = checked;
    // The locals are the body's, as its HIR resolved them.
    let mut locals: HashMap<String, LocalInfo> = HashMap::with_capacity(hir.locals.len());
    for local in hir.locals.values() {
        let info = match local.kind {
            LocalKind::Param => {
                let at = decl.params.iter().position(|(n, _)| **n == *local.name).expect("a declared parameter");
                let td = types.get(decl.params[at].1).clone();
                let ty = if td.is_tuple() {
                    // A tuple of numbers: a tuple local whose elements
                    // are parameters of their own.
                    for (i, e) in td.elements.iter().enumerate() {
                        let element = LocalInfo::input(LocalTy::Scalar(Scalar::strong(e.dtype)));
                        locals.insert(tuples::element_local(&local.name, i), element);
                    }
                    LocalTy::Tuple(td.elements.len())
                } else if td.is_array {
                    LocalTy::Array(td)
                } else {
                    LocalTy::Scalar(decl.param_scalar(at, &td))
                };
                LocalInfo::input(ty)
            }
            LocalKind::Poisoned => LocalInfo {
                ty: None,
                fixed: true,
                nonneg: false,
                param: true,
                poisoned: true,
                rebound: false,
                maybe_none: false,
            },
            // A module-level array: read-only, as an input array is.
            LocalKind::Constant => {
                let Some(Global::ConstArray(a)) = cx.globals.get(&*local.name) else {
                    unreachable!("a module-level array")
                };
                LocalInfo::input(LocalTy::Array(const_array_type(a)))
            }
            LocalKind::Assigned => LocalInfo {
                ty: None,
                fixed: false,
                nonneg: true,
                param: false,
                poisoned: false,
                rebound: false,
                maybe_none: false,
            },
        };
        locals.insert(local.name.to_string(), info);
    }
    // Which locals may be `None`, decided once from the HIR.
    {
        let probe = FnLower::new(cx, &hir, types, decl, HashMap::new());
        let params = decl.params.iter().zip(&decl.maybe_none).filter(|(_, m)| **m).map(|((n, _), _)| n.clone());
        let returns = |f| probe.returns_maybe_none(f);
        let declared: HashSet<&str> =
            decl.params.iter().zip(&decl.maybe_none).filter(|(_, m)| **m).map(|((n, _), _)| n.as_str()).collect();
        for name in maybe_none::maybe_none_locals(&hir, params, &returns) {
            if let Some(l) = locals.get_mut(&name) {
                // A parameter is `None` only as declared (binding one that
                // is not to `None` is an error, `assign_maybe_none`).
                l.maybe_none = !l.poisoned && (!l.param || declared.contains(name.as_str()));
            }
        }
    }
    // An array parameter assigned in the body lives in a `let` from the
    // start (`declare_rebound_arrays`), as a rebound array local does.
    // A name in a tuple target (`x, y = y, x`) is assigned too.
    for stmt in hir.stmts.values() {
        let targets: &[hir::ExprId] = match stmt {
            hir::Stmt::Assign { targets, .. } => targets,
            hir::Stmt::AnnAssign { target, value: Some(_), .. } | hir::Stmt::For { target, .. } => {
                std::slice::from_ref(target)
            }
            _ => continue,
        };
        for &t in targets {
            let names = match &hir.exprs[t] {
                hir::Expr::Tuple(elts) | hir::Expr::List(elts) => elts,
                _ => std::slice::from_ref(&t),
            };
            for &n in names {
                if let hir::Expr::Name(hir::Name::Local(id)) = hir.exprs[n] {
                    let l = locals.get_mut(&*hir.locals[id].name).expect("every local of the HIR");
                    l.rebound |= l.param && matches!(l.ty, Some(LocalTy::Array(_)));
                }
            }
        }
    }
    // The locals' types are the typecheck's: the body is lowered once,
    // reading them.
    for (id, t) in solved.scalars.iter() {
        let info = locals.get_mut(&*hir.locals[id].name).expect("every local of the HIR");
        info.ty = Some(LocalTy::Scalar(t.scalar));
        info.nonneg = t.nonneg;
        info.fixed = t.annotated;
    }
    // A scalar parameter widened by a binding in a branch or a loop
    // (see `typeck::LocalTypes::widened`): a variable of the wider type.
    let mut widened = Vec::new();
    for (id, s) in solved.widened.iter() {
        let name = &*hir.locals[id].name;
        let info = locals.get_mut(name).expect("every local of the HIR");
        info.ty = Some(LocalTy::Scalar(*s));
        info.fixed = false;
        info.nonneg = false;
        widened.push((name.to_owned(), s.dtype));
    }
    for (id, a) in solved.arrays.iter() {
        let info = locals.get_mut(&*hir.locals[id].name).expect("every local of the HIR");
        info.ty = Some(LocalTy::Array(a.ty.clone()));
        info.rebound = a.rebound;
    }
    for (id, elems) in solved.tuples.iter() {
        let name = &*hir.locals[id].name;
        locals.get_mut(name).expect("every local of the HIR").ty = Some(LocalTy::Tuple(elems.len()));
        insert_tuple_elements(&mut locals, name, elems);
    }
    let mut fl = FnLower::new(cx, &hir, types, decl, locals);
    fl.expr_types = solved.exprs;
    fl.absent_reads = solved.absent_reads;
    fl.unbound_reads = solved.unbound_reads;
    fl.widened_params = widened;
    fl.lists = solved.lists.iter().map(|id| (hir.locals[*id].name.to_string(), None)).collect();
    fl.read_only = read_only;
    // The tuple result of an unannotated function, as the typecheck found
    // it from the `return`s.
    if let Some(t) = solved.tuple_result.filter(|_| decl.ret.is_none() && decl.ret_unannotated) {
        fl.inferred_tuple = Some(fl.types.intern(TypeData::tuple(t.elements)));
        fl.inferred_groups = t.groups;
        fl.inferred_optional = t.optional;
        fl.inferred_lists = t.lists;
    }
    fl.body(def);
    // A binding the types do not hold is reported (an internal error)
    // rather than compiled wrong; after another internal error, it may be
    // that one's consequence, and is not.
    if fl.diags.is_empty() {
        fl.diags = std::mem::take(&mut fl.untyped);
    }
    if fl.diags.is_empty() {
        let mut f = fl.b.finish();
        if fl.inferred_tuple.is_some() {
            f.ret = fl.inferred_tuple;
            f.result_groups = std::mem::take(&mut fl.inferred_groups);
            f.maybe_none.result_elements = std::mem::take(&mut fl.inferred_optional);
            f.list_results = std::mem::take(&mut fl.inferred_lists);
        } else if decl.ret.is_some_and(|t| !fl.types.get(t).is_tuple()) {
            f.list_results = decl.result_lists.clone();
        }
        if let Some(sink) = cx.untyped_sink {
            for &e in &fl.lowered_untyped {
                let (line, col) = cx.src.line_col(hir.expr_ranges[e].start().to_u32());
                let construct = hir.construct_name(e);
                sink.borrow_mut().push(format!("{}:{line}:{col}: {construct} in `{}`", cx.src.path, decl.name));
            }
        }
        Ok((f, fl.math_imports))
    } else {
        let mut diags = fl.diags;
        diags.sort_by_key(|d| d.pos.as_ref().map(|p| (p.line, p.col)));
        Err(diags)
    }
}

/// The result of a function whose result has no annotation, as the
/// rounds that find the module's results set it on its declaration.
pub(crate) struct InferredResult {
    pub ret: TypeId,
    /// A Python number: every `return` gives one.
    pub weak: bool,
    /// The tuples inside a tuple result (see `FuncDecl::result_groups`).
    pub groups: Vec<(usize, usize)>,
    /// The flags of a tuple result's elements that may be `None`.
    pub optional: Vec<usize>,
    /// The elements of the result that are lists (see
    /// `FuncDecl::result_lists`).
    pub lists: Vec<usize>,
}

/// The result of a function whose result has no annotation, as an
/// instance of a generic function gets one (see `generics`), found by the
/// typecheck of its body (not lowered). A tuple is what the first
/// `return` of one gives ([`typeck::results`]). Otherwise what the
/// `return`s give, joined as a local assigned each would be (numbers to
/// their common dtype, a Python number to its default; arrays of one dtype
/// and number of axes), with whether it is a Python number (every
/// `return` gives one) and whether it is a list (every `return` gives a
/// list local, see `lists.rs`: a 1-D array in the IR). `None` when a
/// `return` gives `None` or a value whose type is not known yet, and for
/// a tuple while the body calls a function of the module whose result is
/// not known yet (`unknown`, by name; itself, when it is recursive).
pub(crate) fn inferred_result(
    cx: &ModuleCx<'_>,
    types: &mut TypeTable,
    decl: &FuncDecl,
    def: &ast::StmtFunctionDef,
    unknown: &dyn Fn(&str) -> bool,
) -> Option<InferredResult> {
    with_dtype_params(cx, decl, |cx| inferred_result_in(cx, types, decl, def, unknown))
}

/// [`inferred_result`] in `cx`, which holds the function's dtype
/// parameters.
fn inferred_result_in(
    cx: &ModuleCx<'_>,
    types: &mut TypeTable,
    decl: &FuncDecl,
    def: &ast::StmtFunctionDef,
    unknown: &dyn Fn(&str) -> bool,
) -> Option<InferredResult> {
    let hir = body_hir(cx, decl, def);
    let solved = solve_body(cx, types, decl, def, &hir, None);
    if let Some(t) = solved.tuple_result {
        // A call of a function whose result is not known is an error of
        // the body until that result is found.
        let calls_unknown = hir.exprs.values().any(|e| match e {
            hir::Expr::Call { func, .. } => {
                matches!(&hir.exprs[*func], hir::Expr::Name(hir::Name::Global(g)) if unknown(g))
            }
            _ => false,
        });
        if calls_unknown {
            return None;
        }
        let ret = types.intern(TypeData::tuple(t.elements));
        return Some(InferredResult { ret, weak: false, groups: t.groups, optional: t.optional, lists: t.lists });
    }
    let (mut scalar, mut array): (Option<Scalar>, Option<TypeData>) = (None, None);
    // A `return` that calls the function itself is typed by the others
    // (`return n * fact(n - 1)` by `return 1`), as Numba types recursion.
    let generic = decl.name.split('$').next().unwrap_or(&decl.name);
    let mut recursive = false;
    let (mut lists, mut values) = (0, 0);
    for stmt in hir.stmts.values() {
        let hir::Stmt::Return(Some(v)) = stmt else { continue };
        match hir.exprs[*v] {
            hir::Expr::Name(hir::Name::Local(id)) if solved.lists.contains(&id) => lists += 1,
            _ => values += 1,
        }
        let Some(ty) = solved.exprs.get(*v) else {
            if calls_global(&hir, *v, generic) || holds_call_of(&hir, *v, generic) {
                recursive = true;
                continue;
            }
            return None;
        };
        match ty {
            typeck::Ty::Num { s, .. } | typeck::Ty::Lit { s, .. } if array.is_none() => {
                scalar = Some(match scalar {
                    Some(prev) => crate::pytypes::join(prev, *s)?,
                    None => *s,
                });
            }
            typeck::Ty::Arr(t) if scalar.is_none() => match &array {
                Some(prev) if prev.dtype != t.dtype || prev.ndim() != t.ndim() => return None,
                Some(_) => {}
                None => array = Some(TypeData { is_output: false, ..t.clone() }),
            },
            _ => return None,
        }
    }
    // A list and an array are not one type.
    if lists > 0 && values > 0 {
        return None;
    }
    let weak = scalar.is_some_and(|s| s.weak) && !recursive;
    let result = match (scalar, array) {
        (Some(s), None) if !s.dtype.is_text() => {
            TypeData::scalar(if s.weak { crate::pytypes::default_of(crate::pytypes::kind(s.dtype)) } else { s.dtype })
        }
        // As `-> T[:, ...]` declares it.
        (None, Some(t)) => {
            TypeData::array(t.dtype, postc_ir::Shape::dims(&vec![None; t.ndim()?]), postc_ir::Layout::COrder)
        }
        _ => return None,
    };
    let lists = if lists > 0 { vec![0] } else { Vec::new() };
    Some(InferredResult { ret: types.intern(result), weak, groups: Vec::new(), optional: Vec::new(), lists })
}

/// The functions of the module the body of `def` (declared as `decl`)
/// calls, by the names its calls give (a generic function's for its
/// instances).
pub(crate) fn called_functions(cx: &ModuleCx<'_>, decl: &FuncDecl, def: &ast::StmtFunctionDef) -> HashSet<String> {
    with_dtype_params(cx, decl, |cx| {
        let hir = body_hir(cx, decl, def);
        (hir.exprs.values())
            .filter_map(|e| match e {
                hir::Expr::Call { func, .. } => match &hir.exprs[*func] {
                    hir::Expr::Name(hir::Name::Global(g)) => Some(g.to_string()),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    })
}

/// The typecheck of `hir`, the body of `def` declared as `decl`, in `cx`
/// (its expressions' types recorded; `read_only` what it knows of the
/// body's read-only memory, to report writes into it).
fn solve_body(
    cx: &ModuleCx<'_>,
    types: &TypeTable,
    decl: &FuncDecl,
    def: &ast::StmtFunctionDef,
    hir: &hir::Body,
    read_only: Option<&read_only::ReadOnly>,
) -> typeck::LocalTypes {
    let imported = |local: &str| calls::imported_callee(cx, local);
    let env = typeck::TypeEnv {
        globals: cx.globals,
        funcs: cx.funcs,
        generics: cx.generics,
        types,
        decl,
        imported: &imported,
        intrinsics: cx.intrinsics,
        expr_types: true,
        read_only,
        def_name: def.name.range,
    };
    typeck::local_types(hir, &env)
}

/// Types the body of `decl` (not lowered) for the instances of generic
/// functions its calls ask for (see `generics`): the typecheck records
/// them in `cx.generics`, and the generic functions its calls name.
pub(crate) fn request_instances(cx: &ModuleCx<'_>, types: &mut TypeTable, decl: &FuncDecl, def: &ast::StmtFunctionDef) {
    with_dtype_params(cx, decl, |cx| {
        let hir = body_hir(cx, decl, def);
        let read_only = read_only::ReadOnly::of(cx, &hir, decl, types);
        solve_body(cx, types, decl, def, &hir, Some(&read_only));
    })
}

/// `body` run in `cx` with each dtype parameter of `decl` (`dtype:
/// type[Float64]`) a module-level name of its dtype, as `DT = Float64`
/// is: `np.empty(n, dtype=dtype)` and `dtype(x)` read it so.
fn with_dtype_params<R>(cx: &ModuleCx<'_>, decl: &FuncDecl, body: impl FnOnce(&ModuleCx<'_>) -> R) -> R {
    if decl.dtype_params.is_empty() {
        return body(cx);
    }
    let mut globals = cx.globals.clone();
    for d in &decl.dtype_params {
        globals.insert(d.name.clone(), Global::Type(d.dtype));
    }
    body(&ModuleCx { globals: &globals, ..*cx })
}

/// Whether `e` calls the module-level function `name` somewhere in it.
fn calls_global(hir: &hir::Body, e: hir::ExprId, name: &str) -> bool {
    let mut pending = vec![e];
    while let Some(e) = pending.pop() {
        if let hir::Expr::Call { func, .. } = &hir.exprs[e] {
            if matches!(&hir.exprs[*func], hir::Expr::Name(hir::Name::Global(g)) if &**g == name) {
                return true;
            }
        }
        hir.push_children(e, &mut pending);
    }
    false
}

/// Whether `e` reads a local that a binding of calls the module-level
/// function `name`, directly or through other locals (`r = n * fact(n -
/// 1)`, `s = r`, then `return s`): a `return` of it recurses as `return n
/// * fact(n - 1)` does.
fn holds_call_of(hir: &hir::Body, e: hir::ExprId, name: &str) -> bool {
    let hir::Expr::Name(hir::Name::Local(first)) = hir.exprs[e] else { return false };
    let (mut seen, mut pending) = (HashSet::from([first]), vec![first]);
    while let Some(local) = pending.pop() {
        let binds = |t: &hir::ExprId| matches!(hir.exprs[*t], hir::Expr::Name(hir::Name::Local(l)) if l == local);
        for s in hir.stmts.values() {
            let value = match s {
                hir::Stmt::Assign { targets, value } if targets.iter().any(binds) => *value,
                hir::Stmt::AnnAssign { target, value: Some(value), .. }
                | hir::Stmt::AugAssign { target, value, .. }
                    if binds(target) =>
                {
                    *value
                }
                _ => continue,
            };
            if calls_global(hir, value, name) {
                return true;
            }
            if let hir::Expr::Name(hir::Name::Local(other)) = hir.exprs[value] {
                if seen.insert(other) {
                    pending.push(other);
                }
            }
        }
    }
    false
}

/// The type of a module-level array: C order, of its dtype, its extents
/// left unknown as those of `np.array` in a function are.
/// The HIR of the body of `def`, declared as `decl`.
fn body_hir(cx: &ModuleCx<'_>, decl: &FuncDecl, def: &ast::StmtFunctionDef) -> hir::Body {
    let is_global = |name: &str| cx.globals.contains_key(name);
    let params = decl.params.iter().map(|(name, _)| name.as_str());
    let is_array = |name: &str| matches!(cx.globals.get(name), Some(Global::ConstArray(_)));
    // A parameter that may be `None` keeps one local: its rebinding
    // (`x = 0.0 if x is None else x`) narrows it.
    let rebindable: Vec<&str> = (decl.params.iter().zip(&decl.maybe_none))
        .filter(|((name, _), maybe_none)| !**maybe_none && !decl.poisoned.contains(name))
        .map(|((name, _), _)| name.as_str())
        .collect();
    hir::BodyBuilder::build_with_arrays(def, params, &decl.poisoned, &is_global, &is_array, &rebindable)
}

/// `msg` with the version of each parameter it names shown as the
/// parameter's name (`n$1` as `n`, see `hir`): `$` is in no Python name,
/// so a `$` followed by digits is a version's.
fn unversioned(msg: String) -> String {
    if !msg.contains('$') {
        return msg;
    }
    let mut out = String::with_capacity(msg.len());
    let mut chars = msg.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '$' && chars.peek().is_some_and(char::is_ascii_digit) {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}

pub(crate) fn const_array_type(a: &crate::declare::ConstArray) -> TypeData {
    TypeData::array(a.dtype, postc_ir::Shape::dims(&vec![None; a.shape.len()]), postc_ir::Layout::COrder)
}

/// The element locals of the tuple local `name` (see
/// `tuples::element_local`), typed as the typecheck typed its elements,
/// as the lowering's `assign_tuple_local` makes them.
fn insert_tuple_elements(locals: &mut HashMap<String, LocalInfo>, name: &str, elems: &[typeck::TupleElement]) {
    for (i, e) in elems.iter().enumerate() {
        let element = tuples::element_local(name, i);
        let (ty, nonneg, rebound) = match e {
            typeck::TupleElement::Scalar(t) => (LocalTy::Scalar(t.scalar), t.nonneg, false),
            typeck::TupleElement::Array(a) => (LocalTy::Array(a.ty.clone()), true, a.rebound),
            typeck::TupleElement::Tuple(inner) => {
                insert_tuple_elements(locals, &element, inner);
                (LocalTy::Tuple(inner.len()), true, false)
            }
        };
        let info =
            LocalInfo { ty: Some(ty), fixed: false, nonneg, param: false, poisoned: false, rebound, maybe_none: false };
        locals.insert(element, info);
    }
}

/// CPython's built-in exceptions that compiled code can raise; the
/// `postc` package raises each as itself.
pub(crate) const RAISABLE: [&str; 10] = [
    "ArithmeticError",
    "AssertionError",
    "FloatingPointError",
    "IndexError",
    "NotImplementedError",
    "OverflowError",
    "RuntimeError",
    "TypeError",
    "ValueError",
    "ZeroDivisionError",
];

impl<'a, 'c> FnLower<'a, 'c> {
    fn new(
        cx: &'a ModuleCx<'c>,
        hir: &'a hir::Body,
        types: &'a mut TypeTable,
        decl: &'a FuncDecl,
        locals: HashMap<String, LocalInfo>,
    ) -> Self {
        FnLower {
            cx,
            hir,
            types,
            decl,
            b: FunctionBuilder::new(&decl.name),
            locals,
            slots: HashMap::new(),
            untyped: Vec::new(),
            lowered_untyped: Vec::new(),
            refused_bindings: HashSet::new(),
            diags: Vec::new(),
            loops: Vec::new(),
            open: true,
            depth: 0,
            counter: 0,
            math_imports: BTreeSet::new(),
            name_uses: Vec::new(),
            parallel_depth: 0,
            element_of: HashMap::new(),
            fusing: false,
            expr_types: la_arena::ArenaMap::default(),
            read_only: read_only::ReadOnly::default(),
            absent_reads: la_arena::ArenaMap::default(),
            unbound_reads: la_arena::ArenaMap::default(),
            bound_flags: HashMap::new(),
            dtype_locals: HashMap::new(),
            range_locals: HashMap::new(),
            lists: HashMap::new(),
            widened_params: Vec::new(),
            inferred_tuple: None,
            inferred_groups: Vec::new(),
            optional_results: HashMap::new(),
            inferred_optional: Vec::new(),
            inferred_lists: Vec::new(),
            present: HashSet::new(),
            loop_presence: Vec::new(),
            flags: HashMap::new(),
            accept_none: false,
            condition: false,
        }
    }

    // ---- diagnostics, names, locations ---------------------------------

    /// What the lowering cannot lower, found here: the typecheck refuses
    /// every such program (the lowering runs only on bodies it accepts,
    /// see [`lower_body`]), so one it let through is a bug of ours,
    /// reported as an internal error with why the lowering stopped.
    fn err(&mut self, at: &impl Ranged, msg: impl Into<String>) -> Val {
        let msg = format!("internal error: the typecheck let through what the lowering refuses: {}", msg.into());
        self.diags.push(self.cx.src.error(at, unversioned(msg)));
        Val::Err
    }

    /// An expression the typecheck refuses, found here: the typecheck
    /// let it through, a bug of ours (see `typeck`).
    fn unrefused(&mut self, at: &impl Ranged) -> Val {
        let msg = "internal error: this expression is refused by the typecheck, which let it through";
        self.diags.push(self.cx.src.error(at, msg));
        Val::Err
    }

    /// A statement the lowering does not lower, which the typecheck
    /// refuses: reaching one is a bug of ours.
    fn refused_statement(&mut self, at: &impl Ranged) {
        let msg = "internal error: this statement is refused by the typecheck, which let it through";
        self.diags.push(self.cx.src.error(at, msg));
    }

    /// A binding of `name` the typecheck's types do not hold (see
    /// [`FnLower::untyped`]): it is not lowered.
    fn untyped_binding(&mut self, name: &str, at: &impl Ranged) {
        let msg = format!("internal error: the type of `{}` was not inferred", tuples::shown_local(name));
        self.untyped.push(self.cx.src.error(at, msg));
    }

    /// Where the expression `e` is in the source.
    pub(super) fn range(&self, e: hir::ExprId) -> TextRange {
        self.hir.expr_ranges[e]
    }

    /// Whether `v` is the variable of an array local bound more than once
    /// (which later assignments change).
    pub(super) fn is_array_variable(&self, v: ValueId) -> bool {
        self.locals.iter().any(|(n, l)| l.rebound && self.slots.get(n) == Some(&v))
    }

    /// The call `e`.
    pub(super) fn call_of(&self, e: hir::ExprId) -> CallExpr<'a> {
        let hir::Expr::Call { func, args, keywords } = &self.hir.exprs[e] else { unreachable!("a call") };
        CallExpr { id: e, at: self.range(e), func: *func, args, keywords }
    }

    fn at(&mut self, node: &impl Ranged) {
        let loc = self.cx.src.loc(self.cx.file, node);
        self.b.set_loc(Some(loc));
    }

    fn fresh(&mut self, what: &str) -> String {
        self.counter += 1;
        format!("{what}.{}", self.counter)
    }

    fn block(&mut self, what: &str) -> BlockId {
        let l = self.fresh(what);
        self.b.create_block(&l)
    }

    /// Starts emitting into `b`.
    fn enter(&mut self, b: BlockId) {
        self.b.switch_to(b);
        self.open = true;
    }

    /// Continues after a terminator: what follows is unreachable code,
    /// lowered into a block of its own so that it is still checked.
    fn ensure_open(&mut self) {
        if !self.open {
            let dead = self.block("dead");
            self.enter(dead);
        }
    }

    fn br(&mut self, to: BlockId) {
        if self.open {
            self.b.br(to);
            self.open = false;
        }
    }

    // ---- the body ---------------------------------------------------------

    fn body(&mut self, def: &ast::StmtFunctionDef) {
        let decl = self.decl;
        for p in decl.declare_ir_params(&mut self.b, self.types) {
            if p.flag {
                self.flags.insert(decl.params[p.of].0.clone(), p.value);
            } else {
                // A scalar or array parameter, or an element of a tuple.
                self.slots.insert(p.name, p.value);
            }
        }
        for c in &decl.core_dims {
            self.b.core_param(c, TypeId::INT64);
        }
        let widened = std::mem::take(&mut self.widened_params);
        let ret = decl.ir_ret(self.types);
        self.b.set_return(ret);
        self.b.set_attrs(decl.attrs);
        self.b.set_ufunc_sig(decl.ufunc_sig.clone());
        self.b.set_doc(decl.doc.clone());
        self.b.set_defaults(decl.defaults.iter().map(|d| d.as_ref().map(|(lit, _)| python_value(lit))).collect());
        self.b.set_array_defaults(decl.array_defaults.clone());
        self.b.set_keyword_only(decl.keyword_only);
        self.b.set_positional_only(decl.positional_only);
        self.b.set_func_loc(Some(self.cx.src.loc(self.cx.file, &def.name)));
        // Only a module that can name `prange` needs them.
        if self.cx.may_prange {
            self.name_uses = prange::name_uses(self.hir);
        }
        let entry = self.b.create_block("entry");
        self.enter(entry);
        self.at(&def.name);
        // Named as a version of the parameter (`n$0`): shown as `n`.
        for (name, d) in widened {
            let arg = self.slots[&name];
            let nm = self.fresh(&format!("{name}.wide"));
            let wide = self.b.cast(TypeId::scalar(d), arg, &nm);
            let v = self.b.let_(TypeId::scalar(d), wide, &format!("{name}$0"));
            self.slots.insert(name, v);
        }
        // Scalar locals live in `let`s declared up front, so that every
        // use is dominated whatever path assigns them.
        let mut names: Vec<(String, Scalar)> = self
            .locals
            .iter()
            .filter(|(_, l)| !l.param)
            .filter_map(|(n, l)| match &l.ty {
                Some(LocalTy::Scalar(s)) => Some((n.clone(), *s)),
                _ => None,
            })
            .collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (n, s) in names {
            let zero = self.zero(s.dtype);
            let ty = TypeId::scalar(s.dtype);
            let v = self.b.let_(ty, zero, &n);
            self.slots.insert(n, v);
        }
        self.declare_presence_flags();
        self.declare_bound_flags();
        self.declare_rebound_arrays();
        self.declare_list_buffers();
        self.make_constant_arrays();
        let hir = self.hir;
        let stmts: &[hir::StmtId] = &hir.top;
        if decl.ret.is_none() && decl.ret_unannotated {
            self.optional_results = self.optional_result_elements();
        }
        let skip_doc = matches!(stmts.first().map(|&s| &hir.stmts[s]),
            Some(hir::Stmt::Expr(e)) if matches!(hir.exprs[*e], hir::Expr::Literal(Lit::Str(_))));
        self.stmts(&stmts[skip_doc as usize..]);
        if self.open && !self.diags.is_empty() {
            // Errors above may have cut control flow short.
            self.b.unreachable();
            self.open = false;
        }
        if self.open {
            match decl.ret {
                None if self.inferred_tuple.is_some() => {
                    self.err(
                        &def.name,
                        format!(
                            "function `{}` can reach its end without returning a value (it returns a tuple)",
                            decl.name
                        ),
                    );
                    self.b.unreachable();
                }
                None => {
                    self.b.ret(None);
                }
                Some(_) if decl.ret_maybe_none => self.fall_off_maybe_none(),
                // The typecheck reports a body that can reach its end
                // (`typeck::fall_off`), structurally as here.
                Some(_) => {
                    let msg = "internal error: this function can reach its end, which the typecheck let through";
                    self.diags.push(self.cx.src.error(&def.name, msg));
                    self.b.unreachable();
                }
            }
            self.open = false;
        }
    }

    /// Makes each module-level array the body reads (see
    /// [`LocalKind::Constant`]), once, at the function's entry: a new
    /// C-order array holding its numbers.
    fn make_constant_arrays(&mut self) {
        let hir = self.hir;
        let mut names: Vec<&str> =
            hir.locals.values().filter(|l| l.kind == LocalKind::Constant).map(|l| &*l.name).collect();
        names.sort_unstable();
        for name in names {
            let Some(Global::ConstArray(a)) = self.cx.globals.get(name) else { continue };
            let a = a.clone();
            if self.decl.attrs.is_device() {
                let at = self.constant_use(name);
                self.err(&at, typeck::gpu::module_array_in_gpu_error(name));
                self.refused_bindings.insert(name.to_owned());
                continue;
            }
            let vals: Vec<(Val, TextRange)> =
                a.elements.iter().map(|(lit, s, at)| (Val::Lit { lit: lit.clone(), s: *s }, *at)).collect();
            self.at(&a.at);
            if let Some((v, _)) = self.array_of_elements(a.dtype, &a.shape, vals, &a.at) {
                self.slots.insert(name.to_owned(), v);
            }
        }
    }

    /// Where the body first reads the module-level array `name`.
    fn constant_use(&self, name: &str) -> TextRange {
        let hir = self.hir;
        (hir.exprs.iter())
            .filter(|(_, e)| matches!(e, hir::Expr::Name(n) if self.name_text(n) == name))
            .map(|(id, _)| hir.expr_ranges[id])
            .min_by_key(|r| r.start())
            .unwrap_or_default()
    }

    pub(super) fn zero(&mut self, d: DType) -> ValueId {
        let n = self.fresh("zero");
        let lit = match kind(d) {
            Kind::Bool => Literal::Bool(false),
            Kind::Int => Literal::Int(0),
            Kind::Float => Literal::Float(0),
            Kind::Complex => Literal::Complex(0, 0),
            Kind::Text if d == DType::Str => Literal::Str(""),
            Kind::Text => Literal::Bytes(&[]),
        };
        let ty = TypeId::scalar(d);
        self.b.const_(ty, lit, &n)
    }

    fn stmts(&mut self, stmts: &[hir::StmtId]) {
        for &s in stmts {
            self.ensure_open();
            self.stmt(s);
        }
    }

    fn nested(&mut self, stmts: &[hir::StmtId]) {
        self.depth += 1;
        self.stmts(stmts);
        self.depth -= 1;
    }

    fn stmt(&mut self, s: hir::StmtId) {
        deep(|| self.stmt_inner(s));
        // What it bound is bound from here on (`unbound.rs`).
        match &self.hir.stmts[s] {
            hir::Stmt::Assign { targets, .. } => targets.iter().for_each(|&t| self.mark_bound(t)),
            hir::Stmt::AnnAssign { target, value: Some(_), .. } | hir::Stmt::AugAssign { target, .. } => {
                self.mark_bound(*target)
            }
            _ => {}
        }
    }

    fn stmt_inner(&mut self, id: hir::StmtId) {
        let hir = self.hir;
        let at = hir.stmt_ranges[id];
        self.at(&at);
        match &hir.stmts[id] {
            // A call stands alone; a string is a comment; anything else
            // is refused by the typecheck.
            hir::Stmt::Expr(e) => {
                if let hir::Expr::Call { .. } = &hir.exprs[*e] {
                    self.call(&self.call_of(*e));
                }
            }
            hir::Stmt::Assign { targets, value } => self.assign_stmt(at, targets, *value),
            hir::Stmt::AnnAssign { target, annotation, value } => self.ann_assign(*target, *annotation, *value),
            hir::Stmt::AugAssign { target, op, value } => self.aug_assign(id, *target, *op, *value),
            hir::Stmt::If { arms } => self.if_(arms),
            hir::Stmt::While { test, body, orelse } => self.while_(*test, body, orelse),
            hir::Stmt::For { .. } => self.for_(id),
            hir::Stmt::Break => match self.loops.last_mut() {
                // Refused by the typecheck: out of a parallel `prange` loop
                // (`typeck::loops::prange_breaks`), or outside loops.
                Some(l) if l.parallel => self.refused_statement(&at),
                Some(l) => {
                    l.broken = true;
                    let exit = l.exit;
                    if self.open {
                        if let Some(p) = self.loop_presence.last_mut() {
                            p.breaks.push(self.present.clone());
                        }
                    }
                    self.br(exit);
                }
                // Refused by the typecheck.
                None => self.refused_statement(&at),
            },
            hir::Stmt::Continue => match self.loops.last() {
                Some(l) => {
                    let next = l.next;
                    self.br(next);
                }
                None => self.refused_statement(&at),
            },
            hir::Stmt::Pass => {}
            hir::Stmt::Return(value) => self.return_(at, *value),
            // What the typecheck refuses is not lowered (but what it
            // holds that the lowering checks).
            hir::Stmt::Assert { test, msg } => self.assert_(at, *test, *msg),
            hir::Stmt::Raise { exc, cause } => self.raise_(at, *exc, *cause),
            // Refused by the typecheck whatever their types.
            hir::Stmt::NestedFunction { .. } | hir::Stmt::Global | hir::Stmt::Import | hir::Stmt::Refused { .. } => {
                self.refused_statement(&at)
            }
        }
    }

    /// A body nothing runs (of a loop over an empty tuple), lowered in a
    /// block that nothing enters.
    fn rejected_block(&mut self, body: &[hir::StmtId]) {
        let dead = self.block("refused");
        let after = self.block("after");
        self.br(after);
        self.enter(dead);
        self.nested(body);
        self.br(after);
        self.enter(after);
    }

    // ---- assignment ---------------------------------------------------------

    /// `x: T = value`: what the typecheck refuses (see its
    /// `annotated_assignment_error`) has its value checked only.
    fn ann_assign(&mut self, target: hir::ExprId, annotation: hir::ExprId, value: Option<hir::ExprId>) {
        let hir = self.hir;
        let at = self.range(target);
        let check_value = |fl: &mut Self| {
            if let Some(v) = value {
                fl.expr(v);
            }
        };
        let hir::Expr::Name(n) = &hir.exprs[target] else {
            return self.refused_statement(&at);
        };
        let name = self.name_text(n).to_owned();
        // `x: T | None = ...`: a local that may be `None` (it is one when
        // some binding gives it `None`, see `maybe_none.rs`).
        let inner = self.hir.maybe_none_inner(annotation);
        let Some(ty) = self.local_annotation(inner.unwrap_or(annotation)) else {
            self.refused_statement(&at);
            return check_value(self);
        };
        if let Some(info) = self.locals.get_mut(&name) {
            let want = LocalTy::Scalar(Scalar::strong(ty));
            if info.param || info.ty.as_ref().is_some_and(|t| *t != want) && info.fixed {
                self.refused_statement(&at);
                return check_value(self);
            }
            if !info.fixed || info.ty.is_none() {
                self.untyped_binding(&name, &at);
                return check_value(self);
            }
        }
        if let Some(v) = value {
            let val = if inner.is_some() { self.expr_maybe_none(v) } else { self.expr(v) };
            self.assign(target, val, v);
        }
    }

    /// The text of a name as the source spells it.
    pub(super) fn name_text<'n>(&self, n: &'n hir::Name) -> &'n str
    where
        'a: 'n,
    {
        match n {
            hir::Name::Local(id) => &self.hir.locals[*id].name,
            hir::Name::Global(name) | hir::Name::Free(name) => name,
        }
    }

    /// The scalar type an annotation names (the typecheck refuses any
    /// other).
    fn local_annotation(&self, e: hir::ExprId) -> Option<DType> {
        let name = self.hir.dotted(e)?;
        let last = name.rsplit('.').next().unwrap_or(&name);
        match self.cx.globals.get(&name) {
            Some(Global::Type(t)) => Some(*t),
            Some(_) => None,
            None if name.starts_with("postyp.") => DType::from_name(last),
            None => python_scalar(&name),
        }
    }

    /// `a = b = value`: a tuple target unpacks the value; a name bound to
    /// a NumPy dtype is remembered, not lowered.
    fn assign_stmt(&mut self, at: TextRange, targets: &[hir::ExprId], value: hir::ExprId) {
        let hir = self.hir;
        if targets.iter().any(|&t| matches!(hir.exprs[t], hir::Expr::Tuple(_) | hir::Expr::List(_))) {
            self.unpack(at, targets, value);
            return;
        }
        if let [t] = targets {
            if self.bind_dtype(*t, value) || self.bind_range(*t, value) || self.bind_list(*t, value) {
                return;
            }
        }
        // A name may be bound to `None` (an error but for a local or
        // parameter that may be `None`, see `assign_maybe_none`).
        let v = if targets.iter().all(|&t| matches!(hir.exprs[t], hir::Expr::Name(_))) {
            self.expr_maybe_none(value)
        } else {
            self.expr(value)
        };
        for &t in targets {
            self.assign(t, v.clone(), value);
        }
    }

    fn assign(&mut self, target: hir::ExprId, v: Val, value_at: hir::ExprId) {
        let hir = self.hir;
        let (at, value_range) = (self.range(target), self.range(value_at));
        match &hir.exprs[target] {
            hir::Expr::Name(n) => self.assign_local(self.name_text(n), v, at, value_range),
            &hir::Expr::Subscript { base, index } => {
                let nd = match self.expr_types.get(base) {
                    Some(typeck::Ty::Arr(t)) => t.ndim(),
                    _ => None,
                };
                if let Some(p) = self.mixed_array_index(index, nd) {
                    self.assign_through_mixed_index(base, index, p, v, at);
                } else if self.is_array_index(index) {
                    self.assign_through_array_index(base, index, v, at);
                } else if self.is_view_expr(target) {
                    self.assign_to_view(target, v);
                } else if let Some((arr, idx)) = self.element(target, true) {
                    self.store(&arr, &idx, v, at);
                }
            }
            hir::Expr::Tuple(_) | hir::Expr::List(_) => {
                self.err(&at, typeck::loops::TUPLE_UNPACKING);
            }
            hir::Expr::Starred(_) => {
                self.err(&at, assignments::STARRED_TARGET);
            }
            _ => {
                self.err(&at, assignments::cannot_assign_error(hir.construct_name(target)));
            }
        }
    }

    /// `a[idx] = v`, `a[mask] = v`: the array, then the index, then the
    /// elements written (`v` was lowered before the target, as CPython
    /// evaluates it).
    fn assign_through_array_index(&mut self, base: hir::ExprId, index: hir::ExprId, v: Val, at: TextRange) {
        let base_at = self.range(base);
        let arr = match self.expr(base) {
            Val::Arr { v, ty } => (v, ty),
            Val::Err => return,
            _ => {
                self.err(&base_at, assignments::ONLY_ARRAYS_INDEXED_BY_ARRAYS);
                return;
            }
        };
        if !arr.1.is_output && self.is_param_array(base) {
            self.read_only_write(base, true);
            return;
        }
        let Some(idx) = self.index_array(index) else { return };
        self.scatter(&arr, &idx, v, 0, at);
    }

    /// `a[i, idx] = v`, `a[mask, j] = v`: through the 1-D view the other
    /// entries pick (see `gather.rs`).
    fn assign_through_mixed_index(&mut self, base: hir::ExprId, index: hir::ExprId, p: usize, v: Val, at: TextRange) {
        let arr = match self.expr(base) {
            Val::Arr { v, ty } => (v, ty),
            _ => return,
        };
        if !arr.1.is_output && self.reads_input_memory(base) {
            self.read_only_write(base, true);
            return;
        }
        let Some((view, idx)) = self.mixed_view(&arr, index, p, at) else { return };
        self.scatter(&view, &idx, v, p, at);
    }

    /// `a, b = b, a`, `x, y = 1, 2`, `a[i], a[j] = a[j], a[i]`,
    /// `n, m = a.shape`, `x, y = t` of a tuple and `a, b = arr` of a 1-D
    /// array: every value is evaluated first, left to right, then the
    /// targets are assigned left to right, as CPython does.
    fn unpack(&mut self, at: TextRange, targets: &[hir::ExprId], value: hir::ExprId) {
        let hir = self.hir;
        let [target] = targets else {
            self.unrefused(&at);
            return;
        };
        let targets: &[hir::ExprId] = match &hir.exprs[*target] {
            hir::Expr::Tuple(elts) | hir::Expr::List(elts) => elts,
            _ => unreachable!("a tuple target"),
        };
        if targets
            .iter()
            .any(|&t| matches!(hir.exprs[t], hir::Expr::Tuple(_) | hir::Expr::List(_) | hir::Expr::Starred(_)))
        {
            self.unrefused(&at);
            return;
        }
        let value_range = self.range(value);
        let mut vals: Vec<(Val, hir::ExprId)> = Vec::new();
        match &hir.exprs[value] {
            hir::Expr::Tuple(elts) | hir::Expr::List(elts) => {
                if elts.len() != targets.len() || elts.iter().any(|&e| matches!(hir.exprs[e], hir::Expr::Starred(_))) {
                    self.unrefused(&at);
                    return;
                }
                for &e in elts.iter() {
                    let v = self.expr(e);
                    // Read now: the assignments after this one must not
                    // see it change (`a, b = b, a`).
                    let v = self.snapshot(v, &self.range(e));
                    vals.push((v, e));
                }
            }
            hir::Expr::Call { .. } => {
                let v = self.expr(value);
                if let Val::Void = v {
                    let msg = "this call returns nothing: a function that returns a tuple and whose result is \
                               needed before it is known (a recursive call) declares it (`-> tuple[Float64, \
                               Int64[:]]`)";
                    self.err(&value_range, msg);
                    return;
                }
                let Some(unpacked) = self.unpacked(v, targets.len(), at, value_range) else { return };
                vals.extend(unpacked.into_iter().map(|v| (v, value)));
            }
            other => {
                let v = self.expr(value);
                if let (hir::Expr::Attribute { attr, .. }, Val::Tuple(extents)) = (other, &v) {
                    if &**attr == "shape" && extents.len() != targets.len() {
                        self.err(&at, assignments::shape_count_error(targets.len(), extents.len()));
                        return;
                    }
                }
                let Some(unpacked) = self.unpacked(v, targets.len(), at, value_range) else { return };
                vals.extend(unpacked.into_iter().map(|v| (v, value)));
            }
        }
        for (&t, (v, from)) in targets.iter().zip(vals) {
            self.at(&self.range(t));
            self.assign(t, v, from);
        }
    }

    fn assign_local(&mut self, name: &str, v: Val, at: TextRange, value_at: TextRange) {
        let Some(info) = self.locals.get(name).cloned() else {
            self.err(&at, format!("cannot assign to `{name}`"));
            return;
        };
        if info.poisoned {
            return;
        }
        if matches!(v, Val::Err) {
            self.refused_bindings.insert(name.to_owned());
            return;
        }
        if matches!(v, Val::None | Val::Maybe { .. }) {
            self.assign_maybe_none(name, v, at, value_at);
            return;
        }
        if info.maybe_none && v.scalar().is_some() {
            self.mark_given(name);
        }
        match (&v, &info.ty) {
            (Val::Void, _) => {
                self.err(&value_at, "this call returns nothing");
            }
            (Val::Tuple(elts), _) => self.assign_tuple_local(name, elts.clone(), at, value_at),
            (Val::Arr { v: av, ty }, cur) => {
                if info.param && !matches!(cur, Some(LocalTy::Array(t)) if t == ty) {
                    let was = match cur {
                        Some(LocalTy::Array(t)) => Some(t),
                        _ => None,
                    };
                    self.err(&at, assignments::rebound_parameter_error(name, was, ty));
                    return;
                }
                if !info.rebound && (self.depth > 0 || self.slots.contains_key(name)) {
                    // Bound again, or in a block: it would have been
                    // declared a variable up front.
                    self.untyped_binding(name, &at);
                }
                match cur {
                    None => {
                        self.untyped_binding(name, &at);
                        return;
                    }
                    Some(LocalTy::Array(t)) if t == ty => {}
                    Some(_) => {
                        self.err(&at, assignments::different_types_error(&tuples::shown_local(name)));
                        return;
                    }
                }
                match self.slots.get(name) {
                    Some(&slot) if info.rebound => {
                        self.b.set(slot, *av);
                    }
                    _ => {
                        // A rebound array local is a variable: a name bound
                        // to it would follow its later assignments, where
                        // Python binds the name to the array it holds now.
                        let variable = self.is_array_variable(*av) && self.slots.get(name) != Some(av);
                        let held = if variable {
                            let tid = self.types.intern(ty.clone());
                            let fresh = self.fresh(name);
                            self.b.let_(tid, *av, &fresh)
                        } else {
                            *av
                        };
                        self.slots.insert(name.to_owned(), held);
                    }
                }
            }
            (_, cur) => {
                let s = v.scalar().expect("a scalar value");
                let nonneg = v.nonneg();
                match cur {
                    Some(LocalTy::Array(_)) => {
                        self.err(&at, assignments::scalar_into_error(&tuples::shown_local(name), "an array"));
                        return;
                    }
                    Some(LocalTy::Tuple(_)) => {
                        self.err(&at, assignments::scalar_into_error(&tuples::shown_local(name), "a tuple"));
                        return;
                    }
                    Some(LocalTy::Scalar(t)) if info.fixed => {
                        if !widens_to(s, t.dtype) {
                            self.err(&value_at, assignments::narrowing_error(info.param, name, s.dtype, t.dtype));
                            return;
                        }
                    }
                    Some(LocalTy::Scalar(t)) => {
                        let joined = join(*t, s);
                        match joined {
                            // A value wider than the local's type.
                            Some(j) if j != *t => {
                                self.untyped_binding(name, &at);
                                return;
                            }
                            Some(_) => {}
                            None => {
                                let shown = tuples::shown_local(name);
                                self.err(&value_at, assignments::join_error(&shown, s.dtype, t.dtype));
                                return;
                            }
                        }
                    }
                    None => {
                        self.untyped_binding(name, &at);
                        return;
                    }
                }
                if !nonneg && self.locals[name].nonneg {
                    // A value that may be negative in a local typed as one
                    // that never is.
                    self.untyped_binding(name, &at);
                }
                let Some(LocalTy::Scalar(t)) = self.locals[name].ty else { return };
                let Some(x) = self.materialize(&v, t.dtype, &value_at) else { return };
                let Some(&slot) = self.slots.get(name) else {
                    self.err(&at, format!("internal error: the type of `{name}` was not inferred"));
                    return;
                };
                self.at(&at);
                self.b.set(slot, x);
            }
        }
    }

    fn aug_assign(&mut self, id: hir::StmtId, target: hir::ExprId, op: ast::Operator, value: hir::ExprId) {
        let hir = self.hir;
        let at = hir.stmt_ranges[id];
        let update = elementwise::InPlace { at, op, target, value };
        match &hir.exprs[target] {
            hir::Expr::Name(name) => {
                let mut cur = self.name(self.name_text(name), self.range(target));
                if matches!(cur, Val::Maybe { .. }) {
                    cur = self.none_where_number_needed(target, &cur);
                }
                if matches!(cur, Val::Arr { .. }) {
                    self.elementwise_in_place(&update, cur);
                    return;
                }
                let rhs = self.expr(value);
                self.at(&at);
                let r = self.binop(op, cur, rhs, at);
                self.assign_local(self.name_text(name), r, self.range(target), self.range(value));
            }
            &hir::Expr::Subscript { index, .. } if self.is_array_index(index) => {
                self.err(&at, assignments::AUGMENTED_ARRAY_INDEX);
                self.expr(value);
            }
            hir::Expr::Subscript { .. } if self.is_view_expr(target) => self.view_in_place(&update),
            hir::Expr::Subscript { .. } => {
                let Some((arr, idx)) = self.element(target, true) else { return };
                self.update_element(&arr, &idx, &update);
            }
            _ => {
                self.refused_statement(&self.range(target));
                self.expr(value);
            }
        }
    }

    // ---- control flow -----------------------------------------------------

    /// `if`/`elif`/`else`. An `elif` is lowered as an `if` nested in the
    /// `else` arm of the one before, each with its own join block; the
    /// chain is walked in a loop (it may have as many arms as the file has
    /// lines), and the joins are closed innermost first.
    fn if_(&mut self, arms: &[hir::IfArm]) {
        // The join of each arm with an `elif` or `else` after it, and
        // whether its `then` arm fell through to it.
        let mut joins: Vec<(BlockId, bool)> = Vec::new();
        let mut elifs = 0;
        // What is known of the values that may be `None` at the end of
        // each arm that falls through.
        let mut arm_ends: Vec<HashSet<String>> = Vec::new();
        let known_before = self.present.clone();
        let mut rest = arms;
        // The first arm has a test; an `else` is the last arm, with none.
        while let Some((arm, after)) = rest.split_first() {
            rest = after;
            let Some(test) = arm.test else {
                self.nested(&arm.body);
                if self.open {
                    arm_ends.push(self.present.clone());
                }
                break;
            };
            if !joins.is_empty() {
                // An `elif`: nested in the `else` arm of the one before.
                self.at(&self.range(test));
                self.depth += 1;
                elifs += 1;
            }
            let facts = self.facts(test);
            let c = self.cond(test);
            let before = self.present.clone();
            self.present.extend(facts.when_true);
            let then_b = self.block("then");
            let else_b = self.block(if rest.is_empty() { "endif" } else { "else" });
            if let Some(c) = c {
                self.b.condbr(c, then_b, else_b, None);
            } else {
                self.b.br(then_b);
            }
            self.open = false;
            self.enter(then_b);
            self.nested(&arm.body);
            if self.open {
                arm_ends.push(self.present.clone());
            }
            self.present = before;
            self.present.extend(facts.when_false);
            if rest.is_empty() {
                arm_ends.push(self.present.clone());
                self.br(else_b);
                self.enter(else_b);
                break;
            }
            let then_open = self.open;
            let join = self.block("endif");
            self.br(join);
            self.enter(else_b);
            joins.push((join, then_open));
        }
        self.present = match arm_ends.split_first() {
            Some((first, rest)) => first.iter().filter(|n| rest.iter().all(|r| r.contains(*n))).cloned().collect(),
            None => known_before,
        };
        // Each `elif` was lowered one level deeper.
        self.depth -= elifs;
        while let Some((join, then_open)) = joins.pop() {
            let else_open = self.open;
            self.br(join);
            self.enter(join);
            if !then_open && !else_open {
                // Both arms left: nothing reaches the join.
                self.b.unreachable();
                self.open = false;
            }
        }
    }

    fn while_(&mut self, test: hir::ExprId, body_stmts: &[hir::StmtId], orelse: &[hir::StmtId]) {
        let head = self.block("while");
        let body = self.block("do");
        let exit = self.block("endwhile");
        // `while True`, `while 1`: a constant that is true.
        let forever = self.hir.always_true(test);
        let done = if orelse.is_empty() || forever { exit } else { self.block("whileelse") };
        for name in self.unnarrowed_in(body_stmts) {
            self.present.remove(&name);
        }
        let at_head = self.present.clone();
        self.loop_presence.push(LoopPresence { at_head: at_head.clone(), ..LoopPresence::default() });
        self.br(head);
        self.enter(head);
        self.at(&self.range(test));
        let facts = self.facts(test);
        if forever {
            self.b.br(body);
        } else {
            match self.cond(test) {
                Some(c) => self.b.condbr(c, body, done, None),
                None => self.b.br(done),
            };
        }
        self.open = false;
        self.loops.push(Loop { next: head, exit, broken: false, parallel: false });
        self.enter(body);
        self.present.extend(facts.when_true);
        self.nested(body_stmts);
        self.present = at_head;
        self.br(head);
        let l = self.loops.pop().expect("loop");
        if forever {
            // `while True`: the condition never fails, so no `else` runs.
            self.enter(exit);
            if !l.broken {
                self.b.unreachable();
                self.open = false;
            }
        } else {
            self.loop_else(orelse, done, exit);
        }
        self.loop_end();
    }

    fn for_(&mut self, id: hir::StmtId) {
        let hir::Stmt::For { body, .. } = &self.hir.stmts[id] else { unreachable!("a `for` loop") };
        for name in self.unnarrowed_in(body) {
            self.present.remove(&name);
        }
        let at_head = self.present.clone();
        self.loop_presence.push(LoopPresence { at_head, ..LoopPresence::default() });
        self.for_inner(id);
        self.loop_end();
    }

    /// What is known after the loop whose lowering ends here: what both
    /// the end of its `else` (or the failing test) and each of its
    /// `break`s know, as `typeck::presence`'s `loop_end`.
    fn loop_end(&mut self) {
        let Some(p) = self.loop_presence.pop() else { return };
        let mut ends = p.normal.into_iter().chain(p.breaks);
        self.present = match ends.next() {
            Some(first) => ends.fold(first, |acc, k| acc.intersection(&k).cloned().collect()),
            // Not reached: nothing after it runs.
            None => p.at_head,
        };
    }

    /// Starts the `else` of the loop being lowered (or the path where its
    /// test fails) from what was known before it.
    pub(super) fn loop_else_starts(&mut self) {
        if let Some(p) = self.loop_presence.last() {
            self.present = p.at_head.clone();
        }
    }

    /// Records what is known where the `else` of the loop being lowered
    /// ends, if it is `reached`.
    pub(super) fn loop_else_ends(&mut self, reached: bool) {
        let present = self.present.clone();
        if let Some(p) = self.loop_presence.last_mut() {
            p.normal = reached.then_some(present);
        }
    }

    fn for_inner(&mut self, id: hir::StmtId) {
        let hir = self.hir;
        let hir::Stmt::For { is_async, target, iter, body, orelse } = &hir.stmts[id] else {
            unreachable!("a `for` loop")
        };
        let l = ForLoop { id, at: hir.stmt_ranges[id], target: *target, iter: *iter, body, orelse };
        // A loop not lowered is refused by the typecheck (an internal
        // error here): its body is not lowered.
        if *is_async {
            self.refused_statement(&l.at);
            false
        } else if matches!(hir.exprs[l.iter], hir::Expr::Subscript { .. }) && self.is_tuple_expr(l.iter) {
            // `for x in t[1:]`: a slice of a tuple, not of an array.
            self.for_over_tuple(&l)
        } else if self.iterates_arrays(l.iter) {
            self.for_over_arrays(&l)
        } else if self.iterates_ndindex(l.iter) {
            self.for_over_ndindex(&l)
        } else if matches!(hir.exprs[l.iter], hir::Expr::List(_)) || self.is_tuple_expr(l.iter) {
            self.for_over_tuple(&l)
        } else {
            self.for_over_range(&l)
        };
    }

    fn for_over_range(&mut self, f: &ForLoop) -> bool {
        let hir = self.hir;
        let hir::Expr::Name(var) = &hir.exprs[f.target] else {
            let over_range = self.held_range(f.iter).is_some()
                || matches!(&hir.exprs[f.iter], hir::Expr::Call { func, .. }
                    if matches!(self.target_of(*func), Some(Target::Builtin(Builtin::Range | Builtin::Prange))));
            // Refused by the typecheck (`typeck::Solver::for_error`), and
            // where it types the iterable.
            if over_range {
                self.refused_statement(&self.range(f.target));
            } else {
                self.iterable_refused(f);
            }
            return false;
        };
        let var = self.name_text(var);
        let iter_at = self.range(f.iter);
        if let Some(bounds) = self.held_range(f.iter) {
            return self.count_over_range(f, var, iter_at, bounds, false, Vec::new());
        }
        // Refused by the typecheck where it types the iterable.
        let over_range = match &hir.exprs[f.iter] {
            hir::Expr::Call { func, args, keywords } => match self.target_of(*func) {
                Some(Target::Builtin(Builtin::Range)) => Some((false, args, keywords)),
                Some(Target::Builtin(Builtin::Prange)) => Some((true, args, keywords)),
                _ => None,
            },
            _ => None,
        };
        let Some((prange, args, keywords)) = over_range else {
            self.iterable_refused(f);
            return false;
        };
        // A `prange` inside another, or in a GPU function or a ufunc's
        // body, runs serially: it is a `range`.
        let parallel = prange
            && self.parallel_depth == 0
            && self.decl.ufunc_sig.is_none()
            && !self.decl.attrs.contains(postc_ir::FuncAttrs::KERNEL)
            && !self.decl.attrs.contains(postc_ir::FuncAttrs::GPU);
        let reductions = if prange {
            match self.prange_reductions(f, var) {
                Some(r) => r,
                None => return false,
            }
        } else {
            Vec::new()
        };
        let Some(bounds) = self.range_bounds(iter_at, args, keywords) else {
            return false;
        };
        self.count_over_range(f, var, iter_at, bounds, parallel, reductions)
    }

    /// The iterable of the loop `f`, which is not one a `for` loop runs
    /// over: refused by the typecheck where it types it
    /// (`typeck::Solver::for_error`).
    fn iterable_refused(&mut self, f: &ForLoop) {
        if !matches!(self.expr(f.iter), Val::Err) {
            self.err(&self.range(f.iter), typeck::loops::FOR_ITERABLE);
        }
    }

    /// The loop `f` counting `var` over `bounds` (of the range at
    /// `iter_at`), in parallel or not.
    fn count_over_range(
        &mut self,
        f: &ForLoop,
        var: &str,
        iter_at: TextRange,
        bounds: RangeBounds,
        parallel: bool,
        reductions: Vec<(String, char)>,
    ) -> bool {
        let RangeBounds { start: s0, stop: s1, step: s2, step_const, nonneg: var_nonneg } = bounds;
        let range_val_ty = Scalar::weak(DType::Int64);
        self.at(&iter_at);
        let kname = self.fresh(&format!("{var}.next"));
        let k = self.b.let_(TypeId::INT64, s0, &kname);
        if parallel {
            self.prange_marker(&reductions, k, s1, s2, iter_at);
        }
        let ForBlocks { head, body, latch, exit, done } = self.for_blocks(f.orelse);
        self.at(&iter_at);
        let bounds = RangeBounds { start: s0, stop: s1, step: s2, step_const, nonneg: var_nonneg };
        let more = self.range_continues(k, &bounds);
        self.b.condbr(more, body, done, None);
        self.open = false;
        self.enter(body);
        let kv = Val::Num { v: k, s: range_val_ty, nonneg: var_nonneg };
        self.at(&self.range(f.target));
        self.assign_local(var, kv, self.range(f.target), iter_at);
        self.loops.push(Loop { next: latch, exit, broken: false, parallel });
        self.parallel_depth += u32::from(parallel);
        self.mark_bound(f.target);
        self.nested(f.body);
        self.parallel_depth -= u32::from(parallel);
        self.loops.pop();
        self.br(latch);
        self.at(&iter_at);
        self.for_latch(latch, head, k, Some(s2), &[]);
        self.loop_else(f.orelse, done, exit);
        true
    }

    /// The bounds of `range(args)` (the call at `at`), as Int64 values:
    /// each argument an integer, a step that is zero refused or, when not
    /// constant, a panic.
    fn range_bounds(&mut self, at: TextRange, args: &[hir::ExprId], keywords: &[hir::Keyword]) -> Option<RangeBounds> {
        // Refused by the typecheck where it types the arguments of the
        // `range` a `for` loop runs over.
        if let Some(k) = keywords.first() {
            self.err(&k.range, typeck::RANGE_KEYWORD);
            return None;
        }
        if args.is_empty() || args.len() > 3 {
            self.err(&at, typeck::range_arity_error(args.len()));
            return None;
        }
        let mut vals = Vec::new();
        for &a in args.iter() {
            let v = self.expr(a);
            let at = self.range(a);
            if matches!(v, Val::Err) {
                return None;
            }
            if let Some(message) = typeck::range_argument_error(v.scalar()) {
                self.err(&at, message);
                return None;
            }
            vals.push((v, at));
        }
        let first = self.range(args[0]);
        let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
        let zero = Val::Lit { lit: Lit::Int(0), s: Scalar::weak(DType::Int64) };
        let (start, stop, step) = match vals.len() {
            1 => ((zero, first), vals.pop()?, (one, first)),
            2 => {
                let stop = vals.pop()?;
                (vals.pop()?, stop, (one, first))
            }
            _ => {
                let step = vals.pop()?;
                let stop = vals.pop()?;
                (vals.pop()?, stop, step)
            }
        };
        let step_const = match &step.0 {
            Val::Lit { lit: Lit::Int(i), .. } => Some(*i),
            _ => None,
        };
        if step_const == Some(0) {
            self.err(&step.1, typeck::RANGE_STEP_ZERO);
            return None;
        }
        // The counter: a Python int, non-negative when the range says so.
        let nonneg = match step_const {
            Some(s) if s > 0 => start.0.nonneg(),
            Some(_) => matches!(&stop.0, Val::Lit { lit: Lit::Int(i), .. } if *i >= -1) || stop.0.nonneg(),
            None => start.0.nonneg() && stop.0.nonneg(),
        };
        self.at(&at);
        let (Some(s0), Some(s1), Some(s2)) = (
            self.materialize(&start.0, DType::Int64, &start.1),
            self.materialize(&stop.0, DType::Int64, &stop.1),
            self.materialize(&step.0, DType::Int64, &step.1),
        ) else {
            return None;
        };
        if step_const.is_none() {
            self.at(&at);
            let z = self.zero(DType::Int64);
            let n = self.fresh("step.ok");
            let ok = self.b.binary(Opcode::Ne, TypeId::BOOL, s2, z, &n);
            self.panic_unless(ok, "range() arg 3 must not be zero", &at);
        }
        Some(RangeBounds { start: s0, stop: s1, step: s2, step_const, nonneg })
    }

    /// Whether the counter `k` of a range with these bounds has not reached
    /// its stop (tested before each step).
    fn range_continues(&mut self, k: ValueId, r: &RangeBounds) -> ValueId {
        let cname = self.fresh("more");
        match r.step_const {
            Some(s) if s > 0 => self.b.binary(Opcode::Lt, TypeId::BOOL, k, r.stop, &cname),
            Some(_) => self.b.binary(Opcode::Gt, TypeId::BOOL, k, r.stop, &cname),
            None => {
                let z = self.zero(DType::Int64);
                let up = self.fresh("up");
                let up = self.b.binary(Opcode::Gt, TypeId::BOOL, r.step, z, &up);
                let lt = self.fresh("lt");
                let lt = self.b.binary(Opcode::Lt, TypeId::BOOL, k, r.stop, &lt);
                let gt = self.fresh("gt");
                let gt = self.b.binary(Opcode::Gt, TypeId::BOOL, k, r.stop, &gt);
                self.b.select(TypeId::BOOL, up, lt, gt, &cname)
            }
        }
    }

    /// A `for` loop's blocks, entered at its header: `done` is where the
    /// loop ends without `break` (its `else` clause, if it has one).
    fn for_blocks(&mut self, orelse: &[hir::StmtId]) -> ForBlocks {
        let head = self.block("for");
        let body = self.block("body");
        let latch = self.block("next");
        let exit = self.block("endfor");
        let done = if orelse.is_empty() { exit } else { self.block("forelse") };
        self.br(head);
        self.enter(head);
        ForBlocks { head, body, latch, exit, done }
    }

    /// A `for` loop's latch: the counter `k` steps by `step` (1 when
    /// `None`), and each of `counters` by its step, back to the header.
    fn for_latch(
        &mut self,
        latch: BlockId,
        head: BlockId,
        k: ValueId,
        step: Option<ValueId>,
        counters: &[(ValueId, ValueId)],
    ) {
        self.enter(latch);
        let step = step.unwrap_or_else(|| {
            let on = self.fresh("one");
            self.b.int(TypeId::INT64, 1, &on)
        });
        let nn = self.fresh("k");
        let k2 = self.b.binary(Opcode::Add, TypeId::INT64, k, step, &nn);
        self.b.set(k, k2);
        for &(c, c_step) in counters {
            let nn = self.fresh("k");
            let c2 = self.b.binary(Opcode::Add, TypeId::INT64, c, c_step, &nn);
            self.b.set(c, c2);
        }
        self.b.br(head);
        self.open = false;
    }

    /// After a loop: its `else` clause, which runs when the loop ends
    /// without `break` (`done` is where its condition fails), then `exit`.
    fn loop_else(&mut self, orelse: &[hir::StmtId], done: BlockId, exit: BlockId) {
        self.loop_else_starts();
        if done != exit {
            self.enter(done);
            self.nested(orelse);
            self.loop_else_ends(self.open);
            self.br(exit);
        } else {
            self.loop_else_ends(true);
        }
        self.enter(exit);
    }

    /// Whether a `for` loop's iterable is an array, `enumerate(...)` or
    /// `zip(...)` (Python's own, not a name the program binds).
    fn iterates_arrays(&self, iter: hir::ExprId) -> bool {
        let hir = self.hir;
        match &hir.exprs[iter] {
            hir::Expr::Call { func, .. }
                if matches!(&hir.exprs[*func], hir::Expr::Name(hir::Name::Free(n))
                if matches!(&**n, "enumerate" | "zip")) =>
            {
                true
            }
            hir::Expr::Name(n) => {
                matches!(self.locals.get(self.name_text(n)).and_then(|l| l.ty.clone()), Some(LocalTy::Array(_)))
            }
            hir::Expr::Attribute { .. } | hir::Expr::Subscript { .. } => self.is_view_expr(iter),
            // An array a call or an operator makes (`for v in a.ravel()`).
            hir::Expr::Call { .. } | hir::Expr::BinOp { .. } | hir::Expr::UnaryOp { .. } => {
                matches!(self.expr_types.get(iter), Some(typeck::Ty::Arr(t)) if t.ndim().is_some_and(|n| n >= 1))
            }
            _ => false,
        }
    }

    /// `for x in a`, `for i, x in enumerate(a)` and `for x, y in zip(a, b)`
    /// over 1-D arrays: a counter over the indices (the shortest array's,
    /// for `zip`), each element read at the top of the body, as CPython
    /// reads it (a write to the array in the body is seen by later
    /// iterations).
    fn for_over_arrays(&mut self, f: &ForLoop) -> bool {
        let hir = self.hir;
        let iter_at = self.range(f.iter);
        let enumerate_or_zip = |func: &hir::ExprId| matches!(&hir.exprs[*func], hir::Expr::Name(hir::Name::Free(n)) if matches!(&**n, "enumerate" | "zip"));
        let (counted, sources): (bool, Vec<hir::ExprId>) = match &hir.exprs[f.iter] {
            hir::Expr::Call { func, args, keywords } if enumerate_or_zip(func) => {
                if let Some(k) = keywords.first() {
                    self.refused_statement(&k.range);
                    return false;
                }
                let hir::Expr::Name(hir::Name::Free(n)) = &hir.exprs[*func] else {
                    unreachable!("checked by iterates_arrays")
                };
                if &**n == "enumerate" {
                    if args.len() != 1 {
                        self.refused_statement(&iter_at);
                        return false;
                    }
                    (true, args.to_vec())
                } else {
                    if args.is_empty() {
                        self.refused_statement(&iter_at);
                        return false;
                    }
                    (false, args.to_vec())
                }
            }
            _ => (false, vec![f.iter]),
        };
        // The names the loop binds: the index (enumerate), then one per array.
        let want = sources.len() + usize::from(counted);
        let target_at = self.range(f.target);
        let targets: Vec<hir::ExprId> = match &hir.exprs[f.target] {
            hir::Expr::Tuple(elts) => elts.to_vec(),
            _ => vec![f.target],
        };
        let unpacked = matches!(hir.exprs[f.target], hir::Expr::Tuple(_)).then_some(targets.len());
        let stepped = matches!(&hir.exprs[f.iter], hir::Expr::Call { func, .. } if enumerate_or_zip(func));
        let target_error = match typeck::loops::step_count_error(want, unpacked) {
            Some(message) => Some((target_at, message)),
            None => (targets.iter().find(|&&t| !matches!(hir.exprs[t], hir::Expr::Name(_))))
                .map(|&t| (self.range(t), typeck::loops::FOR_BINDS_NAMES.to_owned())),
        };
        if let Some((at, message)) = target_error {
            // The typecheck refuses the targets of `enumerate` and `zip`
            // always, of an array where it types it.
            if stepped {
                self.refused_statement(&at);
            } else {
                self.err(&at, message);
            }
            return false;
        }
        // Each source: an array, or a `range(...)` stepping with the index.
        let mut arrays = Vec::new();
        let mut ranges = Vec::new();
        let mut steps: Vec<Step> = Vec::new();
        for &src in &sources {
            if let hir::Expr::Call { func, args, keywords } = &hir.exprs[src] {
                if matches!(self.target_of(*func), Some(Target::Builtin(Builtin::Range))) {
                    let Some(bounds) = self.range_bounds(self.range(src), args, keywords) else { return false };
                    let n = self.fresh("range");
                    let counter = self.b.let_(TypeId::INT64, bounds.start, &n);
                    steps.push(Step::Range(ranges.len()));
                    ranges.push((counter, bounds));
                    continue;
                }
            }
            match self.expr(src) {
                Val::Arr { v, ty } if ty.ndim().is_some_and(|n| n >= 1) => {
                    steps.push(Step::Array(arrays.len()));
                    arrays.push((v, ty));
                }
                // Refused by the typecheck where it types the source.
                Val::Arr { .. } => {
                    self.err(&self.range(src), typeck::loops::FOR_AXES_UNKNOWN);
                    return false;
                }
                Val::Err => return false,
                _ => {
                    self.err(&self.range(src), typeck::loops::FOR_ITERABLE);
                    return false;
                }
            }
        }
        self.at(&iter_at);
        // The trip count: the length of the (shortest) array, read once;
        // a range stops the loop where it ends.
        let mut n: Option<ValueId> = None;
        for (v, _) in &arrays {
            let dn = self.fresh("len");
            let d = self.b.dim(*v, 0, &dn);
            n = Some(match n {
                None => d,
                Some(m) => {
                    let lt = self.result(Opcode::Lt, DType::Bool, d, m);
                    let sn = self.fresh("len");
                    self.b.select(TypeId::INT64, lt, d, m, &sn)
                }
            });
        }
        let z = self.zero(DType::Int64);
        let kname = self.fresh("index");
        let k = self.b.let_(TypeId::INT64, z, &kname);
        let ForBlocks { head, body, latch, exit, done } = self.for_blocks(f.orelse);
        self.at(&iter_at);
        let mut more = n.map(|n| self.result(Opcode::Lt, DType::Bool, k, n));
        for (counter, bounds) in &ranges {
            let going = self.range_continues(*counter, bounds);
            more = Some(match more {
                None => going,
                Some(m) => self.result(Opcode::And, DType::Bool, m, going),
            });
        }
        let Some(more) = more else { return false };
        self.b.condbr(more, body, done, None);
        self.open = false;
        self.enter(body);
        let mut values = Vec::new();
        if counted {
            values.push(Val::Num { v: k, s: Scalar::weak(DType::Int64), nonneg: true });
        }
        for step in &steps {
            values.push(match *step {
                Step::Array(a) => self.iteration_value(&arrays[a], k, self.range(f.iter)),
                Step::Range(r) => {
                    let (counter, bounds) = &ranges[r];
                    Val::Num { v: *counter, s: Scalar::weak(DType::Int64), nonneg: bounds.nonneg }
                }
            });
        }
        for (&t, v) in targets.iter().zip(values) {
            let hir::Expr::Name(name) = &hir.exprs[t] else { unreachable!("checked above") };
            self.at(&self.range(t));
            self.assign_local(self.name_text(name), v, self.range(t), iter_at);
        }
        self.loops.push(Loop { next: latch, exit, broken: false, parallel: false });
        self.mark_bound(f.target);
        self.nested(f.body);
        self.loops.pop();
        self.br(latch);
        self.at(&iter_at);
        let counters: Vec<(ValueId, ValueId)> = ranges.iter().map(|(c, b)| (*c, b.step)).collect();
        self.for_latch(latch, head, k, None, &counters);
        self.loop_else(f.orelse, done, exit);
        true
    }

    /// `call postc.prange(...)` before the loop's header: the counter, the
    /// limit and step, and each reduction's local with its operator,
    /// whose type must allow it.
    fn prange_marker(
        &mut self,
        reductions: &[(String, char)],
        k: ValueId,
        stop: ValueId,
        step: ValueId,
        at: TextRange,
    ) {
        let mut kinds = String::new();
        let mut args = vec![k, stop, step];
        for (name, op) in reductions {
            // Refused by the typecheck (`typeck::loops::prange_checks`)
            // where it types the local.
            let dtype = match self.locals.get(name).and_then(|l| l.ty.clone()) {
                Some(LocalTy::Scalar(s)) => Some(s.dtype),
                _ => None,
            };
            if let Some(message) = prange::reduction_error(name, *op, dtype) {
                self.err(&at, message);
                return;
            }
            let Some(&slot) = self.slots.get(name) else { return };
            kinds.push(*op);
            args.push(slot);
        }
        self.at(&at);
        let n = self.fresh("prange.ops");
        let kinds = self.b.const_(TypeId::scalar(DType::Str), Literal::Str(&kinds), &n);
        args.insert(0, kinds);
        self.b.call(postc_ir::builtins::PRANGE, &args, None, "");
    }

    fn return_(&mut self, at: TextRange, value: Option<hir::ExprId>) {
        let hir = self.hir;
        if self.decl.ret_maybe_none && !self.decl.ret_poisoned {
            self.return_maybe_none(at, value);
            return;
        }
        if let Some(v) = value.filter(|_| !self.optional_results.is_empty() && self.decl.ret.is_none()) {
            if let hir::Expr::Tuple(elements) = &hir.exprs[v] {
                match self.optional_tuple_display(elements) {
                    Some(elements) => self.return_tuple(at, v, elements),
                    None => {
                        self.b.unreachable();
                        self.open = false;
                    }
                }
                return;
            }
        }
        if self.inferred_tuple.is_some() && self.decl.ret.is_none() {
            let lowered = value.map(|v| (self.expr(v), v));
            match lowered {
                Some((Val::Tuple(elements), v)) => {
                    self.return_tuple(at, v, elements);
                    return;
                }
                // The value's own error is reported.
                Some((Val::Err, _)) => {}
                // Refused by the typecheck (`typeck::results`) where it
                // types the value.
                _ => {
                    self.err(&at, typeck::results::not_a_tuple_returned(&self.decl.name));
                }
            }
            self.b.unreachable();
            self.open = false;
            return;
        }
        if self.decl.ret_poisoned {
            // Checked for its own errors; `None` may be what the refused
            // annotation meant.
            if let Some(v) = value {
                self.expr_maybe_none(v);
            }
            self.b.unreachable();
            self.open = false;
            return;
        }
        let ret = self.decl.ret;
        let is_none = |v: hir::ExprId| matches!(hir.exprs[v], hir::Expr::None);
        match (value, ret) {
            (None, None) => {
                self.b.ret(None);
            }
            // `return None` is CPython's bare `return`: nothing to evaluate.
            (Some(v), None) if is_none(v) => {
                self.b.ret(None);
            }
            (Some(v), None) => {
                let val = self.expr(v);
                if let Val::Tuple(elements) = val {
                    self.return_tuple(at, v, elements);
                    return;
                } else if !matches!(val, Val::Void | Val::Err) {
                    // Without an annotation, the `return`s gave no one
                    // type (the result's is inferred when they do).
                    let msg = if self.decl.ret_unannotated {
                        format!(
                            "the `return`s of `{}` give no one type (a number, an array or a tuple; or `None` \
                             and a value): annotate its result (`-> T | None` for a number that may be `None`)",
                            self.decl.name
                        )
                    } else {
                        // Refused by the typecheck where it types the value.
                        typeck::loops::value_for_nothing(&self.decl.name)
                    };
                    self.err(&self.range(v), msg);
                }
                self.b.ret(None);
            }
            (None, Some(_)) => {
                self.refused_statement(&at);
                self.b.unreachable();
            }
            (Some(v), Some(_)) if is_none(v) => {
                self.refused_statement(&at);
                self.b.unreachable();
            }
            (Some(v), Some(t)) => {
                let list = self.is_list_name(v);
                let val = self.expr(v);
                if let Val::Tuple(elements) = val {
                    self.return_tuple(at, v, elements);
                    return;
                }
                let td = self.types.get(t).clone();
                let listed = self.decl.result_lists == [0];
                if list != listed && !matches!(val, Val::Err) {
                    // A list local under an annotated result: refused by
                    // the typecheck where it types the list.
                    let msg = if list {
                        typeck::lists::list_returned_error(&self.decl.name, &td)
                    } else {
                        format!("function `{}` returns a list: every `return` gives one", self.decl.name)
                    };
                    self.err(&self.range(v), msg);
                    self.b.unreachable();
                    self.open = false;
                    return;
                }
                let x = match &val {
                    Val::Err => None,
                    // A list comes back as a new array of its elements
                    // (`lists.rs`), which the caller owns.
                    Val::Arr { v: av, ty } if list && td.is_array && ty.dtype == td.dtype && ty.ndim() == Some(1) => {
                        Some(self.copy_of(*av, &ty.clone(), &self.range(v)).0)
                    }
                    // Refused by the typecheck where it types the value.
                    _ => match typeck::returned_value_error(&self.decl.name, &td, val.ty().as_ref()) {
                        Some(message) => {
                            self.err(&self.range(v), message);
                            None
                        }
                        None => match &val {
                            Val::Arr { v: av, .. } => Some(*av),
                            _ => self.materialize(&val, td.dtype, &self.range(v)),
                        },
                    },
                };
                self.at(&at);
                match x {
                    Some(x) => self.b.ret(Some(x)),
                    None => self.b.unreachable(),
                };
            }
        }
        self.open = false;
    }

    /// The elements of a call's tuple result, one `extract` each: from
    /// here on a tuple value like any other.
    fn call_tuple_elements(&mut self, v: ValueId, ty: &TypeData, groups: &[(usize, usize)]) -> Val {
        let mut out = Vec::with_capacity(ty.elements.len());
        for (k, e) in ty.elements.iter().enumerate() {
            let n = self.fresh("element");
            let et = self.types.intern(e.clone());
            let x = self.b.extract(et, v, k as u32, &n);
            out.push(if e.is_array {
                Val::Arr { v: x, ty: e.clone() }
            } else {
                Val::Num { v: x, s: Scalar::strong(e.dtype), nonneg: false }
            });
        }
        Val::Tuple(postc_ir::regroup(out, groups, Val::Tuple))
    }

    /// `return` of the tuple `elements` that `v` gave (a display, a tuple
    /// local or a call): each element located at its own expression in a
    /// display, at `v` otherwise. Ends the block.
    fn return_tuple(&mut self, at: TextRange, v: hir::ExprId, elements: Vec<Val>) {
        let mut lists = vec![false; elements.len()];
        let vals = match &self.hir.exprs[v] {
            hir::Expr::Tuple(elts) if elts.len() == elements.len() => {
                for (l, &e) in lists.iter_mut().zip(elts.iter()) {
                    *l = self.is_list_name(e);
                }
                elements.into_iter().zip(elts.iter().map(|&e| self.range(e))).collect()
            }
            hir::Expr::Tuple(elts) if elts.iter().any(|&e| self.is_list_name(e)) => {
                // Its elements' flags are in the flat result (`maybe_none.rs`).
                // Refused by the typecheck (`typeck::results`) where it
                // types the elements.
                self.err(&self.range(v), typeck::results::LIST_BESIDE_OPTIONAL);
                self.b.unreachable();
                self.open = false;
                return;
            }
            _ => elements.into_iter().map(|e| (e, self.range(v))).collect(),
        };
        self.return_tuple_values(at, self.range(v), vals, &lists);
        self.open = false;
    }

    /// The tuple `vals` returned, each element with the expression it came
    /// from, `at` the returned expression. Its type is the declared
    /// `-> tuple[...]`, each element converted as a single returned value
    /// is; without a return annotation the first tuple `return` decides it
    /// (each scalar its own dtype, each array `T[:, ...]`) and every other
    /// must give the same.
    fn return_tuple_values(&mut self, r: TextRange, at: TextRange, vals: Vec<(Val, TextRange)>, lists: &[bool]) {
        let name = self.decl.name.clone();
        // A tuple inside the result (`return a, (ok, n)`) is its elements
        // in the IR's flat result, and a group Python callers get back.
        let mut groups = Vec::new();
        let mut flat = Vec::with_capacity(vals.len());
        // The places of the lists (`lists.rs`) in the flat result.
        let mut listed = Vec::new();
        for (k, (val, e)) in vals.into_iter().enumerate() {
            if lists.get(k) == Some(&true) {
                listed.push(flat.len());
            }
            match val {
                Val::Tuple(inner) if !inner.is_empty() && !inner.iter().any(|x| matches!(x, Val::Tuple(_))) => {
                    groups.push((flat.len(), inner.len()));
                    flat.extend(inner.into_iter().map(|x| (x, e)));
                }
                Val::Tuple(_) => {
                    self.err(&e, typeck::loops::NESTED_TUPLE_RESULT);
                    self.b.unreachable();
                    return;
                }
                val => flat.push((val, e)),
            }
        }
        let vals = flat;
        let inferred = self.decl.ret.is_none() && self.decl.ret_unannotated;
        // Refused by the typecheck (`typeck::Solver::tuple_return_error`)
        // where it types the tuple, in a function whose result is
        // annotated.
        if !groups.is_empty() && !inferred {
            self.err(&at, typeck::loops::tuple_in_annotated_result(&name));
            self.b.unreachable();
            return;
        }
        // Refused by the typecheck (`typeck::results`) where it types
        // the `return`s.
        if inferred && self.inferred_tuple.is_some() && groups != self.inferred_groups {
            self.err(&at, typeck::results::tuples_inside_differ(&name));
            self.b.unreachable();
            return;
        }
        if !listed.is_empty() && !inferred {
            self.err(&at, typeck::loops::list_in_annotated_result(&name));
            self.b.unreachable();
            return;
        }
        if inferred && self.inferred_tuple.is_some() && listed != self.inferred_lists {
            self.err(&at, typeck::results::lists_inside_differ(&name));
            self.b.unreachable();
            return;
        }
        let declared = self.decl.ret.map(|id| self.types.get(id).clone());
        let expected = match &declared {
            Some(d) if d.is_tuple() => Some(d.elements.clone()),
            Some(d) => {
                let message = typeck::loops::tuple_for_non_tuple(&name, d);
                self.err(&at, message);
                self.b.unreachable();
                return;
            }
            None if self.decl.ret_unannotated => self.inferred_tuple.map(|id| self.types.get(id).elements.clone()),
            None => {
                self.err(&at, typeck::loops::tuple_for_nothing(&name));
                self.b.unreachable();
                return;
            }
        };
        if let Some(want) = expected.as_ref().filter(|w| w.len() != vals.len()) {
            let got = vals.len();
            self.err(&at, typeck::loops::tuple_count_error(&name, got, want.len()));
            self.b.unreachable();
            return;
        }
        let mut values = Vec::with_capacity(vals.len());
        let mut elements = Vec::with_capacity(vals.len());
        for (k, (val, e)) in vals.into_iter().enumerate() {
            let want = expected.as_ref().map(|w| w[k].clone());
            // A list comes back as a new array of its elements, which the
            // caller owns.
            let val = match val {
                Val::Arr { v, ty } if listed.contains(&k) => {
                    let (v, ty) = self.copy_of(v, &ty, &e);
                    Val::Arr { v, ty }
                }
                val => val,
            };
            let got = match (&val, want) {
                (Val::Err, _) => None,
                (Val::Arr { v, ty }, Some(w)) if w.is_array && ty.dtype == w.dtype && ty.ndim() == w.ndim() => {
                    Some((*v, w))
                }
                (Val::Arr { v, ty }, None) => {
                    let dims = vec![None; ty.ndim().unwrap_or(0)];
                    Some((*v, TypeData::array(ty.dtype, postc_ir::Shape::dims(&dims), postc_ir::Layout::COrder)))
                }
                (_, Some(w)) if !w.is_array => match val.scalar() {
                    Some(s) if widens_to(s, w.dtype) => self.materialize(&val, w.dtype, &e).map(|x| (x, w)),
                    _ => None,
                },
                (_, None) => match val.scalar() {
                    Some(s) => self.materialize(&val, s.dtype, &e).map(|x| (x, TypeData::scalar(s.dtype))),
                    None => None,
                },
                _ => None,
            };
            match got {
                Some((x, ty)) => {
                    values.push(x);
                    elements.push(ty);
                }
                None => {
                    if !matches!(val, Val::Err) {
                        let what = match expected.as_ref() {
                            Some(w) if declared.is_none() => typeck::results::inferred_element_error(&name, k, &w[k]),
                            Some(w) => typeck::loops::tuple_element_error(&name, k, &w[k]),
                            None => format!("element {k} of a returned tuple must be a scalar or an array"),
                        };
                        self.err(&e, what);
                    }
                    self.b.unreachable();
                    return;
                }
            }
        }
        let tuple_ty = self.types.intern(TypeData::tuple(elements));
        if declared.is_none() && self.inferred_tuple != Some(tuple_ty) {
            let msg = "internal error: this tuple is not the result the typecheck found from the `return`s";
            self.diags.push(self.cx.src.error(&at, msg));
        }
        self.at(&r);
        let n = self.fresh("result");
        let x = self.b.tuple(tuple_ty, &values, &n);
        self.b.ret(Some(x));
    }

    fn assert_(&mut self, at: TextRange, test: hir::ExprId, msg: Option<hir::ExprId>) {
        let hir = self.hir;
        let msg = match msg {
            None => "assertion failed".to_owned(),
            Some(m) => match &hir.exprs[m] {
                hir::Expr::Literal(Lit::Str(s)) => format!("assertion failed: {s}"),
                _ => {
                    self.refused_statement(&at);
                    return;
                }
            },
        };
        let facts = self.facts(test);
        if let Some(c) = self.cond(test) {
            self.panic_unless(c, &msg, &at);
        }
        self.present.extend(facts.when_true);
    }

    /// `raise ValueError("message")`: a panic whose message starts with the
    /// exception's name (`ValueError: message`), which the `postc` package
    /// raises as that exception. Only CPython's built-in exceptions, with
    /// no message or a string literal, can be raised.
    /// What the typecheck refuses (`typeck::raise_error`) is not lowered.
    fn raise_(&mut self, at: TextRange, exc: Option<hir::ExprId>, cause: Option<hir::ExprId>) {
        let hir = self.hir;
        let Some(exc) = exc.filter(|_| cause.is_none()) else {
            self.refused_statement(&at);
            return;
        };
        let (callee, call) = match &hir.exprs[exc] {
            hir::Expr::Call { func, args, keywords } => (*func, Some((args, keywords))),
            _ => (exc, None),
        };
        let name = match &hir.exprs[callee] {
            hir::Expr::Name(hir::Name::Free(n)) if RAISABLE.contains(&&**n) => &**n,
            _ => {
                self.refused_statement(&at);
                return;
            }
        };
        let msg = match call {
            None => name.to_owned(),
            Some((_, keywords)) if !keywords.is_empty() => {
                self.refused_statement(&at);
                return;
            }
            Some((args, _)) => match args.first().map(|&a| (a, &hir.exprs[a])) {
                None => name.to_owned(),
                Some((_, hir::Expr::Literal(Lit::Str(s)))) if args.len() == 1 => format!("{name}: {s}"),
                Some((_, _)) => {
                    self.refused_statement(&at);
                    return;
                }
            },
        };
        self.at(&at);
        let n = self.fresh("msg");
        let m = self.b.const_(TypeId::STR, Literal::Str(&msg), &n);
        self.b.call(postc_ir::builtins::PANIC, &[m], None, "");
        self.b.unreachable();
        self.open = false;
    }

    /// Branches to a panic with `msg`, located at `at`, unless `ok` holds.
    pub(super) fn panic_unless(&mut self, ok: ValueId, msg: &str, at: &impl Ranged) {
        self.panic_unless_with(ok, msg, &[], at);
    }

    /// Branches to a panic with `msg`, each `{}` of it formatted from the
    /// next of `args` at run time, unless `ok` holds.
    pub(super) fn panic_unless_with(&mut self, ok: ValueId, msg: &str, args: &[ValueId], at: &impl Ranged) {
        let fail = self.block("fail");
        let cont = self.block("ok");
        self.b.condbr(ok, cont, fail, None);
        self.enter(fail);
        self.at(at);
        let n = self.fresh("msg");
        let m = self.b.const_(TypeId::STR, Literal::Str(msg), &n);
        let mut all = vec![m];
        all.extend_from_slice(args);
        self.b.call(postc_ir::builtins::PANIC, &all, None, "");
        self.b.unreachable();
        self.enter(cont);
    }

    /// A condition: Bool as it is, a number compared with zero, a value
    /// that may be `None` false when it is.
    fn cond(&mut self, e: hir::ExprId) -> Option<ValueId> {
        let v = self.condition_value(e);
        self.truth(v, self.range(e))
    }

    /// `e` lowered where only its truth is read (a condition, the operand
    /// of `not`): it may be `None` (falsy, as in CPython), and an `and` or
    /// `or` in it takes operands that may be `None` (`None and y` is
    /// falsy as `False and y` is, whichever of the two it gives).
    fn condition_value(&mut self, e: hir::ExprId) -> Val {
        self.condition = true;
        self.expr_maybe_none(e)
    }

    fn truth(&mut self, v: Val, e: TextRange) -> Option<ValueId> {
        match v {
            Val::None => {
                let n = self.fresh("truth");
                return Some(self.b.const_(TypeId::BOOL, Literal::Bool(false), &n));
            }
            // Present and true: the value of a local is not cleared when
            // `None` is bound to it.
            Val::Maybe { present, value } => {
                let t = self.truth(*value, e)?;
                self.at(&e);
                return Some(self.result(Opcode::And, DType::Bool, present, t));
            }
            _ => {}
        }
        match v.scalar() {
            Some(s) if kind(s.dtype) <= Kind::Complex => {
                if s.dtype == DType::Bool {
                    return self.materialize(&v, DType::Bool, &e);
                }
                let x = self.materialize(&v, s.dtype, &e)?;
                let z = self.zero(s.dtype);
                let n = self.fresh("nz");
                self.at(&e);
                Some(self.b.binary(Opcode::Ne, TypeId::BOOL, x, z, &n))
            }
            // Refused by the typecheck where it types the condition.
            _ => {
                if let Some(message) = typeck::not_a_condition(v.ty().as_ref()).filter(|_| !matches!(v, Val::Err)) {
                    self.err(&e, message);
                }
                None
            }
        }
    }

    // ---- expressions ------------------------------------------------------
}

/// A default value as CPython holds it, for Python callers of an exported
/// function: the literal's own value, not converted to the parameter's
/// dtype (`c: Float64 = 3` is the int 3, as `inspect.signature` shows).
pub(crate) fn python_value(lit: &Lit) -> postc_ir::ConstValue {
    use postc_ir::ConstValue as V;
    match lit {
        Lit::Bool(b) => V::Bool(*b),
        Lit::Int(i) => V::Int(*i),
        Lit::Float(f) => V::Float(f.to_bits()),
        Lit::Complex(re, im) => V::Complex(re.to_bits(), im.to_bits()),
        Lit::Str(s) => V::Str(s.clone()),
        Lit::Bytes(b) => V::Bytes(b.clone()),
    }
}

//! NumPy's array functions that are neither creation by shape nor plain
//! reductions (those are `arrays.rs`): which call names one, and
//! `np.array([...])` of scalars. The others are lowered where their kind
//! lives: sorting and searching in `sorting.rs`, the NaN-ignoring
//! reductions and `np.linalg.norm` in `nanreduce.rs`, `np.linalg.det`,
//! `np.linalg.eigh` and `np.linalg.eigvalsh` in `linalg.rs`, `np.trace`
//! and `np.eye` in `diagonals.rs`, `np.histogram` in `histograms.rs`. Each
//! is named as
//! NumPy spells it (`np.sort`, `np.linalg.norm`), imported from NumPy
//! (`from numpy import nanmean`, `from numpy.linalg import norm`) or, for
//! `a.sort()`, as the method of an array local.
//!
//! `np.array` takes a list (or tuple) of scalars, nested for more axes,
//! of one extent per level (a ragged list is a located error), with
//! `dtype=`; without it the dtype is NumPy's promotion of the elements'
//! dtypes, a Python number counting as its default dtype (Int64, Float64,
//! Complex128), as NumPy's array coercion counts it. The array is a new
//! C-order one, its elements converted as NumPy's assignment converts.
//! Not here: `np.array` of an array or of a list holding arrays.

use super::*;
use crate::pytypes::promote_strong;

/// A NumPy array function lowered by this module's siblings.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NpFn {
    /// `np.sort(a)`: a sorted copy of a 1-D array.
    Sort,
    /// `a.sort()`: `a` sorted in place.
    SortInPlace,
    /// `np.argsort(a)`: the indices that sort a 1-D array.
    ArgSort,
    /// `np.partition(a, kth)` of a 1-D array.
    Partition,
    /// `a.argsort()`.
    ArgSortMethod,
    Searchsorted,
    Norm,
    /// `np.linalg.det(a)`: the determinant of a square 2-D array.
    Det,
    /// `np.linalg.eigh(a)`: the eigenvalues and eigenvectors of a
    /// symmetric 2-D array, a tuple.
    Eigh,
    /// `np.linalg.eigvalsh(a)`: its eigenvalues alone.
    EigvalsH,
    Nan(NanRed),
    /// `np.var(a)`: the variance of every element, NaN included.
    Var,
    /// `np.std(a)`.
    Std,
    /// `a.var()`, `a.std()` of an array expression: as `np.var(a)`,
    /// `np.std(a)`.
    VarMethod,
    StdMethod,
    /// `np.array([...])`.
    ArrayOf,
    /// `np.linspace(start, stop, num)`.
    Linspace,
    /// `np.outer(a, b)`.
    Outer,
    /// `np.roll(a, shift, axis=None)`.
    Roll,
    /// `np.cross(a, b)` of 3-vectors.
    Cross,
    /// `np.concatenate((a, b, ...))` of 1-D arrays.
    Concatenate,
    /// `np.diff(a)` of a 1-D array.
    Diff,
    /// `np.flatnonzero(a)`.
    FlatNonzero,
    /// `np.unique(a)` of a 1-D array.
    Unique,
    /// `np.trace(a, offset=0)` of a 2-D array.
    Trace,
    /// `a.trace(offset=0)`.
    TraceMethod,
    /// `np.eye(N, M=None, k=0, dtype=float)`.
    Eye,
    /// `np.identity(n, dtype=float)`.
    Identity,
    /// `np.histogram(a, bins=10, range=None)`.
    Histogram,
}

/// A NaN-ignoring reduction of a whole array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NanRed {
    Sum,
    Prod,
    Min,
    Max,
    ArgMin,
    ArgMax,
    Mean,
    Var,
    Std,
}

/// The NumPy function `name` (an attribute of `numpy`), if this module has it.
pub(crate) fn numpy_function(name: &str) -> Option<NpFn> {
    Some(match name {
        "sort" => NpFn::Sort,
        "argsort" => NpFn::ArgSort,
        "partition" => NpFn::Partition,
        "searchsorted" => NpFn::Searchsorted,
        "array" | "asarray" => NpFn::ArrayOf,
        "linspace" => NpFn::Linspace,
        "outer" => NpFn::Outer,
        "roll" => NpFn::Roll,
        "cross" => NpFn::Cross,
        "concatenate" => NpFn::Concatenate,
        "diff" => NpFn::Diff,
        "flatnonzero" => NpFn::FlatNonzero,
        "unique" => NpFn::Unique,
        "trace" => NpFn::Trace,
        "eye" => NpFn::Eye,
        "identity" => NpFn::Identity,
        "histogram" => NpFn::Histogram,
        "var" => NpFn::Var,
        "std" => NpFn::Std,
        "nansum" => NpFn::Nan(NanRed::Sum),
        "nanprod" => NpFn::Nan(NanRed::Prod),
        "nanmin" => NpFn::Nan(NanRed::Min),
        "nanmax" => NpFn::Nan(NanRed::Max),
        "nanargmin" => NpFn::Nan(NanRed::ArgMin),
        "nanargmax" => NpFn::Nan(NanRed::ArgMax),
        "nanmean" => NpFn::Nan(NanRed::Mean),
        "nanvar" => NpFn::Nan(NanRed::Var),
        "nanstd" => NpFn::Nan(NanRed::Std),
        _ => return None,
    })
}

/// The function `name` of `numpy.linalg`, if compiled code has it.
pub(crate) fn linalg_function(name: &str) -> Option<NpFn> {
    match name {
        "norm" => Some(NpFn::Norm),
        "det" => Some(NpFn::Det),
        "eigh" => Some(NpFn::Eigh),
        "eigvalsh" => Some(NpFn::EigvalsH),
        _ => None,
    }
}

/// Why a nested list is not the initialiser of an array (see
/// [`nested_shape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Nesting {
    /// The outermost value is not a list or tuple.
    NotList,
    /// A number where a list of this many elements was.
    NumberWhereList(usize),
    /// A list where a number was.
    ListWhereNumber,
    /// A list of `n` elements where the first list of its level had `first`.
    Ragged { n: usize, first: usize },
}

impl Nesting {
    /// The message, `shown` naming the call (`` `np.array` ``).
    pub(crate) fn message(self, shown: &str) -> String {
        match self {
            Nesting::NotList => format!("{shown} takes a list of numbers here (`np.array([1.0, x])`)"),
            Nesting::NumberWhereList(n) => format!("{shown} of a ragged list: a number where a list of {n} was"),
            Nesting::ListWhereNumber => format!("{shown} of a ragged list: a list where a number was"),
            Nesting::Ragged { n, first } => {
                let s = if n == 1 { "" } else { "s" };
                format!("{shown} of a ragged list: {n} element{s} here, {first} in the first list of this level")
            }
        }
    }
}

/// The extents of the nested list `root` (one per level) and its numbers
/// in C order, as `np.array` reads a list: `elements` gives the elements
/// of a list or tuple (`None` for anything else). A ragged list, or one
/// whose outermost value is no list, is refused with the value where it
/// shows. The one rule of the lowering, the typecheck and the module
/// level's arrays.
pub(crate) fn nested_shape<T: Copy>(
    root: T,
    elements: &dyn Fn(T) -> Option<Vec<T>>,
) -> Result<(Vec<usize>, Vec<T>), (T, Nesting)> {
    fn walk<T: Copy>(
        e: T,
        depth: usize,
        elements: &dyn Fn(T) -> Option<Vec<T>>,
        shape: &mut Vec<usize>,
        leaves: &mut Vec<T>,
    ) -> Result<(), (T, Nesting)> {
        let Some(elts) = elements(e) else {
            if depth == 0 {
                return Err((e, Nesting::NotList));
            }
            if depth < shape.len() {
                return Err((e, Nesting::NumberWhereList(shape[depth])));
            }
            leaves.push(e);
            return Ok(());
        };
        if depth == shape.len() {
            if !leaves.is_empty() {
                return Err((e, Nesting::ListWhereNumber));
            }
            shape.push(elts.len());
        } else if shape[depth] != elts.len() {
            return Err((e, Nesting::Ragged { n: elts.len(), first: shape[depth] }));
        }
        elts.into_iter().try_for_each(|x| crate::syntax::deep(|| walk(x, depth + 1, elements, shape, leaves)))
    }
    let (mut shape, mut leaves) = (Vec::new(), Vec::new());
    walk(root, 0, elements, &mut shape, &mut leaves)?;
    Ok((shape, leaves))
}

/// The dtype of `np.array(list[, dtype])`: the one given, else NumPy's
/// promotion of the numbers' dtypes (a Python number, weak, counting as
/// its kind's default dtype, as NumPy's array coercion counts it),
/// Float64 for none. `None` when the numbers do not promote.
pub(crate) fn array_of_dtype(given: Option<DType>, numbers: impl IntoIterator<Item = Scalar>) -> Option<DType> {
    let mut common: Option<DType> = None;
    for s in numbers {
        let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
        common = Some(match common {
            None => d,
            Some(p) => promote_strong(p, d)?,
        });
    }
    Some(given.or(common).unwrap_or(DType::Float64))
}

/// How a number of dtype `s` (a float literal when `float_literal`) is
/// stored in an array of `d` made by `np.array`: converted to the dtype
/// returned (`d`, or Float64 for a float literal stored in an integer or
/// Bool array, which NumPy truncates: cast in the IR), or refused (a
/// complex number in an array of reals).
pub(crate) fn array_element_via(s: Scalar, float_literal: bool, d: DType) -> Option<DType> {
    if s.dtype.is_complex() && !d.is_complex() {
        return None;
    }
    Some(if float_literal && matches!(kind(d), Kind::Int | Kind::Bool) { DType::Float64 } else { d })
}

/// `np.array` (shown as `shown`) of a count of arguments it does not take.
pub(crate) fn array_of_count_error(shown: &str) -> String {
    format!("{shown} takes a list of numbers (and a dtype) here")
}

/// Why `np.array` (shown as `shown`) does not take an element of a list
/// that is an array, a tuple, or a number of the type `s`.
pub(crate) fn list_element_error(shown: &str, array: bool, tuple: bool, s: Option<Scalar>) -> Option<String> {
    if array {
        Some(format!("{shown} takes a list of numbers here, not of arrays"))
    } else if tuple {
        Some(format!("{shown} takes a list of numbers here, not of tuples"))
    } else {
        let d = s?.dtype;
        d.is_text().then(|| format!("{shown} takes numbers here, not {}", d.name()))
    }
}

/// A complex number stored in an array of `d`, which is not complex.
pub(crate) fn complex_element_error(d: DType) -> String {
    format!("a complex number cannot be stored in an array of {}", d.name())
}

/// Why a function (shown as `shown`) that takes an array of numbers
/// (complex ones only when `complex_ok`) does not take `arr` (`None`:
/// not an array).
pub(crate) fn numeric_array_error(shown: &str, arr: Option<&TypeData>, complex_ok: bool) -> Option<String> {
    let Some(ty) = arr else { return Some(format!("{shown} takes an array")) };
    if ty.dtype.is_text() {
        Some(format!("{shown} takes an array of numbers, not {}", ty.dtype.name()))
    } else if ty.dtype.is_complex() && !complex_ok {
        Some(format!("{shown} of complex numbers is not supported in compiled code"))
    } else if ty.ndim().is_none() {
        Some("the number of axes of this array is not known".into())
    } else {
        None
    }
}

/// Whether the function `f` creates an array (which GPU code cannot).
pub(crate) fn creates_array(f: NpFn) -> bool {
    matches!(
        f,
        NpFn::Sort
            | NpFn::SortInPlace
            | NpFn::ArgSort
            | NpFn::ArgSortMethod
            | NpFn::Partition
            | NpFn::ArrayOf
            | NpFn::Linspace
            | NpFn::Outer
            | NpFn::Roll
            | NpFn::Cross
            | NpFn::Concatenate
            | NpFn::Diff
            | NpFn::FlatNonzero
            | NpFn::Unique
            | NpFn::Eye
            | NpFn::Identity
            | NpFn::Histogram
            | NpFn::Det
            | NpFn::Eigh
            | NpFn::EigvalsH
    )
}

/// `**` arguments, which compiled code does not take.
pub(crate) const DOUBLE_STAR: &str = "`**` arguments are not supported";

/// How NumPy spells the function `g` (shown in messages).
pub(crate) fn np_function_shown(g: NpFn) -> &'static str {
    match g {
        NpFn::Sort => "`np.sort`",
        NpFn::SortInPlace => "`.sort()`",
        NpFn::ArgSort => "`np.argsort`",
        NpFn::Partition => "`np.partition`",
        NpFn::ArgSortMethod => "`.argsort()`",
        NpFn::Linspace => "`np.linspace`",
        NpFn::Outer => "`np.outer`",
        NpFn::Roll => "`np.roll`",
        NpFn::Cross => "`np.cross`",
        NpFn::Concatenate => "`np.concatenate`",
        NpFn::Diff => "`np.diff`",
        NpFn::FlatNonzero => "`np.flatnonzero`",
        NpFn::Unique => "`np.unique`",
        NpFn::Trace => "`np.trace`",
        NpFn::TraceMethod => "`.trace()`",
        NpFn::Eye => "`np.eye`",
        NpFn::Identity => "`np.identity`",
        NpFn::Histogram => "`np.histogram`",
        NpFn::Searchsorted => "`np.searchsorted`",
        NpFn::Norm => "`np.linalg.norm`",
        NpFn::Det => "`np.linalg.det`",
        NpFn::Eigh => "`np.linalg.eigh`",
        NpFn::EigvalsH => "`np.linalg.eigvalsh`",
        NpFn::ArrayOf => "`np.array`",
        NpFn::Var => "`np.var`",
        NpFn::Std => "`np.std`",
        NpFn::VarMethod => "`.var()`",
        NpFn::StdMethod => "`.std()`",
        NpFn::Nan(r) => match r {
            NanRed::Sum => "`np.nansum`",
            NanRed::Prod => "`np.nanprod`",
            NanRed::Min => "`np.nanmin`",
            NanRed::Max => "`np.nanmax`",
            NanRed::ArgMin => "`np.nanargmin`",
            NanRed::ArgMax => "`np.nanargmax`",
            NanRed::Mean => "`np.nanmean`",
            NanRed::Var => "`np.nanvar`",
            NanRed::Std => "`np.nanstd`",
        },
    }
}

/// The keywords the lowering of `g` reads first (refusing any other, and
/// any given twice), for the functions whose lowering starts there.
pub(crate) fn leading_keywords(g: NpFn) -> Option<&'static [&'static str]> {
    Some(match g {
        NpFn::Sort | NpFn::SortInPlace | NpFn::Partition | NpFn::Outer | NpFn::Det | NpFn::Cross => &[],
        NpFn::ArgSort | NpFn::ArgSortMethod => &["kind"],
        NpFn::Searchsorted => &["v", "side", "sorter"],
        NpFn::Linspace => &["start", "stop", "num", "endpoint"],
        NpFn::Roll => &["shift", "axis"],
        NpFn::Eigh | NpFn::EigvalsH => &["UPLO"],
        NpFn::Norm => &["ord"],
        NpFn::ArrayOf => &["dtype"],
        NpFn::Var | NpFn::Std | NpFn::VarMethod | NpFn::StdMethod | NpFn::Nan(NanRed::Var | NanRed::Std) => &["ddof"],
        NpFn::Nan(_) => &[],
        _ => return None,
    })
}

/// Why a call of `shown` whose lowering reads the keywords `known` is
/// refused: a keyword not among them, or one given twice.
pub(crate) fn keyword_error(keywords: &[hir::Keyword], known: &[&str], shown: &str) -> Option<(TextRange, String)> {
    let mut seen: Vec<&str> = Vec::new();
    for k in keywords {
        let name = k.name.as_deref().unwrap_or("");
        if !known.contains(&name) {
            return Some((k.range, format!("{shown} takes no keyword `{name}=` in compiled code")));
        }
        if seen.contains(&name) {
            return Some((k.range, format!("`{name}=` is given twice")));
        }
        seen.push(name);
    }
    None
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// What `f` names among this module's functions, and its name as
    /// NumPy spells it (shown in messages).
    pub(super) fn np_function_target(&self, f: hir::ExprId) -> Option<(NpFn, &'static str)> {
        let found = match &self.hir.exprs[f] {
            hir::Expr::Name(_) => match self.global_of(f) {
                Some(Global::Boundary { module, name }) if module == "numpy" => numpy_function(name),
                Some(Global::Boundary { module, name }) if module == "numpy.linalg" => linalg_function(name),
                _ => None,
            },
            &hir::Expr::Attribute { base, ref attr } => {
                let attr = &**attr;
                if self.boundary_module(base) == Some("numpy") {
                    numpy_function(attr)
                } else if self.is_numpy_linalg(base) {
                    linalg_function(attr)
                } else if (attr == "var" || attr == "std") && self.is_array_expr(base) {
                    Some(if attr == "var" { NpFn::VarMethod } else { NpFn::StdMethod })
                } else if attr == "trace" && self.is_array_expr(base) {
                    Some(NpFn::TraceMethod)
                } else if attr == "sort" || attr == "argsort" {
                    // The method of an array local or of a view (`m[i].sort()`).
                    let method = if attr == "sort" { NpFn::SortInPlace } else { NpFn::ArgSortMethod };
                    match &self.hir.exprs[base] {
                        hir::Expr::Name(n)
                            if matches!(
                                self.locals.get(self.name_text(n)),
                                Some(LocalInfo { ty: Some(LocalTy::Array(_)), .. })
                            ) =>
                        {
                            Some(method)
                        }
                        hir::Expr::Subscript { .. } => Some(method),
                        _ => None,
                    }
                } else {
                    None
                }
            }
            _ => None,
        };
        found.map(|g| (g, np_function_shown(g)))
    }

    /// Whether `e` is `np.linalg` (or `linalg` imported from NumPy).
    fn is_numpy_linalg(&self, e: hir::ExprId) -> bool {
        match &self.hir.exprs[e] {
            &hir::Expr::Attribute { base, ref attr } => {
                &**attr == "linalg" && self.boundary_module(base) == Some("numpy")
            }
            hir::Expr::Name(_) => self.boundary_module(e) == Some("numpy.linalg"),
            _ => false,
        }
    }

    /// A call of one of this module's functions.
    pub(super) fn np_function_call(&mut self, f: NpFn, shown: &str, c: &CallExpr) -> Val {
        let hir = self.hir;
        if let Some(&s) = c.args.iter().find(|&&a| matches!(hir.exprs[a], hir::Expr::Starred(_))) {
            return self.err(&self.range(s), STARRED_ARGUMENT);
        }
        if let Some(k) = c.keywords.iter().find(|k| k.name.is_none()) {
            return self.err(&k.range, DOUBLE_STAR);
        }
        let creates = creates_array(f);
        if creates && self.decl.attrs.is_device() {
            return self.err(c, super::arrays::gpu_creation_error(shown));
        }
        match f {
            NpFn::Sort | NpFn::SortInPlace => self.sort_call(f, shown, c),
            NpFn::ArgSort | NpFn::ArgSortMethod => self.argsort_call(f, shown, c),
            NpFn::Partition => self.partition_call(shown, c),
            NpFn::Searchsorted => self.searchsorted_call(shown, c),
            NpFn::Norm => self.norm_call(shown, c),
            NpFn::Det => self.det_call(shown, c),
            NpFn::Eigh => self.eigh_call(shown, c, true),
            NpFn::EigvalsH => self.eigh_call(shown, c, false),
            NpFn::Nan(r) => self.nan_reduction_call(r, shown, c, true),
            NpFn::Var | NpFn::VarMethod => self.nan_reduction_call(NanRed::Var, shown, c, false),
            NpFn::Std | NpFn::StdMethod => self.nan_reduction_call(NanRed::Std, shown, c, false),
            NpFn::ArrayOf => self.array_of_call(shown, c),
            NpFn::Linspace => self.linspace_call(shown, c),
            NpFn::Outer => self.outer_call(shown, c),
            NpFn::Roll => self.roll_call(shown, c),
            NpFn::Cross => self.cross_call(shown, c),
            NpFn::Concatenate => self.concatenate_call(shown, c),
            NpFn::Diff => self.diff_call(shown, c),
            NpFn::FlatNonzero => self.flatnonzero_call(shown, c),
            NpFn::Unique => self.unique_call(shown, c),
            NpFn::Trace | NpFn::TraceMethod => self.trace_call(f, shown, c),
            NpFn::Eye | NpFn::Identity => self.eye_call(f, shown, c),
            NpFn::Histogram => self.histogram_call(shown, c),
        }
    }

    /// The keyword arguments of `c`, refusing any not in `known`.
    pub(super) fn keywords_of<'h>(
        &mut self,
        c: &CallExpr<'h>,
        known: &[&str],
        shown: &str,
    ) -> Option<Vec<(&'h str, hir::ExprId)>> {
        if let Some((at, message)) = keyword_error(c.keywords, known, shown) {
            self.err(&at, message);
            return None;
        }
        Some(c.keywords.iter().map(|k| (k.name.as_deref().unwrap_or(""), k.value)).collect())
    }

    /// The one array argument of a call, of numbers (complex ones only
    /// when `complex_ok`); `None` when it is not (reported).
    pub(super) fn numeric_array_arg(
        &mut self,
        e: hir::ExprId,
        shown: &str,
        complex_ok: bool,
    ) -> Option<(ValueId, TypeData)> {
        let v = self.expr(e);
        if matches!(v, Val::Err) {
            return None;
        }
        let arr = match &v {
            Val::Arr { ty, .. } => Some(ty),
            _ => None,
        };
        if let Some(message) = numeric_array_error(shown, arr, complex_ok) {
            self.err(&self.range(e), message);
            return None;
        }
        match v {
            Val::Arr { v, ty } => Some((v, ty)),
            _ => None,
        }
    }

    /// `np.array(list, dtype=)`.
    fn array_of_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        let Some(kws) = self.keywords_of(c, &["dtype"], shown) else { return Val::Err };
        let args = c.args;
        if args.is_empty() || args.len() > 2 {
            return self.err(&c.at, array_of_count_error(shown));
        }
        let dtype_expr = match (kws.first(), args.get(1)) {
            (Some(_), Some(&p)) => return self.err(&self.range(p), super::arrays::DTYPE_TWICE),
            (Some((_, k)), None) => Some(*k),
            (None, p) => p.copied(),
        };
        let dtype = match dtype_expr {
            Some(e) => match self.dtype_arg(e) {
                Some(d) => Some(d),
                None => return Val::Err,
            },
            None => None,
        };
        // Of a list local (see `lists.rs`): its copy.
        if let hir::Expr::Name(n) = &self.hir.exprs[args[0]] {
            if self.lists.contains_key(self.name_text(n)) {
                return match self.expr(args[0]) {
                    Val::Arr { v, ty } => {
                        let d = dtype.unwrap_or(ty.dtype);
                        self.copy_to_new(v, &ty, d, c)
                    }
                    _ => Val::Err,
                };
            }
        }
        // A refused expression (a list comprehension) has its own error.
        if let hir::Expr::Refused { .. } = &self.hir.exprs[args[0]] {
            return self.expr(args[0]);
        }
        let Some((shape, leaves)) = self.nested_elements(args[0], shown) else { return Val::Err };
        let mut vals = Vec::with_capacity(leaves.len());
        for e in leaves {
            let v = self.expr(e);
            let e = self.range(e);
            match &v {
                Val::Err | Val::None | Val::Maybe { .. } => return Val::Err,
                Val::Void => return self.err(&e, "this call returns nothing"),
                _ => {
                    let (array, tuple) = (matches!(v, Val::Arr { .. }), matches!(v, Val::Tuple(_)));
                    if let Some(message) = list_element_error(shown, array, tuple, v.scalar()) {
                        return self.err(&e, message);
                    }
                }
            }
            vals.push((v, e));
        }
        let scalars = vals.iter().filter_map(|(v, _)| v.scalar());
        let d = array_of_dtype(dtype, scalars).expect("numbers promote");
        self.at(&c.at);
        match self.array_of_elements(d, &shape, vals, &c.at) {
            Some((arr, ty)) => Val::Arr { v: arr, ty },
            None => Val::Err,
        }
    }

    /// A new C-order array of `d` and extents `shape` holding `vals` (in
    /// C order), each converted as `np.array` converts (see
    /// [`array_element_via`]); `None` when one does not convert (reported).
    pub(super) fn array_of_elements(
        &mut self,
        d: DType,
        shape: &[usize],
        vals: Vec<(Val, TextRange)>,
        at: &TextRange,
    ) -> Option<(ValueId, TypeData)> {
        let dims: Vec<(ValueId, bool)> = shape
            .iter()
            .map(|&n| {
                let nm = self.fresh("ext");
                (self.b.int(TypeId::INT64, n as i128, &nm), true)
            })
            .collect();
        let (arr, ty) = self.new_empty_array(d, &dims, at);
        for (flat, (v, e)) in vals.into_iter().enumerate() {
            let s = v.scalar()?;
            let float_literal = matches!(v, Val::Lit { lit: Lit::Float(_), .. });
            let Some(via) = array_element_via(s, float_literal, d) else {
                self.err(&e, complex_element_error(d));
                return None;
            };
            let x = if via != d {
                // NumPy converts a float to an integer dtype by truncation,
                // which a constant's conversion refuses: cast it in the IR.
                let f = self.materialize(&v, via, &e)?;
                let nm = self.fresh("el");
                self.b.cast(TypeId::scalar(d), f, &nm)
            } else {
                self.materialize(&v, d, &e)?
            };
            self.at(at);
            let mut rest = flat;
            let mut idx = vec![0; shape.len()];
            for k in (0..shape.len()).rev() {
                idx[k] = rest % shape[k];
                rest /= shape[k];
            }
            let idx: Vec<ValueId> = idx
                .iter()
                .map(|&i| {
                    let nm = self.fresh("at");
                    self.b.int(TypeId::INT64, i as i128, &nm)
                })
                .collect();
            self.b.index_store(arr, &idx, x);
        }
        Some((arr, ty))
    }

    /// The extents and numbers of the nested list `e` (see
    /// [`nested_shape`]); `None` when it is ragged or no list (reported).
    fn nested_elements(&mut self, e: hir::ExprId, shown: &str) -> Option<(Vec<usize>, Vec<hir::ExprId>)> {
        let hir = self.hir;
        let elements = |x: hir::ExprId| match &hir.exprs[x] {
            hir::Expr::List(elts) | hir::Expr::Tuple(elts) => Some(elts.to_vec()),
            _ => None,
        };
        match nested_shape(e, &elements) {
            Ok(found) => Some(found),
            Err((at, why)) => {
                if why == Nesting::NotList {
                    self.expr(at);
                }
                self.err(&self.range(at), why.message(shown));
                None
            }
        }
    }
}

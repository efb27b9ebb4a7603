//! NumPy on whole arrays: creating arrays in compiled code (`np.empty`,
//! `np.zeros`, `np.ones`, `np.full`, the `*_like` forms, `np.arange`,
//! `a.copy()`, `a.astype(dtype)`), reducing an array (`np.sum`, `np.prod`,
//! `np.min`, `np.max`, `np.mean`, `np.argmin`, `np.argmax`, `np.any`,
//! `np.all` and the same methods) to a scalar or, with `axis=k`, along one
//! axis to an array of one axis fewer, and running sums (`np.cumsum`), with
//! NumPy's result dtypes. Everything lowers to IR: an `alloc` (compact, C
//! order, zeroed, in the call's arena) and loops over every index in C
//! order. An axis is an integer literal (negative counts from the end),
//! checked against the rank when the function is compiled; a reduction
//! also takes a tuple of them that names one axis or every axis (then, as
//! the one axis of a 1-D array, it gives a scalar), and `keepdims=True`
//! (a view of the result with the reduced axes of extent 1). A dtype is
//! NumPy's (any of its names of the dtypes compiled code has, the aliases
//! NumPy 2 removed refused with its AttributeError), postyp's, Python's,
//! or a local bound to a NumPy dtype (`dtype = np.int_`). Not here:
//! `out=` and every other keyword but `dtype=`, `axis=` and `keepdims=`,
//! a tuple of some but not all of three axes or more, whole-array
//! arithmetic (`elementwise.rs`), slicing, sorting.

use super::*;
use postc_ir::{Layout, Shape};

/// An array of `d` filled with a number of dtype `s` (`np.full`,
/// `np.full_like`, `a[1:] = x`): a complex number into reals, text into
/// numbers.
pub(crate) fn fill_dtype_error(s: DType, d: DType) -> Option<String> {
    if s.is_complex() && !d.is_complex() {
        return Some(format!("cannot fill an array of {} with a complex number", d.name()));
    }
    (s.is_text() && !d.is_text()).then(|| format!("cannot fill an array of {} with {}", d.name(), s.name()))
}

/// A NumPy function or array method over whole arrays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ArrFn {
    Empty,
    Zeros,
    Ones,
    Full,
    EmptyLike,
    ZerosLike,
    OnesLike,
    FullLike,
    Arange,
    Copy,
    /// `a.transpose()`, `np.transpose(a)`: a view (lower/slicing.rs).
    Transpose,
    /// `a.ravel()`, `np.ravel(a)`: a view when `a` is C-contiguous, else a
    /// copy (lower/slicing.rs).
    Ravel,
    /// `a.reshape(shape)`, `np.reshape(a, shape)`: a view of `a`'s
    /// elements in C order, which are copied first when `a` is not
    /// C-contiguous (lower/slicing.rs).
    Reshape,
    /// `a.flatten()`: a new 1-D copy in C order (lower/slicing.rs).
    Flatten,
    /// `a.astype(dtype)`: a new array of `a`'s shape, each element
    /// converted.
    Astype,
    Reduce(Red),
    /// `np.cumsum(a)`, `a.cumsum()`: the running sums, over the flattened
    /// array in C order or, with `axis=k`, along axis `k`.
    Cumsum,
}

/// A reduction of a whole array.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Red {
    Sum,
    Prod,
    Min,
    Max,
    Mean,
    ArgMin,
    ArgMax,
    Any,
    All,
}

/// A dtype given both by position and as `dtype=`.
pub(crate) const DTYPE_TWICE: &str = "the dtype is given twice";

/// `shown`, which creates an array, called in GPU code.
pub(crate) fn gpu_creation_error(shown: &str) -> String {
    format!("{shown} creates an array, which GPU code cannot: pass the array in as a parameter")
}

/// Compiled code creates no array of text.
pub(crate) const TEXT_ARRAY: &str = "arrays of Str or Bytes cannot be created in compiled code";

/// `np.full`'s and `np.full_like`'s fill value that is not a number.
pub(crate) const FILL_NOT_A_NUMBER: &str = "the fill value is a number";

/// A tuple of axes where NumPy takes one (`cumsum`, `argmin`, `argmax`).
pub(crate) const TUPLE_AXIS: &str = "TypeError: 'tuple' object cannot be interpreted as an integer";

/// The array function or method `f` (shown as `shown`) of what is not
/// an array.
pub(crate) fn not_an_array_error(f: ArrFn, shown: &str) -> String {
    match f {
        ArrFn::Reduce(_) => {
            format!("{shown} takes an array here (of numbers, the built-ins `min` and `max` are Python's)")
        }
        _ => format!("{shown} takes an array"),
    }
}

/// Why the reduction or running sum `f` (shown as `shown`) does not take
/// an array of `d`: text, or complex numbers ordered.
pub(crate) fn reduced_dtype_error(f: ArrFn, shown: &str, d: DType) -> Option<String> {
    let ordered = matches!(f, ArrFn::Reduce(Red::Min | Red::Max | Red::ArgMin | Red::ArgMax));
    if d.is_text() {
        Some(format!("{shown} takes an array of numbers"))
    } else if ordered && d.is_complex() {
        Some(format!("{shown} of complex numbers is not supported: compare `abs` or the parts"))
    } else {
        None
    }
}

/// An axis of `shown` that is not an integer constant.
pub(crate) fn axis_constant_error(shown: &str) -> String {
    format!("the axis of {shown} is an integer constant here (`axis=0`, `axis=-1`)")
}

/// Why the axes `ks` of an array of `nd` axes are refused when the
/// function is compiled: several, one of them out of range (one alone
/// raises NumPy's AxisError when the call runs), or one named twice.
pub(crate) fn axes_error(ks: &[i64], nd: usize) -> Option<String> {
    let n = nd as i64;
    if let ([k], true) = (ks, nd > 0) {
        if *k < -n || *k >= n {
            return None;
        }
    }
    let mut axes = Vec::new();
    for &k in ks {
        if k < -n || k >= n {
            return Some(axis_bounds_error(k as i128, nd));
        }
        let k = if k < 0 { k + n } else { k };
        if axes.contains(&k) {
            return Some("ValueError: duplicate value in 'axis'".into());
        }
        axes.push(k);
    }
    None
}

/// NumPy's AxisError of the axis `k` of an array of `nd` axes.
pub(crate) fn axis_bounds_error(k: i128, nd: usize) -> String {
    format!("AxisError: axis {k} is out of bounds for array of dimension {nd}")
}

/// A reduction over some but not all of the `nd` axes of an array.
pub(crate) fn some_axes_error(shown: &str, nd: usize) -> String {
    format!("{shown} over some of the axes of a {nd}-D array at once is not supported here: reduce one axis at a time")
}

/// `x.dtype` given as a dtype, of what is not an array local or
/// parameter.
pub(crate) const DTYPE_OF_NO_ARRAY_LOCAL: &str =
    "this `.dtype` names no dtype: compiled code reads `a.dtype` of an array local or parameter";

/// A dtype argument that names no dtype (`shown` as written).
pub(crate) fn unknown_dtype_error(shown: &str) -> String {
    format!("unknown dtype `{shown}`: give a NumPy or postyp dtype (`np.float64`, `Int32`) or `float`, `int`, `bool`")
}

/// NumPy's AttributeError for `np.name`, a dtype alias NumPy 2 removed.
pub(crate) fn removed_dtype_error(name: &str) -> Option<String> {
    let instead = removed_numpy_dtype(name)?;
    Some(format!("AttributeError: `np.{name}` was removed in the NumPy 2.0 release. Use `{instead}` instead."))
}

/// Why `np.arange` (shown as `shown`) does not take a bound of the type
/// `s` (`None`: not a number).
pub(crate) fn arange_bound_error(shown: &str, s: Option<Scalar>) -> Option<String> {
    match s {
        Some(s) if matches!(kind(s.dtype), Kind::Int | Kind::Float) => None,
        Some(s) => Some(format!("{shown} takes integers or floats, not {}", s.dtype.name())),
        None => Some(format!("{shown} takes numbers")),
    }
}

/// Why `np.arange` (shown as `shown`) does not make an array of `d`.
pub(crate) fn arange_dtype_error(shown: &str, d: DType) -> Option<String> {
    (d.is_complex() || d == DType::Bool).then(|| format!("{shown} makes integers or floats here, not {}", d.name()))
}

/// NumPy's dtype of `np.arange`'s bounds (integers or floats): Python
/// numbers at their default dtype, NumPy scalars at their own.
pub(crate) fn arange_common(bounds: impl IntoIterator<Item = Scalar>) -> Option<DType> {
    let mut common: Option<DType> = None;
    for s in bounds {
        let d = if s.weak { default_of(kind(s.dtype)) } else { s.dtype };
        common = Some(match common {
            None => d,
            Some(c) => crate::pytypes::promote_strong(c, d).unwrap_or(DType::Float64),
        });
    }
    common
}

/// A shape of no extent, given to `shown`.
pub(crate) fn empty_shape_error(shown: &str) -> String {
    format!("{shown} makes arrays of one axis or more here: the shape `()` is not supported")
}

/// An extent of a shape that is not an integer: of the dtype `s`, or an
/// array (`array`), or something else.
pub(crate) fn extent_error(s: Option<Scalar>, array: bool) -> String {
    let what = match s {
        Some(s) => s.dtype.name().to_owned(),
        None if array => "an array".to_owned(),
        None => "not a number".to_owned(),
    };
    format!("a shape is an integer or a tuple of integers (or `a.shape`), and this is {what}")
}

/// The arguments of a call of the array function or method `f` (the
/// receiver first), as the lowering reads them.
pub(crate) struct ArrayForm {
    /// The receiver, the positional arguments and the leading ones given
    /// by name.
    pub args: Vec<hir::ExprId>,
    pub dtype_expr: Option<hir::ExprId>,
    pub axis_expr: Option<hir::ExprId>,
    pub keepdims: bool,
}

/// The arguments of a call of the array function or method `f` (shown as
/// `shown`) outside GPU code and without `*` arguments, or why compiled
/// code refuses it whatever its arguments' values: a keyword it does not
/// take, `keepdims=` not a Bool literal, `**`, the count of arguments, a
/// dtype or an axis given twice, `astype` without a dtype.
pub(crate) fn array_call_form(
    hir: &hir::Body,
    f: ArrFn,
    shown: &str,
    recv: Option<hir::ExprId>,
    positional: &[hir::ExprId],
    keywords: &[hir::Keyword],
    call_at: TextRange,
) -> Result<ArrayForm, (TextRange, String)> {
    let takes_axis = matches!(f, ArrFn::Reduce(_) | ArrFn::Cumsum);
    // `dtype=` and `axis=` are the keywords compiled; the others
    // (`out=`, `order=`, `keepdims=`) are NumPy's but not compiled.
    // NumPy's `ravel` and `copy` take none either (CPython's TypeError).
    let takes_dtype = !matches!(
        f,
        ArrFn::Reshape
            | ArrFn::Flatten
            | ArrFn::Ravel
            | ArrFn::Copy
            | ArrFn::Cumsum
            | ArrFn::Reduce(_)
            | ArrFn::Transpose
    );
    let mut dtype_kw: Option<hir::ExprId> = None;
    let mut axis_kw: Option<hir::ExprId> = None;
    let mut named: Vec<Option<hir::ExprId>> = vec![None; creation_names(f).len()];
    let mut keepdims = false;
    for k in keywords {
        let position = creation_names(f).iter().position(|n| Some(*n) == k.name.as_deref());
        match k.name.as_deref() {
            Some("dtype") if takes_dtype => dtype_kw = Some(k.value),
            // `np.empty(shape=(0, 0))`, `np.full(n, fill_value=x)`: the
            // leading arguments by name.
            Some(_) if position.is_some_and(|p| p >= positional.len()) => {
                named[position.expect("a named argument")] = Some(k.value)
            }
            Some("axis") if takes_axis => axis_kw = Some(k.value),
            Some("keepdims") if matches!(f, ArrFn::Reduce(_)) => match hir.exprs[k.value] {
                hir::Expr::Literal(Lit::Bool(b)) => keepdims = b,
                _ => return Err((hir.expr_ranges[k.value], "`keepdims=` is `True` or `False` here".into())),
            },
            Some(name) => return Err((k.range, format!("{shown} takes no keyword `{name}=` in compiled code"))),
            None => return Err((k.range, super::npfuncs::DOUBLE_STAR.into())),
        }
    }
    let mut args: Vec<hir::ExprId> = Vec::new();
    if let Some(r) = recv {
        args.push(r);
    }
    args.extend(positional.iter().copied());
    args.extend(named.iter().skip(positional.len()).map_while(|n| *n));
    // (required positional, optional positional dtype)
    let (need, dtype_pos) = match f {
        ArrFn::Empty | ArrFn::Zeros | ArrFn::Ones | ArrFn::EmptyLike | ArrFn::ZerosLike | ArrFn::OnesLike => (1, true),
        ArrFn::Full | ArrFn::FullLike => (2, true),
        ArrFn::Astype => (1, true),
        ArrFn::Copy
        | ArrFn::Transpose
        | ArrFn::Ravel
        | ArrFn::Flatten
        | ArrFn::Reshape
        | ArrFn::Reduce(_)
        | ArrFn::Cumsum => (1, false),
        ArrFn::Arange => (0, false),
    };
    // A reduction's and `cumsum`'s second positional argument is the axis.
    let max = need + dtype_pos as usize + takes_axis as usize;
    if f == ArrFn::Arange {
        if args.is_empty() || args.len() > 3 {
            return Err((call_at, format!("{shown} takes 1 to 3 arguments (and `dtype=`)")));
        }
    } else if f != ArrFn::Reshape && (args.len() < need || args.len() > max) {
        let given = args.len() - recv.is_some() as usize;
        let wanted = need - recv.is_some() as usize;
        return Err((
            call_at,
            format!(
                "{shown} takes {wanted}{} argument{} here, not {given}",
                if dtype_pos {
                    " (and a dtype)"
                } else if takes_axis {
                    " (and an axis)"
                } else {
                    ""
                },
                if wanted == 1 { "" } else { "s" }
            ),
        ));
    }
    let dtype_expr = match (dtype_kw, args.get(need).filter(|_| dtype_pos)) {
        (Some(_), Some(&p)) => return Err((hir.expr_ranges[p], DTYPE_TWICE.into())),
        (Some(k), None) => Some(k),
        (None, Some(&p)) => Some(p),
        (None, None) if f == ArrFn::Astype => return Err((call_at, format!("{shown} takes a dtype"))),
        (None, None) => None,
    };
    let axis_expr = match (axis_kw, args.get(need).filter(|_| takes_axis)) {
        (Some(_), Some(&p)) => return Err((hir.expr_ranges[p], "the axis is given twice".into())),
        (k, p) => k.or(p.copied()),
    };
    Ok(ArrayForm { args, dtype_expr, axis_expr, keepdims })
}

/// The names of the leading parameters of the creation function `f`,
/// which a call may give by keyword (`np.empty(shape=(0, 0))`).
pub(crate) fn creation_names(f: ArrFn) -> &'static [&'static str] {
    match f {
        ArrFn::Empty | ArrFn::Zeros | ArrFn::Ones => &["shape"],
        ArrFn::Full => &["shape", "fill_value"],
        _ => &[],
    }
}

/// The NumPy function `name` over arrays, if compiled code has it.
pub(crate) fn array_func(name: &str) -> Option<ArrFn> {
    Some(match name {
        "empty" => ArrFn::Empty,
        "zeros" => ArrFn::Zeros,
        "ones" => ArrFn::Ones,
        "full" => ArrFn::Full,
        "empty_like" => ArrFn::EmptyLike,
        "zeros_like" => ArrFn::ZerosLike,
        "ones_like" => ArrFn::OnesLike,
        "full_like" => ArrFn::FullLike,
        "arange" => ArrFn::Arange,
        "copy" => ArrFn::Copy,
        "transpose" => ArrFn::Transpose,
        "ravel" => ArrFn::Ravel,
        "reshape" => ArrFn::Reshape,
        "cumsum" => ArrFn::Cumsum,
        other => ArrFn::Reduce(reduction(other)?),
    })
}

/// The array method `name` (`a.sum()`, `a.copy()`), if compiled code has it.
pub(crate) fn array_method(name: &str) -> Option<ArrFn> {
    match name {
        "copy" => Some(ArrFn::Copy),
        "transpose" => Some(ArrFn::Transpose),
        "ravel" => Some(ArrFn::Ravel),
        "reshape" => Some(ArrFn::Reshape),
        "flatten" => Some(ArrFn::Flatten),
        "astype" => Some(ArrFn::Astype),
        "cumsum" => Some(ArrFn::Cumsum),
        other => reduction(other).map(ArrFn::Reduce),
    }
}

fn reduction(name: &str) -> Option<Red> {
    Some(match name {
        "sum" => Red::Sum,
        "prod" => Red::Prod,
        "min" | "amin" => Red::Min,
        "max" | "amax" => Red::Max,
        "mean" => Red::Mean,
        "argmin" => Red::ArgMin,
        "argmax" => Red::ArgMax,
        "any" => Red::Any,
        "all" => Red::All,
        _ => return None,
    })
}

impl Red {
    /// NumPy's name of the reduction in its messages.
    fn numpy_name(self) -> &'static str {
        match self {
            Red::Min => "minimum",
            Red::Max => "maximum",
            Red::ArgMin => "argmin",
            Red::ArgMax => "argmax",
            _ => "",
        }
    }
}

/// A NumPy dtype object by its attribute name (`np.float64`) or string,
/// as NumPy 2 names them (the C names `np.longlong`, `np.intc`, ... with
/// the sizes of x86-64 and AArch64 Linux).
pub(crate) fn numpy_dtype(name: &str) -> Option<DType> {
    Some(match name {
        "float64" | "double" => DType::Float64,
        "float32" | "single" => DType::Float32,
        "float16" | "half" => DType::Float16,
        "int8" | "byte" => DType::Int8,
        "int16" | "short" => DType::Int16,
        "int32" | "intc" => DType::Int32,
        "int64" | "intp" | "int_" | "long" | "longlong" => DType::Int64,
        "uint8" | "ubyte" => DType::UInt8,
        "uint16" | "ushort" => DType::UInt16,
        "uint32" | "uintc" => DType::UInt32,
        "uint64" | "uintp" | "uint" | "ulong" | "ulonglong" => DType::UInt64,
        "bool_" | "bool" => DType::Bool,
        "complex64" | "csingle" => DType::Complex64,
        "complex128" | "cdouble" => DType::Complex128,
        _ => return None,
    })
}

/// The dtype aliases NumPy 2.0 removed, with the name its AttributeError
/// says to use instead.
pub(crate) fn removed_numpy_dtype(name: &str) -> Option<&'static str> {
    Some(match name {
        "float_" => "np.float64",
        "complex_" | "cfloat" => "np.complex128",
        "singlecomplex" => "np.complex64",
        "longfloat" => "np.longdouble",
        "longcomplex" | "clongfloat" => "np.clongdouble",
        _ => return None,
    })
}

/// The dtype NumPy's `sum` and `prod` give for elements of `d`: small
/// integers and Bool widen to the platform integer (Int64, UInt64).
pub(crate) fn sum_dtype(d: DType) -> DType {
    match d {
        DType::Bool | DType::Int8 | DType::Int16 | DType::Int32 => DType::Int64,
        DType::UInt8 | DType::UInt16 | DType::UInt32 => DType::UInt64,
        other => other,
    }
}

/// The accumulator's dtype and the result's of NumPy's `sum` and `prod`
/// of elements of `d` (Float16 is accumulated in Float32, as NumPy's
/// loop does).
pub(crate) fn sum_dtypes(d: DType) -> (DType, DType) {
    match d {
        DType::Float16 => (DType::Float32, DType::Float16),
        d => (sum_dtype(d), sum_dtype(d)),
    }
}

/// An open loop of [`FnLower::loops_open`].
pub(super) struct Counted {
    pub(super) i: ValueId,
    head: BlockId,
    exit: BlockId,
}

impl<'a, 'c> FnLower<'a, 'c> {
    /// Declares, in the entry block, the `let` of every array local bound
    /// more than once or inside a block, so that each binding can `set`
    /// it whatever path reaches a use. Its first value is an array of the
    /// local's type with no elements (or its static extents), from the
    /// arena; that of a parameter rebound in the body is its argument.
    pub(super) fn declare_rebound_arrays(&mut self) {
        let mut names: Vec<(String, TypeData, bool)> = self
            .locals
            .iter()
            .filter(|(_, l)| l.rebound)
            .filter_map(|(n, l)| match &l.ty {
                Some(LocalTy::Array(t)) => Some((n.clone(), t.clone(), l.param)),
                _ => None,
            })
            .collect();
        names.sort_by(|a, b| a.0.cmp(&b.0));
        for (n, ty, param) in names {
            if param {
                let tid = self.types.intern(ty.clone());
                let arg = self.slots[&n];
                let name = self.fresh(&n);
                let v = self.b.let_(tid, arg, &name);
                self.slots.insert(n, v);
                continue;
            }
            let Shape::Dims(dims) = &ty.shape else { continue };
            let ext: Vec<ValueId> = dims
                .iter()
                .map(|d| {
                    let nm = self.fresh("ext");
                    self.b.int(TypeId::INT64, d.unwrap_or(0) as i128, &nm)
                })
                .collect();
            let tid = self.types.intern(ty.clone());
            let nm = self.fresh("unbound");
            let init = self.b.alloc(tid, &ext, &nm);
            let v = self.b.let_(tid, init, &n);
            self.slots.insert(n, v);
        }
    }

    /// A new C-order array of dtype `d` holding the elements of `sv` (of
    /// type `st`), converted as `astype` converts.
    pub(super) fn copy_to_new(&mut self, sv: ValueId, st: &TypeData, d: DType, c: &CallExpr) -> Val {
        if st.ndim().is_none() {
            return self.err(c, "the number of axes of this array is not known");
        }
        self.at(c);
        let ids = self.dims_of(sv, st);
        let dims: Vec<(ValueId, bool)> = ids.iter().map(|&n| (n, true)).collect();
        let arr = self.new_array(d, &dims, c);
        if !self.copy_elements(sv, st, arr.0, d, &ids, c) {
            return Val::Err;
        }
        Val::Arr { v: arr.0, ty: arr.1 }
    }

    /// Stores every element of `sv` (of type `st`, extents `dims`) into
    /// `to` (of dtype `d`) at the same index; whether it could.
    fn copy_elements(
        &mut self,
        sv: ValueId,
        st: &TypeData,
        to: ValueId,
        d: DType,
        dims: &[ValueId],
        c: &CallExpr,
    ) -> bool {
        let open = self.loops_open(dims, c);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let x = self.load(&(sv, st.clone()), &idx, c.range());
        let Some(x) = self.materialize(&x, d, c) else { return false };
        self.b.index_store(to, &idx, x);
        self.loops_close(open, c);
        true
    }

    /// What `f` names among NumPy's array functions (`np.zeros`, `zeros`
    /// imported from NumPy) or array methods (`a.sum`), if anything.
    pub(super) fn array_target(&self, f: hir::ExprId) -> Option<(ArrFn, String, Option<hir::ExprId>)> {
        match &self.hir.exprs[f] {
            hir::Expr::Name(n) => {
                let name = self.name_text(n);
                if self.locals.contains_key(name) {
                    return None;
                }
                match self.cx.globals.get(name) {
                    Some(Global::Boundary { module, name: src }) if module == "numpy" => {
                        array_func(src).map(|a| (a, format!("np.{src}"), None))
                    }
                    _ => None,
                }
            }
            &hir::Expr::Attribute { base, ref attr } => {
                let attr = &**attr;
                if self.boundary_module(base) == Some("numpy") {
                    return array_func(attr).map(|f| (f, format!("np.{attr}"), None));
                }
                if self.namespace_of(base).is_some() || self.gpu_register(base).is_some() {
                    return None;
                }
                if let hir::Expr::Name(n) = &self.hir.exprs[base] {
                    if !self.locals.contains_key(self.name_text(n)) {
                        return None;
                    }
                }
                array_method(attr).map(|f| (f, format!("`.{attr}()`"), Some(base)))
            }
            _ => None,
        }
    }

    /// A call of a NumPy array function or array method.
    pub(super) fn array_call(&mut self, f: ArrFn, what: &str, recv: Option<hir::ExprId>, c: &CallExpr) -> Val {
        let hir = self.hir;
        let shown = if recv.is_some() { what.to_owned() } else { format!("`{what}`") };
        if let Some(&s) = c.args.iter().find(|&&a| matches!(hir.exprs[a], hir::Expr::Starred(_))) {
            return self.err(&self.range(s), STARRED_ARGUMENT);
        }
        let takes_axis = matches!(f, ArrFn::Reduce(_) | ArrFn::Cumsum);
        let creates = !matches!(f, ArrFn::Reduce(_) | ArrFn::Transpose) || (takes_axis && self.is_array_expr(c.id));
        if creates && self.decl.attrs.is_device() {
            return self.err(c, gpu_creation_error(&shown));
        }
        let form = match array_call_form(hir, f, &shown, recv, c.args, c.keywords, c.at) {
            Ok(form) => form,
            Err((at, message)) => return self.err(&at, message),
        };
        let ArrayForm { args, dtype_expr, axis_expr, keepdims } = form;
        // NumPy's `cumsum`, `argmin` and `argmax` take one axis, not a tuple.
        let single_axis = matches!(f, ArrFn::Cumsum | ArrFn::Reduce(Red::ArgMin | Red::ArgMax));
        let axis = match axis_expr {
            Some(e) => match self.axis_arg(e, &shown, single_axis) {
                Some(a) => a,
                None => return Val::Err,
            },
            None => None,
        };
        let dtype = match dtype_expr {
            Some(e) => match self.dtype_arg(e) {
                Some(d) => Some(d),
                None => return Val::Err,
            },
            None => None,
        };
        match f {
            ArrFn::Transpose | ArrFn::Ravel | ArrFn::Flatten => match self.expr(args[0]) {
                Val::Arr { v, ty } if f == ArrFn::Ravel => self.raveled(v, &ty, c),
                Val::Arr { v, ty } if f == ArrFn::Flatten => self.flattened(v, &ty, c),
                Val::Arr { v, ty } => self.transposed(v, &ty, c),
                Val::Err => Val::Err,
                _ => self.err(&self.range(args[0]), not_an_array_error(f, &shown)),
            },
            ArrFn::Empty | ArrFn::Zeros | ArrFn::Ones | ArrFn::Full => {
                let Some(dims) = self.shape_arg(args[0], &shown) else {
                    if f == ArrFn::Full {
                        self.expr(args[1]);
                    }
                    return Val::Err;
                };
                let fill = if f == ArrFn::Full { Some(self.expr(args[1])) } else { None };
                let d = match (&fill, dtype) {
                    (_, Some(d)) => d,
                    // NumPy's dtype of the fill value: a Python number's
                    // default dtype, a NumPy scalar's own.
                    (Some(v), None) => match v.scalar() {
                        Some(s) if s.weak => default_of(kind(s.dtype)),
                        Some(s) => s.dtype,
                        None => return self.fill_error(v, args[1]),
                    },
                    (None, None) => DType::Float64,
                };
                if d.is_text() {
                    return self.err(&self.range(args[0]), TEXT_ARRAY);
                }
                self.at(c);
                let arr =
                    if f == ArrFn::Empty { self.new_empty_array(d, &dims, c) } else { self.new_array(d, &dims, c) };
                match (f, fill) {
                    (ArrFn::Ones, _) => {
                        let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
                        self.fill(&arr, one, c);
                    }
                    (ArrFn::Full, Some(v)) => {
                        if v.scalar().is_none() {
                            return self.fill_error(&v, args[1]);
                        }
                        self.fill(&arr, v, c);
                    }
                    _ => {}
                }
                Val::Arr { v: arr.0, ty: arr.1 }
            }
            ArrFn::EmptyLike | ArrFn::ZerosLike | ArrFn::OnesLike | ArrFn::FullLike | ArrFn::Copy | ArrFn::Astype => {
                let src = self.expr(args[0]);
                let (sv, st) = match src {
                    Val::Arr { v, ty } => (v, ty),
                    Val::Err => return Val::Err,
                    _ => return self.err(&self.range(args[0]), not_an_array_error(f, &shown)),
                };
                let fill = if f == ArrFn::FullLike { Some(self.expr(args[1])) } else { None };
                let Some(nd) = st.ndim() else {
                    return self.err(&self.range(args[0]), "the number of axes of this array is not known");
                };
                let d = dtype.unwrap_or(st.dtype);
                if d.is_text() {
                    return self.err(&self.range(args[0]), TEXT_ARRAY);
                }
                self.at(c);
                let dims: Vec<(ValueId, bool)> = (0..nd)
                    .map(|k| {
                        let n = self.fresh("dim");
                        (self.b.dim(sv, k as u32, &n), true)
                    })
                    .collect();
                let arr = self.new_array(d, &dims, c);
                match f {
                    ArrFn::OnesLike => {
                        let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
                        self.fill(&arr, one, c);
                    }
                    ArrFn::FullLike => {
                        let v = fill.expect("a fill value");
                        if v.scalar().is_none() {
                            return self.fill_error(&v, args[1]);
                        }
                        self.fill(&arr, v, c);
                    }
                    // `astype` converts as NumPy's unsafe casting does,
                    // which for every value in range is the IR's `cast`.
                    ArrFn::Copy | ArrFn::Astype => {
                        let ids: Vec<ValueId> = dims.iter().map(|d| d.0).collect();
                        if !self.copy_elements(sv, &st, arr.0, d, &ids, c) {
                            return Val::Err;
                        }
                    }
                    _ => {}
                }
                Val::Arr { v: arr.0, ty: arr.1 }
            }
            ArrFn::Arange => self.arange(&args, dtype, &shown, c),
            ArrFn::Reshape => self.reshape_call(&shown, recv.is_some(), &args, c.at),
            ArrFn::Cumsum | ArrFn::Reduce(_) => {
                if f == ArrFn::Reduce(Red::Sum) && axis_expr.is_none() && !keepdims {
                    if let Some(total) = self.fused_sum(args[0]) {
                        return total;
                    }
                }
                let (v, ty) = match self.expr(args[0]) {
                    Val::Arr { v, ty } => (v, ty),
                    Val::Err => return Val::Err,
                    _ => return self.err(&self.range(args[0]), not_an_array_error(f, &shown)),
                };
                if let Some(message) = reduced_dtype_error(f, &shown, ty.dtype) {
                    return self.err(&self.range(args[0]), message);
                }
                let Some(nd) = ty.ndim() else {
                    return self.err(&self.range(args[0]), "the number of axes of this array is not known");
                };
                let axis_at = self.range(axis_expr.unwrap_or(args[0]));
                let Some(axes) = self.axes_of(axis.as_deref(), nd, axis_at, c.at) else {
                    return Val::Err;
                };
                let ArrFn::Reduce(r) = f else {
                    // The running sums along the one axis of a 1-D array
                    // are those of the flattened array.
                    return self.cumsum(v, &ty, axes.map(|a| a[0]), c);
                };
                // NumPy reduces every axis when they are all named (the one
                // axis of a 1-D array too): a scalar.
                let one = match &axes {
                    Some(a) if a.len() == nd => None,
                    Some(a) if a.len() == 1 => Some(a[0]),
                    Some(_) => return self.err(&self.range(axis_expr.unwrap_or(args[0])), some_axes_error(&shown, nd)),
                    None => None,
                };
                let reduced = self.reduce(r, v, &ty, one, c);
                if !keepdims {
                    return reduced;
                }
                let kept: Vec<usize> = match one {
                    Some(k) => vec![k],
                    None => (0..nd).collect(),
                };
                self.with_kept_axes(reduced, &kept, nd, c)
            }
        }
    }

    fn fill_error(&mut self, v: &Val, at: hir::ExprId) -> Val {
        if matches!(v, Val::Err) {
            Val::Err
        } else {
            self.err(&self.range(at), FILL_NOT_A_NUMBER)
        }
    }

    /// A dtype argument: NumPy's (`np.float64`, `"float64"`), postyp's
    /// (`Float64`) or Python's (`float`, `int`, `bool`, `complex`).
    pub(super) fn dtype_arg(&mut self, e: hir::ExprId) -> Option<DType> {
        let hir = self.hir;
        let found = match &hir.exprs[e] {
            hir::Expr::Literal(Lit::Str(s)) => numpy_dtype(s),
            hir::Expr::Name(n) if self.locals.contains_key(self.name_text(n)) => {
                self.dtype_locals.get(self.name_text(n)).copied()
            }
            // `a.dtype` of an array local or parameter.
            hir::Expr::Attribute { base, attr }
                if &**attr == "dtype" && matches!(hir.exprs[*base], hir::Expr::Name(hir::Name::Local(_))) =>
            {
                match self.expr_types.get(*base) {
                    Some(typeck::Ty::Arr(t)) => Some(t.dtype),
                    _ => None,
                }
            }
            _ => match self.numpy_attr(e) {
                Some(name) if self.removed_dtype_reported(&name, e) => return None,
                Some(name) => numpy_dtype(&name),
                None => match self.target_of(e) {
                    Some(Target::Cast { dtype, .. }) => Some(dtype),
                    _ => None,
                },
            },
        };
        match found {
            Some(d) if d.is_text() => {
                self.err(&self.range(e), TEXT_ARRAY);
                None
            }
            Some(d) => Some(d),
            // A parameter whose annotation was refused (`dt: np.dtype`
            // outside `@jit`) has its error already.
            None if matches!(&hir.exprs[e], hir::Expr::Name(n)
                if self.decl.poisoned.iter().any(|p| p == self.name_text(n))) =>
            {
                None
            }
            None => {
                let shown = match &hir.exprs[e] {
                    hir::Expr::Literal(Lit::Str(s)) => format!("\"{s}\""),
                    _ => hir.dotted(e).unwrap_or_else(|| hir.construct_name(e).to_owned()),
                };
                self.err(&self.range(e), unknown_dtype_error(&shown));
                None
            }
        }
    }

    /// The name of the NumPy attribute `e` is (`np.int_`, or `intp`
    /// imported from NumPy), if it is one.
    pub(super) fn numpy_attr(&self, e: hir::ExprId) -> Option<String> {
        match &self.hir.exprs[e] {
            &hir::Expr::Attribute { base, ref attr } if self.boundary_module(base) == Some("numpy") => {
                Some(attr.to_string())
            }
            hir::Expr::Name(n) if !self.locals.contains_key(self.name_text(n)) => {
                match self.cx.globals.get(self.name_text(n)) {
                    Some(Global::Boundary { module, name }) if module == "numpy" => Some(name.clone()),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Reports NumPy's AttributeError when `name` is a dtype alias NumPy 2
    /// removed (`np.float_`); whether it is one.
    fn removed_dtype_reported(&mut self, name: &str, e: hir::ExprId) -> bool {
        let Some(message) = removed_dtype_error(name) else { return false };
        self.err(&self.range(e), message);
        true
    }

    /// `name = np.int_` or `T = type(x)` of a scalar parameter: a local
    /// bound to a NumPy dtype, which a `dtype=` later names and a call
    /// casts to. It is fixed when the function is compiled, so every
    /// binding of the local must give the same dtype. `false` when
    /// `value` is not a NumPy dtype (the assignment is lowered as any
    /// other).
    pub(super) fn bind_dtype(&mut self, target: hir::ExprId, value: hir::ExprId) -> bool {
        let hir::Expr::Name(n) = &self.hir.exprs[target] else { return false };
        let local = self.name_text(n);
        if !self.locals.get(local).is_some_and(|l| !l.param && l.ty.is_none()) {
            return false;
        }
        let dtype_local = match &self.hir.exprs[value] {
            hir::Expr::Name(m) => self.dtype_locals.get(self.name_text(m)).copied(),
            _ => None,
        };
        let d = match crate::typeck::parameter_type(self.hir, self.decl, self.types, value).or(dtype_local) {
            Some(d) => d,
            None => {
                let Some(name) = self.numpy_attr(value) else { return false };
                if self.removed_dtype_reported(&name, value) {
                    return true;
                }
                let Some(d) = numpy_dtype(&name) else { return false };
                d
            }
        };
        // Refused by the typecheck (`typeck::dtype_locals`), which sees
        // the bindings in this order.
        match self.dtype_locals.insert(local.to_owned(), d) {
            Some(before) if before != d => {
                let message = crate::typeck::dtype_locals::two_dtypes_error(local, before, d);
                self.err(&self.range(target), message);
            }
            _ => {}
        }
        true
    }

    /// A shape: an integer, a tuple of integers or an array's `shape`;
    /// each extent as Int64 with whether it is known to be non-negative.
    fn shape_arg(&mut self, e: hir::ExprId, shown: &str) -> Option<Vec<(ValueId, bool)>> {
        let hir = self.hir;
        let elts: &[hir::ExprId] = match &hir.exprs[e] {
            hir::Expr::Tuple(elts) | hir::Expr::List(elts) => elts,
            &hir::Expr::Attribute { base, ref attr } if &**attr == "shape" => {
                let v = self.expr(base);
                let (av, ty) = match v {
                    Val::Arr { v, ty } => (v, ty),
                    Val::Err => return None,
                    _ => {
                        self.err(&self.range(base), typeck::SHAPE_OF_NOT_AN_ARRAY);
                        return None;
                    }
                };
                let Some(nd) = ty.ndim() else {
                    self.err(&self.range(e), "the number of axes of this array is not known");
                    return None;
                };
                self.at(&self.range(e));
                return Some(
                    (0..nd)
                        .map(|k| {
                            let n = self.fresh("dim");
                            (self.b.dim(av, k as u32, &n), true)
                        })
                        .collect(),
                );
            }
            _ => &[],
        };
        let values: Vec<(Val, TextRange)> = match elts {
            [] if !matches!(hir.exprs[e], hir::Expr::Tuple(_) | hir::Expr::List(_)) => match self.expr(e) {
                // A tuple computed (`a.shape[:-1] + (3, 3)`): its elements.
                Val::Tuple(vals) => vals.into_iter().map(|v| (v, self.range(e))).collect(),
                v => vec![(v, self.range(e))],
            },
            _ => elts.iter().map(|&x| (self.expr(x), self.range(x))).collect(),
        };
        if values.is_empty() {
            self.err(&self.range(e), empty_shape_error(shown));
            return None;
        }
        let mut out = Vec::new();
        let mut bad = false;
        for (v, at) in values {
            match v.scalar() {
                Some(s) if kind(s.dtype) == Kind::Int => {
                    let nonneg = v.nonneg();
                    match self.materialize(&v, DType::Int64, &at) {
                        Some(id) => out.push((id, nonneg)),
                        None => bad = true,
                    }
                }
                _ => {
                    if !matches!(v, Val::Err) {
                        self.err(&at, extent_error(v.scalar(), matches!(v, Val::Arr { .. })));
                    }
                    bad = true;
                }
            }
        }
        (!bad).then_some(out)
    }

    /// A fresh zeroed C-order array of `d` with the extents `dims`; a
    /// negative extent panics with NumPy's message first.
    pub(super) fn new_array(&mut self, d: DType, dims: &[(ValueId, bool)], at: &impl Ranged) -> (ValueId, TypeData) {
        self.new_array_as(false, d, dims, at)
    }

    /// As [`FnLower::new_array`], its elements unspecified until written
    /// (`alloc.empty`): for an array whose every element is stored before
    /// any is read.
    pub(super) fn new_empty_array(
        &mut self,
        d: DType,
        dims: &[(ValueId, bool)],
        at: &impl Ranged,
    ) -> (ValueId, TypeData) {
        self.new_array_as(true, d, dims, at)
    }

    fn new_array_as(
        &mut self,
        empty: bool,
        d: DType,
        dims: &[(ValueId, bool)],
        at: &impl Ranged,
    ) -> (ValueId, TypeData) {
        for &(x, nonneg) in dims {
            if !nonneg {
                self.at(at);
                let z = self.zero(DType::Int64);
                let n = self.fresh("dim.ok");
                let ok = self.b.binary(Opcode::Ge, TypeId::BOOL, x, z, &n);
                self.panic_unless(ok, "ValueError: negative dimensions are not allowed", at);
            }
        }
        let ty = TypeData::array(d, Shape::dims(&vec![None; dims.len()]), Layout::COrder);
        let tid = self.types.intern(ty.clone());
        self.at(at);
        let n = self.fresh("arr");
        let ids: Vec<ValueId> = dims.iter().map(|d| d.0).collect();
        let arr = if empty { self.b.alloc_empty(tid, &ids, &n) } else { self.b.alloc(tid, &ids, &n) };
        (arr, ty)
    }

    /// The extents of an array of known rank.
    pub(super) fn dims_of(&mut self, arr: ValueId, ty: &TypeData) -> Vec<ValueId> {
        (0..ty.ndim().unwrap_or(1))
            .map(|k| {
                let n = self.fresh("dim");
                self.b.dim(arr, k as u32, &n)
            })
            .collect()
    }

    /// A new C-order array holding the elements of `(av, ty)`: what an
    /// operand that may share memory with the array being written is read
    /// from.
    pub(super) fn copy_of(&mut self, av: ValueId, ty: &TypeData, at: &impl Ranged) -> (ValueId, TypeData) {
        let dims = self.dims_of(av, ty);
        let extents: Vec<(ValueId, bool)> = dims.iter().map(|&d| (d, true)).collect();
        let copy = self.new_empty_array(ty.dtype, &extents, at);
        let open = self.loops_open(&dims, at);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let n = self.fresh("el");
        let x = self.b.index_load(TypeId::scalar(ty.dtype), av, &idx, &n);
        self.b.index_store(copy.0, &idx, x);
        self.loops_close(open, at);
        copy
    }

    /// Stores `v` (converted as NumPy's item assignment converts) in every
    /// element of `arr`.
    pub(super) fn fill(&mut self, arr: &(ValueId, TypeData), v: Val, at: &impl Ranged) {
        let d = arr.1.dtype;
        if let Some(message) = v.scalar().and_then(|s| fill_dtype_error(s.dtype, d)) {
            self.err(at, message);
            return;
        }
        let Some(x) = self.materialize(&v, d, at) else { return };
        let dims = self.dims_of(arr.0, &arr.1);
        let open = self.loops_open(&dims, at);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        self.b.index_store(arr.0, &idx, x);
        self.loops_close(open, at);
    }

    /// Opens one counted loop per extent, outermost first; the body goes
    /// into the current block, [`FnLower::loops_close`] ends them.
    pub(super) fn loops_open(&mut self, dims: &[ValueId], at: &impl Ranged) -> Vec<Counted> {
        let mut open = Vec::new();
        for &n in dims {
            self.at(at);
            let z = self.zero(DType::Int64);
            let name = self.fresh("k");
            let i = self.b.let_(TypeId::INT64, z, &name);
            let head = self.block("each");
            let body = self.block("each.body");
            let exit = self.block("each.end");
            self.br(head);
            self.enter(head);
            let c = self.fresh("more");
            let more = self.b.binary(Opcode::Lt, TypeId::BOOL, i, n, &c);
            self.b.condbr(more, body, exit, None);
            self.enter(body);
            open.push(Counted { i, head, exit });
        }
        open
    }

    /// The index, one per axis of `extents`, of the C-order position
    /// `flat` (the last axis fastest): its digits in the extents' bases.
    /// Every extent but the first must be non-zero where this runs.
    pub(super) fn c_order_digits(&mut self, flat: ValueId, extents: &[ValueId]) -> Vec<ValueId> {
        let mut digits = vec![flat; extents.len()];
        let mut rest = flat;
        for axis in (1..extents.len()).rev() {
            digits[axis] = self.result(Opcode::Mod, DType::Int64, rest, extents[axis]);
            rest = self.result(Opcode::FDiv, DType::Int64, rest, extents[axis]);
        }
        if let Some(first) = digits.first_mut() {
            *first = rest;
        }
        digits
    }

    pub(super) fn loops_close(&mut self, open: Vec<Counted>, at: &impl Ranged) {
        for l in open.into_iter().rev() {
            self.at(at);
            let nm = self.fresh("one");
            let one = self.b.int(TypeId::INT64, 1, &nm);
            let next = self.result(Opcode::Add, DType::Int64, l.i, one);
            self.b.set(l.i, next);
            self.br(l.head);
            self.enter(l.exit);
        }
    }

    /// `np.arange(stop)`, `np.arange(start, stop[, step])`: NumPy's
    /// length `ceil((stop - start) / step)` (none when not positive), the
    /// element `i` being `start + i * step` in the result dtype.
    fn arange(&mut self, args: &[hir::ExprId], dtype: Option<DType>, shown: &str, c: &CallExpr) -> Val {
        let mut vals = Vec::new();
        for &a in args {
            let v = self.expr(a);
            let at = self.range(a);
            if matches!(v, Val::Err) {
                return Val::Err;
            }
            match arange_bound_error(shown, v.scalar()) {
                Some(message) => return self.err(&at, message),
                None => vals.push((v, at)),
            }
        }
        let common = arange_common(vals.iter().map(|(v, _)| v.scalar().expect("a number")));
        let d = dtype.unwrap_or(common.unwrap_or(DType::Int64));
        if let Some(message) = arange_dtype_error(shown, d) {
            return self.err(c, message);
        }
        let zero = Val::Lit { lit: Lit::Int(0), s: Scalar::weak(DType::Int64) };
        let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
        let first = self.range(args[0]);
        let (start, stop, step) = match vals.len() {
            1 => ((zero, first), vals[0].clone(), (one, first)),
            2 => (vals[0].clone(), vals[1].clone(), (one, first)),
            _ => (vals[0].clone(), vals[1].clone(), vals[2].clone()),
        };
        let int_bounds = kind(common.unwrap_or(DType::Int64)) == Kind::Int;
        self.at(c);
        // The length, in Int64 for integer bounds and Float64 otherwise.
        let len = if int_bounds {
            let (Some(s0), Some(s1), Some(s2)) = (
                self.materialize(&start.0, DType::Int64, &start.1),
                self.materialize(&stop.0, DType::Int64, &stop.1),
                self.materialize(&step.0, DType::Int64, &step.1),
            ) else {
                return Val::Err;
            };
            self.at(c);
            let z = self.zero(DType::Int64);
            let n = self.fresh("step.ok");
            let ok = self.b.binary(Opcode::Ne, TypeId::BOOL, s2, z, &n);
            self.panic_unless(ok, "ZeroDivisionError: division by zero", c);
            // ceil((stop - start) / step) = -((start - stop) // step)
            let diff = self.result(Opcode::Sub, DType::Int64, s0, s1);
            let q = self.result(Opcode::FDiv, DType::Int64, diff, s2);
            let zero = self.zero(DType::Int64);
            let n = self.result(Opcode::Sub, DType::Int64, zero, q);
            let c0 = self.fresh("pos");
            let pos = self.b.binary(Opcode::Gt, TypeId::BOOL, n, zero, &c0);
            let nm = self.fresh("len");
            let len = self.b.select(TypeId::INT64, pos, n, zero, &nm);
            (len, s0, s2)
        } else {
            let (Some(f0), Some(f1), Some(f2)) = (
                self.materialize(&start.0, DType::Float64, &start.1),
                self.materialize(&stop.0, DType::Float64, &stop.1),
                self.materialize(&step.0, DType::Float64, &step.1),
            ) else {
                return Val::Err;
            };
            self.at(c);
            let z = self.zero(DType::Float64);
            let n = self.fresh("step.ok");
            let ok = self.b.binary(Opcode::Ne, TypeId::BOOL, f2, z, &n);
            self.panic_unless(ok, "ZeroDivisionError: division by zero", c);
            let diff = self.result(Opcode::Sub, DType::Float64, f1, f0);
            let q = self.result(Opcode::Div, DType::Float64, diff, f2);
            self.math_imports.insert("ceil".to_owned());
            let ceil = "math.ceil";
            let nm = self.fresh("ceil");
            let cq = self.b.call(ceil, &[q], Some(TypeId::FLOAT64), &nm);
            let nm = self.fresh("len");
            // Float to integer saturates (NaN to 0), so a huge length is
            // refused by the allocation, not wrapped.
            let n = self.b.cast(TypeId::INT64, cq, &nm);
            let zero = self.zero(DType::Int64);
            let c0 = self.fresh("pos");
            let pos = self.b.binary(Opcode::Gt, TypeId::BOOL, n, zero, &c0);
            let nm = self.fresh("len");
            let len = self.b.select(TypeId::INT64, pos, n, zero, &nm);
            (len, f0, f2)
        };
        let (len, s0, s2) = len;
        let arr = self.new_array(d, &[(len, true)], c);
        // start and step in the element dtype; element i = start + i * step.
        let st = TypeId::scalar(d);
        let src = if int_bounds { DType::Int64 } else { DType::Float64 };
        let nm = self.fresh("start");
        let a0 = if src == d { s0 } else { self.b.cast(st, s0, &nm) };
        let nm = self.fresh("step");
        let a2 = if src == d { s2 } else { self.b.cast(st, s2, &nm) };
        let open = self.loops_open(&[len], c);
        let i = open[0].i;
        let nm = self.fresh("i");
        let fi = if d == DType::Int64 { i } else { self.b.cast(st, i, &nm) };
        let m = self.result(Opcode::Mul, d, fi, a2);
        let x = self.result(Opcode::Add, d, a0, m);
        self.b.index_store(arr.0, &[i], x);
        self.loops_close(open, c);
        Val::Arr { v: arr.0, ty: arr.1 }
    }

    /// An `axis` argument: an integer constant or (unless `single`) a
    /// tuple of them, or `None` for the whole array; `None` when it is
    /// neither (reported).
    fn axis_arg(&mut self, e: hir::ExprId, shown: &str, single: bool) -> Option<Option<Vec<i64>>> {
        let hir = self.hir;
        if is_none(hir, e) {
            return Some(None);
        }
        let written: &[hir::ExprId] = match &hir.exprs[e] {
            hir::Expr::Tuple(_) if single => {
                self.err(&self.range(e), TUPLE_AXIS);
                return None;
            }
            hir::Expr::Tuple(elts) => elts,
            _ => std::slice::from_ref(&e),
        };
        let mut axes = Vec::new();
        for &x in written {
            match self.expr(x) {
                Val::Lit { lit: Lit::Int(k), .. } if i64::try_from(k).is_ok() => axes.push(k as i64),
                Val::Err => return None,
                _ => {
                    self.err(&self.range(x), axis_constant_error(shown));
                    return None;
                }
            }
        }
        Some(Some(axes))
    }

    /// The axes `ks` of an array of `nd` axes (negative counts from the
    /// end), checked as NumPy checks them, or every axis for none given
    /// (`None`); `None` when one of several is out of range or one is
    /// named twice (reported at `at`; an AxisError raised when the call
    /// at `call` runs is located there).
    fn axes_of(&mut self, ks: Option<&[i64]>, nd: usize, at: TextRange, call: TextRange) -> Option<Option<Vec<usize>>> {
        let Some(ks) = ks else { return Some(None) };
        let n = nd as i64;
        // One axis out of range raises NumPy's AxisError when the call
        // runs, as in CPython and Numba: a branch the arguments never take
        // may hold it (`if nohubs: ai.sum(axis=1)` of a 1-D row). The call
        // is typed as the reduction along the last axis, which it never
        // gets to.
        if let ([k], true) = (ks, nd > 0) {
            if *k < -n || *k >= n {
                let never = self.bool_const(false, &call);
                let msg = format!("AxisError: axis {k} is out of bounds for array of dimension {nd}");
                self.panic_unless(never, &msg, &call);
                return Some(Some(vec![nd - 1]));
            }
        }
        if let Some(message) = axes_error(ks, nd) {
            self.err(&at, message);
            return None;
        }
        Some(Some(ks.iter().map(|&k| if k < 0 { (k + n) as usize } else { k as usize }).collect()))
    }

    /// `reduced` (a scalar, or an array without the axes `kept`) as an
    /// array of `nd` axes where each of `kept` has extent 1: NumPy's
    /// `keepdims=True`. A view of the reduction's array, or a new array
    /// of one element for a scalar.
    fn with_kept_axes(&mut self, reduced: Val, kept: &[usize], nd: usize, c: &CallExpr) -> Val {
        let one = self.int_const(1, c);
        match reduced {
            Val::Arr { v, ty } => {
                let zero = self.int_const(0, c);
                let (mut extents, mut strides) = (Vec::new(), Vec::new());
                let mut axis = 0;
                for k in 0..nd {
                    if kept.contains(&k) {
                        extents.push(one);
                        strides.push(zero);
                    } else {
                        let n = self.fresh("dim");
                        extents.push(self.b.dim(v, axis, &n));
                        let n = self.fresh("stride");
                        strides.push(self.b.stride(v, axis, &n));
                        axis += 1;
                    }
                }
                self.make_view(v, &ty, zero, &extents, &strides, c)
            }
            Val::Num { s, .. } => {
                let arr = self.new_empty_array(s.dtype, &vec![(one, true); nd], c);
                let Some(x) = self.materialize(&reduced, s.dtype, c) else { return Val::Err };
                let zero = self.int_const(0, c);
                self.b.index_store(arr.0, &vec![zero; nd], x);
                Val::Arr { v: arr.0, ty: arr.1 }
            }
            other => other,
        }
    }

    /// The number of elements of an array of extents `dims` (one or more).
    pub(super) fn element_count(&mut self, dims: &[ValueId]) -> ValueId {
        let mut count = dims[0];
        for &x in &dims[1..] {
            count = self.result(Opcode::Mul, DType::Int64, count, x);
        }
        count
    }

    /// A reduction of every element of `arr` in C order to a scalar or,
    /// with `axis`, of each lane along that axis to an array of the other
    /// axes (C order).
    pub(super) fn reduce(&mut self, r: Red, arr: ValueId, ty: &TypeData, axis: Option<usize>, c: &CallExpr) -> Val {
        let d = ty.dtype;
        // The accumulator's dtype and the result's.
        let (acc_d, res_d) = match r {
            Red::Sum | Red::Prod => sum_dtypes(d),
            Red::Mean if d == DType::Float16 => (DType::Float32, DType::Float16),
            Red::Mean if matches!(kind(d), Kind::Float | Kind::Complex) => (d, d),
            Red::Mean => (DType::Float64, DType::Float64),
            Red::Min | Red::Max => (d, d),
            Red::ArgMin | Red::ArgMax => (d, DType::Int64),
            Red::Any | Red::All => (DType::Bool, DType::Bool),
        };
        self.at(c);
        let dims = self.dims_of(arr, ty);
        let Some(k) = axis else {
            // The element count, for `mean` and the empty check.
            let count = self.element_count(&dims);
            self.refuse_empty(r, count, c);
            let fixed = vec![None; dims.len()];
            let v = self.reduce_lane(r, arr, d, (acc_d, res_d), &fixed, &dims, count, c);
            return Val::Num { v, s: Scalar::strong(res_d), nonneg: matches!(r, Red::ArgMin | Red::ArgMax) };
        };
        // NumPy refuses an empty axis even when no lane is left to reduce.
        self.refuse_empty(r, dims[k], c);
        let kept: Vec<(ValueId, bool)> =
            dims.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &x)| (x, true)).collect();
        let out = self.new_array(res_d, &kept, c);
        let kept: Vec<ValueId> = kept.iter().map(|x| x.0).collect();
        let open = self.loops_open(&kept, c);
        let at: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let mut fixed: Vec<Option<ValueId>> = at.iter().map(|&i| Some(i)).collect();
        fixed.insert(k, None);
        let v = self.reduce_lane(r, arr, d, (acc_d, res_d), &fixed, &[dims[k]], dims[k], c);
        self.b.index_store(out.0, &at, v);
        self.loops_close(open, c);
        Val::Arr { v: out.0, ty: out.1 }
    }

    /// NumPy's panic for a minimum, maximum, argmin or argmax of `count`
    /// elements when `count` is zero.
    fn refuse_empty(&mut self, r: Red, count: ValueId, c: &CallExpr) {
        if !matches!(r, Red::Min | Red::Max | Red::ArgMin | Red::ArgMax) {
            return;
        }
        let z = self.zero(DType::Int64);
        let n = self.fresh("nonempty");
        let ok = self.b.binary(Opcode::Gt, TypeId::BOOL, count, z, &n);
        let msg = match r {
            Red::ArgMin | Red::ArgMax => format!("ValueError: attempt to get {} of an empty sequence", r.numpy_name()),
            _ => format!("ValueError: zero-size array to reduction operation {} which has no identity", r.numpy_name()),
        };
        self.panic_unless(ok, &msg, c);
    }

    /// The reduction of one lane of `arr`: the elements whose index is
    /// `fixed[j]` on each axis `j` that has one and runs in C order over
    /// the others, of extents `looped` (`count` elements, at least one for
    /// the reductions without identity). The result is a value of the
    /// result dtype that later code may keep.
    #[allow(clippy::too_many_arguments)]
    fn reduce_lane(
        &mut self,
        r: Red,
        arr: ValueId,
        d: DType,
        (acc_d, res_d): (DType, DType),
        fixed: &[Option<ValueId>],
        looped: &[ValueId],
        count: ValueId,
        c: &CallExpr,
    ) -> ValueId {
        let acc_t = TypeId::scalar(acc_d);
        self.at(c);
        // Initial values: the identity, or for min/max the first element.
        let init = match r {
            Red::Sum | Red::Mean => self.zero(acc_d),
            Red::Prod => {
                let one = Val::Lit { lit: Lit::Int(1), s: Scalar::weak(DType::Int64) };
                self.materialize(&one, acc_d, c).expect("one converts to any number")
            }
            Red::Any => {
                let nm = self.fresh("none");
                self.b.const_(TypeId::BOOL, Literal::Bool(false), &nm)
            }
            Red::All => {
                let nm = self.fresh("every");
                self.b.const_(TypeId::BOOL, Literal::Bool(true), &nm)
            }
            Red::Min | Red::Max | Red::ArgMin | Red::ArgMax => {
                let z = self.zero(DType::Int64);
                let idx: Vec<ValueId> = fixed.iter().map(|f| f.unwrap_or(z)).collect();
                let n = self.fresh("first");
                self.b.index_load(acc_t, arr, &idx, &n)
            }
        };
        let n = self.fresh("acc");
        let acc = self.b.let_(acc_t, init, &n);
        let z = self.zero(DType::Int64);
        let n = self.fresh("at");
        let best = self.b.let_(TypeId::INT64, z, &n);
        let n = self.fresh("flat");
        let flat = self.b.let_(TypeId::INT64, z, &n);
        // NumPy sums floats pairwise where its run is the lane; the loop
        // below adds in order otherwise.
        let pairwise = matches!(r, Red::Sum | Red::Mean)
            && pairwise::accumulator(d) == Some(acc_d)
            && !(r == Red::Mean && d == DType::Float16);
        let summed = if pairwise { Some(self.pairwise_lane(arr, d, acc, acc_d, fixed, looped, count)) } else { None };
        // A 1-D array is always summed pairwise: no loop in order.
        let in_order = !matches!(summed, Some((_, true)));
        if in_order {
            let open = self.loops_open(looped, c);
            let mut running = open.iter().map(|l| l.i);
            let idx: Vec<ValueId> =
                fixed.iter().map(|f| f.unwrap_or_else(|| running.next().expect("a loop"))).collect();
            let n = self.fresh("el");
            let x = self.b.index_load(TypeId::scalar(d), arr, &idx, &n);
            match r {
                Red::Sum | Red::Mean | Red::Prod => {
                    let nm = self.fresh("x");
                    let xc = if acc_d == d { x } else { self.b.cast(acc_t, x, &nm) };
                    let op = if r == Red::Prod { Opcode::Mul } else { Opcode::Add };
                    let s = self.result(op, acc_d, acc, xc);
                    self.b.set(acc, s);
                }
                Red::Any | Red::All => {
                    let nm = self.fresh("truth");
                    let t = if d == DType::Bool { x } else { self.b.cast(TypeId::BOOL, x, &nm) };
                    let op = if r == Red::Any { Opcode::Or } else { Opcode::And };
                    let s = self.result(op, DType::Bool, acc, t);
                    self.b.set(acc, s);
                }
                Red::Min | Red::Max | Red::ArgMin | Red::ArgMax => {
                    let lower = matches!(r, Red::Min | Red::ArgMin);
                    // Replace when the element is strictly better, or NaN while
                    // the accumulator is not: NumPy's min and max propagate the
                    // first NaN, argmin and argmax return its index.
                    let better = if d == DType::Bool {
                        // False < True: x < acc is `!x and acc`, x > acc is
                        // `x and !acc`.
                        let nm = self.fresh("not");
                        let (a, b) = if lower {
                            (self.b.unary(Opcode::Not, TypeId::BOOL, x, &nm), acc)
                        } else {
                            (x, self.b.unary(Opcode::Not, TypeId::BOOL, acc, &nm))
                        };
                        self.result(Opcode::And, DType::Bool, a, b)
                    } else {
                        let op = if lower { Opcode::Lt } else { Opcode::Gt };
                        let nm = self.fresh("better");
                        let strict = self.b.binary(op, TypeId::BOOL, x, acc, &nm);
                        if kind(d) == Kind::Float {
                            let nm = self.fresh("xnan");
                            let xnan = self.b.binary(Opcode::Ne, TypeId::BOOL, x, x, &nm);
                            let nm = self.fresh("anum");
                            let anum = self.b.binary(Opcode::Eq, TypeId::BOOL, acc, acc, &nm);
                            let either = self.result(Opcode::Or, DType::Bool, strict, xnan);
                            self.result(Opcode::And, DType::Bool, either, anum)
                        } else {
                            strict
                        }
                    };
                    let yes = self.block("better");
                    let no = self.block("same");
                    self.b.condbr(better, yes, no, None);
                    self.enter(yes);
                    self.b.set(acc, x);
                    self.b.set(best, flat);
                    self.br(no);
                    self.enter(no);
                }
            }
            let nm = self.fresh("one");
            let one = self.b.int(TypeId::INT64, 1, &nm);
            let f2 = self.result(Opcode::Add, DType::Int64, flat, one);
            self.b.set(flat, f2);
            self.loops_close(open, c);
        }
        if let Some((done, _)) = summed {
            self.br(done);
            self.enter(done);
        }
        self.at(c);
        match r {
            // A copy of the index, which later code must not see change.
            Red::ArgMin | Red::ArgMax => {
                let nm = self.fresh("red");
                self.b.let_(TypeId::INT64, best, &nm)
            }
            Red::Mean => {
                let ct =
                    if kind(acc_d) == Kind::Complex { acc_d.complex_part().unwrap_or(DType::Float64) } else { acc_d };
                let nm = self.fresh("count");
                let nf = self.b.cast(TypeId::scalar(ct), count, &nm);
                let nf = if ct == acc_d {
                    nf
                } else {
                    let nm = self.fresh("count");
                    self.b.cast(acc_t, nf, &nm)
                };
                let m = self.result(Opcode::Div, acc_d, acc, nf);
                if res_d == acc_d {
                    m
                } else {
                    let nm = self.fresh("mean");
                    self.b.cast(TypeId::scalar(res_d), m, &nm)
                }
            }
            _ if res_d != acc_d => {
                let nm = self.fresh("red");
                self.b.cast(TypeId::scalar(res_d), acc, &nm)
            }
            _ => {
                // A copy of the accumulator's value, which later code
                // must not see change.
                let nm = self.fresh("red");
                self.b.let_(acc_t, acc, &nm)
            }
        }
    }

    /// Where NumPy's run is this lane (see `pairwise.rs`), adds its
    /// pairwise sum to `acc` and continues in the block returned, which
    /// the caller enters after the lane's loop; the builder is left where
    /// that loop goes, for the other layouts, unless the flag returned
    /// says that every layout is summed pairwise (a 1-D array): then no
    /// loop is needed. `fixed` and `looped` are as for
    /// [`Self::reduce_lane`]: one looped axis, or all of them.
    #[allow(clippy::too_many_arguments)]
    fn pairwise_lane(
        &mut self,
        arr: ValueId,
        d: DType,
        acc: ValueId,
        acc_d: DType,
        fixed: &[Option<ValueId>],
        looped: &[ValueId],
        count: ValueId,
    ) -> (BlockId, bool) {
        let rank = fixed.len();
        let strides: Vec<ValueId> = (0..rank)
            .map(|j| {
                let n = self.fresh("stride");
                self.b.stride(arr, j as u32, &n)
            })
            .collect();
        // The extents, for the layout tests of two axes or more.
        let dims: Vec<ValueId> = if rank > 1 {
            (0..rank)
                .map(|j| {
                    let n = self.fresh("dim");
                    self.b.dim(arr, j as u32, &n)
                })
                .collect()
        } else {
            Vec::new()
        };
        let n = self.fresh("one");
        let one = self.b.int(TypeId::INT64, 1, &n);
        let n = self.fresh("itemsize");
        let size = self.b.int(TypeId::INT64, i128::from(d.size_bytes()), &n);
        // Whether an axis is one NumPy's iterator drops: extent 0 or 1.
        let trivial = |s: &mut Self, j: usize| s.result(Opcode::Le, DType::Bool, dims[j], one);
        let along: Vec<usize> = (0..rank).filter(|&j| fixed[j].is_none()).collect();
        let cond = if rank == 1 {
            None
        } else if let [k] = along[..] {
            // The lane's axis has the smallest stride of the axes that count.
            let n = self.fresh("abs");
            let sk = self.b.unary(Opcode::Abs, TypeId::INT64, strides[k], &n);
            let mut all: Option<ValueId> = None;
            for j in (0..rank).filter(|&j| j != k) {
                let n = self.fresh("abs");
                let sj = self.b.unary(Opcode::Abs, TypeId::INT64, strides[j], &n);
                let inner = self.result(Opcode::Lt, DType::Bool, sk, sj);
                let t = trivial(self, j);
                let ok = self.result(Opcode::Or, DType::Bool, inner, t);
                all = Some(all.map_or(ok, |a| self.result(Opcode::And, DType::Bool, a, ok)));
            }
            all
        } else {
            // Contiguous in C or in Fortran order.
            let contiguous = |s: &mut Self, order: &mut dyn Iterator<Item = usize>| {
                let mut expected = size;
                let mut all: Option<ValueId> = None;
                for j in order {
                    let same = s.result(Opcode::Eq, DType::Bool, strides[j], expected);
                    let t = trivial(s, j);
                    let ok = s.result(Opcode::Or, DType::Bool, same, t);
                    all = Some(all.map_or(ok, |a| s.result(Opcode::And, DType::Bool, a, ok)));
                    expected = s.result(Opcode::Mul, DType::Int64, expected, dims[j]);
                }
                all.expect("an axis")
            };
            let c_order = contiguous(self, &mut (0..rank).rev());
            let f_order = contiguous(self, &mut (0..rank));
            Some(self.result(Opcode::Or, DType::Bool, c_order, f_order))
        };
        let done = self.block("summed");
        let pairwise = self.block("pairwise");
        let in_order = match cond {
            Some(cond) => {
                let in_order = self.block("in.order");
                self.b.condbr(cond, pairwise, in_order, None);
                Some(in_order)
            }
            None => {
                self.b.br(pairwise);
                None
            }
        };
        self.enter(pairwise);
        let (offset, extent, stride) = if let [k] = along[..] {
            let mut offset = self.zero(DType::Int64);
            for (j, i) in fixed.iter().enumerate() {
                if let Some(i) = i {
                    let at = self.result(Opcode::Mul, DType::Int64, *i, strides[j]);
                    offset = self.result(Opcode::Add, DType::Int64, offset, at);
                }
            }
            (offset, looped[0], strides[k])
        } else {
            (self.zero(DType::Int64), count, size)
        };
        let run_t = pairwise::run_type(self.types, d);
        let n = self.fresh("run");
        let run = self.b.view_of(Opcode::ViewInBounds, run_t, arr, offset, &[extent], &[stride], &n);
        let mut e = pairwise::Emit { b: &mut self.b, types: self.types, counter: &mut self.counter };
        let v = e.sum(run, d, acc_d);
        let s = self.result(Opcode::Add, acc_d, acc, v);
        self.b.set(acc, s);
        self.br(done);
        if let Some(b) = in_order {
            self.enter(b);
        }
        (done, in_order.is_none())
    }

    /// `np.cumsum(a)`: the running sums of `a`'s elements in C order, a
    /// new 1-D array; with `axis`, the running sums along that axis, a new
    /// C-order array of `a`'s shape. Sums are sequential, as NumPy's are,
    /// in NumPy's dtype (small integers and Bool widen as for `np.sum`).
    fn cumsum(&mut self, arr: ValueId, ty: &TypeData, axis: Option<usize>, c: &CallExpr) -> Val {
        let d = ty.dtype;
        let rd = sum_dtype(d);
        let rt = TypeId::scalar(rd);
        self.at(c);
        let dims = self.dims_of(arr, ty);
        let out = match axis {
            None => {
                let count = self.element_count(&dims);
                self.new_array(rd, &[(count, true)], c)
            }
            Some(_) => {
                let all: Vec<(ValueId, bool)> = dims.iter().map(|&x| (x, true)).collect();
                self.new_array(rd, &all, c)
            }
        };
        // The lanes: one over every element, or one per index of the
        // other axes.
        let (outer, inner): (Vec<ValueId>, Vec<ValueId>) = match axis {
            None => (vec![], dims.clone()),
            Some(k) => (dims.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, &x)| x).collect(), vec![dims[k]]),
        };
        let lanes = self.loops_open(&outer, c);
        self.at(c);
        let z = self.zero(rd);
        let n = self.fresh("acc");
        let acc = self.b.let_(rt, z, &n);
        let z = self.zero(DType::Int64);
        let n = self.fresh("flat");
        let flat = self.b.let_(TypeId::INT64, z, &n);
        let open = self.loops_open(&inner, c);
        let idx: Vec<ValueId> = match axis {
            None => open.iter().map(|l| l.i).collect(),
            Some(k) => {
                let mut idx: Vec<ValueId> = lanes.iter().map(|l| l.i).collect();
                idx.insert(k, open[0].i);
                idx
            }
        };
        let n = self.fresh("el");
        let x = self.b.index_load(TypeId::scalar(d), arr, &idx, &n);
        let nm = self.fresh("x");
        let xc = if rd == d { x } else { self.b.cast(rt, x, &nm) };
        let s = self.result(Opcode::Add, rd, acc, xc);
        self.b.set(acc, s);
        let to = if axis.is_some() { idx } else { vec![flat] };
        self.b.index_store(out.0, &to, s);
        let nm = self.fresh("one");
        let one = self.b.int(TypeId::INT64, 1, &nm);
        let f2 = self.result(Opcode::Add, DType::Int64, flat, one);
        self.b.set(flat, f2);
        self.loops_close(open, c);
        self.loops_close(lanes, c);
        Val::Arr { v: out.0, ty: out.1 }
    }
}

fn is_none(hir: &hir::Body, e: hir::ExprId) -> bool {
    matches!(hir.exprs[e], hir::Expr::None)
}

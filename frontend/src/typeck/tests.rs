use super::*;
use crate::declare::{Declared, Declarer};
use crate::hir::BodyBuilder;
use crate::source::SourceFile;
use crate::Tree;
use ruff_python_ast::Stmt as AstStmt;

/// The locals the typecheck types in function `f` of `src`, each shown as
/// `name: Dtype` (`~` for a weak type, `+` when non-negative, `!` when
/// annotated; a tuple as `(Dtype, ...)`; an array as [`shown_array`]; a
/// local bound to a dtype as `(dtype Dtype)`), in the order the body binds
/// them.
fn solved(src: &str) -> Vec<String> {
    solved_importing(src, &|_| None)
}

/// As [`solved`], the module `other` a POST module whose functions
/// `imported` gives.
fn solved_importing(src: &str, imported: &dyn Fn(&str) -> Option<Callee>) -> Vec<String> {
    typechecked(src, imported, |body, types| shown_locals(body, &types))
}

/// `then` of the body of function `f` of `src` and what the typecheck
/// solves of it, the module `other` a POST module whose functions
/// `imported` gives.
fn typechecked<R>(
    src: &str,
    imported: &dyn Fn(&str) -> Option<Callee>,
    then: impl FnOnce(&Body, LocalTypes) -> R,
) -> R {
    let tree = Tree::parse(src);
    assert!(tree.errors().is_empty(), "{:?}", tree.errors());
    let file = SourceFile::new("t.py", src);
    let mut files = postc_ir::FileTable::default();
    let is_post_module = |m: &str| m == "other";
    let mut d = Declarer::new(&file, files.intern("t.py"), &is_post_module);
    let Declared { module, globals, funcs, .. } = d.declare("t", tree.body());
    assert!(d.diags.is_empty(), "{:?}", d.diags);
    let decl = funcs.iter().find(|f| f.name == "f").expect("a function `f`");
    let AstStmt::FunctionDef(def) = &tree.body()[decl.stmt] else { panic!("a def") };
    let is_global = |n: &str| globals.contains_key(n);
    let body = BodyBuilder::build(def, decl.params.iter().map(|(n, _)| n.as_str()), &decl.poisoned, &is_global);
    let generics = crate::generics::Generics::default();
    let env = TypeEnv {
        globals: &globals,
        funcs: &funcs,
        generics: &generics,
        types: &module.types,
        decl,
        imported,
        intrinsics: &module.intrinsic_imports,
        expr_types: true,
        read_only: None,
        def_name: def.name.range,
    };
    then(&body, local_types(&body, &env))
}

/// The typed locals of `body`, as [`solved`] shows them.
fn shown_locals(body: &Body, types: &LocalTypes) -> Vec<String> {
    let shown = |t: &LocalType| {
        let weak = if t.scalar.weak { "~" } else { "" };
        let nonneg = if t.nonneg { "+" } else { "" };
        let annotated = if t.annotated { "!" } else { "" };
        format!("{weak}{}{nonneg}{annotated}", t.scalar.dtype.name())
    };
    fn shown_tuple(elems: &[TupleElement], shown: &dyn Fn(&LocalType) -> String) -> String {
        let shown_element = |e: &TupleElement| match e {
            TupleElement::Scalar(t) => shown(t),
            TupleElement::Array(a) => shown_array(a),
            TupleElement::Tuple(inner) => shown_tuple(inner, shown),
        };
        format!("({})", elems.iter().map(shown_element).collect::<Vec<_>>().join(", "))
    }
    (body.locals.iter())
        .filter_map(|(id, local)| {
            let ty = match (types.scalars.get(id), types.tuples.get(id), types.arrays.get(id)) {
                (Some(t), _, _) => shown(t),
                (None, Some(elems), _) => shown_tuple(elems, &shown),
                (None, None, Some(a)) => shown_array(a),
                (None, None, None) => format!("(dtype {})", types.dtypes.get(id)?.name()),
            };
            Some(format!("{}: {ty}", local.name))
        })
        .collect()
}

/// An array local as `Dtype[:, :]` (one `:` an axis, its extent where
/// static), `Out[...]` when it
/// is a caller's output, `*` when it is rebound; with its layout unless C
/// order.
fn shown_array(a: &ArrayLocal) -> String {
    let mut shown = shown_array_type(&a.ty);
    if a.rebound {
        shown.push('*');
    }
    shown
}

/// An array's type as [`shown_array`] shows it (never rebound).
fn shown_array_type(ty: &TypeData) -> String {
    let Shape::Dims(dims) = &ty.shape else { panic!("a known rank") };
    let axes: Vec<String> = dims.iter().map(|d| d.map_or(":".to_owned(), |n| n.to_string())).collect();
    let axes = axes.join(", ");
    let mut shown = format!("{}[{axes}]", ty.dtype.name());
    if ty.layout != Layout::COrder {
        shown = format!("{shown} {}", ty.layout);
    }
    if ty.is_output {
        shown = format!("Out[{shown}]");
    }
    shown
}

/// An expression's type as [`solved`] shows a local's (`~` weak, `+`
/// non-negative), a constant's followed by `= value`.
fn shown_ty(ty: &Ty) -> String {
    let scalar = |s: &Scalar| {
        format!("{}{}{}", if s.weak { "~" } else { "" }, s.dtype.name(), if ty.nonneg() { "+" } else { "" })
    };
    match ty {
        Ty::Num { s, .. } => scalar(s),
        Ty::Lit { lit, s } => format!("{} = {lit:?}", scalar(s)),
        Ty::Arr(a) => shown_array_type(a),
        Ty::Tuple(elems) => format!("({})", elems.iter().map(shown_ty).collect::<Vec<_>>().join(", ")),
    }
}

/// The type the typecheck records for each expression of function `f` of
/// `src` whose source text is `text`, in the order they are written
/// (`None` where it records none).
fn types_of(src: &str, text: &str) -> Vec<Option<String>> {
    types_of_importing(src, &|_| None, text)
}

/// As [`types_of`], the module `other` a POST module whose functions
/// `imported` gives.
fn types_of_importing(src: &str, imported: &dyn Fn(&str) -> Option<Callee>, text: &str) -> Vec<Option<String>> {
    typechecked(src, imported, |body, types| {
        let mut found: Vec<(ruff_text_size::TextRange, Option<String>)> = (body.expr_ranges.iter())
            .filter(|(_, r)| &src[**r] == text)
            .map(|(e, r)| (*r, types.exprs.get(e).map(shown_ty)))
            .collect();
        assert!(!found.is_empty(), "no expression `{text}`");
        found.sort_by_key(|(r, _)| r.start());
        found.into_iter().map(|(_, t)| t).collect()
    })
}

const HEADER: &str = "from postyp import Float32, Float64, Int8, Int32, Int64, UInt8\nfrom postc.math import sqrt\n\n";

#[test]
fn python_scalars_stay_weak_and_meet_numpy_scalars_by_nep_50() {
    let src = format!(
        "{HEADER}def f(x: Float32, n: Int8) -> Float32:
    a = 1
    b = a * 2.5
    c = x * 2.5
    d = n + 1
    e = n + 1000.0
    g = a / 2
    return c
"
    );
    // NumPy 2: float32 * Python float is float32, int8 + Python int is
    // int8, int8 + Python float is float64, Python int / int is float.
    assert_eq!(solved(&src), ["a: ~Int64+", "b: ~Float64", "c: Float32", "d: Int8", "e: Float64", "g: ~Float64"]);
}

#[test]
fn a_local_is_the_join_of_its_bindings_wherever_they_are() {
    let src = format!(
        "{HEADER}def f(x: Float64[:], n: Int64) -> Float64:
    s = 0
    for i in range(n):
        if i > 2:
            s = s + x[i]
    k = 0
    while k < n:
        k += 2
    t: Float32 = 0
    t = t + 1
    return s
"
    );
    // `s` starts as a Python int and meets float64 elements: Float64;
    // `range` counters are Python ints, non-negative from a start of 0.
    assert_eq!(solved(&src), ["s: Float64", "i: ~Int64+", "k: ~Int64+", "t: Float32+!"]);
}

#[test]
fn only_what_depends_on_typed_values_is_typed() {
    let src = format!(
        "{HEADER}import numpy as np

def f(x: Float64[:], n: Int64) -> Float64:
    a = np.polyval(x, 2.0)
    b = a + 1.0
    c = sqrt(Float64(n)) + abs(-3) + min(n, len(x))
    for y in np.sort(x):
        pass
    d = -n if n > 0 else n
    return b
"
    );
    // `a` is of a NumPy function compiled code does not have and `b` reads
    // it: both are left untyped; the name a loop over a sorted copy binds
    // is its element.
    assert_eq!(solved(&src), ["c: Float64", "y: Float64", "d: Int64"]);
}

#[test]
fn conflicting_bindings_are_left_out_as_the_lowering_leaves_them_out() {
    let src = format!(
        "{HEADER}def f(n: Int64) -> Int64:
    a = 1
    a = \"text\"
    b: Int32 = 1
    b = 2.5
    c = n
    return n
"
    );
    // The lowering reports a binding that does not join the others (or
    // narrows an annotated local) and leaves it out: the local keeps the
    // type the others give it.
    assert_eq!(solved(&src), ["a: ~Int64+", "b: Int32+!", "c: Int64"]);
}

#[test]
fn counting_down_and_unsigned_values_keep_their_sign() {
    let src = format!(
        "{HEADER}def f(n: Int64, u: UInt8) -> Int64:
    for i in range(n, -1, -1):
        pass
    for j in range(n, -5, -1):
        pass
    v = u * 2
    w = n % 3
    z = -1
    return n
"
    );
    // Down to a stop of -1 or more a counter is never negative, past it
    // it may be; a
    // remainder takes the sign of a non-negative divisor.
    assert_eq!(solved(&src), ["i: ~Int64+", "j: ~Int64", "v: UInt8+", "w: Int64+", "z: ~Int64"]);
}

#[test]
fn unpacked_values_and_extents_are_typed() {
    let src = format!(
        "{HEADER}def f(a: Float32[:, :], x: Float64) -> Float64:
    n, m = a.shape
    p, q = x, 2
    q2 = a.shape[-1]
    k = a.shape[2]
    r, (s, t) = 1, (2, 3)
    u, v = a.shape[0], x + 1.0, 3
    return x
"
    );
    // An extent is a non-negative Python int; an axis out of range, a
    // nested target and a count that does not match are left to the
    // lowering to report.
    assert_eq!(solved(&src), ["n: ~Int64+", "m: ~Int64+", "p: Float64", "q: ~Int64+", "q2: ~Int64+"]);
}

#[test]
fn a_long_sum_is_typed_on_a_small_stack() {
    let terms = 20_000;
    let src = format!("{HEADER}def f(n: Int64) -> Int64:\n    s = {}\n    return s\n", vec!["n"; terms].join(" + "));
    let out = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || solved(&src))
        .expect("a thread")
        .join()
        .expect("no stack overflow");
    assert_eq!(out, ["s: Int64"]);
}

#[test]
fn tuples_of_scalars_are_typed_element_by_element() {
    let src = format!(
        "{HEADER}def f(a: Float64[:, :], x: Int64, y: Float64, v: Int32[:]) -> Float64:
    s = a.shape
    n, m = s
    t = (x, 1)
    if x > 0:
        t = (y, 2)
    k = t[1]
    q = divmod(x, 3)
    w = s[x]
    lo, hi = (x, y) if x < y else (y, x)
    c = x in (1, 2)
    e = s == (2, 3)
    p, r = v
    z = sum(t) + max(s) + len(s)
    for u in (1, 2.5):
        z = z + u
    return z
"
    );
    // An element joins as a local does (`t[0]`: Int64 then Float64); `x %
    // 3` is non-negative; a run-time index into extents is a non-negative
    // Python int; `p, r = v` reads Int32 elements.
    assert_eq!(
        solved(&src),
        [
            "s: (~Int64+, ~Int64+)",
            "n: ~Int64+",
            "m: ~Int64+",
            "t: (Float64, ~Int64+)",
            "k: ~Int64+",
            "q: (Int64, Int64+)",
            "w: ~Int64+",
            "lo: Float64",
            "hi: Float64",
            "c: ~Bool+",
            "e: ~Bool+",
            "p: Int32",
            "r: Int32",
            "z: Float64",
            "u: ~Float64",
        ]
    );
}

#[test]
fn tuples_the_lowering_refuses_are_left_out() {
    let src = format!(
        "{HEADER}def f(x: Int64, y: Float64) -> Int64:
    t = (x, x)
    if x > 0:
        t = (x, x, x)
    g = (x, y)
    h = g[x]
    b = x
    b = (x, x)
    o = (x, 1) < x
    return x
"
    );
    // `t` keeps its first length, `b` its scalar; `h` indexes a tuple of
    // two dtypes at run time and a tuple is not ordered against a number:
    // neither is typed.
    assert_eq!(solved(&src), ["t: (Int64, Int64)", "g: (Int64, Float64)", "b: Int64"]);
}

const NUMPY: &str =
    "import numpy as np\nfrom numpy import zeros, float32\nfrom postyp import Float64, Int32, Int64, Out\n\n";

#[test]
fn arrays_created_in_the_body_take_numpy_dtypes() {
    let src = format!(
        "{NUMPY}def f(x: Float64[:, :], n: Int64) -> Float64:
    a = np.zeros((n, 3), dtype=np.int32)
    b = np.empty(n)
    c = np.full(n, 2)
    d = np.full(n, Int32(2))
    e = np.ones_like(x, \"float32\")
    g = x.copy()
    h = g.astype(np.uint8)
    k = zeros(x.shape, float32)
    m = np.full_like(a, 7)
    return 0.0
"
    );
    // A Python int fills Int64 (NumPy's default dtype of a Python
    // number), a NumPy scalar its own dtype; `*_like` and `copy` keep the
    // source's axes and, unless told otherwise, its dtype.
    assert_eq!(
        solved(&src),
        [
            "a: Int32[:, :]",
            "b: Float64[:]",
            "c: Int64[:]",
            "d: Int32[:]",
            "e: Float32[:, :]",
            "g: Float64[:, :]",
            "h: UInt8[:, :]",
            "k: Float32[:, :]",
            "m: Int32[:, :]",
        ]
    );
}

#[test]
fn views_have_an_axis_for_each_slice_and_each_axis_not_named() {
    let src = format!(
        "{NUMPY}def f(x: Float64[:, :, :], y: Out[Float64[:, :]], i: Int64) -> Float64:
    r = x[i]
    c = x[:, i, 1:]
    e = x[..., i]
    n = x[None, i, ::2, i]
    t = y.T
    w = y[i]
    s = r[0, 1]
    u = c[i, ...]
    return s
"
    );
    // A view is C order by type (its strides are its own) and writable
    // exactly when its base is; all-integer entries name one element.
    assert_eq!(
        solved(&src),
        [
            "r: Float64[:, :]",
            "c: Float64[:, :]",
            "e: Float64[:, :]",
            "n: Float64[:, :]",
            "t: Out[Float64[:, :]]",
            "w: Out[Float64[:]]",
            "s: Float64",
            "u: Float64[:]",
        ]
    );
}

#[test]
fn an_array_local_bound_twice_or_in_a_block_is_rebound() {
    let src = format!(
        "{NUMPY}def f(x: Float64[:], n: Int64) -> Float64:
    once = np.zeros(n)
    twice = np.zeros(n)
    twice = x.copy()
    inner = np.ones(n)
    for i in range(n):
        inner = np.zeros(n)
    updated = np.zeros(n)
    updated += 1.0
    return 0.0
"
    );
    // An update in place does not rebind.
    assert_eq!(
        solved(&src),
        ["once: Float64[:]", "twice: Float64[:]*", "inner: Float64[:]*", "i: ~Int64+", "updated: Float64[:]"]
    );
}

#[test]
fn arrays_that_do_not_agree_or_are_read_before_bound_are_left_out() {
    let src = format!(
        "{NUMPY}def f(x: Float64[:], n: Int64) -> Float64:
    a = np.zeros(n)
    a = np.zeros((n, n))
    b = np.zeros(n)
    b = 1.0
    s = 0.0
    for i in range(n):
        if i > 0:
            s = s + prev[0]
        prev = x.copy()
    g = np.zeros(n, dtype=np.float_)
    return s
"
    );
    // An array local keeps the first array bound to it. `prev` has no
    // value yet where the loop's first statement reads it (the lowering
    // reads it there before any binding), so `s` is typed by its other
    // binding only; `np.float_` is NumPy 1's.
    assert_eq!(solved(&src), ["a: Float64[:]*", "b: Float64[:]*", "s: ~Float64", "i: ~Int64+", "prev: Float64[:]*"]);
}

#[test]
fn prange_counters_are_typed_as_range_counters() {
    let src = format!(
        "{NUMPY}from postc import prange\nimport postc\n\ndef f(x: Float64[:], n: Int64) -> Float64:
    s = 0.0
    for i in prange(n):
        s += x[i]
    for j in postc.prange(1, n, 2):
        s += x[j]
    return s
"
    );
    assert_eq!(solved(&src), ["s: Float64", "i: ~Int64+", "j: ~Int64+"]);
}

#[test]
fn reductions_calls_and_library_functions_of_scalars_are_typed() {
    let src = format!(
        "{NUMPY}import math\n\ndef mean(x: Float64[:]) -> Float64:
    return x.sum() / len(x)

def halves(x: Float64[:]) -> tuple[Float64[:], Float64]:
    return x[1:], x[0]

def f(x: Float64[:, :], y: Int32[:], n: Int64) -> Float64:
    s = x.sum()
    m = y.mean()
    k = np.argmax(y)
    lo = y.min()
    t = np.sum(y)
    b = y.any()
    r = x[0]
    mu = mean(r)
    h, first = halves(r)
    e = np.exp(2)
    q = np.sqrt(y[0])
    a = np.abs(y[1])
    g = math.sqrt(y[0])
    w = np.square(True)
    v = np.sum(y + 1)
    return s
"
    );
    // NumPy's sum of Int32 is Int64 and its mean Float64; a ufunc of a
    // Python int computes in Int64 (sqrt of Int32 in Float64), `math`
    // gives Python floats; a sum of an expression is NumPy's sum of the
    // array it would make.
    assert_eq!(
        solved(&src),
        [
            "s: Float64",
            "m: Float64",
            "k: Int64+",
            "lo: Int32",
            "t: Int64",
            "b: Bool",
            "r: Float64[:]",
            "mu: Float64",
            "h: Float64[:]",
            "first: Float64",
            "e: Float64",
            "q: Float64",
            "a: Int32",
            "g: ~Float64",
            "w: Int8+",
            "v: Int64",
        ]
    );
}

#[test]
fn loops_over_arrays_bind_elements_rows_and_indices() {
    let src = format!(
        "{NUMPY}def f(x: Float64[:, :], y: Int32[:], z: Float64[:]) -> Float64:
    s = 0.0
    for row in x:
        for v in row:
            s += v
    for i, e in enumerate(y):
        s += i * e
    for u, w in zip(z, y):
        s += u * w
    for c in x.T:
        s += c[0]
    for p in x[1:, 0]:
        s += p
    return s
"
    );
    // A row bound by a loop inside another is rebound.
    assert_eq!(
        solved(&src),
        [
            "s: Float64",
            "row: Float64[:]",
            "v: Float64",
            "i: ~Int64+",
            "e: Int32",
            "u: Float64",
            "w: Int32",
            "c: Float64[:]",
            "p: Float64",
        ]
    );
}

#[test]
fn any_array_operand_makes_a_whole_array_expression() {
    let src = format!(
        "{NUMPY}from postyp import Float32

def f(x: Float64[:], y: Int32[:], m: Float64[:, :], t: Float64) -> Float64:
    a = np.array([t, 2.0 * t]) * 2.0 + np.array([t, t])
    b = np.roll(y, 1) * 100
    c = m @ x - x
    d = np.where(x > t, x, -1.0)
    e = np.clip(y, 0, 5)
    g = np.minimum(x, y) + np.maximum(y, 0)
    h = (x == t).sum()
    k = np.isnan(t)
    n = np.power(y, 2)
    p = np.where(t > 0.0, t, 1)
    return t
"
    );
    // Whatever makes the array (a call of `np.array`, `np.roll`, a
    // product), the node is whole-array; `np.where` and `np.clip` too;
    // NumPy's scalar functions of numbers give NumPy scalars. `np.where`
    // of numbers is refused (CPython's function, to compiled code).
    assert_eq!(
        solved(&src),
        [
            "a: Float64[:]",
            "b: Int32[:]",
            "c: Float64[:]",
            "d: Float64[:]",
            "e: Int32[:]",
            "g: Float64[:]",
            "h: Int64",
            "k: Bool+",
            "n: Int32[:]",
        ]
    );
}

#[test]
fn whole_array_expressions_take_their_elements_types_and_the_widest_rank() {
    let src = format!(
        "{NUMPY}from postyp import Float32

def f(x: Float64[:, :], y: Int32[:], z: Float32[:]) -> Float64:
    a = 2.0 * x + y
    b = -y
    c = y > 0
    d = np.sqrt(y) + z
    e = z * 2
    g = (x + 1.0).sum()
    h = np.sum(y * y)
    m = np.abs(z - 1)
    n = x[0] * z
    p = x.T * 3
    q = (y < 3) & (y > 0)
    return g
"
    );
    // Each element meets the scalars by NEP 50 (Float32 times a Python
    // int stays Float32); a sum of an expression is NumPy's sum of the
    // array it would make (Int32 sums to Int64).
    assert_eq!(
        solved(&src),
        [
            "a: Float64[:, :]",
            "b: Int32[:]",
            "c: Bool[:]",
            "d: Float64[:]",
            "e: Float32[:]",
            "g: Float64",
            "h: Int64",
            "m: Float32[:]",
            "n: Float64[:]",
            "p: Float64[:, :]",
            "q: Bool[:]",
        ]
    );
}

#[test]
fn module_constants_sorted_copies_and_nan_reductions_are_typed() {
    let src = format!(
        "{NUMPY}import math
from numpy import pi
from postyp import Float32

def f(x: Float64[:], y: Int32[:], z: Float32[:]) -> Float64:
    a = np.full(3, np.inf)
    b = math.e + pi
    s = np.sort(y)
    m = np.nanmean(y)
    v = np.nanvar(z)
    t = np.nansum(y)
    k = np.nanargmax(x)
    return b
"
    );
    // NumPy's and `math`'s constants are Python floats; `nanmean` of
    // integers is Float64, `nanvar` keeps a float dtype, `nansum` widens.
    assert_eq!(
        solved(&src),
        ["a: Float64[:]", "b: ~Float64", "s: Int32[:]", "m: Float64", "v: Float32", "t: Int64", "k: Int64+"]
    );
}

#[test]
fn a_local_bound_to_a_dtype_names_the_dtype_of_arrays_made_after_it() {
    let src = format!(
        "{NUMPY}def f(n: Int64) -> Float64:
    dtype = np.int_
    a = np.empty(n, dtype=dtype)
    for i in range(n):
        b = np.zeros(n, dtype=late)
        late = np.float32
    return 0.0
"
    );
    // `dtype` has no type of its own; `late` is bound after the `dtype=`
    // that names it, where the lowering has not seen it yet.
    assert_eq!(solved(&src), ["dtype: (dtype Int64)", "a: Int64[:]", "i: ~Int64+", "late: (dtype Float32)"]);
}

#[test]
fn products_of_vectors_and_matrices_are_scalars_or_fresh_arrays() {
    let src = format!(
        "{NUMPY}from numpy import dot
from postyp import Float32

def f(x: Float64[:], y: Int32[:], m: Float32[:, :], z: Float32[:]) -> Float64:
    a = np.dot(x, y)
    b = m @ z
    c = z.dot(m)
    d = m @ m
    e = dot(z, z)
    return a
"
    );
    // NumPy promotes the two dtypes (Float64 and Int32 to Float64).
    assert_eq!(solved(&src), ["a: Float64", "b: Float32[:]", "c: Float32[:]", "d: Float32[:, :]", "e: Float32"]);
}

#[test]
fn ranges_of_numbers_take_numpy_dtypes_of_their_bounds() {
    let src = format!(
        "{NUMPY}from postyp import Float32

def f(n: Int64, x: Float32, k: Int32) -> Float64:
    a = np.arange(n)
    b = np.arange(2, 10.5)
    c = np.arange(x, 3.0)
    d = np.arange(k, 10, dtype=np.int8)
    e = np.arange(k, 10)
    return 0.0
"
    );
    // Python numbers count at their default dtype, NumPy scalars at their
    // own, and the two promote: Float32 and a Python float give Float64,
    // Int32 and a Python int Int64.
    assert_eq!(solved(&src), ["a: Int64[:]", "b: Float64[:]", "c: Float64[:]", "d: Int8[:]", "e: Int64[:]"]);
}

#[test]
fn transposes_ravels_reshapes_and_flattens_are_views_or_fresh_copies() {
    let src = format!(
        "{NUMPY}def f(x: Float64[:, :], o: Out[Int32[:]], n: Int64) -> Float64:
    t = x.transpose()
    r = x.ravel()
    s = np.ravel(x)
    p = x.reshape(n, -1)
    q = x.reshape((2, n, -1))
    w = np.reshape(x, n)
    v = o.reshape(n, 2)
    g = x.flatten()
    return 0.0
"
    );
    // Views are writable as their base is (`Out`); a flatten is a copy.
    assert_eq!(
        solved(&src),
        [
            "t: Float64[:, :]",
            "r: Float64[:]",
            "s: Float64[:]",
            "p: Float64[:, :]",
            "q: Float64[:, :, :]",
            "w: Float64[:]",
            "v: Out[Int32[:, :]]",
            "g: Float64[:]",
        ]
    );
}

#[test]
fn reshapes_the_lowering_refuses_are_not_typed() {
    let src = format!(
        "{NUMPY}def f(x: Float64[:, :], n: Int64) -> Float64:
    a = np.reshape(x, n, 2)
    b = x.reshape(1.5)
    c = x.reshape(())
    d = x.flatten(order=\"C\")
    e = n
    return 0.0
"
    );
    assert_eq!(solved(&src), ["e: Int64"]);
}

#[test]
fn running_sums_widen_small_integers_and_keep_the_axes_along_one() {
    let src = format!(
        "{NUMPY}from postyp import Int8, Float32\n\ndef f(x: Int8[:, :], y: Float32[:]) -> Float64:
    a = np.cumsum(x)
    b = x.cumsum(axis=1)
    c = np.cumsum(x, -2)
    d = y.cumsum()
    e = np.cumsum(x, axis=2)
    g = np.cumsum(x, axis=(0, 1))
    return 0.0
"
    );
    // An axis out of range raises AxisError when the call runs and is
    // typed along the last axis; a tuple of axes is refused by the lowering.
    assert_eq!(solved(&src), ["a: Int64[:]", "b: Int64[:, :]", "c: Int64[:, :]", "d: Float32[:]", "e: Int64[:, :]"]);
}

#[test]
fn reductions_along_an_axis_drop_it_or_keep_it() {
    let src = format!(
        "{NUMPY}from postyp import Float32\n\ndef f(x: Int32[:, :], y: Float32[:]) -> Float64:
    a = x.sum(axis=0)
    b = np.max(x, 1)
    c = x.mean(axis=-1, keepdims=True)
    d = x.argmax(axis=None)
    e = y.sum(axis=0)
    g = x.prod(axis=(0, 1))
    h = x.all(keepdims=True)
    k = x.argmin(axis=(0, 1))
    m = x.sum(axis=(0, 0))
    return 0.0
"
    );
    // Every axis named is the whole array's scalar; a tuple of axes to
    // `argmin` and an axis named twice are refused.
    assert_eq!(
        solved(&src),
        ["a: Int64[:]", "b: Int32[:]", "c: Float64[:, :]", "d: Int64+", "e: Float32", "g: Int64", "h: Bool[:, :]",]
    );
}

#[test]
fn parts_conjugates_and_rounding_of_numbers_are_typed() {
    let src = "import numpy as np\nfrom postyp import Float64, Float32, Int64, Complex64, UInt64\n\n\
def f(z: Complex64, x: Float32, n: Int64, u: UInt64) -> Float64:
    w = z.conjugate()
    y = x.conjugate()
    re = z.real
    im = z.imag
    xr = x.real
    xi = x.imag
    r1 = round(x)
    r2 = round(n)
    r3 = round(u)
    r4 = round(True)
    c = complex(-z.imag, z.real)
    return 0.0
";
    // A complex number's parts are of its real dtype; a real number's
    // `imag` is a weak zero of its dtype, which a local holds as a Python
    // float; `round` gives a Python int.
    assert_eq!(
        solved(src),
        [
            "w: Complex64",
            "y: Float32",
            "re: Float32",
            "im: Float32",
            "xr: Float32",
            "xi: ~Float64+",
            "r1: ~Int64",
            "r2: ~Int64",
            "r3: ~Int64+",
            "r4: ~Int64+",
            "c: ~Complex128",
        ]
    );
}

#[test]
fn postc_empty_and_numpy_type_limits_are_typed() {
    let src = "import numpy as np\nimport postc\nfrom postc import empty\n\
from postyp import Float64, Int16, Int64, Bool\n\n\
def f(n: Int64, b: Bool) -> Float64:
    a = empty(n, Float64)
    s = postc.empty(3, Int16)
    c = empty(n, float)
    lo = np.iinfo(np.int16).min
    bits = np.iinfo(\"int8\").bits
    eps = np.finfo(np.float32).eps
    m = np.finfo(np.complex64).nmant
    r = round(b)
    g = empty(n, Bool).conjugate()
    return 0.0
";
    // A literal length is a static extent; `finfo`'s values are NumPy
    // scalars, its counts Python ints; `round` of a NumPy Bool is
    // refused; the `conjugate` of a real array is the array itself.
    assert_eq!(
        solved(src),
        [
            "a: Float64[:]",
            "s: Int16[3]",
            "c: Float64[:]",
            "lo: ~Int64",
            "bits: ~Int64+",
            "eps: Float32",
            "m: ~Int64+",
            "g: Bool[:]"
        ]
    );
}

#[test]
fn searches_norms_and_arrays_of_lists_are_typed() {
    let src = "import numpy as np\nfrom numpy.linalg import norm\n\
from postyp import Float64, Int64, Int32, Complex64, Float16\n\n\
def f(x: Float64[:], y: Int32[:], z: Complex64[:], m: Float16[:, :], n: Int64) -> Float64:
    a = np.searchsorted(x, 2.0)
    b = np.searchsorted(x, n, side=\"right\")
    c = np.searchsorted(y, v=x)
    d = np.linalg.norm(x)
    e = norm(y, 1)
    g = np.linalg.norm(z, np.inf)
    h = np.linalg.norm(m, \"fro\")
    k = np.array([1, 2, n])
    p = np.array([[1.0, 2], [3, 4]], dtype=np.float32)
    q = np.array([1.5, 2.5], np.int32)
    r = np.array([])
    s1 = np.searchsorted(x, 1.0, side=\"middle\")
    s2 = np.linalg.norm(m, 2)
    s3 = np.array([[1, 2], [3]])
    s4 = np.array([1j], dtype=np.float64)
    return 0.0
";
    // An index is a non-negative Int64; a norm is of the array's real
    // float dtype (Float64 of integers); an array of a list has an axis
    // per level. A side not `left`/`right`, a matrix's numeric order, a
    // ragged list and a complex number stored as a float are refused.
    assert_eq!(
        solved(src),
        [
            "a: Int64+",
            "b: Int64+",
            "c: Int64[:]",
            "d: Float64+",
            "e: Float64+",
            "g: Float32+",
            "h: Float16+",
            "k: Int64[:]",
            "p: Float32[:, :]",
            "q: Int32[:]",
            "r: Float64[:]",
        ]
    );
}

#[test]
fn tuple_orderings_slices_and_extremes_are_typed() {
    let src = format!(
        "{HEADER}def f(a: Int64, b: Float64, c: Int64) -> Float64:
    t = (a, b, c)
    lt = t < (a, b, 0)
    em = () < t
    nested = ((a, 1), 2) <= ((a, 2), 3)
    rest = t[1:]
    back = t[::-1]
    none = t[2:1]
    down = t[5:0:-2]
    least = min((a, b), (c, 0.5), (a, 2.0))
    most = max(t[:2], (c, 1.0))
    m2 = max((1, 2), (3, 4))
    bad1 = t < a
    bad2 = t[::0]
    bad3 = t[:c]
    bad4 = min((a, b), (a,))
    return 0.0
"
    );
    // An ordering of tuples is a Python bool; a slice is the tuple of the
    // elements it picks; `min` and `max` of tuples promote each position.
    // A tuple ordered against a number, a zero step, a bound not a
    // constant and tuples of different lengths are refused.
    assert_eq!(
        solved(&src),
        [
            "t: (Int64, Float64, Int64)",
            "lt: ~Bool+",
            "em: ~Bool+",
            "nested: ~Bool+",
            "rest: (Float64, Int64)",
            "back: (Int64, Float64, Int64)",
            "none: ()",
            "down: (Int64)",
            "least: (Int64, Float64)",
            "most: (Int64, Float64)",
            "m2: (~Int64+, ~Int64+)",
        ]
    );
}

#[test]
fn tuples_of_arrays_and_of_tuples_are_typed_element_by_element() {
    let src = format!(
        "{NUMPY}def g(a: Float64[:], n: Int64) -> tuple[Float64[:], Int64]:
    return a, n


def f(a: Float64[:], b: Float64[:], x: Out[Float64[:]], n: Int64) -> Float64:
    t = (a, b)
    first, second = t
    u = (x, n)
    for v in t:
        n += len(v)
    pairs = ((n, 1), (2, n))
    for p, q in pairs:
        pass
    most = max(pairs)
    w = g(a, n)
    nested = ((a, 1.5), n)
    if n > 3:
        nested = ((b, 2.5), 7)
    mixed = (a, 1)
    mixed = (x, 1)
    return 0.0
"
    );
    // An array element is rebound when its tuple local is (bound twice or
    // in a block), as a local bound to each element of a tuple in turn
    // is; arrays of different types in one position are refused (the
    // first kept). `max`
    // of tuples is non-negative where any tuple's element is.
    assert_eq!(
        solved(&src),
        [
            "t: (Float64[:], Float64[:])",
            "first: Float64[:]",
            "second: Float64[:]",
            "u: (Out[Float64[:]], Int64)",
            "v: Float64[:]*",
            "pairs: ((Int64, ~Int64+), (~Int64+, Int64))",
            "p: Int64",
            "q: Int64",
            "most: (Int64+, Int64+)",
            "w: (Float64[:], Int64)",
            "nested: ((Float64[:]*, ~Float64), Int64)",
            "mixed: (Float64[:]*, ~Int64+)",
        ]
    );
}

#[test]
fn values_that_may_be_none_are_typed_as_their_numbers() {
    let src = "from typing import Optional\nfrom postyp import Float64, Int64, Float32\n\n\
def g(x: Int64, lo: Optional[Int64], hi: Int64 | None = None, scale: Float64 = 2.0) -> Int64 | None:
    return None


def f(x: Float32 | None, n: Int64) -> Float64:
    best = None
    for i in range(n):
        best = i
    found: Int64 | None = None
    r = g(n, None)
    k = g(n, 1, hi=None)
    j = g(n, lo=2, hi=3)
    y = x * 2.0
    bad1 = g(n, hi=2)
    bad2 = g(n, 1, lo=2)
    bad3 = g(n, 1.5)
    bad4 = g(n, 1, width=2)
    return 0.0
";
    // `None` binds a local's flag, not its type; a call whose result may
    // be `None` gives its value's type, and a parameter that may be `None`
    // is read (where narrowed) as its value. A required parameter left
    // out, one given twice, a float for an integer and an unknown keyword
    // are refused.
    assert_eq!(
        solved(src),
        ["best: ~Int64+", "i: ~Int64+", "found: Int64+!", "r: Int64", "k: Int64", "j: Int64", "y: Float32"]
    );
}

#[test]
fn none_arms_and_none_tests_are_typed() {
    let src = "from postyp import Bool, Float32, Float64, Int64\n\n\
def f(x: Float32 | None, n: Int64, c: Bool) -> Float64:
    h = n // 2 if c else None
    k = None if c else 3
    z = 1.5 if c else None
    w = x if c else None
    both = None if c else None
    bad = 1j if c else None
    t = x == None
    u = None is not x
    v = not x
    e = x != None and c
    g = not None
    o = None or c
    return 0.0
";
    // An arm that is `None` leaves the other's type (a Bool, an integer or
    // a float, not a complex number); two `None` arms none. `== None`,
    // `is not None` and the like are Python bools, `not` of a value that
    // may be `None` a Bool, as are `not None` and `None or c`.
    assert_eq!(
        solved(src),
        [
            "h: Int64",
            "k: ~Int64+",
            "z: ~Float64",
            "w: Float32",
            "t: ~Bool+",
            "u: ~Bool+",
            "v: Bool+",
            "e: Bool+",
            "g: Bool+",
            "o: Bool+"
        ]
    );
}

#[test]
fn calls_through_aliases_and_of_imported_functions_are_typed() {
    let src = "from other import dot as vdot, count\nfrom postyp import Float64, Int64\n\n\
def h(a: Float64[:], n: Int64 = 2) -> Float64[:]:
    return a


g = h


def f(x: Float64[:], n: Int64) -> Float64:
    a = g(x)
    c = vdot(x, x) / 2.0
    k = count(x, limit=n)
    bad = vdot(x)
    return 0.0
";
    let vector = TypeData::array(DType::Float64, Shape::dims(&[None]), Layout::COrder);
    let imported = |name: &str| {
        let (params, ret) = match name {
            "vdot" => (vec![vector.clone(), vector.clone()], TypeData::scalar(DType::Float64)),
            "count" => (vec![vector.clone(), TypeData::scalar(DType::Int64)], TypeData::scalar(DType::Int32)),
            _ => return None,
        };
        let param_names = ["a", "limit"].iter().map(|n| n.to_string()).collect();
        Some(Callee {
            name: name.to_owned(),
            maybe_none: vec![false; params.len()],
            params,
            param_names,
            defaults: Vec::new(),
            array_defaults: Vec::new(),
            keyword_only: 0,
            positional_only: 0,
            ret: Some(ret),
            ret_maybe_none: false,
            ret_weak: false,
            result_groups: Vec::new(),
            result_lists: Vec::new(),
            result_optional: Vec::new(),
            dtype_params: Vec::new(),
        })
    };
    // An alias calls what it names; an imported function's signature is
    // its module's. A missing argument is refused.
    assert_eq!(solved_importing(src, &imported), ["a: Float64[:]", "c: Float64", "k: Int32"]);
}

#[test]
fn launch_coordinates_shared_arrays_and_atomic_adds_of_kernels_are_typed() {
    let src = "import postc\nfrom postyp import Float64, Int32, Out\n\
from postc import kernel, thread_idx, block_idx, shared, atomic_add\n\n\
@kernel
def f(total: Out[Float64[:]], counts: Out[Int32[:, :]]) -> None:
    t = thread_idx.x
    i = block_idx.y * 8 + postc.block_dim.z
    buf = shared(Float64[8, 4])
    old = atomic_add(total, 0, 1.5)
    n = atomic_add(counts, t, i, 1)
    bad1 = thread_idx.w
    bad2 = shared(Float64[0])
    bad3 = atomic_add(counts, 0, 1)
";
    // A coordinate is a non-negative Python int; a shared array has its
    // static extents; an atomic add gives the element's old value. An
    // axis not `x`, `y` or `z`, an extent not positive and too few
    // indices are refused.
    assert_eq!(solved(src), ["t: ~Int64+", "i: ~Int64+", "buf: Float64[8, 4]", "old: Float64", "n: Int32"]);
}

#[test]
fn expressions_of_scalars_are_typed_as_the_lowering_types_them() {
    let src = format!(
        "{HEADER}import math

def g(a: Float64, k: Int64) -> Int32:
    return Int32(k)


def f(x: Int32, y: Float64, n: Int64) -> Int32:
    p = x + 1
    q = 1 + 2.5
    r = math.floor(y)
    j = 3
    k = 4
    c = j < k
    m = g(y, n)
    return -p
"
    );
    let ty = |text: &str| types_of(&src, text);
    // NEP 50: an Int32 meets a Python int as Int32; two Python numbers
    // give a Python float, `math.floor` a Python int, a comparison of
    // Python ints a Python bool.
    assert_eq!(ty("x + 1"), [Some("Int32".to_owned())]);
    assert_eq!(ty("1 + 2.5"), [Some("~Float64".to_owned())]);
    assert_eq!(ty("2.5"), [Some("~Float64 = Float(2.5)".to_owned())]);
    assert_eq!(ty("math.floor(y)"), [Some("~Int64".to_owned())]);
    assert_eq!(ty("j < k"), [Some("~Bool+".to_owned())]);
    // A call of a POST function is of its result type.
    assert_eq!(ty("g(y, n)"), [Some("Int32".to_owned())]);
    // A name is its local's type, where it is bound and where it is read.
    assert_eq!(ty("p"), [Some("Int32".to_owned()), Some("Int32".to_owned())]);
    assert_eq!(ty("-p"), [Some("Int32".to_owned())]);
    // A module, a function and what names them have no type.
    assert_eq!(ty("math"), [None]);
    assert_eq!(ty("math.floor"), [None]);
    assert_eq!(ty("g"), [None]);
}

#[test]
fn expressions_of_arrays_are_typed_where_their_statements_read_them() {
    let src = format!(
        "{HEADER}import numpy as np

def f(a: Float64[:], b: Float32[:, :], i: Int64, n: Int64) -> Float64:
    s = a[i]
    z = np.zeros(n)
    w = np.zeros((n, 3), dtype=np.int32)
    sh = b.shape
    v = b[i] * 2.0
    t = z + 1.0
    return s
"
    );
    let ty = |text: &str| types_of(&src, text);
    assert_eq!(ty("a[i]"), [Some("Float64".to_owned())]);
    assert_eq!(ty("np.zeros(n)"), [Some("Float64[:]".to_owned())]);
    assert_eq!(ty("np.zeros((n, 3), dtype=np.int32)"), [Some("Int32[:, :]".to_owned())]);
    assert_eq!(ty("(n, 3)"), [Some("(Int64, ~Int64+ = Int(3))".to_owned())]);
    // Extents are non-negative Python ints.
    assert_eq!(ty("b.shape"), [Some("(~Int64+, ~Int64+)".to_owned())]);
    // A row is a view; a whole-array expression a fresh array.
    assert_eq!(ty("b[i]"), [Some("Float32[:]".to_owned())]);
    assert_eq!(ty("b[i] * 2.0"), [Some("Float32[:]".to_owned())]);
    assert_eq!(ty("z + 1.0"), [Some("Float64[:]".to_owned())]);
    // An array local has no value where it is first bound (the target of
    // its binding), as the lowering reads it, and has one after.
    assert_eq!(ty("z"), [None, Some("Float64[:]".to_owned())]);
    // The NumPy module, its functions and dtypes have no type.
    assert_eq!(ty("np.zeros"), [None, None]);
    assert_eq!(ty("np.int32"), [None]);
}

#[test]
fn expressions_in_blocks_and_in_refused_constructs_are_typed_undefined_names_not() {
    let src = format!(
        "{HEADER}def f(a: Float64[:], x: Int64, n: Int64) -> Int64:
    t = 0.0
    if n > 0:
        for i in range(n):
            t = t + a[i]
    d = {{\"k\": x + 1}}
    with open(\"p\") as fh:
        y = x * 2
    u = undefined_name + 1
    return x
"
    );
    let ty = |text: &str| types_of(&src, text);
    assert_eq!(ty("n > 0"), [Some("Bool+".to_owned())]);
    assert_eq!(ty("t + a[i]"), [Some("Float64".to_owned())]);
    assert_eq!(ty("i"), [Some("~Int64+".to_owned()), Some("~Int64+".to_owned())]);
    // `range` itself is not typed, its counter is.
    assert_eq!(ty("range(n)"), [None]);
    // The parts of a refused dict, and a refused `with`'s block.
    assert_eq!(ty("x + 1"), [Some("Int64".to_owned())]);
    assert_eq!(ty("{\"k\": x + 1}"), [None]);
    assert_eq!(ty("x * 2"), [Some("Int64".to_owned())]);
    assert_eq!(ty("open(\"p\")"), [None]);
    // An undefined name, and what is made of it.
    assert_eq!(ty("undefined_name"), [None]);
    assert_eq!(ty("undefined_name + 1"), [None]);
    assert_eq!(ty("1"), vec![Some("~Int64+ = Int(1)".to_owned()); 2]);
}

#[test]
fn every_term_of_a_long_sum_is_typed_once_on_a_small_stack() {
    let terms = 20_000;
    let src = format!("{HEADER}def f(n: Int64) -> Int64:\n    s = {}\n    return s\n", vec!["n"; terms].join(" + "));
    let out = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            typechecked(&src, &|_| None, |body, types| {
                let typed: Vec<String> = types.exprs.values().map(shown_ty).collect();
                (body.exprs.len(), typed)
            })
        })
        .expect("a thread")
        .join()
        .expect("no stack overflow");
    // The terms, the sums of them, `s` bound and `s` returned.
    let (count, typed) = out;
    assert_eq!(count, 2 * terms + 1);
    assert_eq!(typed.len(), count);
    assert!(typed.iter().all(|t| t == "Int64"), "{:?}", typed.iter().find(|t| *t != "Int64"));
}

/// The tuple result the `return`s of function `f` of `src` give (its
/// result unannotated).
fn tuple_result_of(src: &str) -> Option<results::TupleResult> {
    typechecked(&format!("{HEADER}{src}"), &|_| None, |_, types| types.tuple_result)
}

/// The annotation of each element of `t`.
fn shown_elements(t: &results::TupleResult) -> Vec<String> {
    t.elements.iter().map(annotation_text).collect()
}

#[test]
fn a_tuple_result_is_what_the_first_return_of_a_tuple_gives() {
    let src = "def f(x: Float64, a: Float64[:], n: Int64):
    if n > 0:
        return x, (a, n)
    return 1.0, (a, 2)
";
    let got = tuple_result_of(src).expect("a tuple result");
    assert_eq!(shown_elements(&got), ["Float64", "Float64[:]", "Int64"]);
    assert_eq!((got.groups, got.optional, got.lists), (vec![(1, 2)], vec![], vec![]));
    // An element some `return` gives as `None`, with its presence flag
    // before it; a list.
    let src = "def f(x: Float64, a: Float64[:], n: Int64):
    if n > 0:
        return None, x
    return a, x
";
    let got = tuple_result_of(src).expect("a tuple result");
    assert_eq!(shown_elements(&got), ["Bool", "Float64[:]", "Float64"]);
    assert_eq!((got.groups, got.optional, got.lists), (vec![], vec![0], vec![]));
    let src = "def f(x: Float64, n: Int64):
    xs = [1.0, 2.0]
    return x, xs
";
    assert_eq!(tuple_result_of(src).expect("a tuple result").lists, [1]);
    // A number widens to the first's element; a `return` that disagrees
    // is refused, and the first still gives the result.
    let src = "def f(x: Float64, a: Float64[:], n: Int64):
    if n > 0:
        return x, n
    if n > 1:
        return n, n
    return a, n
";
    assert_eq!(shown_elements(&tuple_result_of(src).expect("a tuple result")), ["Float64", "Int64"]);
    // A `return` whose value has no type (the recursive call's result is
    // not known): no result.
    let src = "def f(n: Int64):
    if n == 0:
        return 0, 1
    a, b = f(n - 1)
    return b, a + b
";
    assert_eq!(tuple_result_of(src), None);
}

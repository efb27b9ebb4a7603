//! Products of vectors and matrices: `np.dot(a, b)`, `a.dot(b)` and
//! `a @ b` on arrays of one or two axes, with NumPy's meaning for each
//! pairing: 1-D and 1-D give a scalar (the inner product), 2-D and 1-D a
//! 1-D array (matrix times vector), 1-D and 2-D a 1-D array (vector times
//! matrix), 2-D and 2-D a new C-order 2-D array. A result is written
//! element by element into an `alloc.empty` when `b` has one axis; when
//! it has two, rows of `b` are added into a zeroed result row by row
//! ([`FnLower::sum_rows_of_b`]), the same sums in the same order with the
//! innermost loop along rows instead of down `b`'s columns.
//!
//! The result dtype is NumPy's promotion of the two array dtypes; both
//! operands are converted to it element by element, as NumPy converts
//! them before its loop. The sum runs left to right over the shared axis
//! in the result dtype (NumPy's BLAS for Float32/Float64 sums in another
//! order, so float results can differ from NumPy's in the last bits),
//! except that Float16 products are summed in Float32 and rounded once,
//! as NumPy's half loop does, and Bool is NumPy's `any(a & b)`. Integer
//! sums wrap like every integer sum here (from -O1; -O0 panics on
//! overflow). An empty shared axis gives zeros.
//!
//! The shared extents are compared at run time; a mismatch panics with
//! NumPy's ValueError: `np.dot`'s `shapes (2,3) and (4,) not aligned: 3
//! (dim 1) != 4 (dim 0)`, `@`'s gufunc message. Not here: scalar operands
//! (`np.dot(2.0, a)` is `2.0 * a`), arrays of three axes or more (NumPy
//! stacks them differently for `dot` and `@`), `out=`, `@=`, and text.
//!
//! `np.cross(a, b)` of two 1-D vectors of three elements is the new 1-D
//! array `[a1 b2 - a2 b1, a2 b0 - a0 b2, a0 b1 - a1 b0]` in their promoted
//! dtype (a list of numbers is the array `np.array` makes of it, as NumPy
//! converts it); other lengths panic: NumPy's ValueError for lengths
//! other than 2 and 3, and a message of its own for 2 (NumPy's deprecated
//! scalar result is not compiled). Not here: Bool vectors (NumPy refuses
//! their subtraction), stacks of vectors, `axis=`.
//!
//! `np.linalg.det(a)` of a square 2-D array is computed as NumPy computes
//! it: an LU factorization with partial pivoting (LAPACK's `getrf`, of
//! the transpose NumPy hands it, the largest magnitude in the column the
//! pivot, the first of equal ones), then `sign * exp(sum(log|u_ii|))` of
//! the factors' diagonal, the sign flipped for every row exchange and
//! negative diagonal element; a zero pivot gives `0.0`. The factors live
//! in a temporary copy (Float64 for Bool and integers, Float32 kept, as
//! NumPy converts). The elimination runs row by row, where LAPACK's
//! blocked kernels order the same sums otherwise, so a result can differ
//! from NumPy's in the last bits. A non-square array panics with NumPy's
//! `LinAlgError: Last 2 dimensions of the array must be square`. Not
//! here: Float16 (NumPy refuses it), complex arrays, stacks of matrices.
//!
//! `np.linalg.eigh(a)` of a square 2-D array is the tuple `(w, v)`: the
//! eigenvalues ascending, a new 1-D array, and the eigenvectors as the
//! columns of a new C-order 2-D array (`v[:, k]` of `w[k]`);
//! `np.linalg.eigvalsh(a)` is `w` alone. As LAPACK, they read one
//! triangle only, the lower one unless `UPLO='U'` (a string constant, by
//! keyword or position; NumPy's ValueError for another one is a compile
//! error), into a symmetric working copy in the float dtype `det` uses.
//! The method is not LAPACK's (a reduction to tridiagonal form) but
//! cyclic Jacobi rotations, robust and simple: sweeps over the pairs
//! `p < q` in row order, each element below the diagonal dropped when it
//! is at most the unit roundoff times the geometric mean of its two
//! diagonal magnitudes (a change no larger than rounding makes), else
//! zeroed by Rutishauser's rotation, applied to both sides of the copy
//! and to the product of the rotations, until a sweep rotates nothing.
//! Every eigenvalue is then accurate to rounding of the matrix's norm, as
//! LAPACK's is, but the two agree only to that, not bit for bit. The
//! eigenvalues are sorted by rank (a stable order, NaN last), so equal
//! ones keep the order the rotations left them in, and their vectors are
//! some orthonormal basis of their space, as LAPACK's are. An
//! eigenvector's sign is arbitrary in LAPACK too; here its first
//! component of the largest magnitude is positive. A NaN in the triangle
//! read makes the eigenvalues NaN, and the vectors of two rows or more
//! (no sweep then converges: the loop stops after [`JACOBI_SWEEPS`]); so
//! do elements so large that their differences overflow, where LAPACK
//! scales the matrix first. A non-square array panics as `det`'s does.
//! Each sweep costs some `6 n**3` multiplications, meant for the small
//! matrices kernels build (MNE's 4x4 of Horn's quaternion fit). Not
//! here: Float16, complex (Hermitian) arrays, stacks of matrices, and
//! the attributes `.eigenvalues` and `.eigenvectors` of NumPy's result
//! (unpack or index the tuple).

use super::*;
use crate::pytypes::promote_strong;
use crate::typeck::Ty;

/// Which of NumPy's two products is written: they differ only in their
/// error message on a shape mismatch (and on what this file refuses).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Product {
    /// `np.dot(a, b)`, `a.dot(b)`.
    Dot,
    /// `a @ b`.
    MatMul,
}

impl Product {
    fn shown(self) -> &'static str {
        match self {
            Product::Dot => "`np.dot`",
            Product::MatMul => "`@`",
        }
    }
}

/// Why compiled code refuses `np.dot` of `operands` (the receiver first,
/// for `a.dot(b)`) and `keywords` whatever their values: a keyword, `**`,
/// a `*` operand, other than two operands.
pub(crate) fn dot_form_error(
    hir: &hir::Body,
    operands: &[hir::ExprId],
    keywords: &[hir::Keyword],
    call_at: TextRange,
) -> Option<(TextRange, String)> {
    if let Some(k) = keywords.first() {
        return Some(match &k.name {
            Some(name) => (k.range, format!("`np.dot` takes no keyword `{name}=` in compiled code")),
            None => (k.range, "`**` arguments are not supported".into()),
        });
    }
    if let Some(&s) = operands.iter().find(|&&a| matches!(hir.exprs[a], hir::Expr::Starred(_))) {
        return Some((hir.expr_ranges[s], "`*` arguments are not supported".into()));
    }
    (operands.len() != 2)
        .then(|| (call_at, format!("`np.dot` takes two arrays here, not {} arguments", operands.len())))
}

/// Why the product `p` refuses an operand of type `t` (`None`: `None`
/// or a value that may be `None`): not an array of numbers of one or two
/// axes.
pub(crate) fn product_operand_error(p: Product, t: Option<&Ty>) -> Option<String> {
    match t {
        Some(Ty::Arr(ty)) => match ty.ndim() {
            Some(1 | 2) if !ty.dtype.is_text() => None,
            Some(1 | 2) => Some(format!("{} takes arrays of numbers, not {}", p.shown(), ty.dtype.name())),
            Some(_) => Some(format!("{} of arrays of three axes or more is not supported", p.shown())),
            None => Some("the number of axes of this array is not known".into()),
        },
        _ => {
            let hint = match p {
                Product::Dot => ": multiply with `*`",
                Product::MatMul => "",
            };
            Some(format!("{} takes arrays of one or two axes, not a scalar{hint}", p.shown()))
        }
    }
}

/// The product `p` creating a matrix or vector in GPU code.
pub(crate) fn product_in_gpu_error(p: Product) -> String {
    format!("{} here creates an array, which GPU code cannot: write the loops", p.shown())
}

/// The float dtype NumPy's `linalg` factors an array of `d` in: Float32
/// stays, every other real dtype (Bool, the integers, Float64) is
/// Float64; none for Float16, complex and text, which are not compiled.
pub(crate) fn det_dtype(d: DType) -> Option<DType> {
    match d {
        DType::Float32 => Some(DType::Float32),
        DType::Float16 => None,
        d if d.is_complex() || d.is_text() => None,
        _ => Some(DType::Float64),
    }
}

/// Why `shown` (one of `np.linalg`'s functions) refuses the array of
/// numbers `ty`: not of two axes, or of a dtype `linalg` does not take.
pub(crate) fn square_matrix_error(shown: &str, ty: &TypeData) -> Option<String> {
    if ty.ndim() != Some(2) {
        return Some(format!("{shown} takes a 2-D array here (a stack of matrices is not compiled)"));
    }
    det_dtype(ty.dtype).is_none().then(|| format!("{shown} of {}: NumPy's `linalg` does not take it", ty.dtype.name()))
}

/// `np.linalg.det` (shown as `shown`) of other than one array.
pub(crate) fn det_count_error(shown: &str) -> String {
    format!("{shown} takes one array")
}

/// The matrix of `np.linalg.eigh` or `eigvalsh` (shown as `shown`)
/// called with `args` and `keywords` (`UPLO=` at most, once) and whether
/// it reads the upper triangle, or why compiled code refuses them
/// whatever their values: a count of arguments, `UPLO` given twice, not
/// a string constant, or one NumPy refuses.
pub(crate) fn eigh_form(
    hir: &hir::Body,
    args: &[hir::ExprId],
    keywords: &[hir::Keyword],
    shown: &str,
    call_at: TextRange,
) -> Result<(hir::ExprId, bool), (TextRange, String)> {
    let (arg, uplo) = match (args, keywords.first()) {
        (&[a], None) => (a, None),
        (&[a, u], None) => (a, Some(u)),
        (&[a], Some(k)) => (a, Some(k.value)),
        (&[_, u], Some(_)) => return Err((hir.expr_ranges[u], "`UPLO` is given twice".into())),
        _ => return Err((call_at, format!("{shown} takes one array (and `UPLO=`)"))),
    };
    // NumPy reads `UPLO.upper()`; anything but 'L' and 'U' is its
    // ValueError, known before the call runs.
    let upper = match uplo.map(|e| (e, &hir.exprs[e])) {
        None => false,
        Some((_, hir::Expr::Literal(Lit::Str(s)))) if s.eq_ignore_ascii_case("L") => false,
        Some((_, hir::Expr::Literal(Lit::Str(s)))) if s.eq_ignore_ascii_case("U") => true,
        Some((e, hir::Expr::Literal(Lit::Str(_)))) => {
            return Err((hir.expr_ranges[e], "ValueError: UPLO argument must be 'L' or 'U'".into()))
        }
        Some((e, _)) => {
            return Err((hir.expr_ranges[e], format!("{shown} takes `UPLO` as a constant here, 'L' or 'U'")))
        }
    };
    Ok((arg, upper))
}

/// `np.cross` (shown as `shown`) of other than two vectors.
pub(crate) fn cross_count_error(shown: &str, n: usize) -> String {
    format!("{shown} takes two vectors here, not {n} arguments")
}

/// A list or tuple given to `np.cross` (shown as `shown`) that
/// `np.array` does not make a vector of numbers of.
pub(crate) fn cross_list_error(shown: &str) -> String {
    format!("{shown} takes a list of numbers here")
}

/// Why `np.cross` (shown as `shown`) refuses the vector `ty`: not of one
/// axis, or of Bools.
pub(crate) fn cross_vector_error(shown: &str, ty: &TypeData) -> Option<String> {
    if ty.ndim() != Some(1) {
        return Some(format!("{shown} takes vectors of one axis here"));
    }
    (ty.dtype == DType::Bool).then(|| format!("{shown} of Bool vectors: NumPy refuses their subtraction"))
}

/// Why `np.cross` (shown as `shown`) refuses vectors of `a` and `b`: no
/// common dtype.
pub(crate) fn cross_dtypes_error(shown: &str, a: DType, b: DType) -> Option<String> {
    promote_strong(a, b).is_none().then(|| format!("{shown} of {} and {}", a.name(), b.name()))
}

/// The most sweeps of `np.linalg.eigh`'s Jacobi method: finite matrices
/// converge in far fewer (the off-diagonal part shrinks quadratically
/// once it is small, some ten sweeps for matrices of hundreds of rows);
/// the bound ends the loop for a NaN, which never converges.
const JACOBI_SWEEPS: i64 = 64;

impl<'a, 'c> FnLower<'a, 'c> {
    /// The square matrix `arg` of one of `np.linalg`'s functions: the
    /// array, its type, the dtype the function computes in (Float64 for
    /// Bool and integers, Float32 kept) and its extent, checked square
    /// when it runs (NumPy's LinAlgError); `None` after reporting a
    /// refusal (not a 2-D array of a dtype `linalg` takes).
    fn square_matrix(
        &mut self,
        arg: hir::ExprId,
        shown: &str,
        c: &CallExpr,
    ) -> Option<(ValueId, TypeData, DType, ValueId)> {
        let (a, ty) = self.numeric_array_arg(arg, shown, false)?;
        if let Some(message) = square_matrix_error(shown, &ty) {
            self.err(&self.range(arg), message);
            return None;
        }
        let d = det_dtype(ty.dtype)?;
        self.at(c);
        let nm = self.fresh("rows");
        let n = self.b.dim(a, 0, &nm);
        let nm = self.fresh("cols");
        let cols = self.b.dim(a, 1, &nm);
        let square = self.result(Opcode::Eq, DType::Bool, n, cols);
        self.panic_unless(square, "LinAlgError: Last 2 dimensions of the array must be square", c);
        Some((a, ty, d, n))
    }

    /// `np.linalg.det(a)` (see the module's header).
    pub(super) fn det_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &[], shown).is_none() {
            return Val::Err;
        }
        let &[arg] = c.args else { return self.err(c, det_count_error(shown)) };
        let Some((a, ty, d, n)) = self.square_matrix(arg, shown, c) else { return Val::Err };
        // The factors, of the transpose (`lu[i, j] = a[j, i]`), as NumPy
        // lays the matrix out for LAPACK.
        let (lu, _) = self.new_empty_array(d, &[(n, true), (n, true)], c);
        let open = self.loops_open(&[n, n], c);
        let (i, j) = (open[0].i, open[1].i);
        let x = self.load(&(a, ty.clone()), &[j, i], c.range());
        let Some(x) = self.materialize(&x, d, c) else { return Val::Err };
        self.b.index_store(lu, &[i, j], x);
        self.loops_close(open, c);

        let el = TypeId::scalar(d);
        let zero = self.zero(d);
        let nm = self.fresh("one");
        let one64 = self.b.const_(TypeId::scalar(DType::Float64), Literal::Float(1f64.to_bits()), &nm);
        let nm = self.fresh("one");
        let one = if d == DType::Float64 { one64 } else { self.b.cast(el, one64, &nm) };
        let one_int = self.int_const(1, c);
        let no = self.zero(DType::Bool);
        let nm = self.fresh("negative");
        let negative = self.b.let_(TypeId::BOOL, no, &nm);
        let nm = self.fresh("singular");
        let singular = self.b.let_(TypeId::BOOL, no, &nm);
        let load = |this: &mut Self, i: ValueId, j: ValueId| {
            let nm = this.fresh("lu");
            this.b.index_load(el, lu, &[i, j], &nm)
        };
        let abs = |this: &mut Self, x: ValueId| {
            let nm = this.fresh("abs");
            this.b.unary(Opcode::Abs, el, x, &nm)
        };

        let column = self.loops_open(&[n], c);
        let k = column[0].i;
        let after = self.result(Opcode::Add, DType::Int64, k, one_int);
        let below = self.result(Opcode::Sub, DType::Int64, n, after);
        // The pivot: the first of the largest magnitudes at or below `k`.
        let x = load(self, k, k);
        let first = abs(self, x);
        let nm = self.fresh("best");
        let best = self.b.let_(el, first, &nm);
        let nm = self.fresh("pivot.row");
        let pivot_row = self.b.let_(TypeId::INT64, k, &nm);
        let open = self.loops_open(&[below], c);
        let r = self.result(Opcode::Add, DType::Int64, after, open[0].i);
        let x = load(self, r, k);
        let v = abs(self, x);
        let larger = self.result(Opcode::Gt, DType::Bool, v, best);
        let nm = self.fresh("best");
        let b = self.b.select(el, larger, v, best, &nm);
        self.b.set(best, b);
        let p = self.select_int(larger, r, pivot_row);
        self.b.set(pivot_row, p);
        self.loops_close(open, c);
        // Rows `k` and the pivot's exchanged (nothing moves when they are one).
        let open = self.loops_open(&[n], c);
        let j = open[0].i;
        let x = load(self, k, j);
        let y = load(self, pivot_row, j);
        self.b.index_store(lu, &[k, j], y);
        self.b.index_store(lu, &[pivot_row, j], x);
        self.loops_close(open, c);
        let exchanged = self.result(Opcode::Ne, DType::Bool, pivot_row, k);
        let flipped = self.result(Opcode::Ne, DType::Bool, negative, exchanged);
        self.b.set(negative, flipped);
        // The multipliers, by the pivot's reciprocal as LAPACK scales
        // them, and the rows below updated.
        let pivot = load(self, k, k);
        let vanishes = self.result(Opcode::Eq, DType::Bool, pivot, zero);
        let s = self.result(Opcode::Or, DType::Bool, singular, vanishes);
        self.b.set(singular, s);
        let inverse = self.result(Opcode::Div, d, one, pivot);
        let nm = self.fresh("scale");
        let scale = self.b.select(el, vanishes, zero, inverse, &nm);
        let open = self.loops_open(&[below, below], c);
        let r = self.result(Opcode::Add, DType::Int64, after, open[0].i);
        let col = self.result(Opcode::Add, DType::Int64, after, open[1].i);
        let x = load(self, r, k);
        let factor = self.result(Opcode::Mul, d, x, scale);
        let u = load(self, k, col);
        let lower = load(self, r, col);
        let product = self.result(Opcode::Mul, d, factor, u);
        let updated = self.result(Opcode::Sub, d, lower, product);
        self.b.index_store(lu, &[r, col], updated);
        self.loops_close(open, c);
        // The multiplier stored where LAPACK keeps it, after the rows used
        // it (they read `lu[r, k]` as it was).
        let open = self.loops_open(&[below], c);
        let r = self.result(Opcode::Add, DType::Int64, after, open[0].i);
        let x = load(self, r, k);
        let factor = self.result(Opcode::Mul, d, x, scale);
        self.b.index_store(lu, &[r, k], factor);
        self.loops_close(open, c);
        self.loops_close(column, c);

        // `sign * exp(sum(log|u_ii|))`.
        let nm = self.fresh("logdet");
        let logdet = self.b.let_(el, zero, &nm);
        let open = self.loops_open(&[n], c);
        let i = open[0].i;
        let u = load(self, i, i);
        let below_zero = self.result(Opcode::Lt, DType::Bool, u, zero);
        let flipped = self.result(Opcode::Ne, DType::Bool, negative, below_zero);
        self.b.set(negative, flipped);
        let magnitude = abs(self, u);
        let Val::Num { v: log, .. } = self.intrinsic("log", &[magnitude], d, c.range()) else { return Val::Err };
        let sum = self.result(Opcode::Add, d, logdet, log);
        self.b.set(logdet, sum);
        self.loops_close(open, c);
        let Val::Num { v: e, .. } = self.intrinsic("exp", &[logdet], d, c.range()) else { return Val::Err };
        let nm = self.fresh("minus");
        let minus = self.b.unary(Opcode::Neg, el, e, &nm);
        let nm = self.fresh("det");
        let signed = self.b.select(el, negative, minus, e, &nm);
        let nm = self.fresh("det");
        let det = self.b.select(el, singular, zero, signed, &nm);
        Val::Num { v: det, s: Scalar::strong(d), nonneg: false }
    }

    /// `np.linalg.eigh(a)` (the eigenvalues and eigenvectors, a tuple) or,
    /// when `vectors` is false, `np.linalg.eigvalsh(a)` (the eigenvalues
    /// alone); see the module's header.
    pub(super) fn eigh_call(&mut self, shown: &str, c: &CallExpr, vectors: bool) -> Val {
        if self.keywords_of(c, &["UPLO"], shown).is_none() {
            return Val::Err;
        }
        let (arg, upper) = match eigh_form(self.hir, c.args, c.keywords, shown, c.at) {
            Ok(form) => form,
            Err((at, message)) => return self.err(&at, message),
        };
        let Some((a, ty, d, n)) = self.square_matrix(arg, shown, c) else { return Val::Err };
        let el = TypeId::scalar(d);
        let float = |this: &mut Self, x: f64| {
            let nm = this.fresh("float");
            let x64 = this.b.const_(TypeId::scalar(DType::Float64), Literal::Float(x.to_bits()), &nm);
            if d == DType::Float64 {
                return x64;
            }
            let nm = this.fresh("float");
            this.b.cast(el, x64, &nm)
        };
        let zero = self.zero(d);
        let one = float(self, 1.0);

        // The working matrix, symmetric: every element read from the
        // triangle `UPLO` names (`m[i, j] = a[max(i, j), min(i, j)]` for
        // 'L'), so the other is never read, as LAPACK never reads it.
        let (m, _) = self.new_empty_array(d, &[(n, true), (n, true)], c);
        let open = self.loops_open(&[n, n], c);
        let (i, j) = (open[0].i, open[1].i);
        let below = self.result(Opcode::Ge, DType::Bool, i, j);
        let (hi, lo) = (self.select_int(below, i, j), self.select_int(below, j, i));
        let at = if upper { [lo, hi] } else { [hi, lo] };
        let x = self.load(&(a, ty.clone()), &at, c.range());
        let Some(x) = self.materialize(&x, d, c) else { return Val::Err };
        self.b.index_store(m, &[i, j], x);
        self.loops_close(open, c);
        // The rotations' product, from the identity.
        let rotations = vectors.then(|| self.new_array(d, &[(n, true), (n, true)], c).0);
        if let Some(v) = rotations {
            let open = self.loops_open(&[n], c);
            let i = open[0].i;
            self.b.index_store(v, &[i, i], one);
            self.loops_close(open, c);
        }

        let load = |this: &mut Self, arr: ValueId, i: ValueId, j: ValueId| {
            let nm = this.fresh("el");
            this.b.index_load(el, arr, &[i, j], &nm)
        };
        let abs = |this: &mut Self, x: ValueId| {
            let nm = this.fresh("abs");
            this.b.unary(Opcode::Abs, el, x, &nm)
        };
        let sqrt = |this: &mut Self, x: ValueId| match this.intrinsic("sqrt", &[x], d, c.range()) {
            Val::Num { v, .. } => v,
            _ => unreachable!("an intrinsic call is a number"),
        };
        let hypot = |this: &mut Self, x: ValueId, y: ValueId| match this.intrinsic("hypot", &[x, y], d, c.range()) {
            Val::Num { v, .. } => v,
            _ => unreachable!("an intrinsic call is a number"),
        };
        // Columns `p` and `q` of `arr` (rows when `rows`) turned by the
        // rotation `(c, s)`: `x, y = c x - s y, s x + c y`.
        let turn = |this: &mut Self, arr: ValueId, (p, q): (ValueId, ValueId), (cos, sin): (ValueId, ValueId), rows| {
            let open = this.loops_open(&[n], c);
            let r = open[0].i;
            let (xp, xq) = if rows { ([p, r], [q, r]) } else { ([r, p], [r, q]) };
            let x = load(this, arr, xp[0], xp[1]);
            let y = load(this, arr, xq[0], xq[1]);
            let cx = this.result(Opcode::Mul, d, cos, x);
            let sy = this.result(Opcode::Mul, d, sin, y);
            let new_x = this.result(Opcode::Sub, d, cx, sy);
            let sx = this.result(Opcode::Mul, d, sin, x);
            let cy = this.result(Opcode::Mul, d, cos, y);
            let new_y = this.result(Opcode::Add, d, sx, cy);
            this.b.index_store(arr, &xp, new_x);
            this.b.index_store(arr, &xq, new_y);
            this.loops_close(open, c);
        };

        // Cyclic Jacobi: sweeps over the pairs `p < q` in row order, each
        // element below the diagonal either negligible (set to zero) or
        // zeroed by a rotation, until a sweep rotates nothing.
        let unit = if d == DType::Float32 { f64::from(f32::EPSILON) / 2.0 } else { f64::EPSILON / 2.0 };
        let unit = float(self, unit);
        let no = self.zero(DType::Bool);
        let nm = self.fresh("converged");
        let converged = self.b.let_(TypeId::BOOL, no, &nm);
        let sweeps = self.int_const(JACOBI_SWEEPS, c);
        let one_int = self.int_const(1, c);
        let sweep = self.loops_open(&[sweeps], c);
        let (work, idle) = (self.block("jacobi.sweep"), self.block("jacobi.idle"));
        self.b.condbr(converged, idle, work, None);
        self.enter(work);
        let nm = self.fresh("rotated");
        let rotated = self.b.let_(TypeId::BOOL, no, &nm);
        let rows = self.loops_open(&[n], c);
        let p = rows[0].i;
        let after = self.result(Opcode::Add, DType::Int64, p, one_int);
        let rest = self.result(Opcode::Sub, DType::Int64, n, after);
        let pairs = self.loops_open(&[rest], c);
        let q = self.result(Opcode::Add, DType::Int64, after, pairs[0].i);
        let apq = load(self, m, q, p);
        let app = load(self, m, p, p);
        let aqq = load(self, m, q, q);
        // Negligible: at most the unit roundoff times the geometric mean
        // of the two diagonal magnitudes (a perturbation of that size moves
        // no eigenvalue by more than rounding does). Each root on its own,
        // so the bound's product cannot overflow. NaN is never negligible.
        let (mp, mq) = (abs(self, app), abs(self, aqq));
        let (rp, rq) = (sqrt(self, mp), sqrt(self, mq));
        let mean = self.result(Opcode::Mul, d, rp, rq);
        let bound = self.result(Opcode::Mul, d, unit, mean);
        let size = abs(self, apq);
        let negligible = self.result(Opcode::Le, DType::Bool, size, bound);
        let (drop, rotate, next) = (self.block("jacobi.drop"), self.block("jacobi.rotate"), self.block("jacobi.next"));
        self.b.condbr(negligible, drop, rotate, None);
        self.enter(drop);
        self.b.index_store(m, &[p, q], zero);
        self.b.index_store(m, &[q, p], zero);
        self.br(next);
        self.enter(rotate);
        let yes = self.bool_const(true, c);
        self.b.set(rotated, yes);
        // The smaller rotation that zeroes `m[q, p]` (Rutishauser's):
        // `theta = (aqq - app) / (2 apq)`, `t = sign(theta) / (|theta| +
        // hypot(theta, 1))`, `c = 1 / hypot(t, 1)`, `s = t c`.
        let gap = self.result(Opcode::Sub, d, aqq, app);
        let twice = self.result(Opcode::Add, d, apq, apq);
        let theta = self.result(Opcode::Div, d, gap, twice);
        let size_theta = abs(self, theta);
        let h = hypot(self, theta, one);
        let denominator = self.result(Opcode::Add, d, size_theta, h);
        let t_pos = self.result(Opcode::Div, d, one, denominator);
        let nm = self.fresh("neg");
        let t_neg = self.b.unary(Opcode::Neg, el, t_pos, &nm);
        let negative = self.result(Opcode::Lt, DType::Bool, theta, zero);
        let nm = self.fresh("tan");
        let t = self.b.select(el, negative, t_neg, t_pos, &nm);
        let ht = hypot(self, t, one);
        let cos = self.result(Opcode::Div, d, one, ht);
        let sin = self.result(Opcode::Mul, d, t, cos);
        turn(self, m, (p, q), (cos, sin), false);
        turn(self, m, (p, q), (cos, sin), true);
        // The pair's own elements as the rotation makes them exactly: the
        // diagonal by `t`, which rounds less than the products above.
        let shift = self.result(Opcode::Mul, d, t, apq);
        let new_p = self.result(Opcode::Sub, d, app, shift);
        let new_q = self.result(Opcode::Add, d, aqq, shift);
        self.b.index_store(m, &[p, p], new_p);
        self.b.index_store(m, &[q, q], new_q);
        self.b.index_store(m, &[p, q], zero);
        self.b.index_store(m, &[q, p], zero);
        if let Some(v) = rotations {
            turn(self, v, (p, q), (cos, sin), false);
        }
        self.br(next);
        self.enter(next);
        self.loops_close(pairs, c);
        self.loops_close(rows, c);
        let nm = self.fresh("not");
        let still = self.b.unary(Opcode::Not, TypeId::BOOL, rotated, &nm);
        self.b.set(converged, still);
        self.br(idle);
        self.enter(idle);
        self.loops_close(sweep, c);

        // The eigenvalues sorted ascending, stably (NaN last): each goes to
        // its rank, the count of those before it in that order; its vector
        // to the same column, its largest component made positive.
        let (w, w_ty) = self.new_empty_array(d, &[(n, true)], c);
        let out = vectors.then(|| self.new_empty_array(d, &[(n, true), (n, true)], c));
        let each = self.loops_open(&[n], c);
        let k = each[0].i;
        let x = load(self, m, k, k);
        let x_nan = self.result(Opcode::Ne, DType::Bool, x, x);
        let zero_int = self.int_const(0, c);
        let nm = self.fresh("rank");
        let rank = self.b.let_(TypeId::INT64, zero_int, &nm);
        let others = self.loops_open(&[n], c);
        let j = others[0].i;
        let y = load(self, m, j, j);
        let y_nan = self.result(Opcode::Ne, DType::Bool, y, y);
        let less = self.result(Opcode::Lt, DType::Bool, y, x);
        let nm = self.fresh("not");
        let y_number = self.b.unary(Opcode::Not, TypeId::BOOL, y_nan, &nm);
        let number_first = self.result(Opcode::And, DType::Bool, x_nan, y_number);
        let equal = self.result(Opcode::Eq, DType::Bool, y, x);
        let both_nan = self.result(Opcode::And, DType::Bool, x_nan, y_nan);
        let tie = self.result(Opcode::Or, DType::Bool, equal, both_nan);
        let earlier = self.result(Opcode::Lt, DType::Bool, j, k);
        let tie_before = self.result(Opcode::And, DType::Bool, tie, earlier);
        let ordered = self.result(Opcode::Or, DType::Bool, less, number_first);
        let before = self.result(Opcode::Or, DType::Bool, ordered, tie_before);
        let count = self.select_int(before, one_int, zero_int);
        let more = self.result(Opcode::Add, DType::Int64, rank, count);
        self.b.set(rank, more);
        self.loops_close(others, c);
        self.b.index_store(w, &[rank], x);
        if let (Some(v), Some((out, _))) = (rotations, &out) {
            let out = *out;
            // The first component of the largest magnitude decides the sign.
            let minus_one = float(self, -1.0);
            let nm = self.fresh("largest");
            let largest = self.b.let_(el, minus_one, &nm);
            let nm = self.fresh("pick");
            let pick = self.b.let_(el, zero, &nm);
            let open = self.loops_open(&[n], c);
            let r = open[0].i;
            let y = load(self, v, r, k);
            let size = abs(self, y);
            let larger = self.result(Opcode::Gt, DType::Bool, size, largest);
            let nm = self.fresh("largest");
            let l = self.b.select(el, larger, size, largest, &nm);
            self.b.set(largest, l);
            let nm = self.fresh("pick");
            let chosen = self.b.select(el, larger, y, pick, &nm);
            self.b.set(pick, chosen);
            self.loops_close(open, c);
            let flip = self.result(Opcode::Lt, DType::Bool, pick, zero);
            let open = self.loops_open(&[n], c);
            let r = open[0].i;
            let y = load(self, v, r, k);
            let nm = self.fresh("neg");
            let minus = self.b.unary(Opcode::Neg, el, y, &nm);
            let nm = self.fresh("component");
            let signed = self.b.select(el, flip, minus, y, &nm);
            self.b.index_store(out, &[r, rank], signed);
            self.loops_close(open, c);
        }
        self.loops_close(each, c);
        let values = Val::Arr { v: w, ty: w_ty };
        match out {
            Some((v, ty)) => Val::Tuple(vec![values, Val::Arr { v, ty }]),
            None => values,
        }
    }

    /// The operands of `c` when it calls `np.dot(a, b)` (also `dot`
    /// imported from NumPy) or `a.dot(b)` on an array local; a call of
    /// another arity still names them, to be refused by [`Self::dot_call`].
    pub(super) fn dot_operands(&self, c: &CallExpr) -> Option<Vec<hir::ExprId>> {
        let args = c.args.iter().copied();
        match &self.hir.exprs[c.func] {
            hir::Expr::Name(n) if !self.locals.contains_key(self.name_text(n)) => {
                match self.cx.globals.get(self.name_text(n)) {
                    Some(Global::Boundary { module, name }) if module == "numpy" && name == "dot" => {
                        Some(args.collect())
                    }
                    _ => None,
                }
            }
            &hir::Expr::Attribute { base, ref attr } if &**attr == "dot" => {
                if self.boundary_module(base) == Some("numpy") {
                    return Some(args.collect());
                }
                match &self.hir.exprs[base] {
                    hir::Expr::Name(n) if self.locals.contains_key(self.name_text(n)) => {
                        Some(std::iter::once(base).chain(args).collect())
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `np.dot(a, b)` or `a.dot(b)`, its operands from [`Self::dot_operands`].
    pub(super) fn dot_call(&mut self, operands: &[hir::ExprId], c: &CallExpr) -> Val {
        if let Some((at, message)) = dot_form_error(self.hir, operands, c.keywords, c.at) {
            for &e in operands.iter().filter(|e| !matches!(self.hir.exprs[**e], hir::Expr::Starred(_))) {
                self.expr(e);
            }
            return self.err(&at, message);
        }
        let &[a, b] = operands else { return Val::Err };
        let (l, r) = (self.expr(a), self.expr(b));
        self.product(Product::Dot, (l, self.range(a)), (r, self.range(b)), c)
    }

    /// `a @ b`, the binary operator `e`.
    pub(super) fn matmul(&mut self, e: hir::ExprId) -> Val {
        let hir::Expr::BinOp { lhs, rhs, .. } = self.hir.exprs[e] else { unreachable!("a binary operator") };
        let l = self.expr(lhs);
        let r = self.expr(rhs);
        self.product(Product::MatMul, (l, self.range(lhs)), (r, self.range(rhs)), &self.range(e))
    }

    /// The product of two lowered operands, each with where it is written.
    fn product(
        &mut self,
        p: Product,
        (l, l_at): (Val, TextRange),
        (r, r_at): (Val, TextRange),
        at: &impl Ranged,
    ) -> Val {
        let mut operands = Vec::new();
        for (v, e) in [(l, &l_at), (r, &r_at)] {
            if matches!(v, Val::Err) {
                return Val::Err;
            }
            if let Some(message) = product_operand_error(p, v.ty().as_ref()) {
                return self.err(e, message);
            }
            if let Val::Arr { v, ty } = v {
                let nd = ty.ndim().unwrap_or(1);
                operands.push((v, ty, nd));
            }
        }
        if operands.len() != 2 {
            return Val::Err;
        }
        let [(av, aty, an), (bv, bty, bn)] = <[_; 2]>::try_from(operands).expect("two operands");
        let d = promote_strong(aty.dtype, bty.dtype).expect("numeric dtypes promote");
        if (an == 2 || bn == 2) && self.decl.attrs.is_device() {
            return self.err(at, product_in_gpu_error(p));
        }
        self.at(at);
        let a_dims = self.dims_of(av, &aty);
        let b_dims = self.dims_of(bv, &bty);
        let (shared_a, shared_b) = (a_dims[an - 1], b_dims[0]);
        let aligned = self.result(Opcode::Eq, DType::Bool, shared_a, shared_b);
        match p {
            Product::Dot => {
                let shape = |n: usize| if n == 1 { "({},)".to_owned() } else { "({},{})".to_owned() };
                let msg = format!(
                    "ValueError: shapes {} and {} not aligned: {{}} (dim {}) != {{}} (dim 0)",
                    shape(an),
                    shape(bn),
                    an - 1
                );
                let args: Vec<ValueId> = a_dims.iter().chain(&b_dims).copied().chain([shared_a, shared_b]).collect();
                self.panic_unless_with(aligned, &msg, &args, at);
            }
            Product::MatMul => {
                let msg = "ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc \
                           signature (n?,k),(k,m?)->(n?,m?) (size {} is different from {})";
                self.panic_unless_with(aligned, msg, &[shared_b, shared_a], at);
            }
        }
        // The result's axes: `a`'s rows, then `b`'s columns.
        let out_dims: Vec<ValueId> = a_dims[..an - 1].iter().chain(&b_dims[1..]).copied().collect();
        let dims: Vec<(ValueId, bool)> = out_dims.iter().map(|&n| (n, true)).collect();
        if bn == 2 && !matches!(d, DType::Float16 | DType::Bool) {
            let out = self.new_array(d, &dims, at);
            self.sum_rows_of_b((out.0, d), (av, aty.dtype, an), (bv, bty.dtype), &a_dims, &b_dims, at);
            return Val::Arr { v: out.0, ty: out.1 };
        }
        let out = (!out_dims.is_empty()).then(|| self.new_empty_array(d, &dims, at));
        let open = self.loops_open(&out_dims, at);
        let idx: Vec<ValueId> = open.iter().map(|l| l.i).collect();
        let acc_d = if d == DType::Float16 { DType::Float32 } else { d };
        let acc_t = TypeId::scalar(acc_d);
        let zero = self.zero(acc_d);
        let name = self.fresh("dot.acc");
        let acc = self.b.let_(acc_t, zero, &name);
        let inner = self.loops_open(&[shared_a], at);
        let k = inner[0].i;
        let a_idx: Vec<ValueId> = idx[..an - 1].iter().copied().chain([k]).collect();
        let b_idx: Vec<ValueId> = std::iter::once(k).chain(idx[an - 1..].iter().copied()).collect();
        let x = self.product_element(av, aty.dtype, &a_idx, acc_d);
        let y = self.product_element(bv, bty.dtype, &b_idx, acc_d);
        let (times, plus) = if d == DType::Bool { (Opcode::And, Opcode::Or) } else { (Opcode::Mul, Opcode::Add) };
        let xy = self.result(times, acc_d, x, y);
        let sum = self.result(plus, acc_d, acc, xy);
        self.b.set(acc, sum);
        self.loops_close(inner, at);
        let name = self.fresh("dot");
        // A value of its own: the accumulator is a variable that later
        // code must not see change.
        let total =
            if acc_d == d { self.b.let_(acc_t, acc, &name) } else { self.b.cast(TypeId::scalar(d), acc, &name) };
        match out {
            Some((arr, ty)) => {
                self.b.index_store(arr, &idx, total);
                self.loops_close(open, at);
                Val::Arr { v: arr, ty }
            }
            None => Val::Num { v: total, s: Scalar::strong(d), nonneg: false },
        }
    }

    /// A product whose `b` has two axes, into the zeroed `out` of the
    /// result dtype: for each row of `a` (the one row of a 1-D `a`), for
    /// each `k`, row `k` of `b` times `a[.., k]` is added into the row of
    /// `out`. Every element still sums `k` from left to right, from zero,
    /// as the loop of [`Self::product`] does, so the results are the same
    /// bit for bit; but the innermost loop runs along rows of `b` and
    /// `out`, not down `b`'s columns, which keeps the cache and lets it
    /// be vectorised without reordering any sum.
    fn sum_rows_of_b(
        &mut self,
        (out, d): (ValueId, DType),
        (av, a_d, an): (ValueId, DType, usize),
        (bv, b_d): (ValueId, DType),
        a_dims: &[ValueId],
        b_dims: &[ValueId],
        at: &impl Ranged,
    ) {
        let rows = self.loops_open(&a_dims[..an - 1], at);
        let row: Vec<ValueId> = rows.iter().map(|l| l.i).collect();
        let shared = self.loops_open(&b_dims[..1], at);
        let k = shared[0].i;
        let a_idx: Vec<ValueId> = row.iter().copied().chain([k]).collect();
        let x = self.product_element(av, a_d, &a_idx, d);
        let cols = self.loops_open(&b_dims[1..], at);
        let j = cols[0].i;
        let y = self.product_element(bv, b_d, &[k, j], d);
        let out_idx: Vec<ValueId> = row.iter().copied().chain([j]).collect();
        let name = self.fresh("dot.acc");
        let acc = self.b.index_load(TypeId::scalar(d), out, &out_idx, &name);
        let xy = self.result(Opcode::Mul, d, x, y);
        let sum = self.result(Opcode::Add, d, acc, xy);
        self.b.index_store(out, &out_idx, sum);
        self.loops_close(cols, at);
        self.loops_close(shared, at);
        self.loops_close(rows, at);
    }

    /// The element of `arr` (of dtype `d`) at `idx`, converted to `to`.
    fn product_element(&mut self, arr: ValueId, d: DType, idx: &[ValueId], to: DType) -> ValueId {
        let name = self.fresh("el");
        let x = self.b.index_load(TypeId::scalar(d), arr, idx, &name);
        if d == to {
            return x;
        }
        let name = self.fresh("el");
        self.b.cast(TypeId::scalar(to), x, &name)
    }

    /// `np.cross(a, b)` of two 3-vectors.
    pub(super) fn cross_call(&mut self, shown: &str, c: &CallExpr) -> Val {
        if self.keywords_of(c, &[], shown).is_none() {
            return Val::Err;
        }
        let &[a_e, b_e] = c.args else {
            return self.err(&c.at, cross_count_error(shown, c.args.len()));
        };
        let mut vectors = Vec::new();
        for e in [a_e, b_e] {
            let Some((v, ty)) = self.vector_operand(e, shown) else { return Val::Err };
            if let Some(message) = cross_vector_error(shown, &ty) {
                return self.err(&self.range(e), message);
            }
            vectors.push((v, ty));
        }
        let (a, b) = (vectors[0].clone(), vectors[1].clone());
        if let Some(message) = cross_dtypes_error(shown, a.1.dtype, b.1.dtype) {
            return self.err(&c.at, message);
        }
        let Some(d) = promote_strong(a.1.dtype, b.1.dtype) else { return Val::Err };
        self.at(&c.at);
        let three = self.int_const(3, &c.at);
        let two = self.int_const(2, &c.at);
        for (v, _) in [&a, &b] {
            let n = self.fresh("dim");
            let len = self.b.dim(*v, 0, &n);
            let is_three = self.result(Opcode::Eq, DType::Bool, len, three);
            let is_two = self.result(Opcode::Eq, DType::Bool, len, two);
            let either = self.result(Opcode::Or, DType::Bool, is_three, is_two);
            self.panic_unless(
                either,
                "ValueError: incompatible dimensions for cross product\n(dimension must be 2 or 3)",
                &c.at,
            );
            self.panic_unless(
                is_three,
                "ValueError: np.cross of 2-element vectors is not supported in compiled code (NumPy's result is \
                 deprecated): give 3-element vectors",
                &c.at,
            );
        }
        let mut xs = Vec::new();
        for (v, ty) in [&a, &b] {
            let mut parts = Vec::new();
            for k in 0..3 {
                let i = self.int_const(k, &c.at);
                let x = self.load(&(*v, ty.clone()), &[i], c.at);
                let Some(x) = self.materialize(&x, d, &c.at) else { return Val::Err };
                parts.push(Val::Num { v: x, s: Scalar::strong(d), nonneg: false });
            }
            xs.push(parts);
        }
        let dims = [(three, true)];
        let (out, out_ty) = self.new_empty_array(d, &dims, &c.at);
        for (k, (i, j)) in [(1, 2), (2, 0), (0, 1)].into_iter().enumerate() {
            let l = self.binop(ast::Operator::Mult, xs[0][i].clone(), xs[1][j].clone(), c.at);
            let r = self.binop(ast::Operator::Mult, xs[0][j].clone(), xs[1][i].clone(), c.at);
            let diff = self.binop(ast::Operator::Sub, l, r, c.at);
            let Some(v) = self.materialize(&diff, d, &c.at) else { return Val::Err };
            let at = self.int_const(k as i64, &c.at);
            self.b.index_store(out, &[at], v);
        }
        Val::Arr { v: out, ty: out_ty }
    }

    /// An operand of `np.cross`: an array of numbers, or a list or tuple
    /// of numbers, the 1-D array `np.array` makes of it.
    fn vector_operand(&mut self, e: hir::ExprId, shown: &str) -> Option<(ValueId, TypeData)> {
        let (hir::Expr::List(elts) | hir::Expr::Tuple(elts)) = &self.hir.exprs[e] else {
            return self.numeric_array_arg(e, shown, true);
        };
        let vals: Vec<(Val, TextRange)> = elts.iter().map(|&x| (self.expr(x), self.range(x))).collect();
        if vals.iter().any(|(v, _)| matches!(v, Val::Err)) {
            return None;
        }
        let scalars: Option<Vec<Scalar>> = vals.iter().map(|(v, _)| v.scalar()).collect();
        let Some(d) = scalars.and_then(|s| npfuncs::array_of_dtype(None, s)) else {
            self.err(&self.range(e), cross_list_error(shown));
            return None;
        };
        let n = vals.len();
        self.array_of_elements(d, &[n], vals, &self.range(e))
    }
}

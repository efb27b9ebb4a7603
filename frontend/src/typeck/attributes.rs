//! The attributes and methods of values that have none in compiled code,
//! where the lowering reads them: an attribute (`x.shape` of a number,
//! `t.T` of a tuple, `a.foo` of an array) passed as an argument or
//! indexed, and the array methods the lowering finds only on arrays
//! (`r.sort()` of a number, `(1, 2).var()`, `f(x).dot(b)` of what is no
//! local).

use super::*;

/// The methods the lowering calls only of some receivers (`.dot` of a
/// local, `.var`, `.std` and `.trace` of an array, `.sort` and `.argsort`
/// of an array local or a view): of any other, it cannot call them.
fn receiver_bound(attr: &str) -> bool {
    matches!(attr, "dot" | "var" | "std" | "trace" | "sort" | "argsort")
}

impl Solver<'_> {
    /// Whether the lowering reads the attribute `e` (`base.attr`) as a
    /// value, through its `attribute`: where it is read as a value, and as
    /// an argument of a call or the base of a subscript that is read as a
    /// value, but `dtype` (read as a dtype), `shape` indexed (`a.shape[k]`,
    /// see [`Solver::element`]) or as the shape of a function creating an
    /// array (`np.zeros(a.shape)`, whose error is the call's). Only asked
    /// where the attribute is an error (it looks for what holds `e`).
    pub(super) fn attribute_read(&self, e: ExprId, attr: &str) -> bool {
        if attr == "dtype" {
            return false;
        }
        if self.not_values.get(e).is_none() {
            return true;
        }
        let body = self.body;
        let Some(holder) = self.holder_of(e) else { return false };
        match &body.exprs[holder] {
            Expr::Subscript { base, .. } if *base == e => attr != "shape" && self.read_as_argument(holder),
            Expr::Attribute { .. } => self.read_as_argument(e),
            Expr::Call { func, args, keywords } if *func != e => {
                let shape_of_creation = attr == "shape"
                    && matches!(
                        self.array_function(*func),
                        Some((ArrFn::Empty | ArrFn::Zeros | ArrFn::Ones | ArrFn::Full, _))
                    )
                    && (args.first() == Some(&e)
                        || keywords.iter().any(|k| k.value == e && k.name.as_deref() == Some("shape")));
                !shape_of_creation && self.read_as_argument(holder)
            }
            _ => false,
        }
    }

    /// Whether the lowering lowers `e` as a value: it is read as a value,
    /// or it is an argument of a call, the base of a subscript or the
    /// receiver of an array method (`t.T[i].mean()`) that is.
    pub(super) fn read_as_argument(&self, e: ExprId) -> bool {
        if self.not_values.get(e).is_none() {
            return true;
        }
        let body = self.body;
        let Some(holder) = self.holder_of(e) else { return false };
        match &body.exprs[holder] {
            Expr::Subscript { base, .. } if *base == e => self.read_as_argument(holder),
            Expr::Call { func, .. } if *func != e => self.read_as_argument(holder),
            // The receiver of a method the lowering calls of any value,
            // which it lowers first.
            Expr::Attribute { attr, .. } if array_method(attr).is_some() || matches!(&**attr, "conjugate" | "conj") => {
                match self.holder_of(holder) {
                    Some(call) if matches!(body.exprs[call], Expr::Call { func, .. } if func == holder) => {
                        self.read_as_argument(call)
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// The expression that holds `e` (a search of the body: asked only
    /// where an error is found).
    fn holder_of(&self, e: ExprId) -> Option<ExprId> {
        let mut children = Vec::new();
        self.body.exprs.iter().map(|(x, _)| x).find(|x| {
            children.clear();
            self.body.push_children(*x, &mut children);
            children.contains(&e)
        })
    }

    /// `base.shape` (the attribute `e`) of what is not an array, where the
    /// lowering reads it as a value (`print(x.shape)`, `f(t.shape)`):
    /// refused as its `attribute` refuses it.
    pub(super) fn shape_of_non_array(&self, e: ExprId, base: &Ty) -> Option<Ty> {
        if !self.attribute_read(e, "shape") {
            return None;
        }
        let (whole, message) = attribute_error(Some(base), "shape")?;
        let at = if whole { self.body.expr_ranges[e] } else { self.body.attr_ranges[e] };
        self.refuse(e, at, message)
    }

    /// Whether the method `attr` of `base` (called as `func`) is one the
    /// lowering calls only of some receivers, and `base` is none of them:
    /// `.dot` of what is not a local, `.var`, `.std`, `.trace` of what is
    /// not an array, `.sort`, `.argsort` of what is not an array local or
    /// a view (`r.sort()` of a number, `(1, 2).var()`). Not of a value
    /// left without a type (its error is reported: `None.sort()` is `None`
    /// read as a value, see `none_values`), but an attribute a value does
    /// not have.
    pub(super) fn method_of_other_receiver(&self, func: ExprId, base: ExprId, attr: &str, args: &[ExprId]) -> bool {
        // A receiver with no type but an attribute of a typed value that
        // has none (`x.T.var()` of a number) holds no error of its own.
        let known = self.ty(base).is_some()
            || match self.body.exprs[base] {
                Expr::Attribute { base: of, .. } => self.ty(of).is_some() && !self.was_refused(base),
                _ => false,
            };
        receiver_bound(attr)
            && known
            && self.dot_operands(func, args).is_none()
            && self.numpy_array_function(func).is_none()
    }
}

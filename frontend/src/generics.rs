//! Functions whose parameters are left without annotations, compiled once
//! for each list of argument types they are called with, as Numba
//! compiles a helper per signature.
//!
//! A POST function whose parameters all have annotations has one
//! signature, declared before any body is lowered. A function with one or
//! more parameters left unannotated (and no `ufunc`, `gpu` or `kernel`
//! decorator) is *generic*: it is not declared in the IR and not exported.
//! A call of it from compiled code of its module binds the arguments as
//! any POST call does (positions, keywords, defaults) and gives each
//! unannotated parameter the type of its argument ([`instance_params`]):
//! a number its dtype, a Python number staying one (a Python `int` is a
//! weak Int64, `float` a weak Float64, ..., so that `x * k` of a Float32
//! array `x` and `k = 2` is Float32 as in CPython), an array its type,
//! writable unless it is the caller's input array or module-level array,
//! a tuple of numbers its tuple type; a parameter left out the type of its
//! default. The function is compiled once per distinct list of parameter
//! types: an *instance*, an ordinary function named `f$1`, `f$2`, ... (a
//! `$` is in no Python name; diagnostics show `f`), private to the module.
//!
//! Instances are found as the results of unannotated functions are
//! (`PyFrontend::define`): every body is typed (not lowered), a call whose
//! instance does not exist yet requests it ([`Instances::request`], where
//! the typecheck binds the call: `typeck::instances`) and has no type,
//! the requested instances are declared, and the bodies are typed again
//! until no call requests a new one. The lowering asks for the same
//! instances, all made by then. The typecheck types a
//! call by the instance it names once that exists
//! ([`Instances::find`], which does not tell a writable array from a
//! read-only one: both instances give the same result). A function gets
//! at most [`MAX_INSTANCES`], so that recursion through ever new types
//! ends in a diagnostic.
//!
//! What it does not do: instantiate a generic function of another module
//! (a call through an import is an error that says to annotate it), take
//! `None` or a tuple holding arrays for an unannotated parameter, or let
//! Python call a generic function (an entry point has annotations).

use crate::declare::FuncDecl;
use crate::typeck::Ty;
use postc_ir::{DType, TypeData, TypeTable};
use std::cell::RefCell;

/// The most instances of one generic function.
pub(crate) const MAX_INSTANCES: usize = 64;

/// The generic functions of a module and their instances.
#[derive(Default)]
pub(crate) struct Generics {
    /// Declarations whose unannotated parameters hold a placeholder type
    /// ([`FuncDecl::unannotated`] says which).
    pub decls: Vec<FuncDecl>,
    /// Whether each has a `return` with a value.
    pub returns_value: Vec<bool>,
    pub instances: RefCell<Instances>,
}

/// What an instance is made for: its parameters' types, and which of
/// them are Python numbers (weak: `2` rather than `np.int64(2)`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Signature {
    pub params: Vec<TypeData>,
    pub weak: Vec<bool>,
}

impl Signature {
    /// The same but that arrays may differ in whether they are writable.
    fn matches(&self, other: &Signature) -> bool {
        let read_only = |t: &TypeData| TypeData { is_output: false, ..t.clone() };
        self.weak == other.weak
            && self.params.len() == other.params.len()
            && self.params.iter().zip(&other.params).all(|(a, b)| read_only(a) == read_only(b))
    }
}

#[derive(Default)]
pub(crate) struct Instances {
    /// (generic, signature, the instance's index among the module's
    /// declarations).
    made: Vec<(usize, Signature, usize)>,
    /// Instances calls asked for that are not made yet.
    requested: Vec<(usize, Signature)>,
    /// The generic functions some call names (whether or not its
    /// arguments gave an instance).
    called: std::collections::HashSet<usize>,
}

impl Instances {
    /// The declaration index of the instance of generic `g` for `sig`;
    /// with `exact` false, one whose arrays may differ in whether they are
    /// writable.
    pub fn find(&self, g: usize, sig: &Signature, exact: bool) -> Option<usize> {
        (self.made.iter())
            .find(|(mg, s, _)| *mg == g && if exact { s == sig } else { s.matches(sig) })
            .map(|(_, _, i)| *i)
    }

    /// Records that a call names `g`.
    pub fn called(&mut self, g: usize) {
        self.called.insert(g);
    }

    /// Whether any call names `g`.
    pub fn is_called(&self, g: usize) -> bool {
        self.called.contains(&g)
    }

    /// Asks for the instance of `g` for `sig` (once).
    pub fn request(&mut self, g: usize, sig: Signature) {
        if !self.requested.iter().any(|(rg, s)| *rg == g && *s == sig) {
            self.requested.push((g, sig));
        }
    }

    /// How many instances of `g` there are.
    pub fn count(&self, g: usize) -> usize {
        self.made.iter().filter(|(mg, _, _)| *mg == g).count()
    }

    /// The instances asked for since the last call, to be declared.
    pub fn take_requests(&mut self) -> Vec<(usize, Signature)> {
        std::mem::take(&mut self.requested)
    }

    /// Records that the instance of `g` for `sig` is declaration `index`.
    pub fn made(&mut self, g: usize, sig: Signature, index: usize) {
        self.made.push((g, sig, index));
    }
}

/// The declaration of instance number `k` (from 1) of `generic`, made
/// for `sig`.
pub(crate) fn instance_decl(generic: &FuncDecl, k: usize, sig: &Signature, types: &mut TypeTable) -> FuncDecl {
    let mut d = generic.clone();
    d.name = format!("{}${k}", generic.name);
    d.params = generic.params.iter().zip(&sig.params).map(|((n, _), t)| (n.clone(), types.intern(t.clone()))).collect();
    d.weak_params = sig.weak.clone();
    d.unannotated = Vec::new();
    d
}

/// Why an argument cannot give an unannotated parameter its type.
pub(crate) enum ParamError {
    /// The argument's type is not known where the call is.
    Unknown(usize),
    /// Not a number, an array or a tuple of numbers.
    Unsupported(usize),
}

/// The signature of the instance of `generic` that a call binds:
/// `given[i]` is the type of the argument bound to parameter `i` (`None`
/// inside when it is not known), `None` for one left to its default;
/// `writable[i]` whether an array argument may be written (the typecheck,
/// which does not know, gives none).
pub(crate) fn instance_params(
    generic: &FuncDecl,
    given: &[Option<Option<Ty>>],
    writable: &[bool],
    types: &TypeTable,
) -> Result<Signature, ParamError> {
    let first_default = generic.params.len() - generic.defaults.len();
    let mut sig = Signature { params: Vec::with_capacity(generic.params.len()), weak: Vec::new() };
    for (i, ((_, t), arg)) in generic.params.iter().zip(given).enumerate() {
        if !generic.unannotated.get(i).copied().unwrap_or(false) {
            sig.params.push(types.get(*t).clone());
            sig.weak.push(false);
            continue;
        }
        let (ty, weak) = match arg {
            Some(Some(ty)) => of_argument(ty, writable.get(i).copied().unwrap_or(false)),
            Some(None) => return Err(ParamError::Unknown(i)),
            // Left out: the default, a Python number (or `None`).
            None => match i.checked_sub(first_default).and_then(|k| generic.defaults[k].as_ref()) {
                Some((_, s)) => (scalar(s.dtype), s.weak),
                None => (None, false),
            },
        };
        sig.params.push(ty.ok_or(ParamError::Unsupported(i))?);
        sig.weak.push(weak);
    }
    Ok(sig)
}

/// The parameter type an argument of type `ty` gives, and whether it is
/// a Python number.
fn of_argument(ty: &Ty, writable: bool) -> (Option<TypeData>, bool) {
    match ty {
        Ty::Num { s, .. } | Ty::Lit { s, .. } => (scalar(s.dtype), s.weak),
        Ty::Arr(t) => (Some(TypeData { is_output: writable, ..t.clone() }), false),
        Ty::Tuple(elems) => {
            let elements = elems.iter().map(|e| e.scalar().and_then(|s| scalar(s.dtype))).collect::<Option<_>>();
            (elements.map(TypeData::tuple), false)
        }
    }
}

fn scalar(d: DType) -> Option<TypeData> {
    (d.is_numeric() || d == DType::Bool).then(|| TypeData::scalar(d))
}

//! What CPython sees of compiled POST code, in one place for the `postc`
//! package (which compiles and loads a module at run time) and for the
//! extension modules `postc-driver compile --emit pyext` makes ahead of
//! time (which link this crate's static library): the checks and
//! conversions of arguments against a function's signature and their
//! messages ([`call`], [`scalars`], [`dlpack`], [`aligned`]), the guarded
//! call and the exception a panic becomes ([`guard`]), `print` through
//! `sys.stdout` ([`printing`]), NumPy ufuncs over
//! `NAME_loop` ([`ufunc`]), and the module an extension's `PyInit_NAME`
//! returns ([`pyext`]). The signatures are `postc_ir::exports`'.

pub mod aligned;
pub mod call;
pub mod dlpack;
pub mod guard;
pub mod printing;
pub mod pyext;
pub mod scalars;
pub mod ufunc;

/// The CPython version (`major.minor`) this library was built for: with
/// the feature `abi3`, the first version of the stable ABI it uses.
pub const PYTHON_VERSION: &str = env!("POSTC_PYABI_PYTHON");

/// The marker `postc-driver` reads in the static library
/// (`postc_codegen::link::pyabi_python_version`) to refuse building an
/// extension for another CPython than this library's.
#[used]
static PYTHON_MARKER: &[u8] = concat!("postc-pyabi built for CPython ", env!("POSTC_PYABI_PYTHON"), "\0").as_bytes();

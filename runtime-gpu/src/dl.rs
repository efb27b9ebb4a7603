//! A minimal `dlopen`/`dlsym` binding. The driver library is opened once and
//! never closed: its function pointers live for the rest of the process.

use std::ffi::{c_char, c_int, c_void, CStr, CString};

extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}

const RTLD_NOW: c_int = 2;
const RTLD_LOCAL: c_int = 0;

/// An open shared library (never unloaded).
pub struct Library {
    handle: *mut c_void,
    /// The name it was opened by, for messages.
    pub name: String,
}

// The handle is only passed to `dlsym`, which is thread-safe.
unsafe impl Send for Library {}
unsafe impl Sync for Library {}

fn last_error() -> String {
    // SAFETY: dlerror returns null or a NUL-terminated string owned by libc.
    unsafe {
        let e = dlerror();
        if e.is_null() {
            "unknown dlopen error".to_owned()
        } else {
            CStr::from_ptr(e).to_string_lossy().into_owned()
        }
    }
}

impl Library {
    /// Opens `name`; the error is the loader's own message.
    pub fn open(name: &str) -> Result<Library, String> {
        let c = CString::new(name).map_err(|_| "path contains a NUL byte".to_owned())?;
        // SAFETY: `c` is a valid C string; the flags are the platform's.
        let handle = unsafe { dlopen(c.as_ptr(), RTLD_NOW | RTLD_LOCAL) };
        if handle.is_null() {
            Err(last_error())
        } else {
            Ok(Library { handle, name: name.to_owned() })
        }
    }

    /// The address of `symbol` (a NUL-terminated name), or `None`.
    pub fn symbol(&self, symbol: &CStr) -> Option<*mut c_void> {
        // SAFETY: the handle came from dlopen and is never closed.
        let p = unsafe { dlsym(self.handle, symbol.as_ptr()) };
        (!p.is_null()).then_some(p)
    }

    /// Like [`Library::symbol`], with the message a missing symbol loads with.
    pub fn require(&self, symbol: &CStr) -> Result<*mut c_void, String> {
        self.symbol(symbol).ok_or_else(|| {
            format!("GPU runtime: cannot load {} (missing symbol {})", self.name, symbol.to_string_lossy())
        })
    }
}

/// Declares a struct of driver entry points and a loader that resolves every
/// one of them, failing on the first that is missing.
macro_rules! driver_api {
    ($(#[$meta:meta])* $vis:vis struct $name:ident {
        $( $field:ident = $sym:literal : fn($($arg:ty),* $(,)?) -> $ret:ty; )*
    }) => {
        $(#[$meta])*
        #[allow(non_snake_case)]
        $vis struct $name {
            $( pub $field: unsafe extern "C" fn($($arg),*) -> $ret, )*
        }

        impl $name {
            /// Resolves every entry point in `lib`.
            pub fn load(lib: &$crate::dl::Library) -> Result<Self, String> {
                Ok(Self {
                    $( $field: {
                        let name = ::std::ffi::CStr::from_bytes_with_nul(concat!($sym, "\0").as_bytes()).unwrap();
                        let p = lib.require(name)?;
                        // SAFETY: the symbol is the driver's function of this signature.
                        unsafe { ::std::mem::transmute::<*mut ::std::ffi::c_void, unsafe extern "C" fn($($arg),*) -> $ret>(p) }
                    }, )*
                })
            }
        }
    };
}
pub(crate) use driver_api;

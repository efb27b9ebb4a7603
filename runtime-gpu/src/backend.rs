//! The one interface the mgpu* functions are written against; CUDA and HIP
//! each implement it over their driver library.

use std::ffi::{c_char, c_void};

/// An opaque driver handle (module, function, stream or event).
pub type Handle = *mut c_void;
/// A device address.
pub type DevicePtr = u64;

/// A driver call that returned an error: the entry point and its status.
#[derive(Clone, Copy, Debug)]
pub struct Failure {
    pub call: &'static str,
    pub code: i32,
}

pub type DResult<T> = Result<T, Failure>;

/// Turns a driver status into a [`DResult`].
#[inline]
pub fn check(call: &'static str, code: i32) -> DResult<()> {
    if code == 0 {
        Ok(())
    } else {
        Err(Failure { call, code })
    }
}

/// A launch configuration, already range-checked.
#[derive(Clone, Copy, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
}

/// One GPU driver. Every method makes no assumption about the calling
/// thread: the caller has made the device current on it first
/// ([`Backend::make_current`]).
pub trait Backend: Send + Sync {
    /// "CUDA" or "HIP".
    fn vendor(&self) -> &'static str;
    /// The driver's name for an error status (`CUDA_ERROR_OUT_OF_MEMORY`,
    /// `hipErrorOutOfMemory`).
    fn error_name(&self, code: i32) -> String;

    /// Initialises the driver and takes device 0: its primary context for
    /// CUDA. Called once per process.
    fn init(&mut self) -> Result<(), String>;
    /// Makes device 0 current on the calling thread.
    fn make_current(&self) -> DResult<()>;

    fn module_load(&self, data: *const c_void) -> DResult<Handle>;
    fn module_load_jit(&self, data: *const c_void, opt_level: i32) -> DResult<Handle>;
    fn module_unload(&self, module: Handle) -> DResult<()>;
    fn module_get_function(&self, module: Handle, name: *const c_char) -> DResult<Handle>;
    /// # Safety
    /// `params`/`extra` are the kernel's argument arrays as the driver takes them.
    unsafe fn launch(
        &self,
        function: Handle,
        launch: Launch,
        stream: Handle,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> DResult<()>;

    fn stream_create(&self) -> DResult<Handle>;
    fn stream_synchronize(&self, stream: Handle) -> DResult<()>;
    fn stream_destroy(&self, stream: Handle) -> DResult<()>;
    fn stream_wait_event(&self, stream: Handle, event: Handle) -> DResult<()>;
    fn event_create(&self) -> DResult<Handle>;
    fn event_destroy(&self, event: Handle) -> DResult<()>;
    fn event_synchronize(&self, event: Handle) -> DResult<()>;
    fn event_record(&self, event: Handle, stream: Handle) -> DResult<()>;

    /// Device memory, or managed (host-shared) memory.
    fn mem_alloc(&self, bytes: u64, host_shared: bool) -> DResult<DevicePtr>;
    fn mem_free(&self, ptr: DevicePtr) -> DResult<()>;
    /// A copy in any direction (unified addressing), ordered on `stream`.
    fn memcpy(&self, dst: DevicePtr, src: DevicePtr, bytes: usize, stream: Handle) -> DResult<()>;
    fn memset32(&self, dst: DevicePtr, value: u32, count: usize, stream: Handle) -> DResult<()>;
    fn memset16(&self, dst: DevicePtr, value: u16, count: usize, stream: Handle) -> DResult<()>;
    /// Whether kernels can use `ptr` as it is: memory the driver allocated
    /// on the device (or managed memory). Any failure of the query means
    /// ordinary host memory.
    fn is_device_ptr(&self, ptr: DevicePtr) -> bool;
}

//! The HIP backend (`libamdhip64.so`), for AMD GPUs.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::ptr;

use crate::backend::{check, Backend, DResult, DevicePtr, Failure, Handle, Launch};
use crate::dl::{driver_api, Library};

pub const DEFAULT_LIBRARY: &str = "libamdhip64.so";

const HIP_EVENT_DISABLE_TIMING: c_uint = 2;
const HIP_MEM_ATTACH_GLOBAL: c_uint = 1;
const HIP_MEMCPY_DEFAULT: c_int = 4;
/// `HIP_POINTER_ATTRIBUTE_DEVICE_POINTER`: the device address of an
/// allocation HIP knows (its memory-type enum changed between releases).
const HIP_POINTER_ATTRIBUTE_DEVICE_POINTER: c_int = 3;

driver_api! {
    pub struct Api {
        init = "hipInit": fn(c_uint) -> c_int;
        get_device_count = "hipGetDeviceCount": fn(*mut c_int) -> c_int;
        set_device = "hipSetDevice": fn(c_int) -> c_int;
        get_error_name = "hipGetErrorName": fn(c_int) -> *const c_char;
        module_load_data = "hipModuleLoadData": fn(*mut Handle, *const c_void) -> c_int;
        module_unload = "hipModuleUnload": fn(Handle) -> c_int;
        module_get_function = "hipModuleGetFunction": fn(*mut Handle, Handle, *const c_char) -> c_int;
        module_launch_kernel = "hipModuleLaunchKernel": fn(
            Handle, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, Handle,
            *mut *mut c_void, *mut *mut c_void,
        ) -> c_int;
        stream_create = "hipStreamCreate": fn(*mut Handle) -> c_int;
        stream_synchronize = "hipStreamSynchronize": fn(Handle) -> c_int;
        stream_destroy = "hipStreamDestroy": fn(Handle) -> c_int;
        stream_wait_event = "hipStreamWaitEvent": fn(Handle, Handle, c_uint) -> c_int;
        event_create_with_flags = "hipEventCreateWithFlags": fn(*mut Handle, c_uint) -> c_int;
        event_destroy = "hipEventDestroy": fn(Handle) -> c_int;
        event_synchronize = "hipEventSynchronize": fn(Handle) -> c_int;
        event_record = "hipEventRecord": fn(Handle, Handle) -> c_int;
        malloc = "hipMalloc": fn(*mut *mut c_void, usize) -> c_int;
        malloc_managed = "hipMallocManaged": fn(*mut *mut c_void, usize, c_uint) -> c_int;
        free = "hipFree": fn(*mut c_void) -> c_int;
        memcpy_async = "hipMemcpyAsync": fn(*mut c_void, *const c_void, usize, c_int, Handle) -> c_int;
        memset_d32_async = "hipMemsetD32Async": fn(*mut c_void, c_int, usize, Handle) -> c_int;
        memset_d16_async = "hipMemsetD16Async": fn(*mut c_void, u16, usize, Handle) -> c_int;
        pointer_get_attribute = "hipPointerGetAttribute": fn(*mut c_void, c_int, *mut c_void) -> c_int;
    }
}

pub struct Hip {
    api: Api,
}

impl Hip {
    pub fn load(lib: &Library) -> Result<Hip, String> {
        Ok(Hip { api: Api::load(lib)? })
    }

    fn fail(&self, f: Failure) -> String {
        format!("{} failed: {}", f.call, self.error_name(f.code))
    }
}

impl Backend for Hip {
    fn vendor(&self) -> &'static str {
        "HIP"
    }

    fn error_name(&self, code: i32) -> String {
        // SAFETY: hipGetErrorName returns a static string (or null).
        let name = unsafe { (self.api.get_error_name)(code) };
        if name.is_null() {
            format!("HIP error {code}")
        } else {
            unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned()
        }
    }

    fn init(&mut self) -> Result<(), String> {
        let a = &self.api;
        unsafe {
            check("hipInit", (a.init)(0)).map_err(|f| self.fail(f))?;
            let mut count = 0;
            check("hipGetDeviceCount", (a.get_device_count)(&mut count)).map_err(|f| self.fail(f))?;
            if count <= 0 {
                return Err("GPU runtime: no HIP device".to_owned());
            }
        }
        Ok(())
    }

    fn make_current(&self) -> DResult<()> {
        // HIP keeps a current device per thread; device 0's primary context
        // comes with it.
        check("hipSetDevice", unsafe { (self.api.set_device)(0) })
    }

    fn module_load(&self, data: *const c_void) -> DResult<Handle> {
        let mut m = ptr::null_mut();
        check("hipModuleLoadData", unsafe { (self.api.module_load_data)(&mut m, data) })?;
        Ok(m)
    }

    fn module_load_jit(&self, data: *const c_void, _opt_level: i32) -> DResult<Handle> {
        // A code object is already compiled: there is nothing to JIT.
        self.module_load(data)
    }

    fn module_unload(&self, module: Handle) -> DResult<()> {
        check("hipModuleUnload", unsafe { (self.api.module_unload)(module) })
    }

    fn module_get_function(&self, module: Handle, name: *const c_char) -> DResult<Handle> {
        let mut f = ptr::null_mut();
        check("hipModuleGetFunction", unsafe { (self.api.module_get_function)(&mut f, module, name) })?;
        Ok(f)
    }

    unsafe fn launch(
        &self,
        function: Handle,
        l: Launch,
        stream: Handle,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> DResult<()> {
        check(
            "hipModuleLaunchKernel",
            (self.api.module_launch_kernel)(
                function,
                l.grid[0],
                l.grid[1],
                l.grid[2],
                l.block[0],
                l.block[1],
                l.block[2],
                l.shared_bytes,
                stream,
                params,
                extra,
            ),
        )
    }

    fn stream_create(&self) -> DResult<Handle> {
        let mut s = ptr::null_mut();
        check("hipStreamCreate", unsafe { (self.api.stream_create)(&mut s) })?;
        Ok(s)
    }

    fn stream_synchronize(&self, stream: Handle) -> DResult<()> {
        check("hipStreamSynchronize", unsafe { (self.api.stream_synchronize)(stream) })
    }

    fn stream_destroy(&self, stream: Handle) -> DResult<()> {
        check("hipStreamDestroy", unsafe { (self.api.stream_destroy)(stream) })
    }

    fn stream_wait_event(&self, stream: Handle, event: Handle) -> DResult<()> {
        check("hipStreamWaitEvent", unsafe { (self.api.stream_wait_event)(stream, event, 0) })
    }

    fn event_create(&self) -> DResult<Handle> {
        let mut e = ptr::null_mut();
        check("hipEventCreateWithFlags", unsafe {
            (self.api.event_create_with_flags)(&mut e, HIP_EVENT_DISABLE_TIMING)
        })?;
        Ok(e)
    }

    fn event_destroy(&self, event: Handle) -> DResult<()> {
        check("hipEventDestroy", unsafe { (self.api.event_destroy)(event) })
    }

    fn event_synchronize(&self, event: Handle) -> DResult<()> {
        check("hipEventSynchronize", unsafe { (self.api.event_synchronize)(event) })
    }

    fn event_record(&self, event: Handle, stream: Handle) -> DResult<()> {
        check("hipEventRecord", unsafe { (self.api.event_record)(event, stream) })
    }

    fn mem_alloc(&self, bytes: u64, host_shared: bool) -> DResult<DevicePtr> {
        let mut p = ptr::null_mut();
        if host_shared {
            check("hipMallocManaged", unsafe {
                (self.api.malloc_managed)(&mut p, bytes as usize, HIP_MEM_ATTACH_GLOBAL)
            })?;
        } else {
            check("hipMalloc", unsafe { (self.api.malloc)(&mut p, bytes as usize) })?;
        }
        Ok(p as DevicePtr)
    }

    fn mem_free(&self, ptr: DevicePtr) -> DResult<()> {
        check("hipFree", unsafe { (self.api.free)(ptr as *mut c_void) })
    }

    fn memcpy(&self, dst: DevicePtr, src: DevicePtr, bytes: usize, stream: Handle) -> DResult<()> {
        check("hipMemcpyAsync", unsafe {
            (self.api.memcpy_async)(dst as *mut c_void, src as *const c_void, bytes, HIP_MEMCPY_DEFAULT, stream)
        })
    }

    fn memset32(&self, dst: DevicePtr, value: u32, count: usize, stream: Handle) -> DResult<()> {
        check("hipMemsetD32Async", unsafe {
            (self.api.memset_d32_async)(dst as *mut c_void, value as c_int, count, stream)
        })
    }

    fn memset16(&self, dst: DevicePtr, value: u16, count: usize, stream: Handle) -> DResult<()> {
        check("hipMemsetD16Async", unsafe { (self.api.memset_d16_async)(dst as *mut c_void, value, count, stream) })
    }

    fn is_device_ptr(&self, ptr: DevicePtr) -> bool {
        let mut dev: *mut c_void = ptr::null_mut();
        // SAFETY: the attribute is a `void *`.
        let status = unsafe {
            (self.api.pointer_get_attribute)(
                (&mut dev as *mut *mut c_void).cast(),
                HIP_POINTER_ATTRIBUTE_DEVICE_POINTER,
                ptr as *mut c_void,
            )
        };
        status == 0 && dev as DevicePtr == ptr
    }
}

//! The CUDA driver API backend (`libcuda.so.1`, the `_v2` entry points).

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::ptr;

use crate::backend::{check, Backend, DResult, DevicePtr, Failure, Handle, Launch};
use crate::dl::{driver_api, Library};

pub const DEFAULT_LIBRARY: &str = "libcuda.so.1";

const CU_STREAM_NON_BLOCKING: c_uint = 1;
const CU_EVENT_DEFAULT: c_uint = 0;
const CU_MEM_ATTACH_GLOBAL: c_uint = 1;
const CU_JIT_ERROR_LOG_BUFFER: c_int = 5;
const CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;
const CU_JIT_OPTIMIZATION_LEVEL: c_int = 7;
const CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: c_int = 8;
const CU_POINTER_ATTRIBUTE_MEMORY_TYPE: c_int = 2;
const CU_MEMORYTYPE_DEVICE: c_uint = 2;
/// Dynamic shared memory a kernel may use without opting in.
const DEFAULT_SHARED_LIMIT: u32 = 48 * 1024;

driver_api! {
    pub struct Api {
        init = "cuInit": fn(c_uint) -> c_int;
        device_get_count = "cuDeviceGetCount": fn(*mut c_int) -> c_int;
        device_get = "cuDeviceGet": fn(*mut c_int, c_int) -> c_int;
        primary_ctx_retain = "cuDevicePrimaryCtxRetain": fn(*mut Handle, c_int) -> c_int;
        ctx_set_current = "cuCtxSetCurrent": fn(Handle) -> c_int;
        get_error_name = "cuGetErrorName": fn(c_int, *mut *const c_char) -> c_int;
        module_load_data = "cuModuleLoadData": fn(*mut Handle, *const c_void) -> c_int;
        module_load_data_ex = "cuModuleLoadDataEx":
            fn(*mut Handle, *const c_void, c_uint, *mut c_int, *mut *mut c_void) -> c_int;
        module_unload = "cuModuleUnload": fn(Handle) -> c_int;
        module_get_function = "cuModuleGetFunction": fn(*mut Handle, Handle, *const c_char) -> c_int;
        func_set_attribute = "cuFuncSetAttribute": fn(Handle, c_int, c_int) -> c_int;
        launch_kernel = "cuLaunchKernel": fn(
            Handle, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, Handle,
            *mut *mut c_void, *mut *mut c_void,
        ) -> c_int;
        stream_create = "cuStreamCreate": fn(*mut Handle, c_uint) -> c_int;
        stream_synchronize = "cuStreamSynchronize": fn(Handle) -> c_int;
        stream_destroy = "cuStreamDestroy_v2": fn(Handle) -> c_int;
        stream_wait_event = "cuStreamWaitEvent": fn(Handle, Handle, c_uint) -> c_int;
        event_create = "cuEventCreate": fn(*mut Handle, c_uint) -> c_int;
        event_destroy = "cuEventDestroy_v2": fn(Handle) -> c_int;
        event_synchronize = "cuEventSynchronize": fn(Handle) -> c_int;
        event_record = "cuEventRecord": fn(Handle, Handle) -> c_int;
        mem_alloc = "cuMemAlloc_v2": fn(*mut DevicePtr, usize) -> c_int;
        mem_alloc_managed = "cuMemAllocManaged": fn(*mut DevicePtr, usize, c_uint) -> c_int;
        mem_free = "cuMemFree_v2": fn(DevicePtr) -> c_int;
        memcpy_async = "cuMemcpyAsync": fn(DevicePtr, DevicePtr, usize, Handle) -> c_int;
        memset_d32_async = "cuMemsetD32Async": fn(DevicePtr, c_uint, usize, Handle) -> c_int;
        memset_d16_async = "cuMemsetD16Async": fn(DevicePtr, u16, usize, Handle) -> c_int;
        pointer_get_attribute = "cuPointerGetAttribute": fn(*mut c_void, c_int, DevicePtr) -> c_int;
    }
}

pub struct Cuda {
    api: Api,
    context: Handle,
}

// The context handle is a process-wide driver object, usable from any thread.
unsafe impl Send for Cuda {}
unsafe impl Sync for Cuda {}

impl Cuda {
    pub fn load(lib: &Library) -> Result<Cuda, String> {
        Ok(Cuda { api: Api::load(lib)?, context: ptr::null_mut() })
    }

    fn fail(&self, f: Failure) -> String {
        format!("{} failed: {}", f.call, self.error_name(f.code))
    }
}

impl Backend for Cuda {
    fn vendor(&self) -> &'static str {
        "CUDA"
    }

    fn error_name(&self, code: i32) -> String {
        let mut name: *const c_char = ptr::null();
        // SAFETY: cuGetErrorName writes a static string or fails.
        let status = unsafe { (self.api.get_error_name)(code, &mut name) };
        if status != 0 || name.is_null() {
            format!("CUDA error {code}")
        } else {
            // SAFETY: a static NUL-terminated string owned by the driver.
            unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned()
        }
    }

    fn init(&mut self) -> Result<(), String> {
        let a = &self.api;
        // SAFETY: plain driver calls with valid out-pointers.
        unsafe {
            check("cuInit", (a.init)(0)).map_err(|f| self.fail(f))?;
            let mut count = 0;
            check("cuDeviceGetCount", (a.device_get_count)(&mut count)).map_err(|f| self.fail(f))?;
            if count <= 0 {
                return Err("GPU runtime: no CUDA device".to_owned());
            }
            let mut device = 0;
            check("cuDeviceGet", (a.device_get)(&mut device, 0)).map_err(|f| self.fail(f))?;
            let mut context = ptr::null_mut();
            check("cuDevicePrimaryCtxRetain", (a.primary_ctx_retain)(&mut context, device))
                .map_err(|f| self.fail(f))?;
            self.context = context;
        }
        Ok(())
    }

    fn make_current(&self) -> DResult<()> {
        // SAFETY: the context was retained in `init`.
        check("cuCtxSetCurrent", unsafe { (self.api.ctx_set_current)(self.context) })
    }

    fn module_load(&self, data: *const c_void) -> DResult<Handle> {
        let mut m = ptr::null_mut();
        check("cuModuleLoadData", unsafe { (self.api.module_load_data)(&mut m, data) })?;
        Ok(m)
    }

    fn module_load_jit(&self, data: *const c_void, opt_level: i32) -> DResult<Handle> {
        let mut m = ptr::null_mut();
        let mut log = [0u8; 8192];
        let mut options = [CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_OPTIMIZATION_LEVEL];
        let mut values: [*mut c_void; 3] =
            [log.as_mut_ptr().cast(), log.len() as *mut c_void, opt_level.clamp(0, 4) as usize as *mut c_void];
        let status =
            unsafe { (self.api.module_load_data_ex)(&mut m, data, 3, options.as_mut_ptr(), values.as_mut_ptr()) };
        if status != 0 {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            if end > 0 {
                eprintln!("GPU runtime: JIT log: {}", String::from_utf8_lossy(&log[..end]).trim_end());
            }
        }
        check("cuModuleLoadDataEx", status)?;
        Ok(m)
    }

    fn module_unload(&self, module: Handle) -> DResult<()> {
        check("cuModuleUnload", unsafe { (self.api.module_unload)(module) })
    }

    fn module_get_function(&self, module: Handle, name: *const c_char) -> DResult<Handle> {
        let mut f = ptr::null_mut();
        check("cuModuleGetFunction", unsafe { (self.api.module_get_function)(&mut f, module, name) })?;
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
        if l.shared_bytes > DEFAULT_SHARED_LIMIT {
            check(
                "cuFuncSetAttribute",
                (self.api.func_set_attribute)(
                    function,
                    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    l.shared_bytes as c_int,
                ),
            )?;
        }
        check(
            "cuLaunchKernel",
            (self.api.launch_kernel)(
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
        check("cuStreamCreate", unsafe { (self.api.stream_create)(&mut s, CU_STREAM_NON_BLOCKING) })?;
        Ok(s)
    }

    fn stream_synchronize(&self, stream: Handle) -> DResult<()> {
        check("cuStreamSynchronize", unsafe { (self.api.stream_synchronize)(stream) })
    }

    fn stream_destroy(&self, stream: Handle) -> DResult<()> {
        check("cuStreamDestroy_v2", unsafe { (self.api.stream_destroy)(stream) })
    }

    fn stream_wait_event(&self, stream: Handle, event: Handle) -> DResult<()> {
        check("cuStreamWaitEvent", unsafe { (self.api.stream_wait_event)(stream, event, 0) })
    }

    fn event_create(&self) -> DResult<Handle> {
        let mut e = ptr::null_mut();
        check("cuEventCreate", unsafe { (self.api.event_create)(&mut e, CU_EVENT_DEFAULT) })?;
        Ok(e)
    }

    fn event_destroy(&self, event: Handle) -> DResult<()> {
        check("cuEventDestroy_v2", unsafe { (self.api.event_destroy)(event) })
    }

    fn event_synchronize(&self, event: Handle) -> DResult<()> {
        check("cuEventSynchronize", unsafe { (self.api.event_synchronize)(event) })
    }

    fn event_record(&self, event: Handle, stream: Handle) -> DResult<()> {
        check("cuEventRecord", unsafe { (self.api.event_record)(event, stream) })
    }

    fn mem_alloc(&self, bytes: u64, host_shared: bool) -> DResult<DevicePtr> {
        let mut p = 0;
        if host_shared {
            check("cuMemAllocManaged", unsafe {
                (self.api.mem_alloc_managed)(&mut p, bytes as usize, CU_MEM_ATTACH_GLOBAL)
            })?;
        } else {
            check("cuMemAlloc_v2", unsafe { (self.api.mem_alloc)(&mut p, bytes as usize) })?;
        }
        Ok(p)
    }

    fn mem_free(&self, ptr: DevicePtr) -> DResult<()> {
        check("cuMemFree_v2", unsafe { (self.api.mem_free)(ptr) })
    }

    fn memcpy(&self, dst: DevicePtr, src: DevicePtr, bytes: usize, stream: Handle) -> DResult<()> {
        check("cuMemcpyAsync", unsafe { (self.api.memcpy_async)(dst, src, bytes, stream) })
    }

    fn memset32(&self, dst: DevicePtr, value: u32, count: usize, stream: Handle) -> DResult<()> {
        check("cuMemsetD32Async", unsafe { (self.api.memset_d32_async)(dst, value, count, stream) })
    }

    fn memset16(&self, dst: DevicePtr, value: u16, count: usize, stream: Handle) -> DResult<()> {
        check("cuMemsetD16Async", unsafe { (self.api.memset_d16_async)(dst, value, count, stream) })
    }

    fn is_device_ptr(&self, ptr: DevicePtr) -> bool {
        let mut kind: c_uint = 0;
        // SAFETY: the attribute is an `unsigned int` (CUmemorytype).
        let status = unsafe {
            (self.api.pointer_get_attribute)((&mut kind as *mut c_uint).cast(), CU_POINTER_ATTRIBUTE_MEMORY_TYPE, ptr)
        };
        status == 0 && kind == CU_MEMORYTYPE_DEVICE
    }
}

//! The runtime against a real NVIDIA driver: a hand-written PTX vector add
//! staged through the device arena. On a machine without a usable GPU it
//! says so and returns; on one with a GPU (`scripts/gpu-check`) it runs.

use std::ffi::{c_void, CStr};
use std::ptr;

use postc_runtime_gpu::*;

/// `add(a, b, c, n)`: c[i] = a[i] + b[i] for i < n, one thread per element.
const PTX: &CStr = c".version 7.0
.target sm_70
.address_size 64

.visible .entry add(
    .param .u64 add_param_0,
    .param .u64 add_param_1,
    .param .u64 add_param_2,
    .param .u64 add_param_3
)
{
    .reg .pred %p<2>;
    .reg .f32 %f<4>;
    .reg .b32 %r<5>;
    .reg .b64 %rd<13>;

    ld.param.u64 %rd1, [add_param_0];
    ld.param.u64 %rd2, [add_param_1];
    ld.param.u64 %rd3, [add_param_2];
    ld.param.u64 %rd4, [add_param_3];
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.s32 %r4, %r1, %r2, %r3;
    cvt.s64.s32 %rd5, %r4;
    setp.ge.s64 %p1, %rd5, %rd4;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd6, %rd1;
    cvta.to.global.u64 %rd7, %rd2;
    cvta.to.global.u64 %rd8, %rd3;
    shl.b64 %rd9, %rd5, 2;
    add.s64 %rd10, %rd6, %rd9;
    ld.global.f32 %f1, [%rd10];
    add.s64 %rd11, %rd7, %rd9;
    ld.global.f32 %f2, [%rd11];
    add.f32 %f3, %f1, %f2;
    add.s64 %rd12, %rd8, %rd9;
    st.global.f32 [%rd12], %f3;
DONE:
    ret;
}
";

#[test]
fn vector_add_on_the_device() {
    if std::env::var_os("POSTC_GPU_DRIVER_PATH").is_some() || __postc_gpu_usable() != 1 {
        eprintln!("skipping: no usable GPU driver on this machine");
        return;
    }
    unsafe {
        let module = mgpuModuleLoad(PTX.as_ptr().cast(), PTX.to_bytes().len());
        let add = mgpuModuleGetFunction(module, c"add".as_ptr());
        let stream = mgpuStreamCreate();

        // Two sizes: one staged inside the 64 MiB chunk, one that spills.
        for n in [1000usize, 20 << 20] {
            let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let b: Vec<f32> = (0..n).map(|i| (i % 7) as f32).collect();
            let mut c = vec![0f32; n];
            let bytes = n * 4;

            let mark = postc_gpu_arena_mark(stream);
            let mut da = postc_gpu_arena_alloc(bytes as u64, stream);
            let mut db = postc_gpu_arena_alloc(bytes as u64, stream);
            let mut dc = postc_gpu_arena_alloc(bytes as u64, stream);
            for p in [da, db, dc] {
                assert_eq!(p as u64 % ARENA_ALIGN, 0);
            }
            mgpuMemcpy(da, a.as_ptr() as *mut c_void, bytes, stream);
            mgpuMemcpy(db, b.as_ptr() as *mut c_void, bytes, stream);
            let mut len = n as i64;
            let mut params: [*mut c_void; 4] = [
                (&mut da as *mut *mut c_void).cast(),
                (&mut db as *mut *mut c_void).cast(),
                (&mut dc as *mut *mut c_void).cast(),
                (&mut len as *mut i64).cast(),
            ];
            let block = 256;
            let grid = n.div_ceil(block) as isize;
            mgpuLaunchKernel(add, grid, 1, 1, block as isize, 1, 1, 0, stream, params.as_mut_ptr(), ptr::null_mut(), 4);
            mgpuMemcpy(c.as_mut_ptr().cast(), dc, bytes, stream);
            postc_gpu_arena_restore(mark, stream);
            for i in 0..n {
                assert_eq!(c[i], a[i] + b[i], "n = {n}, element {i}");
            }
        }
        assert_eq!(arena_usage(stream).top, 0);

        let event = mgpuEventCreate();
        mgpuEventRecord(event, stream);
        mgpuStreamWaitEvent(stream, event);
        mgpuEventSynchronize(event);
        mgpuEventDestroy(event);

        let jit = mgpuModuleLoadJIT(PTX.as_ptr() as *mut c_void, 2);
        assert!(!mgpuModuleGetFunction(jit, c"add".as_ptr()).is_null());
        mgpuModuleUnload(jit);
        mgpuModuleUnload(module);
        mgpuStreamDestroy(stream);
    }
}

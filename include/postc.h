/*
 * postc.h - what a C caller needs to call code compiled by postc.
 *
 * The calling convention is described in docs/abi.md. This header declares
 * the types that appear in it:
 *
 *   - the DLPack array descriptor (DLDevice, DLDataType, DLTensor,
 *     DLManagedTensor), laid out as the DLPack specification lays it out,
 *     so a tensor from NumPy, PyTorch, CuPy or JAX is passed without a copy;
 *   - postc_str, the {pointer, length} value of POST's Str and Bytes;
 *   - postc_gufunc_loop, the type of a ufunc's NAME_loop entry point
 *   - postc_launch, the launch configuration of a kernel function
 *     (NumPy's generalized-ufunc inner loop).
 *
 * When dlpack.h has been included first, its definitions are used and the
 * DLPack part below is skipped; the two are layout-compatible.
 */
#ifndef POSTC_H
#define POSTC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef DLPACK_DLPACK_H_
#define POSTC_DEFINES_DLPACK 1

/* Where a tensor's memory lives. postc reads host memory: kDLCPU (or the
 * pinned-host kinds kDLCUDAHost / kDLROCMHost). */
typedef enum {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17
} DLDeviceType;

/* A device: its kind and its ordinal (0 for the host). */
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/* The element type codes of DLDataType.code. */
typedef enum {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6
} DLDataTypeCode;

/* An element type: code (DLDataTypeCode), width in bits of one lane,
 * number of lanes (1 for every postc dtype). */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/* A strided view of an n-dimensional array.
 *   data        start of the allocation (element 0 is at data + byte_offset)
 *   device      where data lives
 *   ndim        number of axes
 *   dtype       element type
 *   shape       ndim extents
 *   strides     ndim strides in elements (not bytes), or NULL for a
 *               compact row-major (C-order) array
 *   byte_offset bytes from data to element 0 */
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} DLTensor;

/* A tensor together with its owner. Whoever holds it releases it by
 * calling deleter(self); the deleter frees the memory and the struct. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

#endif /* DLPACK_DLPACK_H_ */

/* POST Str (UTF-8) and Bytes: a pointer and a byte count, passed and
 * returned by value (two registers on x86-64 System V). ptr[len] is a NUL
 * for strings postc creates; a caller need not provide one. */
typedef struct {
  const char *ptr;
  int64_t len;
} postc_str;

typedef postc_str postc_bytes;

/* NAME_loop, a ufunc's generalized-ufunc inner loop (NumPy's
 * PyUFuncGenericFunction):
 *   args        one pointer per operand (inputs, then outputs) to its
 *               element at outer index 0
 *   dimensions  dimensions[0] = outer loop length, then the size of each
 *               distinct core dimension in order of first appearance in
 *               the signature
 *   steps       steps[0 .. nargs-1] = outer byte stride of each operand,
 *               then, operand by operand, the byte stride of each of its
 *               core dimensions
 *   data        unused (NULL) */
typedef void (*postc_gufunc_loop)(char **args, const intptr_t *dimensions, const intptr_t *steps, void *data);

/* The launch configuration a `kernel` function's entry point takes first:
 * grid[] blocks of block[] threads, x fastest (docs/abi.md, section 10). */
typedef struct {
    uint32_t grid[3];
    uint32_t block[3];
} postc_launch;

/* DLDataType values of the POST dtypes. */
#define POSTC_DTYPE_BOOL ((DLDataType){kDLBool, 8, 1})
#define POSTC_DTYPE_INT8 ((DLDataType){kDLInt, 8, 1})
#define POSTC_DTYPE_INT16 ((DLDataType){kDLInt, 16, 1})
#define POSTC_DTYPE_INT32 ((DLDataType){kDLInt, 32, 1})
#define POSTC_DTYPE_INT64 ((DLDataType){kDLInt, 64, 1})
#define POSTC_DTYPE_UINT8 ((DLDataType){kDLUInt, 8, 1})
#define POSTC_DTYPE_UINT16 ((DLDataType){kDLUInt, 16, 1})
#define POSTC_DTYPE_UINT32 ((DLDataType){kDLUInt, 32, 1})
#define POSTC_DTYPE_UINT64 ((DLDataType){kDLUInt, 64, 1})
#define POSTC_DTYPE_FLOAT16 ((DLDataType){kDLFloat, 16, 1})
#define POSTC_DTYPE_FLOAT32 ((DLDataType){kDLFloat, 32, 1})
#define POSTC_DTYPE_FLOAT64 ((DLDataType){kDLFloat, 64, 1})
#define POSTC_DTYPE_COMPLEX64 ((DLDataType){kDLComplex, 64, 1})
#define POSTC_DTYPE_COMPLEX128 ((DLDataType){kDLComplex, 128, 1})
/* Arrays of Str / Bytes hold postc_str elements; DLPack has no code for
 * them, so they are opaque 128-bit elements. */
#define POSTC_DTYPE_STR ((DLDataType){kDLOpaqueHandle, 128, 1})
#define POSTC_DTYPE_BYTES ((DLDataType){kDLOpaqueHandle, 128, 1})

#ifdef __cplusplus
}
#endif

#endif /* POSTC_H */

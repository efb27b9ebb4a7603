//! postc-runtime-gpu: the mgpu* runtime ABI over CUDA/HIP (filled by the GPU work).

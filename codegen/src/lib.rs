//! postc-codegen: IR to LLVM through inkwell (filled by the codegen work).

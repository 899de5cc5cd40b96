//! wavejit-jit: basic blocks lowered through Cranelift to native SIMD code.

//! wavejit-interp: the reference semantics of every instruction, written to be obviously
//! right. It is the oracle the JIT is held to.

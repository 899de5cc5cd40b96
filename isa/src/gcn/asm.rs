//! GCN assembler (CLRX and LLVM syntax).

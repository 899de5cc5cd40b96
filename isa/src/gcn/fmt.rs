//! GCN disassembler (CLRX and LLVM syntax).

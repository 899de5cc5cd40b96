//! The wave-uniform part of a MUBUF address, read from the buffer resource (V#) and
//! SOFFSET at run time: `BASE + SOFFSET` (+ OFFSET for ADDR64, the bias `global` adds to
//! each lane's address), the resource's fields, and the format check of `format`
//! instructions (`wavejit_interp::mem::mubuf`'s: 32-bit components, raw NUM_FORMAT,
//! identity DST_SEL for loads; otherwise the side exit to the interpreter's
//! `Unsupported`).

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types;
use cranelift_codegen::ir::{InstBuilder, Value};

use super::access::{side_exit_if, At};
use crate::block::Cx;
use crate::gcn::sopnd::SOpnd;

/// The wave-uniform part of a MUBUF address: the resource, SOFFSET and the instruction's
/// offset, and the format a `format` instruction needs.
#[derive(Clone, Copy, Debug)]
pub struct Bias {
    pub srsrc: u8,
    pub soffset: SOpnd,
    pub offset: u32,
    /// A `format` instruction: its component count and whether it loads.
    pub format: Option<(u32, bool)>,
}

/// The four resource dwords.
pub(super) fn resource(cx: &mut Cx, srsrc: u8) -> [Value; 4] {
    [0, 1, 2, 3].map(|i| cx.sreg(srsrc + i))
}

/// `(x >> sh) & mask` of an `i32`.
pub(super) fn field(cx: &mut Cx, x: Value, sh: i64, mask: i64) -> Value {
    let v = cx.b.ins().ushr_imm_u(x, sh);
    cx.b.ins().band_imm_u(v, mask)
}

/// Leave through the side exit of `at` unless the resource's format lets a `format`
/// instruction moving `count` components run as dword accesses
/// (`wavejit_interp::mem::mubuf`'s check).
pub(super) fn check_format(cx: &mut Cx, d3: Value, count: u32, load: bool, at: At) {
    // DATA_FORMAT 32 (4), 32_32 (11), 32_32_32 (13), 32_32_32_32 (14): 1-4 components.
    let dfmt = field(cx, d3, 15, 0xf);
    let mut ok = cx.b.ins().iconst(types::I8, 0);
    for (code, comps) in [(4, 1), (11, 2), (13, 3), (14, 4)] {
        if comps >= count {
            let is = cx.b.ins().icmp_imm_s(IntCC::Equal, dfmt, code);
            ok = cx.b.ins().bor(ok, is);
        }
    }
    // NUM_FORMAT UINT (4), SINT (5) or FLOAT (7).
    let nfmt = field(cx, d3, 12, 7);
    let mut raw = cx.b.ins().iconst(types::I8, 0);
    for code in [4, 5, 7] {
        let is = cx.b.ins().icmp_imm_s(IntCC::Equal, nfmt, code);
        raw = cx.b.ins().bor(raw, is);
    }
    ok = cx.b.ins().band(ok, raw);
    if load {
        // DST_SEL of component k is 4 + k (X, Y, Z, W).
        for k in 0..count {
            let sel = field(cx, d3, 3 * k as i64, 7);
            let is = cx.b.ins().icmp_imm_s(IntCC::Equal, sel, 4 + k as i64);
            ok = cx.b.ins().band(ok, is);
        }
    }
    let fail = cx.b.ins().icmp_imm_s(IntCC::Equal, ok, 0);
    side_exit_if(cx, fail, at);
}

/// `BASE + SOFFSET` of the resource (wrapping), as an `i64`.
pub(super) fn base_soffset(cx: &mut Cx, b: &Bias, d: &[Value; 4]) -> Value {
    let hi = cx.b.ins().band_imm_u(d[1], 0xffff);
    let base = cx.concat64(d[0], hi);
    let so = cx.read_s32(b.soffset);
    let so = cx.b.ins().uextend(types::I64, so);
    cx.b.ins().iadd(base, so)
}

/// The bias of an ADDR64 access, `BASE + SOFFSET + OFFSET` (wrapping), after the format
/// check of a `format` instruction.
pub fn bias(cx: &mut Cx, b: &Bias, at: At) -> Value {
    let d = resource(cx, b.srsrc);
    if let Some((count, load)) = b.format {
        check_format(cx, d[3], count, load, at);
    }
    let k = base_soffset(cx, b, &d);
    cx.b.ins().iadd_imm_s(k, b.offset as i64)
}

//! The operand values the family lowerings take: a fetched chunk (`Opnd`, 32 or 64 bits a
//! lane) and a source that is the same in every lane (`Uni`).

use cranelift_codegen::ir::Value;

use crate::block::Cx;

/// A fetched operand: 4 lanes of 32 bits, or 4 lanes of 64 bits as two `i64x2`.
#[derive(Clone, Copy)]
pub(super) enum Opnd {
    W32(Value),
    W64([Value; 2]),
}

impl Opnd {
    pub(super) fn v32(self) -> Value {
        match self {
            Opnd::W32(v) => v,
            Opnd::W64(p) => p[0],
        }
    }
    pub(super) fn v64(self, i: usize) -> Value {
        match self {
            Opnd::W64(p) => p[i],
            Opnd::W32(v) => v,
        }
    }
}

/// A source that is the same in every lane: a compile-time constant or a scalar value.
#[derive(Clone, Copy)]
pub(super) enum Uni {
    K(u32),
    S(Value),
}

impl Uni {
    pub(super) fn value(self, cx: &mut Cx) -> Value {
        match self {
            Uni::K(k) => cx.iconst32(k),
            Uni::S(v) => v,
        }
    }
}

//! EXP: a wave hands values to the fixed-function hardware after it (colour and depth
//! targets, positions, parameters). Here an export is recorded in the wave
//! (`Wave::exports`, `wavejit_isa::state::Export`) for whoever drives the wave to read
//! afterwards (the facade's `draw` writes render targets from them).
//!
//! * Channel c (x/r, y/g, z/b, w/a) is exported when EN bit c is set. Without COMPR it
//!   reads VSRC`c`; with COMPR the sources hold f16 pairs: channels 0 and 1 are the low
//!   and high halves of VSRC0, channels 2 and 3 those of VSRC1 (AMD's manuals; LLVM's
//!   `exp ... compr` names each register twice).
//! * Only lanes in EXEC export; the record keeps EXEC, and 0 for the other lanes and for
//!   sources no enabled channel reads, so that two engines' records compare exactly.
//! * DONE and VM are recorded as given: what they mean (the last export; EXEC as the
//!   valid pixel mask) is for the consumer of the exports.
//! * A reserved target (10, 11, 16-31) is a bad operand (the decoder already refuses
//!   it; a hand-built instruction may carry one). More than `MAX_EXPORTS` exports in one
//!   run is `ExportLimit`.

use wavejit_isa::gcn::{ExpFields, ExpTarget, Inst};
use wavejit_isa::state::{Export, LANES, MAX_EXPORTS};

use crate::ctx::{bad_fields, Ctx};
use crate::error::ExecErrorKind;

/// Execute one EXP instruction.
pub fn exec(ctx: &mut Ctx<'_>, inst: &Inst) -> Result<(), ExecErrorKind> {
    let f = ExpFields::of(inst).ok_or_else(|| bad_fields(inst))?;
    if ExpTarget::from_tgt(f.tgt).is_none() {
        return Err(ExecErrorKind::BadOperand(format!(
            "export target {} is reserved",
            f.tgt
        )));
    }
    let w = &mut *ctx.wave;
    if w.exports.len() >= MAX_EXPORTS {
        return Err(ExecErrorKind::ExportLimit(MAX_EXPORTS));
    }
    let mut data = [[0u32; LANES]; 4];
    for (c, d) in data.iter_mut().enumerate() {
        // The slot holding channel c's source: itself, or its pair with COMPR.
        let (slot, used) = if f.compr {
            (c, c < 2 && f.en >> (2 * c) & 3 != 0)
        } else {
            (c, f.en >> c & 1 != 0)
        };
        if !used {
            continue;
        }
        let src = &w.vgpr[f.vsrc[slot] as usize];
        for (lane, x) in d.iter_mut().enumerate() {
            if w.exec >> lane & 1 != 0 {
                *x = src[lane];
            }
        }
    }
    w.exports.push(Export {
        tgt: f.tgt,
        en: f.en,
        compr: f.compr,
        done: f.done,
        vm: f.vm,
        exec: w.exec,
        data,
    });
    Ok(())
}

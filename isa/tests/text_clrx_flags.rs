//! CLRX's spelling of on/off modifiers with a value (`clamp:0`, `glc:1`, `vop3:0`): 1 turns
//! the flag on, 0 leaves it off, anything else is an error; and a modifier given twice is an
//! error (as llvm-mc). Expected words are llvm-mc-19's (`-mcpu=fiji -show-encoding`) for the
//! same instruction written with or without the flag.

use wavejit_isa::gcn::asm::assemble;
use wavejit_isa::Gen;

fn words(text: &str) -> Vec<u32> {
    assemble(Gen::Gfx8, text)
        .unwrap_or_else(|e| panic!("`{text}`: {e}"))
        .words()
}

#[test]
fn a_flag_with_zero_is_off_and_with_one_is_on() {
    // llvm-mc: v_add_f32_e64 v154, v21, v107 mul:2 → 9a 00 01 d1 15 d7 02 08.
    let mul2 = vec![0xd101_009a, 0x0802_d715];
    assert_eq!(words("v_add_f32 v154, v21, v107 mul:2 clamp:0"), mul2);
    // clamp is bit 15 of the first word (llvm-mc: `v_add_f32_e64 v1, v2, v3 clamp` → 01 80 01 d1).
    assert_eq!(
        words("v_add_f32 v154, v21, v107 mul:2 clamp:1"),
        vec![0xd101_809a, 0x0802_d715]
    );
    // llvm-mc: buffer_load_dword v1, off, s[4:7], s1 [glc] → 00 [40|00] 50 e0 00 01 01 01.
    assert_eq!(
        words("buffer_load_dword v1, off, s[4:7], s1 glc:0"),
        vec![0xe050_0000, 0x0101_0100]
    );
    assert_eq!(
        words("buffer_load_dword v1, off, s[4:7], s1 glc:1"),
        vec![0xe050_4000, 0x0101_0100]
    );
    // `vop3:0` does not ask for VOP3: llvm-mc v_add_f32_e32 v1, v2, v3 → 02 07 02 02.
    assert_eq!(words("v_add_f32 v1, v2, v3 vop3:0"), vec![0x0202_0702]);
    assert_eq!(
        words("v_add_f32 v1, v2, v3 vop3:1"),
        vec![0xd101_0001, 0x0002_0702]
    );
}

#[test]
fn other_values_and_repeated_modifiers_are_errors() {
    for bad in [
        "v_add_f32 v154, v21, v107 mul:2 clamp:5",
        "buffer_load_dword v1, off, s[4:7], s1 glc:2",
        "buffer_load_dword v1, off, s[4:7], s1 glc glc",
        "ds_write2_b32 v2, v4, v6 offset0:4 offset0:8",
        "v_add_f32_e64 v1, v2, v3 clamp clamp",
    ] {
        assert!(assemble(Gen::Gfx8, bad).is_err(), "`{bad}` assembles");
    }
}

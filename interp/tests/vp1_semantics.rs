//! VP1 scalar semantics, opcode by opcode. Every expected value is worked out by hand from
//! 004_1a7ba760ea192bb0.txt's pseudo-code as corrected by ERRATA.md (VP1) and vp1-notes.md;
//! the arithmetic is written next to each case. `$c` registers start at 0x8000 (bit 15 is
//! always set), so a scalar flag byte F reads back as 0x80FF-style values `0x8000 | F`.

// Every program runs on the interpreter and the VP1 JIT, compared (wavejit-testkit).
use wavejit_isa::vp1::{asm, State, Variant};
use wavejit_testkit::conformance::{vp1_run as run, vp1_run_words as run_words};

fn st() -> State {
    State::new(Variant::G80)
}

/// Assemble `text` and run it on `s`.
fn exec(s: &mut State, text: &str) {
    let code = asm::assemble_bytes(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    run(s, &code).unwrap_or_else(|e| panic!("{text}: {e}"));
}

#[test]
fn mov_and_sethi() {
    let mut s = st();
    s.c[0] = 0x80ff;
    exec(
        &mut s,
        "mov $r2 0x1\nmov $r3 -0x40000\nsethi $r3 0x12340000",
    );
    assert_eq!(s.r[2], 1);
    // -0x40000 sign-extended from 19 bits, then the high half replaced.
    assert_eq!(s.r[3], 0x1234_0000);
    s.r[4] = 0xdead_beef;
    exec(&mut s, "sethi $r4 0x12340000");
    assert_eq!(s.r[4], 0x1234_beef);
    // Neither has a $c output.
    assert_eq!(s.c[0], 0x80ff);
}

#[test]
fn add_sub_flags_and_variants() {
    // 0x7fffffff + 1 = 0x80000000: sf; b20d since bit 20 of s1 (1) differs from the result's (0).
    let mut s = st();
    s.r[2] = 0x7fff_ffff;
    s.r[3] = 1;
    exec(&mut s, "add $r1 $c0 $r2 $r3");
    assert_eq!((s.r[1], s.c[0]), (0x8000_0000, 0x8000 | 0x01 | 0x08));
    // 0x000c0000 + 0x00300000 = 0x003c0000: bits 18-21. b19 4, b20d 8, b20 0x10, b21 0x20,
    // and on G80 alt b19 0x40 and b18 0x80.
    for (variant, flags) in [(Variant::G80, 0xfc), (Variant::Nv41, 0x3c)] {
        let mut s = State::new(variant);
        s.r[2] = 0x000c_0000;
        s.r[3] = 0x0030_0000;
        exec(&mut s, "add $r1 $c3 $r2 $r3");
        assert_eq!((s.r[1], s.c[3]), (0x003c_0000, 0x8000 | flags), "{variant}");
    }
    // 5 - 5 = 0: zf only.
    let mut s = st();
    s.r[2] = 5;
    s.r[3] = 5;
    exec(&mut s, "sub $r1 $c1 $r2 $r3");
    assert_eq!((s.r[1], s.c[1]), (0, 0x8002));
    // Immediate forms: 11-bit signed IMM.
    exec(&mut s, "add $r4 $r2 -0x400\nsub $r5 $r2 0x3ff");
    assert_eq!(
        (s.r[4], s.r[5]),
        (5u32.wrapping_sub(0x400), 5u32.wrapping_sub(0x3ff))
    );
    // Flags keep $c bits 8-15.
    let mut s = st();
    s.c[2] = 0xa5ff;
    exec(&mut s, "add $r1 $c2 $r2 $r3");
    assert_eq!(s.c[2], 0xa500 | 0x02);
}

#[test]
fn r31_reads_zero_and_ignores_writes() {
    // hwtest's "add $r31 $c0 $r31 $r31": 0 + 0 sets $c0.zf.
    let mut s = st();
    exec(&mut s, "mov $r31 0x5\nadd 0x0 $c0 0x0 0x0");
    assert_eq!((s.r[31], s.c[0]), (0, 0x8002));
}

#[test]
fn neg_b20d_is_against_zero() {
    // -0x00100000 = 0xfff00000: sf, b20d (result bit 20 vs 0: ERRATA VP1 3), b20, b21.
    let mut s = st();
    s.r[2] = 0x0010_0000;
    exec(&mut s, "neg $r1 $c0 $r2");
    assert_eq!(
        (s.r[1], s.c[0]),
        (0xfff0_0000, 0x8000 | 0x01 | 0x08 | 0x10 | 0x20)
    );
}

#[test]
fn abs_is_twos_complement() {
    let mut s = st();
    s.r[2] = 0xffff_fffb;
    s.r[3] = 0x8000_0000;
    exec(&mut s, "abs $r1 $c0 $r2\nabs $r4 $r3");
    // |-5| = 5; b20d: 5 ^ 0xfffffffb has bit 20 set.
    assert_eq!((s.r[1], s.c[0]), (5, 0x8008));
    assert_eq!(s.r[4], 0x8000_0000);
}

#[test]
fn mul_is_16x16_signed() {
    let mut s = st();
    s.r[2] = 0x0001_ffff; // low half -1
    s.r[3] = 0x0003_0002; // low half 2
    exec(&mut s, "mul $r1 $c0 $r2 $r3");
    // -2 = 0xfffffffe: sf, b19 (+alt), b20d (s1 bit 20 is 0), b20, b21, b18.
    assert_eq!((s.r[1], s.c[0]), (0xffff_fffe, 0x8000 | 0xfd));
    s.r[6] = 0x0000_8000; // -32768
    exec(&mut s, "mul $r5 $r6 -0x2");
    assert_eq!(s.r[5], 0x1_0000);
}

#[test]
fn min_max_are_always_signed() {
    let mut s = st();
    s.r[2] = 0xffff_ffff;
    s.r[3] = 1;
    // 0x48 and its "unsigned" twin 0x58 (ERRATA VP1 3a), then max 0x49.
    exec(
        &mut s,
        "min $r1 $r2 $r3\nmin $r4 $r2 $r3 [unknown: 10000000]\nmax $r5 $r2 $r3",
    );
    assert_eq!((s.r[1], s.r[4], s.r[5]), (0xffff_ffff, 0xffff_ffff, 1));
    s.r[2] = 7;
    s.r[3] = 0xffff_fffb;
    exec(
        &mut s,
        "min $r1 $r2 0x5\nmax $r4 $r3 -0x1\nmax $r5 $r3 -0x1 [unknown: 10000000]",
    );
    assert_eq!((s.r[1], s.r[4], s.r[5]), (5, 0xffff_ffff, 0xffff_ffff));
}

#[test]
fn shifts() {
    let mut s = st();
    s.r[2] = 0x8000_0000;
    s.r[3] = 0x41; // low 6 bits: 1
    s.r[7] = 0xf;
    s.r[8] = 1;
    exec(
        &mut s,
        "sar $r10 $r2 0x4\nshr $r11 $r2 0x4\nshr $r12 $r7 -0x4\nsar $r13 $r2 -0x20\n\
         shr $r14 $r2 $r3\nsar $r15 $r2 0x1f\nshr $r16 $r8 -0x1f\nshr $r17 $r2 0x20",
    );
    assert_eq!(s.r[10], 0xf800_0000, "arithmetic");
    assert_eq!(s.r[11], 0x0800_0000, "logical");
    assert_eq!(s.r[12], 0xf0, "negative amount shifts left");
    assert_eq!(s.r[13], 0x8000_0000, "-32 leaves s1 alone");
    assert_eq!(
        s.r[14], 0x4000_0000,
        "only the low 6 bits of the amount count"
    );
    assert_eq!(s.r[15], 0xffff_ffff);
    assert_eq!(s.r[16], 0x8000_0000);
    assert_eq!(s.r[17], 0x8000_0000, "0x20 is -32 in 6 bits");
}

#[test]
fn bitop_truth_tables() {
    // s1 = 0b1100, s2 = 0b1010: bit k of the low nibble meets (s1_k, s2_k) = (0,0), (0,1),
    // (1,0), (1,1) for k = 0..3, so it is BITOP bit k; every higher bit is (0,0): BITOP bit 0.
    for v in 0..16u32 {
        let mut s = st();
        s.r[2] = 0b1100;
        s.r[3] = 0b1010;
        exec(&mut s, &format!("bitop {v:#x} $r1 $r2 $r3"));
        let want = v | if v & 1 != 0 { 0xffff_fff0 } else { 0 };
        assert_eq!(s.r[1], want, "bitop {v:#x}");
    }
    // The aliases are the same opcode.
    let mut s = st();
    s.r[2] = 0b1100;
    s.r[3] = 0b1010;
    exec(
        &mut s,
        "and $r4 $r2 $r3\nor $r5 $r2 $r3\nxor $r6 $r2 $r3\nand $r7 $r2 not $r3\nnor $r8 $r2 $r3",
    );
    assert_eq!(
        [s.r[4], s.r[5], s.r[6], s.r[7], s.r[8]],
        [0b1000, 0b1110, 0b0110, 0b0100, !0b1110]
    );
}

#[test]
fn bitop_source_is_not_mangled_and_flags_are_partial() {
    // bitop 0xa (= s2) with COND/SLCT bits overlapping BITOP: COND = 2, SLCT = 2. Mangling
    // would read $r[3 ^ ($c2 >> 2 & 1)] = $r2; bitop reads $r3 itself (ERRATA VP1 2).
    let mut s = st();
    s.c[2] = 0x8004;
    s.r[2] = 0x44;
    s.r[3] = 0x33;
    exec(&mut s, "bitop 0xa $r1 $r4 $r3");
    assert_eq!(s.r[1], 0x33);
    // 0x80000000 & 0x80000000: no sf in the partial set; a zero result sets zf.
    s.r[2] = 0x8000_0000;
    s.r[3] = 0x8000_0000;
    exec(&mut s, "and $r1 $c0 $r2 $r3\nxor $r1 $c1 $r2 $r3");
    assert_eq!((s.c[0], s.c[1]), (0x8000, 0x8002));
}

#[test]
fn logic_immediates_are_sign_extended() {
    let mut s = st();
    s.r[2] = 0x1234_5678;
    exec(
        &mut s,
        "xor $r1 $r2 -0x1\nand $r3 $c1 $r2 -0x400\nor $r4 $r2 0x3ff",
    );
    assert_eq!(s.r[1], 0xedcb_a987);
    assert_eq!(s.r[3], 0x1234_5400);
    assert_eq!(s.r[4], 0x1234_57ff);
    // 0x12345400: bit 18 only of 18-21 (0x12345400 = ...0011_0100_0101_0100_0000_0000):
    // bits 18 (1), 19 (0), 20 (1), 21 (1) -> b20 0x10, b21 0x20, b18 0x80; partial: no sf.
    assert_eq!(s.c[1], 0x8000 | 0x10 | 0x20 | 0x80);
}

#[test]
fn bytewise_min_max_with_signedness() {
    let mut s = st();
    s.r[2] = 0x807f_01ff; // lanes 0..3: 0xff, 0x01, 0x7f, 0x80
    s.r[3] = 0;
    exec(
        &mut s,
        "bmin s $r1 $r2 $r3\nbmin u $r4 $r2 $r3\nbmax u $r5 $r2 $r3\nbmax s $r6 $r2 $r3",
    );
    // signed: min(-1,0)=-1, min(1,0)=0, min(127,0)=0, min(-128,0)=-128
    assert_eq!(s.r[1], 0x8000_00ff);
    assert_eq!(s.r[4], 0);
    assert_eq!(s.r[5], 0x807f_01ff);
    // signed max: 0, 1, 127, 0
    assert_eq!(s.r[6], 0x007f_0100);
    // Immediates: BIMM 0x80 is -128 signed; 0x10 unsigned.
    s.r[7] = 0x0020_1005;
    exec(&mut s, "bmax s $r8 $r2 0x80\nbmin u $r9 $r7 0x10");
    assert_eq!((s.r[8], s.r[9]), (0x807f_01ff, 0x0010_1005));
}

#[test]
fn bytewise_add_sub_clip() {
    let mut s = st();
    s.r[2] = 0xc040_807f; // lanes 0x7f, 0x80, 0x40, 0xc0
    s.r[3] = 0x1040_ff01; // lanes 0x01, 0xff, 0x40, 0x10
    s.c[2] = 0x80ff;
    exec(
        &mut s,
        "badd s $r1 $c2 $r2 $r3\nbadd u $r4 $r2 $r3\nbsub u $r5 $r2 $r3\nbsub s $r6 $r2 $r3",
    );
    // signed add: 127+1=128->127, -128+-1=-129->-128, 64+64=128->127, -64+16=-48
    assert_eq!(s.r[1], 0xd07f_807f);
    // unsigned add: 0x80, 0x17f->0xff, 0x80, 0xd0
    assert_eq!(s.r[4], 0xd080_ff80);
    // unsigned sub: 0x7e, 0x80-0xff<0->0, 0, 0xb0
    assert_eq!(s.r[5], 0xb000_007e);
    // signed sub: 126, -128+1=-127=0x81, 0, -64-16=-80=0xb0
    assert_eq!(s.r[6], 0xb000_817e);
    // Byte operations write $c as 0.
    assert_eq!(s.c[2], 0x8000);
}

#[test]
fn bytewise_abs_neg() {
    let mut s = st();
    s.r[2] = 0x80ff_05fb; // lanes -5, 5, -1, -128
    exec(
        &mut s,
        "babs s $r1 $r2\nbabs u $r3 $r2\nbneg s $r4 $r2\nbneg u $r5 $r2",
    );
    // |-5|=5, 5, 1, 128->127
    assert_eq!(s.r[1], 0x7f01_0505);
    assert_eq!(s.r[3], 0x80ff_05fb, "unsigned abs is the identity");
    // -(-5)=5, -5=0xfb, 1, 128->127
    assert_eq!(s.r[4], 0x7f01_fb05);
    assert_eq!(s.r[5], 0, "unsigned neg clips to 0");
}

#[test]
fn bytewise_shifts_do_not_clip() {
    let mut s = st();
    s.r[2] = 0x817f_4080; // lanes 0x80, 0x40, 0x7f, 0x81
    s.r[3] = 0x1308_0f02; // amounts (low 4 bits, signed): 2, -1, -8, 3
    exec(
        &mut s,
        "bshr s $r1 $r2 $r3\nbshr u $r4 $r2 $r3\nbshr u $r5 $r2 0xf",
    );
    // signed: -128>>2=-32=0xe0; 0x40<<1=0x80; 0x7f<<8 -> 0; -127>>3=-16=0xf0
    assert_eq!(s.r[1], 0xf000_80e0);
    // unsigned: 0x20; 0x80; 0; 0x81>>3=0x10
    assert_eq!(s.r[4], 0x1000_8020);
    // 0xf = -1: every lane << 1, low 8 bits: 0x00, 0x80, 0xfe, 0x02
    assert_eq!(s.r[5], 0x02fe_8000);
}

#[test]
fn byte_logic_immediates() {
    let mut s = st();
    s.r[2] = 0x1234_5678;
    s.c[1] = 0x80ff;
    // CDST 1 (not printed by envydis): $c1's scalar byte is written 0.
    exec(
        &mut s,
        "band $r1 $r2 0xf0 [unknown: 00000001]\nbor $r3 $r2 0xf\nbxor $r4 $r2 0xff",
    );
    assert_eq!(
        (s.r[1], s.r[3], s.r[4]),
        (0x1030_5070, 0x1f3f_5f7f, 0xedcb_a987)
    );
    assert_eq!(s.c[1], 0x8000);
}

#[test]
fn source_mangling_every_slct() {
    let names = [
        "sf", "zf", "b19", "b20d", "b20", "b21", "b19a", "b18", "asf", "azf", "aef", "unk11",
        "unk12", "lzf", "false", "true",
    ];
    for slct in (0..16u32).filter(|&s| s != 4 && s != 14) {
        for bit in 0..2u16 {
            let mut s = st();
            s.r[8] = 0x100;
            s.r[9] = 0x101;
            // Any $c value: the formula reads the bit whatever it is.
            s.c[1] = bit << slct;
            exec(
                &mut s,
                &format!("add $r1 $r2 (slct $c1 {} $r8d)", names[slct as usize]),
            );
            // SRC2S = 8 ^ bit: r8 or r9 (r2 = 0).
            assert_eq!(s.r[1], 0x100 + bit as u32, "slct {slct} bit {bit}");
        }
    }
    // SLCT 14 (the always-0 bit) is a plain register.
    let mut s = st();
    s.r[8] = 0x100;
    exec(&mut s, "add $r1 $r2 $r8");
    assert_eq!(s.r[1], 0x100);
    // SLCT 4: bits 4-5 of $c added to the low 2 bits of SRC2 = 9: 9, 10, 11, then 8 (wrap).
    for (adj, want) in [(0u16, 9u32), (1, 10), (2, 11), (3, 8)] {
        let mut s = st();
        for r in 8..12 {
            s.r[r] = 0x100 + r as u32;
        }
        s.c[3] = 0x8000 | adj << 4;
        exec(&mut s, "sub $r1 $r2 (slct $c3 b20 $r9q)");
        assert_eq!(s.r[1], 0u32.wrapping_sub(0x100 + want), "adjust {adj}");
    }
    // Byte operations and mul mangle too.
    let mut s = st();
    s.r[4] = 0x0101_0101;
    s.r[5] = 0x0202_0202;
    s.r[6] = 3;
    s.r[7] = 5;
    s.c[0] = 0x8001;
    exec(
        &mut s,
        "badd u $r1 $r4 (slct $c0 sf $r4d)\nmul $r2 $r6 (slct $c0 sf $r6d)",
    );
    assert_eq!((s.r[1], s.r[2]), (0x0303_0303, 15));
}

#[test]
fn movs_to_and_from_other_files() {
    let mut s = st();
    s.r[1] = 0xdead_beef;
    s.c[2] = 0x80a5;
    exec(
        &mut s,
        "mov $v3 0x2 $r1\nmov $r2 $v3 0x2\nmov $l1 $r1\nmov $l5 $r1\nmov $r3 $l5\n\
         mov $r4 $c2\nmov $m33 $r1\nmov $r5 $m33\nmov $tick $r1\nmov $r6 $sr30",
    );
    assert_eq!(s.v[3], [0, 0, 0xdead_beef, 0]);
    assert_eq!(s.r[2], 0xdead_beef);
    assert_eq!(s.l, [0, 0xbeef, 0, 0], "16 bits; index 5 ignored on write");
    assert_eq!(s.r[3], 0xbeef, "index 5 wraps to 1 on read");
    assert_eq!(s.r[4], 0x80a5);
    assert_eq!((s.m[33], s.r[5]), (0xdead_beef, 0xdead_beef));
    assert_eq!((s.sr[30], s.r[6]), (0xdead_beef, 0xdead_beef));
    // envyas writes CDST 0 for these movs: $c0 is cleared (the mov's $c output is 0).
    let mut s = st();
    s.c[0] = 0x80ff;
    exec(&mut s, "mov $a5 $r1");
    assert_eq!(s.c[0], 0x8000);
    // $c index over 3 reads 0 (SRC1 = 6, printed $c2 by envydis).
    let mut s = st();
    s.c[2] = 0x80a5;
    s.r[4] = 7;
    exec(&mut s, "mov $r4 $c2 [unknown: 00010007]");
    assert_eq!(s.r[4], 0);
}

#[test]
fn g80_only_files_and_wrapping() {
    let mut s = st();
    s.r[1] = 0x1111;
    // $d index 11 wraps to 3, $f index 3 to 1, $x index 23 to 7.
    exec(&mut s, "mov $d3 $r1 [unknown: 00400000]\nmov $f1 $r1 [unknown: 00100000]\nmov $x7 $r1 [unknown: 00800000]");
    assert_eq!((s.d[3], s.f[1], s.x[7]), (0x1111, 0x1111, 0x1111));
    let mut s = State::new(Variant::Nv41);
    s.r[1] = 0x1111;
    s.r[6] = 0x66;
    s.x[7] = 0x77;
    exec(&mut s, "mov $x7 $r1\nmov $d3 $r1\nmov $r6 $x7");
    assert_eq!(
        (s.x[7], s.d[3], s.r[6]),
        (0x77, 0, 0x66),
        "no $x/$d before G80"
    );
}

#[test]
fn unknown_files_and_aliases() {
    let mut s = st();
    s.r[1] = 0xabcd;
    s.r[2] = 0x1234;
    s.c[1] = 0x80ff;
    // 0x6b, DST $r2, RFILE 5 (unknown), CDST 1: $r2 untouched, $c1 still zeroed.
    // 0x6a, DST $v4, SRC1 $r1, RFILE 18 (alias of $v word 2 for writes), CDST 7.
    // 0x6a with RFILE 13 ($c is read only), DST $c0: nothing.
    run_words(&mut s, &[0x6b10_0029, 0x6a20_4097, 0x6a00_406f]).expect("runs");
    assert_eq!(s.r[2], 0x1234);
    assert_eq!(s.c[1], 0x8000);
    assert_eq!(s.v[4], [0, 0, 0xabcd, 0]);
    assert_eq!(s.c[0], 0x8000);
}

#[test]
fn unused_opcodes_and_snop() {
    // Unused 0x40 with CDST 0: $c0 written 0; snop (0x4f) never writes $c.
    let mut s = st();
    s.c[0] = 0x80ff;
    run_words(&mut s, &[0x4f00_0000]).expect("runs");
    assert_eq!(s.c[0], 0x80ff);
    for op in [
        0x40u32, 0x43, 0x44, 0x46, 0x47, 0x50, 0x52, 0x57, 0x5f, 0x60, 0x66, 0x67, 0x6f, 0x70,
        0x72, 0x74, 0x76, 0x77, 0x7f,
    ] {
        let mut s = st();
        s.c[0] = 0x80ff;
        s.r[3] = 0x99;
        run_words(&mut s, &[op << 24 | 3 << 19]).expect("runs");
        assert_eq!(s.c[0], 0x8000, "opcode {op:#x}");
        assert_eq!(s.r[3], 0x99, "opcode {op:#x} writes no register");
    }
}

#[test]
fn default_s2v_factors_are_a_mask_of_src1() {
    // Unused 0x40, SRC1 = $r1 = 0b1010: mask bits 4-7 and 12-15 = 0xf0f0;
    // factor0 = 0xf0 << 1, factor1 = 0xf0 << 1; mask0 = 0xf0f0; not valid.
    let mut s = st();
    s.r[1] = 0xa;
    run_words(&mut s, &[0x4000_4007]).expect("runs");
    assert_eq!(s.s2v.factor, [0x1e0, 0x1e0, 0, 0]);
    assert_eq!(s.s2v.mask, [0xf0f0, 0]);
    assert_eq!((s.s2v.valid, s.s2v.vcmask), (0, 0));
    // Byte operations drive 0.
    exec(&mut s, "badd u $r2 $r1 $r1");
    assert_eq!(s.s2v.factor, [0; 4]);
}

#[test]
fn vec_sends_immediates_and_vc_masks() {
    let mut s = st();
    s.vc[1] = 0x00ff_0000;
    exec(&mut s, "vec 0x1 -0x1 $vc1 zf 0x7");
    assert_eq!(s.s2v.factor, [1, 1, -1, -1]);
    // mask0 = (1>>1) | (1>>1)<<8 = 0; mask1 = 0xff | 0xff << 8.
    assert_eq!(s.s2v.mask, [0, 0xffff]);
    assert_eq!(
        (s.s2v.valid, s.s2v.vcidx, s.s2v.vcflag, s.s2v.vcxfrm),
        (1, 1, 1, 7)
    );
    // Transform 7 on the zf halves of $vc1 and $vc1|1 = $vc1: 0x00ff00ff, even bits:
    // bits 0,2,4,6 -> mask 0-3; bits 16,18,20,22 -> mask 8-11.
    assert_eq!(s.s2v.vcmask, 0x0f0f);
    s.vc[2] = 0x0000_0044; // sf half, bits 2 and 6
    exec(&mut s, "vec 0x0 0x5 $vc2 sf 0x1");
    // Transform 1: mask bits 0-3 copy bit 2, 4-7 copy bit 6, 8-11 bit 10, 12-15 bit 14.
    assert_eq!(s.s2v.vcmask, 0x00ff);
    s.vc[3] = 0x0000_0010; // bit 4
    exec(&mut s, "vec 0x0 0x0 $vc3 sf 0x2");
    // Transform 2: bits 0,2,4,6 read bit 4; 1,3,5,7 read bit 5; 8-15 read bits 12/13.
    assert_eq!(s.s2v.vcmask, 0x0055);
    // A vec does not touch registers or $c.
    assert_eq!(s.c, [0x8000; 4]);
}

#[test]
fn vecms_shifts_src1_and_sends_its_mask() {
    let mut s = st();
    s.r[16] = 0xa5; // low 4 bits 0b0101: mask 0x0f0f
    exec(&mut s, "vecms $r16 $vc2 sf 0x3");
    assert_eq!(s.s2v.factor, [0x1e, 0x1e, 0, 0]);
    assert_eq!(s.s2v.mask, [0x0f0f, 0]);
    assert_eq!(s.r[16], 0xa);
    assert_eq!((s.s2v.valid, s.s2v.vcidx, s.s2v.vcxfrm), (1, 2, 3));
    s.r[16] = 0x8000_0000;
    exec(&mut s, "vecms $r16 $vc0 sf 0x0");
    assert_eq!(s.r[16], 0xf800_0000, "arithmetic shift");
}

#[test]
fn bvec_sends_doubled_signed_bytes() {
    let mut s = st();
    s.r[16] = 0x807f_01ff;
    exec(&mut s, "bvec $r16 $vc3 sf 0x0");
    assert_eq!(s.s2v.factor, [-2, 2, 254, -256]);
    // mask0 = (-2>>1 = -1 -> 0xff) | (2>>1)<<8; mask1 = 0x7f | (-128 -> 0x80)<<8.
    assert_eq!(s.s2v.mask, [0x01ff, 0x807f]);
}

#[test]
fn bvecmad_and_bvecmadsel() {
    let mut s = st();
    s.r[8] = 0x40 << 11; // prefactor 64
    s.r[4] = 0x01ff_807f; // baseline lanes 127, -128, -1, 1
    s.r[6] = 0x0202_0202; // multiplicand 2
    exec(&mut s, "bvecmad $r8 $r4q $c1 sf $vc0 sf 0x1");
    // (a*256 + 64*2 + 0x40) >> 7: 32704>>7=255, -32576>>7=-255, -64>>7=-1, 448>>7=3
    assert_eq!(s.s2v.factor, [255, -255, -1, 3]);
    // $c1 bit 0 set: the pair moves to $r5 (baseline) and $r7 (multiplicand).
    s.c[1] = 0x8001;
    s.r[5] = 0;
    s.r[7] = 0x8080_8080;
    exec(&mut s, "bvecmad $r8 $r4q $c1 sf $vc0 sf 0x1");
    // (0 + 64*-128 + 64) >> 7 = -8128 >> 7 = -64
    assert_eq!(s.s2v.factor, [-64; 4]);
    // bvecmadsel, SLCT 2 (b19): $c1 = 0x8084 -> bit 2 selects $r5/$r7, bit 7 picks lanes 1, 3.
    let mut s = st();
    s.c[1] = 0x8084;
    s.r[8] = 0xc0 << 11; // & 0x7f -> 64
    s.r[5] = 0x4030_2010;
    s.r[7] = 0x0101_0101;
    exec(&mut s, "bvecmadsel $r8 $r4q $c1 b19 $vc0 zf 0x2");
    // lanes: (a*256 + 64 + 64) >> 7 = 2a + 1 = 0x21, 0x41, 0x61, 0x81
    assert_eq!(s.s2v.factor, [0x41, 0x41, 0x81, 0x81]);
    assert_eq!((s.s2v.valid, s.s2v.vcflag, s.s2v.vcxfrm), (1, 1, 2));
    assert_eq!(s.c[1], 0x8084, "no $c output");
}

#[test]
fn bmul_signed_output() {
    let mut s = st();
    s.r[5] = 0xff80_7f40; // signed source: 64, 127, -128, -1 -> doubled 128, 254, -256, -2
    s.r[6] = 0x02ff_ff80; // unsigned: 128, 255, 255, 2
    exec(&mut s, "bmul rd s $r4 s $r5 u $r6");
    // p = 16384, 64770, -65280, -4; >> 9 = 32, 126, -128 (floor -127.5), -1
    assert_eq!(s.r[4], 0xff80_7e20);
    // factors p >> 8 = 64, 253, -255, -1
    assert_eq!(s.s2v.factor, [64, 253, -255, -1]);
    assert_eq!(s.s2v.mask, [0x7e20, 0xff80]);
    exec(&mut s, "bmul rn s $r4 s $r5 u $r6");
    // + 0x100: 16640>>9 = 32, 65026>>9 = 127, -65024>>9 = -127, 252>>9 = 0
    assert_eq!(s.r[4], 0x0081_7f20);
    assert_eq!(s.s2v.factor, [65, 254, -254, 0]);
}

#[test]
fn bmul_unsigned_output_and_immediates() {
    let mut s = st();
    s.r[5] = 0xff80_7f40;
    s.r[6] = 0x02ff_ff80;
    exec(&mut s, "bmul rd u $r4 u $r5 u $r6");
    // 64*128 = 8192 >> 8 = 32; 127*255 = 32385 -> 126; 128*255 = 32640 -> 127; 255*2 -> 1
    assert_eq!(s.r[4], 0x017f_7e20);
    s.r[5] = 0x7f7f_7f7f; // signed, doubled: 254
    s.r[6] = 0x0001_807f; // signed, doubled: 254, -256, 2, 0
    exec(&mut s, "bmul rd u $r4 s $r5 s $r6");
    // 64516>>8 = 252; -65024 -> clipped 0; 508>>8 = 1; 0
    assert_eq!(s.r[4], 0x0001_00fc);
    s.r[5] = 0x0102_80ff;
    exec(&mut s, "bmul rn u $r4 u $r5 u 0xfc");
    // (x*252 + 0x80) >> 8: 255 -> 251, 128 -> 126, 2 -> 2, 1 -> 1
    assert_eq!(s.r[4], 0x0102_7efb);
}

#[test]
fn bmula_and_the_factor_only_multipliers() {
    let mut s = st();
    s.r[5] = 0x8000_02ff; // lanes 255, 2, 0, 128 (unsigned)
    exec(&mut s, "bmula rd s $r4 u $r5 u 0x81");
    // x*129 >> 9: 32895 -> 64, 258 -> 0, 0, 16512 -> 32; factors = low 10 bits, signed:
    // 32895 & 0x3ff = 127, 258, 0, 16512 & 0x3ff = 128
    assert_eq!(s.r[4], 0x2000_0040);
    assert_eq!(s.s2v.factor, [127, 258, 0, 128]);

    let mut s = st();
    s.r[4] = 0x4444;
    s.r[5] = 0xff80_7f40;
    s.r[6] = 0x02ff_ff80;
    s.c[0] = 0x80ff;
    // subop 0 (0x00): DST r4, SRC1 r5, SRC2 r6, RND set (ignored), SIGN1: as `bmul rd s`.
    run_words(&mut s, &[0x0021_4d04]).expect("runs");
    assert_eq!(s.s2v.factor, [64, 253, -255, -1]);
    assert_eq!(s.r[4], 0x4444, "no register write");
    // subop 3 (0x03): rounding honoured (+0x100), factors unshifted:
    // 16640 -> 256; 65026 & 0x3ff = 514 -> -510; -65024 & 0x3ff = 512 -> -512; 252
    run_words(&mut s, &[0x0321_4d04]).expect("runs");
    assert_eq!(s.s2v.factor, [256, -510, -512, 252]);
    // 0x06: unsigned inputs, no rounding, raw factors; CDST 0 but no $c output:
    // 8192 & 0x3ff = 0; 32385 -> 641 -> -383; 32640 -> 896 -> -128; 510
    run_words(&mut s, &[0x0621_4d00]).expect("runs");
    assert_eq!(s.s2v.factor, [0, -383, -128, 510]);
    assert_eq!(s.c[0], 0x80ff);
    // 0x1f: the same datapath with a mangled SRC2 (SLCT 8, $c0 bit 8 clear) and $c zeroed.
    run_words(&mut s, &[0x1f21_4d00]).expect("runs");
    assert_eq!(s.s2v.factor, [0, -383, -128, 510]);
    assert_eq!(s.c[0], 0x8000);
    assert_eq!(s.r[4], 0x4444);
}

#[test]
fn each_word_reads_the_state_before_it() {
    // add $r1 $c0 $r1 $r1 with $r1 = bit 20: the result 0x00200000, b20d compares with the
    // old $r1 (bit 20 set) -> 8; b21 0x20.
    let mut s = st();
    s.r[1] = 0x0010_0000;
    exec(&mut s, "add $r1 $c0 $r1 $r1");
    assert_eq!((s.r[1], s.c[0]), (0x0020_0000, 0x8028));
}

#[test]
fn other_units_are_unsupported_with_their_pc() {
    let mut s = st();
    let e = run(
        &mut s,
        &asm::assemble_bytes("snop\n.word 0x80000000").expect("assembles"),
    )
    .expect_err("vector word");
    assert_eq!(e.pc, 4);
    assert!(e.to_string().contains("vector unit word 0x80000000"), "{e}");
    let e = run(&mut s, &[0x00, 0x00, 0x00, 0x4f, 0x01]).expect_err("truncated");
    assert_eq!(e.pc, 4);
}

# Independent encoder for the spec documents' examples, straight from their field tables:
# 002 (VOP_SDWA, VOP_DPP), 003 (VOP3A: ABS 8-10, CLAMP 11 (1.0/1.1) / 15 (1.2), OPCODE 17-25 /
# 16-25, SRC0-2 32-58, OMOD 59-60, NEG 61-63), 001 (VINTRP: VSRC 0-7, ATTRCHAN 8-9, ATTR
# 10-15, OPCODE 16-17, VDST 18-25, ENCODING 0b110010 / 0b110101).
# Opcodes are LLVM's (opcodes.tsv): gfx8 v_xor_b32 VOP2 21, v_add_f32 VOP2 1, v_mov_b32 VOP1 1,
# v_fma_f32 VOP3 459 (gfx8) / 331 (gfx6), v_mad_f32 449 / 321.
SEL = {'b0':0,'byte0':0,'byte_0':0,'b1':1,'byte1':1,'byte_1':1,'b2':2,'byte_2':2,'b3':3,'byte_3':3,
       'w0':4,'word0':4,'word_0':4,'w1':5,'word1':5,'word_1':5,'dw':6,'dword':6}
def vop2(op, vdst, src0, vsrc1): return (op << 25) | (vdst << 17) | (vsrc1 << 9) | src0
def vop1(op, vdst, src0): return (0x3f << 25) | (vdst << 17) | (op << 9) | src0
def sdwa(src0, dst_sel=6, dst_unused=0, clamp=0, s0sel=6, s0sext=0, s0neg=0, s0abs=0, s1sel=6, s1sext=0, s1neg=0, s1abs=0):
    return (src0 | dst_sel << 8 | dst_unused << 11 | clamp << 13 | s0sel << 16 | s0sext << 19 |
            s0neg << 20 | s0abs << 21 | s1sel << 24 | s1sext << 27 | s1neg << 28 | s1abs << 29)
def dpp(src0, ctrl, bound=0, s0neg=0, s0abs=0, s1neg=0, s1abs=0, bank=0xf, row=0xf):
    return (src0 | ctrl << 8 | bound << 19 | s0neg << 20 | s0abs << 21 | s1neg << 22 | s1abs << 23 |
            bank << 24 | row << 28)
def qp(a, b, c, d): return a | b << 2 | c << 4 | d << 6
def vop3(gen8, op, vdst, s0, s1, s2=0, abs_=0, clamp=0, omod=0, neg=0):
    w0 = (0x34 << 26) | vdst | abs_ << 8
    w0 |= (op << 16 | clamp << 15) if gen8 else (op << 17 | clamp << 11)
    w1 = s0 | s1 << 9 | s2 << 18 | omod << 27 | neg << 29
    return [w0, w1]
def vintrp(gen8, op, vdst, vsrc, attr, chan):
    enc = 0x35 if gen8 else 0x32
    return [enc << 26 | vdst << 18 | op << 16 | attr << 10 | chan << 8 | vsrc]
V = lambda n: 256 + n
XOR = 21
rows = []
def add(gen, text, words, note): rows.append((gen, text, ' '.join('%08x' % w for w in words), note))
# 002 SDWA examples (dst_unused defaults to PAD in CLRX syntax, ERRATA SDWA 10).
w0 = vop2(XOR, 1, 0xf9, 3)
add('gfx8', 'v_xor_b32 v1,v2,v3 dst_sel:byte_1 src0_sel:byte1 src1_sel:word1', [w0, sdwa(2, dst_sel=1, s0sel=1, s1sel=5)], '002 SDWA example 1')
add('gfx8', 'v_xor_b32 v1,v2,v3 dst_sel:b1 src0_sel:b1 src1_sel:w1', [w0, sdwa(2, dst_sel=1, s0sel=1, s1sel=5)], '002 SDWA example 2')
add('gfx8', 'v_xor_b32 v1,v2,v3 dst_sel:byte_1 src0_sel:byte1 src1_sel:word1 dst_unused:preserve', [w0, sdwa(2, dst_sel=1, dst_unused=2, s0sel=1, s1sel=5)], '002 SDWA example 3')
add('gfx8', 'v_xor_b32 v1,v2,v3 dst_sel:byte_1 src0_sel:byte1 src1_sel:word1 dst_unused:sext', [w0, sdwa(2, dst_sel=1, dst_unused=1, s0sel=1, s1sel=5)], '002 SDWA example 4')
add('gfx8', 'v_xor_b32 v1,sext(v2),v3 dst_sel:byte_1 src0_sel:byte1 src1_sel:word1', [w0, sdwa(2, dst_sel=1, s0sel=1, s0sext=1, s1sel=5)], '002 SDWA example 5')
add('gfx8', 'V_XOR_B32 V1, V2, V3 DST_SEL:BYTE_3 SRC0_SEL:W0 SRC1_SEL:DW', [w0, sdwa(2, dst_sel=3, s0sel=4, s1sel=6)], 'case-insensitive')
add('gfx8', 'v_xor_b32_sdwa v1, v2, v3 dst_sel:BYTE_1 src0_sel:BYTE_1 src1_sel:WORD_1', [w0, sdwa(2, dst_sel=1, dst_unused=2, s0sel=1, s1sel=5)], 'LLVM syntax: dst_unused defaults to PRESERVE (ERRATA SDWA 10)')
add('gfx8', 'v_add_f32 v1, -v2, |v3| sdwa', [vop2(1, 1, 0xf9, 3), sdwa(2, s0neg=1, s1abs=1)], 'sdwa keyword, float modifiers')
add('gfx8', 'v_mov_b32 v4, v5 dst_sel:w1 dst_unused:pad src0_sel:b2', [vop1(1, 4, 0xf9), sdwa(5, dst_sel=5, dst_unused=0, s0sel=2, s1sel=0)], 'VOP1 SDWA: SRC1_SEL 0 as LLVM encodes it')
# 002 DPP examples.
d0 = vop2(XOR, 1, 0xfa, 3)
for text, ctrl, extra in [
    ('quad_perm:[2,3,0,1]', qp(2, 3, 0, 1), {}), ('row_shl:5', 0x105, {}), ('row_shr:7', 0x117, {}),
    ('row_ror:8', 0x128, {}), ('wave_shl:1', 0x130, {}), ('wave_shl', 0x130, {}), ('wave_shr:1', 0x138, {}),
    ('wave_shr', 0x138, {}), ('wave_rol:1', 0x134, {}), ('wave_rol', 0x134, {}), ('wave_ror:1', 0x13c, {}),
    ('wave_ror', 0x13c, {}), ('row_mirror', 0x140, {}), ('row_half_mirror', 0x141, {}), ('row_bcast:15', 0x142, {}),
    ('row_bcast:31', 0x143, {}), ('row_shr:7 bound_ctrl', 0x117, {'bound': 1}),
    ('row_shr:7 bound_ctrl:0', 0x117, {'bound': 1}), ('row_shl:5 row_mask:0b1100', 0x105, {'row': 0xc}),
    ('row_shl:5 bank_mask:0b0101', 0x105, {'bank': 0x5})]:
    add('gfx8', 'v_xor_b32 v1,v2,v3 ' + text, [d0, dpp(2, ctrl, **extra)], '002 DPP example')
add('gfx8', 'v_add_f32_dpp v1, -|v2|, v3 quad_perm:[0,1,2,3] row_mask:0xf bank_mask:0xf bound_ctrl:1', [vop2(1, 1, 0xfa, 3), dpp(2, qp(0, 1, 2, 3), bound=1, s0neg=1, s0abs=1)], 'LLVM syntax, bound_ctrl:1 (ERRATA DPP 1)')
# 003 VOP3 modifiers.
add('gfx8', 'v_fma_f32 v1, -abs(v2), v3, v4 clamp mul:2', vop3(True, 459, 1, V(2), V(3), V(4), abs_=1, clamp=1, omod=1, neg=1), '003: -ABS(V0), CLAMP, MUL:2')
add('gfx8', 'v_fma_f32 v1, v2, -v3, abs(v4) div:2 clamp', vop3(True, 459, 1, V(2), V(3), V(4), abs_=4, clamp=1, omod=3, neg=2), '003: modifiers in any order')
add('gfx6', 'v_mad_f32 v1, v2, v3, v4 mul:4', vop3(False, 321, 1, V(2), V(3), V(4), omod=2), '003: MUL:4, GCN 1.0 clamp/opcode position')
add('gfx6', 'v_fma_f32 v1, s2, -|v3|, 1.0 clamp', vop3(False, 331, 1, 2, V(3), 242, abs_=2, clamp=1, neg=2), '003: one SGPR, inline constant, GCN 1.0 CLAMP bit 11')
add('gfx8', 'v_add_f32 v1, s2, v3 clamp', vop3(True, 257, 1, 2, V(3), clamp=1), 'clamp forces VOP3')
add('gfx8', 'v_mov_b32 v1, -v2', vop3(True, 321, 1, V(2), 0, neg=1), 'neg on VOP1 forces VOP3')
add('gfx8', 'v_add_f32 v1, v2, v3 vop3', vop3(True, 257, 1, V(2), V(3)), 'vop3 keyword')
add('gfx8', 'v_add_f32 v1, v2, s3', vop3(True, 257, 1, V(2), 3), 'SGPR second source forces VOP3')
add('gfx8', 'v_add_f32 v1, s3, v2', [vop2(1, 1, 3, 2)], 'shortest encoding: VOP2')
# 001 VINTRP.
add('gfx6', 'v_interp_p1_f32 v1, v2, attr3.z', vintrp(False, 0, 1, 2, 3, 2), '001: GCN 1.0 encoding 0b110010')
add('gfx8', 'v_interp_p1_f32 v1, v2, attr3.z', vintrp(True, 0, 1, 2, 3, 2), '001: GCN 1.2 encoding 0b110101')
add('gfx8', 'V_INTERP_MOV_F32 V7, P20, ATTR32.W', vintrp(True, 2, 7, 1, 32, 3), '001: case-insensitive, P20 = 1')
print('# Spec examples and hand-built cases: generation <TAB> text <TAB> words <TAB> source.')
print('# Words computed from the field tables of 001/002/003 by an independent script (not by')
print('# wavejit), opcode numbers from ../shared/corpus/opcodes.tsv.')
for r in rows: print('\t'.join(r))

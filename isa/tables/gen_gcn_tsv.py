#!/usr/bin/env python3
"""Regenerate isa/tables/gcn.tsv from LLVM's opcode sweep (shared/corpus/opcodes.tsv)
plus the spec's additions settled in shared/spec/ERRATA.md.

The TSV is the checked-in source of truth (isa/build.rs reads it); this script records how
its facts were gathered. Usage: python3 gen_gcn_tsv.py ../../../shared/corpus/opcodes.tsv > gcn.tsv

Columns:
  mnemonic  enc  gfx6  gfx7  gfx8  e64  sig  alias  layout  layout64
  enc   native encoding (sop2 sopk sop1 sopc sopp smrd smem vop1 vop2 vopc vop3 vop3b
        vintrp ds mubuf mtbuf mimg flat exp)
  gfxN  opcode in that generation, '-' when absent
  e64   for vop1/vop2/vopc: generations (6,7,8) where the VOP3 twin exists at the standard
        offset (encodings.md); '-' otherwise
  sig   operand signature from LLVM's example text: v<N>/s<N> = N-dword VGPR/SGPR tuple,
        other tokens kept as words (vcc, exec, imm, off, attr, p, hwreg, sendmsg, waitcnt, ...)
  alias another accepted spelling ('-' if none)
  layout    for each sig operand, in order, the encoding field that holds it (found by
            decoding LLVM's example words: its operands use distinct register numbers, so
            each one is found in exactly one field; ties go to the field that comes first):
            vdst sdst src0 src1 src2 vsrc1 ssrc0 ssrc1 simm16 sbase sdata offset vsrc attr
            addr data0 data1 vdata vaddr srsrc soffset ssamp data tgt vsrc0..3, `lit` for the
            literal dword, `vcc` for VCC read or written implicitly, `-` for no operands
  layout64  the same for the VOP3 twin of a vop1/vop2/vopc row ('-' otherwise)

The last six columns say what a vector ALU row means. LLVM's sweep does not give them:
they are written by hand (from the spec and llvm-mc's accepted forms) and carried over from
the existing gcn.tsv (found next to this script) when the table is regenerated; a new
vector ALU row gets '-', which isa/build.rs rejects until they are filled in:
  shape  plain empty carry_out carry_in_out cndmask madmk madak mac cmp cmpx readlane
         writelane readfirstlane interp_p interp_mov interp_p1ll interp_p2 ('-' for non-VALU)
  srcs   type of SRC0..SRC2 as the VOP3 form numbers them: f16 f32 f64 b16 b32 b64 b128,
         '-' for an absent source (the GCN 1.2 width; 16-bit is 32-bit text before it)
  forms  sdwa,dpp: the extra GCN 1.2 encodings a VOP1/VOP2/VOPC row has
  cmp    COND.TYPE of a compare (lt.f32, ne.u64, class.f64), '-' otherwise
  interp what the interpreter runs: ADAPTER(path), cmp, vintrp, nop or unsupported
         (interp/src/valu/dispatch.rs); on scalar rows ADAPTER(path), cmp, nop, end,
         barrier or unsupported (interp/src/salu/adapt.rs, isa/build/interp_cell.rs);
         '-' on memory and export rows
  jit    how the JIT runs it: FAMILY(op) (a generic lowering, e.g. float(add)), cmp, class,
         cndmask, ldexp, lanes, vintrp, nop, or helper (the interpreter over 64 lanes); '-'
         outside the vector ALU and interpolation (isa/build/jit_cell.rs checks the words)
"""
import os, re, sys
from collections import OrderedDict

SEM_COLS = 6


def existing_semantics():
    """(mnemonic, enc) -> the semantic columns of the checked-in gcn.tsv."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'gcn.tsv')
    out = {}
    if os.path.exists(path):
        for l in open(path):
            c = l.rstrip('\n').split('\t')
            if l.startswith('#') or len(c) < 10 + SEM_COLS:
                continue
            out[(c[0], c[1])] = c[10:10 + SEM_COLS]
    return out

VOP3_BASE = {  # (gen) -> {enc: offset}
    'gfx6': {'VOPC': 0, 'VOP2': 256, 'VOP1': 384},
    'gfx7': {'VOPC': 0, 'VOP2': 256, 'VOP1': 384},
    'gfx8': {'VOPC': 0, 'VOP2': 256, 'VOP1': 320},
}
GENS = ['gfx6', 'gfx7', 'gfx8']

def split_operands(text):
    parts = text.split(None, 1)
    if len(parts) == 1:
        return [], []
    ops = parts[1]
    out = []
    # split on commas not inside brackets/parens
    depth = 0; cur = ''
    toks = []
    for ch in ops:
        if ch in '[(':
            depth += 1
        if ch in '])':
            depth -= 1
        if ch == ',' and depth == 0:
            toks.append(cur.strip()); cur = ''
        else:
            cur += ch
    toks.append(cur.strip())
    # the last token may carry trailing space-separated modifiers
    last = toks[-1].split()
    toks[-1] = last[0] if last else ''
    mods = last[1:]
    if ':' in toks[-1] and not re.match(r'[vs]\[', toks[-1]):
        mods = [toks[-1]] + mods
        toks = toks[:-1]
    return [t for t in toks if t], mods

def operand_tokens(text):
    toks, mods = split_operands(text)
    # s_waitcnt's counters are one operand (see operand_sig)
    out = []
    for t in toks:
        if t.startswith('vmcnt') or t.startswith('expcnt') or t.startswith('lgkmcnt'):
            return out + [t]
        out.append(t)
    return out

def operand_sig(text):
    toks, mods = split_operands(text)
    if not toks and not mods:
        return ''
    out = []
    for t in toks:
        m = re.fullmatch(r'([vs])\[(\d+):(\d+)\]', t)
        if m:
            out.append('%s%d' % (m.group(1), int(m.group(3)) - int(m.group(2)) + 1)); continue
        m = re.fullmatch(r'([vs])(\d+)', t)
        if m:
            out.append(m.group(1) + '1'); continue
        if re.fullmatch(r'-?(0x[0-9a-fA-F]+|\d+(\.\d+)?)', t):
            out.append('imm'); continue
        if t.startswith('gpr_idx'):
            out.append('gpr_idx'); continue
        if t.startswith('mrt') or t.startswith('pos') or t.startswith('param') or t == 'null':
            out.append('tgt'); continue
        if t.startswith('attr'):
            out.append('attr'); continue
        if t in ('p0', 'p10', 'p20'):
            out.append('p'); continue
        if t.startswith('hwreg'):
            out.append('hwreg'); continue
        if t.startswith('sendmsg'):
            out.append('sendmsg'); continue
        if t.startswith('vmcnt') or t.startswith('expcnt') or t.startswith('lgkmcnt'):
            out.append('waitcnt'); mods = []; continue
        if t in ('vcc', 'exec', 'off', 'm0', 'scc'):
            out.append(t); continue
        out.append('?' + t)
    keep = [m for m in mods if m in ('gds', 'high')]
    return ','.join(out) + (''.join(' ' + k for k in keep))

def bits(w, lo, n):
    return (w >> lo) & ((1 << n) - 1)

def fields_of(gen, enc, words):
    """Operand fields of an example encoding, in the order ties are broken. Source fields
    are 9-bit codes (VGPR n = 256 + n); register fields are register numbers."""
    w = words[0]
    w1 = words[1] if len(words) > 1 else 0
    g8 = gen == 'gfx8'
    if enc == 'SOP2':
        return [('sdst', bits(w, 16, 7)), ('ssrc0', bits(w, 0, 8)), ('ssrc1', bits(w, 8, 8))]
    if enc == 'SOPK':
        return [('sdst', bits(w, 16, 7)), ('simm16', bits(w, 0, 16))]
    if enc == 'SOP1':
        return [('sdst', bits(w, 16, 7)), ('ssrc0', bits(w, 0, 8))]
    if enc == 'SOPC':
        return [('ssrc0', bits(w, 0, 8)), ('ssrc1', bits(w, 8, 8))]
    if enc == 'SOPP':
        return [('simm16', bits(w, 0, 16))]
    if enc == 'SMRD':
        return [('sdata', bits(w, 15, 7)), ('sbase', bits(w, 9, 6) * 2), ('offset', bits(w, 0, 8))]
    if enc == 'SMEM':
        return [('sdata', bits(w, 6, 7)), ('sbase', bits(w, 0, 6) * 2), ('offset', bits(w1, 0, 20))]
    if enc == 'VOP1':
        return [('vdst', bits(w, 17, 8)), ('src0', bits(w, 0, 9))]
    if enc == 'VOP2':
        return [('vdst', bits(w, 17, 8)), ('src0', bits(w, 0, 9)), ('vsrc1', bits(w, 9, 8))]
    if enc == 'VOPC':
        return [('src0', bits(w, 0, 9)), ('vsrc1', bits(w, 9, 8))]
    if enc in ('VOP3', 'VOP3B'):
        f = [('vdst', bits(w, 0, 8))]
        if enc == 'VOP3B':
            f.append(('sdst', bits(w, 8, 7)))
        return f + [('src0', bits(w1, 0, 9)), ('src1', bits(w1, 9, 9)), ('src2', bits(w1, 18, 9))]
    if enc == 'VINTRP':
        return [('vdst', bits(w, 18, 8)), ('vsrc', bits(w, 0, 8)), ('attr', bits(w, 8, 8))]
    if enc == 'DS':
        return [('vdst', bits(w1, 24, 8)), ('addr', bits(w1, 0, 8)), ('data0', bits(w1, 8, 8)),
                ('data1', bits(w1, 16, 8))]
    if enc in ('MUBUF', 'MTBUF'):
        return [('vdata', bits(w1, 8, 8)), ('vaddr', bits(w1, 0, 8)), ('srsrc', bits(w1, 16, 5) * 4),
                ('soffset', bits(w1, 24, 8))]
    if enc == 'MIMG':
        return [('vdata', bits(w1, 8, 8)), ('vaddr', bits(w1, 0, 8)), ('srsrc', bits(w1, 16, 5) * 4),
                ('ssamp', bits(w1, 21, 5) * 4)]
    if enc == 'FLAT':
        return [('vdst', bits(w1, 24, 8)), ('addr', bits(w1, 0, 8)), ('data', bits(w1, 8, 8))]
    if enc == 'EXP':
        return [('tgt', bits(w, 4, 6))] + [('vsrc%d' % i, bits(w1, 8 * i, 8)) for i in range(4)]
    sys.exit('no fields for ' + enc)

# Fields holding a 9-bit source code (a VGPR n is 256 + n there).
SRC9 = {'src0', 'src1', 'src2'}
# Fields that hold only VGPR numbers.
VREG = {'vdst', 'vsrc1', 'vsrc', 'addr', 'data0', 'data1', 'vdata', 'vaddr', 'data', 'vsrc0',
        'vsrc1', 'vsrc2', 'vsrc3'}

def layout_of(gen, enc, text, words):
    toks = operand_tokens(text)
    sig = operand_sig(text).split(' ')[0]
    sig = sig.split(',') if sig else []
    assert len(toks) == len(sig), (text, toks, sig)
    fields = fields_of(gen, enc, words)
    used = set()
    out = []
    def take(pred):
        for name, val in fields:
            if name not in used and pred(name, val):
                used.add(name)
                return name
        return None
    for t, kind in zip(toks, sig):
        m = re.fullmatch(r'([vs])\[?(\d+)', t.split(':')[0])
        name = None
        if m and kind[0] in 'vs':
            n = int(m.group(2))
            if m.group(1) == 'v':
                name = take(lambda f, v: (f in SRC9 and v == 256 + n) or (f in VREG and v == n) or
                            (f == 'sdst' and False))
                # VOP3 twins of VOPC / readlane write SGPRs through VDST; VGPR numbers in
                # VDST-like fields of the native encodings are matched above.
            else:
                name = take(lambda f, v: f not in VREG - {'vdst', 'vsrc1'} and v == n)
        elif kind == 'vcc':
            name = take(lambda f, v: f not in VREG and v == 106) or 'vcc'
        elif kind == 'imm':
            if enc in ('SOPK', 'SOPP'):
                # s_setreg_imm32_b32: SIMM16 is the hwreg, the value is the literal
                name = take(lambda f, v: f == 'simm16') or (len(words) > 1 and 'lit' or None)
            elif enc in ('SMRD', 'SMEM'):
                name = take(lambda f, v: f in ('offset', 'sdata'))
            elif len(words) > 1 and enc in ('VOP2', 'SOPK'):
                name = 'lit'
            else:
                name = take(lambda f, v: f in SRC9 or f in ('vsrc1', 'ssrc0', 'ssrc1'))
        elif kind in ('hwreg', 'waitcnt', 'sendmsg'):
            name = take(lambda f, v: f == 'simm16')
        elif kind == 'gpr_idx':
            name = take(lambda f, v: f in ('simm16', 'ssrc1'))
        elif kind == 'attr':
            name = take(lambda f, v: f in ('attr', 'src0'))
        elif kind == 'p':
            name = take(lambda f, v: f in ('vsrc', 'src1'))
        elif kind == 'off':
            name = take(lambda f, v: f == 'vaddr')
        elif kind == 'tgt':
            name = take(lambda f, v: f == 'tgt')
        if name is None:
            sys.exit('no field for %r (%s) in %s %s %s' % (t, kind, gen, text, words))
        out.append(name)
    return ','.join(out) if out else '-'

def main():
    rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('gen\t')]
    table = OrderedDict()  # (mnemonic, enc) -> dict
    native = {}  # (gen, enc, opcode) -> mnemonic for vop1/2/c
    for gen, enc, op, mn, ex, _ in rows:
        if enc in ('VOP1', 'VOP2', 'VOPC'):
            native[(gen, mn)] = (enc, int(op))
    def set_layout(r, key, value, where):
        if r[key] is not None and r[key] != value:
            sys.exit('layout differs between generations: %s %s vs %s' % (where, r[key], value))
        r[key] = value
    for gen, enc, op, mn, ex, words in rows:
        op = int(op)
        words = [int(x, 16) for x in words.split()]
        if enc in ('VOP3', 'VOP3B'):
            n = native.get((gen, mn))
            if n and VOP3_BASE[gen][n[0]] + n[1] == op:
                r = table.setdefault((mn, n[0].lower()), new_row())
                r['e64'].add(gen[-1])
                r['sig64'] = operand_sig(ex)
                set_layout(r, 'layout64', layout_of(gen, enc, ex, words), ex)
                continue
        key = (mn, enc.lower())
        r = table.setdefault(key, new_row())
        if r[gen] is not None and r[gen] != op:
            sys.exit('conflict %s %s' % (key, gen))
        r[gen] = op
        if not r['sig']:
            r['sig'] = operand_sig(ex)
        if operand_sig(ex) == r['sig']:
            set_layout(r, 'layout', layout_of(gen, enc, ex, words), ex)
    # Errata 15: GCN 1.0 opcodes 370/371 under the spec's names; LLVM's 371 name is an alias.
    t6 = table[('v_mqsad_pk_u16_u8', 'vop3')]
    t6['gfx6'] = None
    mq = t6['layout']
    table[('v_qsad_u8', 'vop3')] = dict(new_row(), gfx6=370, sig='v2,v2,v1,v2', layout=mq)
    table[('v_mqsad_u8', 'vop3')] = dict(new_row(), gfx6=371, sig='v2,v2,v1,v2', alias='v_mqsad_pk_u16_u8', layout=mq)
    # Errata 16: V_MAC_LEGACY_F32 on GCN 1.2 as VOP3 654.
    table[('v_mac_legacy_f32', 'vop3')] = dict(new_row(), gfx8=654, sig='v1,v1,v1', layout='vdst,src0,src1')
    sem = existing_semantics()
    print('# mnemonic\tenc\tgfx6\tgfx7\tgfx8\te64\tsig\talias\tlayout\tlayout64'
          '\tshape\tsrcs\tforms\tcmp\tinterp\tjit')
    for (mn, enc), r in table.items():
        e64 = ''.join(sorted(r['e64'])) or '-'
        sig = r['sig'] if r['sig'] else '-'
        print('\t'.join([mn, enc] + [str(r[g]) if r[g] is not None else '-' for g in GENS]
                        + [e64, sig.replace(' ', '+'), r.get('alias') or '-',
                           r['layout'] or '-', r['layout64'] or '-']
                        + sem.get((mn, enc), ['-'] * SEM_COLS)))

def new_row():
    return {'gfx6': None, 'gfx7': None, 'gfx8': None, 'e64': set(), 'sig': '', 'sig64': '',
            'alias': None, 'layout': None, 'layout64': None}

main()

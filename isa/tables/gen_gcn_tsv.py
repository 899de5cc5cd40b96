#!/usr/bin/env python3
"""Regenerate isa/tables/gcn.tsv from LLVM's opcode sweep (shared/corpus/opcodes.tsv)
plus the spec's additions settled in shared/spec/ERRATA.md.

The TSV is the checked-in source of truth (isa/build.rs reads it); this script records how
its facts were gathered. Usage: python3 gen_gcn_tsv.py ../../../shared/corpus/opcodes.tsv > gcn.tsv

Columns:
  mnemonic  enc  gfx6  gfx7  gfx8  e64  sig  alias
  enc   native encoding (sop2 sopk sop1 sopc sopp smrd smem vop1 vop2 vopc vop3 vop3b
        vintrp ds mubuf mtbuf mimg flat exp)
  gfxN  opcode in that generation, '-' when absent
  e64   for vop1/vop2/vopc: generations (6,7,8) where the VOP3 twin exists at the standard
        offset (encodings.md); '-' otherwise
  sig   operand signature from LLVM's example text: v<N>/s<N> = N-dword VGPR/SGPR tuple,
        other tokens kept as words (vcc, exec, imm, off, attr, p, hwreg, sendmsg, waitcnt, ...)
  alias another accepted spelling ('-' if none)
"""
import re, sys
from collections import OrderedDict

VOP3_BASE = {  # (gen) -> {enc: offset}
    'gfx6': {'VOPC': 0, 'VOP2': 256, 'VOP1': 384},
    'gfx7': {'VOPC': 0, 'VOP2': 256, 'VOP1': 384},
    'gfx8': {'VOPC': 0, 'VOP2': 256, 'VOP1': 320},
}
GENS = ['gfx6', 'gfx7', 'gfx8']

def operand_sig(text):
    parts = text.split(None, 1)
    if len(parts) == 1:
        return ''
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

def main():
    rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if not l.startswith('gen\t')]
    table = OrderedDict()  # (mnemonic, enc) -> dict
    native = {}  # (gen, enc, opcode) -> mnemonic for vop1/2/c
    for gen, enc, op, mn, ex, _ in rows:
        if enc in ('VOP1', 'VOP2', 'VOPC'):
            native[(gen, mn)] = (enc, int(op))
    for gen, enc, op, mn, ex, _ in rows:
        op = int(op)
        if enc in ('VOP3', 'VOP3B'):
            n = native.get((gen, mn))
            if n and VOP3_BASE[gen][n[0]] + n[1] == op:
                r = table.setdefault((mn, n[0].lower()), new_row())
                r['e64'].add(gen[-1])
                r['sig64'] = operand_sig(ex)
                continue
        key = (mn, enc.lower())
        r = table.setdefault(key, new_row())
        if r[gen] is not None and r[gen] != op:
            sys.exit('conflict %s %s' % (key, gen))
        r[gen] = op
        if not r['sig']:
            r['sig'] = operand_sig(ex)
    # Errata 15: GCN 1.0 opcodes 370/371 under the spec's names; LLVM's 371 name is an alias.
    t6 = table[('v_mqsad_pk_u16_u8', 'vop3')]
    t6['gfx6'] = None
    table[('v_qsad_u8', 'vop3')] = dict(new_row(), gfx6=370, sig='v2,v2,v1,v2')
    table[('v_mqsad_u8', 'vop3')] = dict(new_row(), gfx6=371, sig='v2,v2,v1,v2', alias='v_mqsad_pk_u16_u8')
    # Errata 16: V_MAC_LEGACY_F32 on GCN 1.2 as VOP3 654.
    table[('v_mac_legacy_f32', 'vop3')] = dict(new_row(), gfx8=654, sig='v1,v1,v1')
    print('# mnemonic\tenc\tgfx6\tgfx7\tgfx8\te64\tsig\talias')
    for (mn, enc), r in table.items():
        e64 = ''.join(sorted(r['e64'])) or '-'
        sig = r['sig'] if r['sig'] else '-'
        print('\t'.join([mn, enc] + [str(r[g]) if r[g] is not None else '-' for g in GENS]
                        + [e64, sig.replace(' ', '+'), r.get('alias') or '-']))

def new_row():
    return {'gfx6': None, 'gfx7': None, 'gfx8': None, 'e64': set(), 'sig': '', 'sig64': '', 'alias': None}

main()

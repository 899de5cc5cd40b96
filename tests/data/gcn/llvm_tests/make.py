#!/usr/bin/env python3
"""Make the LLVM MC-test facts: every instruction line of LLVM's own assembler tests
(llvm/test/MC/AMDGPU/*.s, from the LLVM source that matches the installed llvm-mc-19) whose
RUN lines name a GCN 1.0, 1.1 or 1.2 target, decided by llvm-mc-19 for tahiti, bonaire and
fiji.

    make.py LLVM_SOURCE_DIR > lines.tsv

One row per distinct statement, sorted:
    text <TAB> tahiti <TAB> bonaire <TAB> fiji <TAB> fiji-disassembly
where a target column is the encoding as hex bytes (`7e020302`, bytes in memory order),
`!` followed by llvm-mc's error message, or `=` for "the same as the column before"; the
last column is what `llvm-mc-19 -disassemble -mcpu=fiji` prints for the fiji bytes (`=`
when that is the statement's text, `-` when fiji rejects the line, its disassembler does
not give the same bytes back as one instruction, or llvm-mc does not assemble that text
back to the same bytes).
Statements whose encoding needs a relocation (undefined symbols) are left out: they are not
facts about the instruction.
"""
import os
import re
import subprocess
import sys

CPUS = ["tahiti", "bonaire", "fiji"]
OLD = re.compile(
    r"-mcpu=(tahiti|pitcairn|verde|oland|hainan|bonaire|hawaii|kaveri|kabini|mullins|"
    r"tonga|fiji|iceland|carrizo|stoney|polaris\w*|gfx6\d\d|gfx7\d\d|gfx8\d\d|SI|CI|VI)\b"
)


def old_target_file(text):
    for l in text.splitlines():
        if "RUN:" not in l or "llvm-mc" not in l:
            continue
        if "-disassemble" in l:
            continue
        if OLD.search(l) or ("-mcpu" not in l and "amdgcn" in l):
            return True
    return False


def statements(text):
    out = []
    incomment = False
    for l in text.splitlines():
        if incomment:
            if "*/" in l:
                l = l.split("*/", 1)[1]
                incomment = False
            else:
                continue
        l = re.sub(r"/\*.*?\*/", "", l)
        if "/*" in l:
            l, incomment = l.split("/*", 1)[0], True
        l = l.split("//", 1)[0].split(";", 1)[0].strip()
        if not l or l.startswith((".", "#")) or re.match(r"^[\w.$]+:", l) or "=" in l.split()[0]:
            continue
        if not re.match(r"^[a-z][a-z0-9_]*\b", l):
            continue
        out.append(" ".join(l.split()))
    return out


def run_mc(cpu, lines, disassemble=False):
    args = ["llvm-mc-19", "-arch=amdgcn", "-mcpu=" + cpu, "-show-encoding"]
    if disassemble:
        args.append("-disassemble")
    p = subprocess.run(args, input="\n".join(lines) + "\n", capture_output=True, text=True)
    errs = {}
    for l in p.stderr.splitlines():
        m = re.match(r"<stdin>:(\d+):\d+: (error|warning): (.*)", l)
        if m and (m.group(2) == "error" or disassemble):
            errs.setdefault(int(m.group(1)), m.group(3).strip())
    enc = []
    for l in p.stdout.splitlines():
        if "encoding: [" in l or (disassemble and l.strip() and not l.strip().startswith(".")):
            enc.append(l)
    return errs, enc, p.stdout


def parse_enc(l):
    text, e = l.split("; encoding: [", 1) if "; encoding: [" in l else (l, "")
    e = e.rstrip("]").strip()
    toks = [b.strip() for b in e.split(",") if b.strip()]
    if not all(re.fullmatch(r"0x[0-9a-fA-F]{2}", b) for b in toks):
        return " ".join(text.split()), None
    bs = "".join("%02x" % int(b, 16) for b in e.split(",") if b.strip())
    return " ".join(text.split()), bs


def assemble(cpu, lines):
    """Per line: ('ok', hex) / ('err', msg) / ('fixup', None). A `.long N` marker after
    each statement aligns llvm-mc's output with its input."""
    marked = []
    for i, l in enumerate(lines):
        marked += [l, ".long %d" % i]
    errs, _, stdout = run_mc(cpu, marked)
    res = []
    cur = []
    for l in stdout.splitlines():
        m = re.match(r"\s*\.long\s+(\d+)\s*$", l)
        if m:
            i = int(m.group(1))
            assert i == len(res), "llvm-mc output out of order"
            if (2 * i + 1) in errs:
                res.append(("err", errs[2 * i + 1]))
            elif len(cur) != 1:
                res.append(("err", "%d encodings" % len(cur)))
            else:
                _, bs = parse_enc(cur[0])
                res.append(("ok", bs) if bs is not None else ("fixup", None))
            cur = []
        elif "encoding: [" in l:
            cur.append(l)
    assert len(res) == len(lines), "llvm-mc stopped early"
    return res


def disassemble(hexes):
    """fiji disassembly text of each encoding (None when it is not one instruction that
    gives the same bytes)."""
    lines = ["[" + ",".join("0x" + h[i:i + 2] for i in range(0, len(h), 2)) + "]" for h in hexes]
    out = []
    CH = 2000
    for k in range(0, len(lines), CH):
        chunk = lines[k:k + CH]
        _, _, stdout = run_mc("fiji", chunk, True)
        got = []
        for l in stdout.splitlines():
            if "; encoding: [" not in l:
                continue
            t, bs = parse_enc(l)
            got.append((t, bs))
        # Walk the input, consuming outputs whose bytes add up to each line's bytes.
        j = 0
        for h in hexes[k:k + CH]:
            acc, texts = "", []
            while j < len(got) and len(acc) < len(h) and h.startswith(acc + (got[j][1] or "")):
                acc += got[j][1] or ""
                texts.append(got[j][0])
                j += 1
                if acc == h:
                    break
            out.append(texts[0] if acc == h and len(texts) == 1 else None)
            if acc != h:
                # Resynchronise: skip outputs that belong to this line.
                while j < len(got) and acc and len(acc) < len(h):
                    acc += got[j][1] or ""
                    j += 1
    return out


def main():
    root = os.path.join(sys.argv[1], "llvm/test/MC/AMDGPU")
    stmts = set()
    files = []
    for dirpath, _, names in os.walk(root):
        for n in sorted(names):
            if not n.endswith(".s"):
                continue
            t = open(os.path.join(dirpath, n), encoding="utf-8", errors="replace").read()
            if old_target_file(t):
                files.append(os.path.relpath(os.path.join(dirpath, n), root))
                stmts.update(statements(t))
    stmts = sorted(stmts)
    cols = {cpu: assemble(cpu, stmts) for cpu in CPUS}
    fiji_ok = [h for (k, h) in cols["fiji"] if k == "ok" and h]
    dis = dict(zip(fiji_ok, disassemble(fiji_ok)))
    # Keep only disassembly text that llvm-mc assembles back to the same bytes.
    texts = [(h, t) for h, t in dis.items() if t]
    back = assemble("fiji", [t for _, t in texts])
    for (h, _), (k, v) in zip(texts, back):
        if k != "ok" or v != h:
            dis[h] = None
    sys.stderr.write("%d files, %d statements\n" % (len(files), len(stmts)))
    print("# LLVM 19.1.7 llvm/test/MC/AMDGPU, %d files with GCN 1.0-1.2 RUN lines: %s"
          % (len(files), " ".join(files)))
    print("# text\ttahiti\tbonaire\tfiji\tfiji-disassembly")
    for i, s in enumerate(stmts):
        row = [s]
        if any(cols[c][i][0] == "fixup" for c in CPUS):
            continue
        for c in CPUS:
            k, v = cols[c][i]
            row.append(v if k == "ok" else "!" + v.replace("\t", " "))
        k, v = cols["fiji"][i]
        d = (dis.get(v) or "-") if k == "ok" else "-"
        row.append("=" if d == s else d)
        for j in (3, 2):
            if row[j] == row[j - 1]:
                row[j] = "="
        print("\t".join(row))


main()

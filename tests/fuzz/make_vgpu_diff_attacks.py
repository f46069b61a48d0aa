#!/usr/bin/env python3
"""Writes the attack inputs and seeds of fuzz_vgpu_diff (format: tests/fuzz/fuzz_vgpu_diff.c).
Each one is an attack class of issue 13; each must be refused or contained."""
import os, struct

def mi(op, flags=0): return (op << 23) | flags
NOOP, BB_END = 0, mi(0x0a)
SDI_GGTT = mi(0x20, 2) | (1 << 22)          # MI_STORE_DWORD_IMM, GGTT bit
LRI1 = mi(0x22, 1)                           # MI_LOAD_REGISTER_IMM, one pair
BBS = mi(0x31, 1)                            # MI_BATCH_BUFFER_START_GEN8
PPGTT = 1 << 8
PC6 = (3 << 29) | (3 << 27) | (2 << 24) | 4  # PIPE_CONTROL, 6 dwords
PC_QW, PC_GGTT, PC_CS = 1 << 14, 1 << 24, 1 << 20
def addr(base, off=0): return 0xfa000000 | (base << 20) | (off + 0x80000)
def reg(i): return 0xfb000000 | i
# fzd_base(): 0 attacker low end, 3 mediator GM, 7 BB_VA, 9 GGTT batch page,
# 12 the victim's mediator slot (its shadow contexts). reg(): 12 = rcs0 HWS_PGA,
# 27 = fence 0 low.
RCS_HWS_PGA, FENCE0 = 12, 27

def inp(flags, ring, bb, patches=()):
    d = struct.pack('<BBH', flags, len(ring), len(bb))
    d += b''.join(struct.pack('<I', x) for x in bb)
    d += b''.join(struct.pack('<I', x) for x in ring)
    d += b''.join(struct.pack('<HI', i, x) for i, x in patches)
    return d

ring_bb = [BBS | PPGTT, addr(7), 0, NOOP]
out = {
    # A PPGTT batch storing through the GGTT into the victim's shadow
    # context: refused by the scanner (address outside the vGPU's GM) ...
    'ggtt-bit-in-ppgtt-batch': inp(0, ring_bb,
        [SDI_GGTT, addr(12, 0x40), 0, 0xdeadbeef, BB_END, NOOP]),
    # ... so it is written after the scan.
    'toctou-ggtt-bit-in-ppgtt-batch': inp(0, ring_bb, [NOOP] * 4 + [BB_END, NOOP],
        [(0, SDI_GGTT), (1, addr(12, 0x40)), (2, 0), (3, 0xdeadbeef)]),
    # Scanned as NOOPs, rewritten after submission into LRI to fence 0.
    'toctou-lri-fence': inp(0, ring_bb, [NOOP] * 4 + [BB_END, NOOP],
        [(0, LRI1), (1, reg(FENCE0)), (2, 0x12345001), (3, NOOP)]),
    # ... into LRI to the render engine's status page address.
    'toctou-lri-hws-pga': inp(0, ring_bb, [NOOP] * 4 + [BB_END, NOOP],
        [(0, LRI1), (1, reg(RCS_HWS_PGA)), (2, 0x00001000), (3, NOOP)]),
    # ... into a chained start of a GGTT (privileged) batch nobody scanned:
    # the attacker's own GGTT page, holding LRI to fence 0.
    'toctou-chain-raises-privilege': inp(0, ring_bb,
        [NOOP] * 4 + [BB_END, NOOP] + [NOOP] * (2048 - 6) +
        [LRI1, reg(FENCE0), 0x12345001, BB_END],
        [(0, BBS), (1, addr(9)), (2, 0)]),
    # ... into a loop: bounded by the hang path here (no neighbour waits).
    'toctou-endless-loop': inp(0, ring_bb, [NOOP] * 4 + [BB_END, NOOP],
        [(0, BBS | PPGTT), (1, addr(7)), (2, 0)]),
    # From the ring, no race: a qword PIPE_CONTROL write 4 bytes before the
    # end of the attacker's low GM (the scanner checks addr & ~7, the model
    # writes at addr & ~3).
    'pipe-control-end-of-range': inp(0,
        [PC6, PC_CS | PC_QW | PC_GGTT, addr(0, -4), 0, 0x41414141, 0x42424242,
         NOOP, NOOP], []),
    # Register values left in the engine for the next context (issue 26
    # section 1): a user batch loading a CS GPR and MI_PREDICATE_SRC0 on
    # RCS, the kernel ring loading a GPR on the blitter. The reader
    # context that runs after every input must see neither.
    'user-batch-lri-gpr-predicate': inp(0, ring_bb,
        [LRI1, 0x2600, 0x1234, LRI1, 0x2400, 0x5678, BB_END, NOOP]),
    'ring-lri-gpr-bcs': inp(1, [LRI1, 0x22600, 0xb1, NOOP], []),
}
here = os.path.dirname(os.path.abspath(__file__))

# Seeds (tests/fuzz/corpus/fuzz_vgpu_diff*/): the same shapes, harmless.
SDI = mi(0x20, 2)
seeds = {
    'toctou-noop': inp(0, ring_bb, [NOOP] * 4 + [BB_END, NOOP], [(0, NOOP)]),
    'toctou-lri-allowed': inp(0, ring_bb, [NOOP] * 4 + [BB_END, NOOP],
        [(0, LRI1), (1, 0x2580), (2, 0x00010001), (3, NOOP)]),
    'sdi-ppgtt': inp(0, ring_bb, [SDI, addr(8, 0x10), 0, 0x1234, BB_END, NOOP]),
    'pipe-control-in-range': inp(0,
        [PC6, PC_CS | PC_QW | PC_GGTT, addr(0, -8), 0, 1, 2, NOOP, NOOP], []),
    'ggtt-bit-refused': out['ggtt-bit-in-ppgtt-batch'],
    'blitter-bb': inp(1, ring_bb, [SDI, addr(8), 0, 7, BB_END, NOOP],
        [(3, reg(0))]),
}
# The attacks are seeds too (prefixed attack-): once fixed, each one is a
# regression test that every fuzz run replays first.
seeds.update({'attack-' + n: d for n, d in out.items()})
for t in ('fuzz_vgpu_diff', 'fuzz_vgpu_diff_gvirt'):
    d = os.path.join(here, 'corpus', t)
    os.makedirs(d, exist_ok=True)
    for name, data in seeds.items():
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)

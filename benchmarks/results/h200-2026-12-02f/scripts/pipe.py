#!/usr/bin/env python3
"""Prototype: a one-pass M-point kernel (gen.cpp) made persistent (grid = SMs,
each CTA loops over lines) with the next line prefetched into shared memory by
cp.async while the current one is transformed.
Usage: pipe.py k.cu M LINES MODE > out.cu
MODE: loop (persistent, no prefetch), half (first half of each line
prefetched, exchanges as generated), split (the whole line prefetched,
exchanges one plane at a time: re then im), nolo (split without the global
load: compute and stores only, a wrong transform)."""
import re
import sys

src = open(sys.argv[1]).read()
m, lines, mode = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
T = int(re.search(r"__launch_bounds__\((\d+)\)", src).group(1))
V = m // T
plane = int(re.search(r"sh\[i \+ (\d+)u\]", src).group(1))
head, body = src.split('extern "C" __global__', 1)
out = body.splitlines()
# index of the load block and the end of the kernel
ld = next(i for i, l in enumerate(out) if "const cplx_t* gp0 = src" in l)
assert out[ld + 1].strip() == "if (okS) {"
end_ld = ld + 2 + V
assert out[end_ld].strip() == "}"
rest = out[end_ld + 1:]
assert rest[-1] == "}"
rest = rest[:-1]
if mode in ("split", "nolo", "tma"):
    new, i = [], 0
    wr = re.compile(r"\{ uint i = (ix\d+ \+ \d+u); sh\[i\] = (r\[\d+\])\.x; sh\[i \+ %du\] = r\[\d+\]\.y;  \}" % plane)
    rd = re.compile(r"\{ uint i = (ix\d+ \+ \d+u); (r\[\d+\]) = CPLX\(sh\[i\], sh\[i \+ %du\]\); \}" % plane)
    writes = []
    pending = False
    while i < len(rest):
        l = rest[i]
        w = wr.search(l)
        r_ = rd.search(l)
        if w:
            if not pending:
                writes = []
            pending = True
            writes.append((w.group(1), w.group(2)))
            new.append(f"  {{ uint i = {w.group(1)}; sh[i] = {w.group(2)}.x; }}")
        elif r_:
            reads = []
            while i < len(rest) and rd.search(rest[i]):
                g = rd.search(rest[i])
                reads.append((g.group(1), g.group(2)))
                i += 1
            new += [f"  {{ uint i = {a}; {b}.x = sh[i]; }}" for a, b in reads]
            new.append("  __syncthreads();")
            new += [f"  {{ uint i = {a}; sh[i] = {b}.y; }}" for a, b in writes]
            new.append("  __syncthreads();")
            new += [f"  {{ uint i = {a}; {b}.y = sh[i]; }}" for a, b in reads]
            pending = False
            continue
        else:
            new.append(l)
        i += 1
    rest = new
    ex = plane * 4
else:
    ex = plane * 8
ex = (ex + 15) // 16 * 16
pre_n = {"loop": 0, "half": m // 2, "split": m, "nolo": m, "tma": m}[mode]
chunks = pre_n * 8 // 16 // T  # 16-byte copies a thread
sig = out[0].replace("__launch_bounds__(%d)" % T, "__launch_bounds__(%d, 1)" % T)
k = [sig,
     "  extern __shared__ __align__(16) real_t sh[];",
     f"  cplx_t* pre = (cplx_t*)(sh + {ex // 4}u);",
     "  uint tS = threadIdx.x;",
     f"  cplx_t r[{V}];",
     "  uint sbase = (uint)__cvta_generic_to_shared(pre);",
     "  uint dS0 = blockIdx.x;",
     "  const bool okS = true;"]
fetch = (f"for (uint j = 0; j < {chunks}u; ++j) {{ uint o = (j * {T}u + tS) * 16u; "
         "asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\" :: \"r\"(sbase + o), "
         f"\"l\"((const char*)(src + (size_t)L * {m}u) + o) : \"memory\"); }} "
         "asm volatile(\"cp.async.commit_group;\" ::: \"memory\");")
if mode == "tma":
    k.insert(2, "  __shared__ __align__(8) unsigned long long mbar;")
    k.append("  uint mb = (uint)__cvta_generic_to_shared(&mbar); uint phase = 0;")
    k.append("  if (tS == 0u) { asm volatile(\"mbarrier.init.shared::cta.b64 [%0], 1;\" :: \"r\"(mb) : \"memory\"); "
             "asm volatile(\"fence.mbarrier_init.release.cluster;\" ::: \"memory\"); }")
    k.append("  __syncthreads();")
    fetch = ("if (tS == 0u) { asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\"); "
             f"asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\" :: \"r\"(mb), \"r\"({m * 8}u) : \"memory\"); "
             "asm volatile(\"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\" "
             f":: \"r\"(sbase), \"l\"(src + (size_t)L * {m}u), \"r\"({m * 8}u), \"r\"(mb) : \"memory\"); }}")
if pre_n and mode != "nolo":
    k.append(f"  {{ uint L = dS0; {fetch} }}")
k.append(f"  for (; dS0 < {lines}u; dS0 += gridDim.x) {{")
if pre_n:
    if mode == "tma":
        k.append("  asm volatile(\"{ .reg .pred P; WAIT: mbarrier.try_wait.parity.shared::cta.b64 P, [%0], %1; @!P bra WAIT; }\" :: \"r\"(mb), \"r\"(phase) : \"memory\"); phase ^= 1u;")
    else:
        k.append("  asm volatile(\"cp.async.wait_group 0;\" ::: \"memory\");")
        k.append("  __syncthreads();")
    for v in range(V):
        if v * T < pre_n:
            k.append(f"  r[{v}] = pre[tS + {v * T}u];")
    k.append("  __syncthreads();")
    if mode != "nolo":
        k.append(f"  if (dS0 + gridDim.x < {lines}u) {{ uint L = dS0 + gridDim.x; {fetch} }}")
if not pre_n:
    k.append("  __syncthreads();")
if pre_n < m:
    k.append(f"  const cplx_t* gp0 = src + tS + (size_t)dS0 * {m}u;")
    for v in range(V):
        if v * T >= pre_n:
            k.append(f"  r[{v}] = gp0[{v * T}u];")
k += rest
k += ["  }", "}"]
print(head + 'extern "C" __global__' + "\n".join(k))
sys.stderr.write(f"{mode}: T {T} V {V} shared {ex + pre_n * 8}\n")

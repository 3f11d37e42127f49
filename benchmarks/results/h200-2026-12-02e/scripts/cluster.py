#!/usr/bin/env python3
"""Prototype: rewrites the generator's one-pass M-point CUDA kernel (gen.cpp)
into one CTA of a cluster of C that transforms N = C*M points (decimation in
time): CTA c reads x[C j + c] (a strided load), transforms its M points,
multiplies by w_N^(c k) (table after the M-point table) and leaves them in
its shared memory; after a cluster barrier CTA m writes X[m M + k] =
sum_c Z_c[k] w_C^(c m), reading the other CTAs' shared memory (DSMEM).
Usage: cluster.py k8192.cu M TABLE C VEC [GROUPS] > out.cu (TABLE: the
M-point table's entries; VEC 1: 8-byte DSMEM loads, 2: 16; GROUPS: CTAs an
SM in the launch bounds, 2 by default)."""
import re
import sys

src = open(sys.argv[1]).read()
m, base, C, vec = (int(a) for a in sys.argv[2:6])
groups = int(sys.argv[6]) if len(sys.argv) > 6 else 2
threads = int(re.search(r"__launch_bounds__\((\d+)\)", src).group(1))
n = C * m
src = re.sub(r"__global__ void __launch_bounds__\((\d+)\)",
             f"__global__ void __cluster_dims__({C}, 1, 1) __launch_bounds__(\\1, {groups})", src)
# the line of this cluster, and this CTA's rank in it
src = src.replace("uint group = (blockIdx.x + blockIdx.y * gridDim.x + group_offset);",
                  "uint group = (blockIdx.x + blockIdx.y * gridDim.x + group_offset);\n"
                  "  uint rank; asm(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(rank));\n"
                  f"  group /= {C}u;")
# strided load: element C j + rank of the N-point line
src = src.replace(f"const cplx_t* gp0 = src + ((((tS + 0u))) + ((dS0)) * {m}u);",
                  f"const cplx_t* gp0 = src + ({C}u * tS + rank + dS0 * {n}u);")
src = re.sub(r"gp0\[(\d+)u\]", lambda g: f"gp0[{C * int(g.group(1))}u]", src)
# stores into this CTA's shared memory, twiddled
stores = list(re.finditer(r"cplx_t\* (gp\d+) = dst \+ \(\((.*)\) \+ \(\(dS0\)\) \* %du\);" % m, src))
first = stores[0].start()
for s in stores:
    src = src.replace(s.group(0), f"uint k{s.group(1)} = {s.group(2)};")
src = src[:first] + "__syncthreads();\n  cplx_t* Z = (cplx_t*)sh;\n  " + src[first:]
tw = f"{base}u + (rank - 1u) * {m}u"
src = re.sub(r"\{ (gp\d+)\[(\d+)u\] = (r\[\d+\]); \}",
             lambda g: f"{{ uint k = k{g.group(1)} + {g.group(2)}u; "
                       f"Z[k] = rank ? cmul({g.group(3)}, tab[{tw} + k]) : {g.group(3)}; }}", src)
sync = ('  asm volatile("barrier.cluster.arrive.release.aligned;\\n\\t'
        'barrier.cluster.wait.acquire.aligned;" ::: "memory");\n')
import cmath
# CTA r takes k in [r M / C, (r + 1) M / C) and writes all C outputs of
# each: X[k + c' M] = sum_c Z_c[k] w_C^(c c'), constants inlined.
per = m // C // threads // vec
def lit(v):
    r = lambda x: 0.0 if abs(x) < 1e-12 else x
    return f"CPLX({r(v.real):.9e}f, {r(v.imag):.9e}f)"
def term(v, cc):
    return " + ".join(f"cmul({v}[{c}], {lit(cmath.exp(-2j * cmath.pi * c * cc / C))})" for c in range(C))
if vec == 1:
    dft = "\n".join(f"        out[k + {cc * m}u] = {term('z', cc)};" for cc in range(C))
else:
    dft = "\n".join(f"        {{ cplx_t a = {term('z', cc)}, b = {term('y', cc)}; "
                    f"*(float4*)(out + k + {cc * m}u) = make_float4(a.x, a.y, b.x, b.y); }}" for cc in range(C))
dft2 = ""
loads = (' asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];" : "=f"(z[c].x), "=f"(z[c].y) : "r"(za[c] + k * 8u));'
         if vec == 1 else
         ' asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(z[c].x), "=f"(z[c].y), "=f"(y[c].x), "=f"(y[c].y) : "r"(za[c] + k * 8u));')
combine = f"""{sync}  {{
    uint zs = (uint)__cvta_generic_to_shared(Z);
    uint za[{C}];
#pragma unroll
    for (uint c = 0; c < {C}u; ++c)
      asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(za[c]) : "r"(zs), "r"(c));
    cplx_t* out = dst + dS0 * {n}u;
#pragma unroll 2
    for (uint i = 0; i < {per}u; ++i) {{
      uint k = rank * {m // C}u + {vec}u * lid + {vec * threads}u * i;
      cplx_t z[{C}], y[{C}];
#pragma unroll
      for (uint c = 0; c < {C}u; ++c){loads}
      if (okS) {{
{dft}
      }}
    }}
  }}
{sync}}}
"""
end = src.rstrip().rfind("}")
src = src[:end] + combine
print(src)

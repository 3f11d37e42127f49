#!/usr/bin/env python3
"""Prototype, the other decomposition (decimation in frequency in, gather
out): CTA m of a cluster of C reads its contiguous chunk x[m M + j] into
shared memory; after a cluster barrier CTA c takes z_c[j] = w_N^(c j)
sum_m x[m M + j] w_C^(m c) from every CTA's chunk (contiguous DSMEM
reads), transforms its M points (X[C k + c]) and leaves them in shared
memory; after a second barrier CTA m writes X[m M + q] = Y_(P mod C)[P / C]
(P = m M + q), runs of M/C... contiguous in each CTA.
Usage: cluster_dif.py k8192.cu M TABLE C > out.cu"""
import re
import sys

src = open(sys.argv[1]).read()
m, base, C = (int(a) for a in sys.argv[2:5])
threads = int(re.search(r"__launch_bounds__\((\d+)\)", src).group(1))
n = C * m
arrive = 'asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");'
wait = 'asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");'
src = re.sub(r"__global__ void __launch_bounds__\((\d+)\)",
             f"__global__ void __cluster_dims__({C}, 1, 1) __launch_bounds__(\\1, 2)", src)
src = src.replace("uint group = (blockIdx.x + blockIdx.y * gridDim.x + group_offset);",
                  "uint group = (blockIdx.x + blockIdx.y * gridDim.x + group_offset);\n"
                  "  uint rank; asm(\"mov.u32 %0, %%cluster_ctarank;\" : \"=r\"(rank));\n"
                  f"  group /= {C}u;")
setup = f"""cplx_t* Z = (cplx_t*)sh;
  uint za[{C}];
  cplx_t wc[{C}];
  uint zs = (uint)__cvta_generic_to_shared(Z);
  {{
#pragma unroll
    for (uint c = 0; c < {C}u; ++c) {{
      asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(za[c]) : "r"(zs), "r"(c));
      float s, co;
      sincospif(-2.0f * float((c * rank) % {C}u) / {C}.0f, &s, &co);
      wc[c] = CPLX(co, s);
    }}
    const cplx_t* gq = src + dS0 * {n}u + rank * {m}u;
    if (okS)
#pragma unroll 8
      for (uint i = 0; i < {m // threads}u; ++i) Z[lid + {threads}u * i] = gq[lid + {threads}u * i];
  }}
  asm volatile("barrier.cluster.arrive.release.aligned;\\n\\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  const cplx_t* gp0"""
src = src.replace("const cplx_t* gp0", setup, 1)
src = src.replace(f"const cplx_t* gp0 = src + ((((tS + 0u))) + ((dS0)) * {m}u);", "")
difin = ("{ uint j = tS + %du; cplx_t a = CPLX(0.0f, 0.0f); "
         "for (uint c = 0; c < %du; ++c) { cplx_t z; "
         'asm volatile("ld.shared::cluster.v2.f32 {%%0, %%1}, [%%2];" : "=f"(z.x), "=f"(z.y) : "r"(za[c] + j * 8u)); '
         "a = a + cmul(z, wc[c]); } "
         "r[%d] = rank ? cmul(a, tab[%du + (rank - 1u) * %du + j]) : a; }")
src = re.sub(r"\{ r\[(\d+)\] = gp0\[(\d+)u\]; \}",
             lambda g: difin % (int(g.group(2)), C, int(g.group(1)), base, m), src)
# the first shared write waits for every CTA to have read this one's chunk
first = src.find("sh[i] = ")
first = src.rfind("\n", 0, src.rfind("\n", 0, first)) + 1
src = src[:first] + "  " + wait + "\n" + src[first:]
# this CTA's reads of the others are done once its first butterfly starts
bf = src.find("  { bf")
src = src[:bf] + "  " + arrive + "\n" + src[bf:]
stores = list(re.finditer(r"cplx_t\* (gp\d+) = dst \+ \(\((.*)\) \+ \(\(dS0\)\) \* %du\);" % m, src))
fs = stores[0].start()
for s in stores:
    src = src.replace(s.group(0), f"uint k{s.group(1)} = {s.group(2)};")
src = src[:fs] + "__syncthreads();\n  " + src[fs:]
src = re.sub(r"\{ (gp\d+)\[(\d+)u\] = (r\[\d+\]); \}",
             lambda g: f"{{ Z[k{g.group(1)} + {g.group(2)}u] = {g.group(3)}; }}", src)
gather = f"""  asm volatile("barrier.cluster.arrive.release.aligned;\\n\\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  {{
    cplx_t* out = dst + dS0 * {n}u + rank * {m}u;
#pragma unroll 8
    for (uint i = 0; i < {m // threads}u; ++i) {{
      uint q = lid + {threads}u * i, p = rank * {m}u + q;
      cplx_t z;
      uint a;
      asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a) : "r"(zs + (p / {C}u) * 8u), "r"(p % {C}u));
      asm volatile("ld.shared::cluster.v2.f32 {{%0, %1}}, [%2];" : "=f"(z.x), "=f"(z.y) : "r"(a));
      if (okS) out[q] = z;
    }}
  }}
  asm volatile("barrier.cluster.arrive.release.aligned;\\n\\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}}
"""
end = src.rstrip().rfind("}")
print(src[:end] + gather)

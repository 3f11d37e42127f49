#!/usr/bin/env python3
"""Prototype: cluster.py's kernel with contiguous loads. Block m loads
x[m M + j] and stores each element into the shared memory of the block
whose column holds it (st.shared::cluster: block p mod C, position p / C);
after a cluster barrier each block reads its column from its own shared
memory. Usage: scatter.py CLUSTER_KERNEL.cu M C > out.cu (the output of
cluster.py with the same M and C)."""
import re
import sys

src = open(sys.argv[1]).read()
m, C = int(sys.argv[2]), int(sys.argv[3])
threads = int(re.search(r"__launch_bounds__\((\d+), \d+\)", src).group(1))
n = C * m
old = f"const cplx_t* gp0 = src + ({C}u * tS + rank + dS0 * {n}u);"
assert old in src
scatter = f"""{{
    uint zs = (uint)__cvta_generic_to_shared(sh);
    const cplx_t* gq = src + dS0 * {n}u + rank * {m}u;
#pragma unroll 8
    for (uint i = 0; i < {m // threads}u; ++i) {{
      uint j = lid + {threads}u * i, p = rank * {m}u + j, a;
      cplx_t v = gq[j];
      asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a) : "r"(zs + (p / {C}u) * 8u), "r"(p % {C}u));
      if (okS) asm volatile("st.shared::cluster.v2.f32 [%0], {{%1, %2}};" :: "r"(a), "f"(v.x), "f"(v.y) : "memory");
    }}
  }}
  asm volatile("barrier.cluster.arrive.release.aligned;\\n\\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
  const cplx_t* gp0 = (const cplx_t*)sh + tS;"""
src = src.replace(old, scatter)
src = re.sub(r"gp0\[(\d+)u\]", lambda g: f"gp0[{int(g.group(1)) // C}u]", src)
first = src.find("sh[i] = ")
first = src.rfind("\n", 0, src.rfind("\n", 0, first)) + 1
src = src[:first] + "  __syncthreads();\n" + src[first:]
print(src)

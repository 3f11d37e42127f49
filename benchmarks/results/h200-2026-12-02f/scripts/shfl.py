#!/usr/bin/env python3
"""Prototype: the R2C 1024 kernel (32 threads a line, two sub-lines of radix
8: r[j] = Z[t + 64 j], r[8 + j] = Z[t + 32 + 64 j] after the last stage) with
its post-processing partner Z[512 - k] fetched by warp shuffles from lane
(32 - t) mod 32 instead of through a shared-memory exchange.
Usage: shfl.py r1024.cu > out.cu"""
import sys

src = open(sys.argv[1]).read().splitlines()
post = [i for i, l in enumerate(src) if "r2c_post(CPLX(sh[a]" in l]
first, last = post[0], post[-1]
# the exchange before the post-processing: sync, writes, sync
sync = [i for i in range(first) if src[i].strip() == "__syncthreads();"]
cut = sync[-2]
a = ", ".join(f"r[{m // 2}]" if m % 2 == 0 else f"r[{8 + m // 2}]" for m in range(16))
new = ["  {", f"  const cplx_t a[16] = {{{a}}};", "  const uint lane = (32u - tS) & 31u;"]
for m in range(16):
    new.append(f"  {{ cplx_t s = CPLX(__shfl_sync(0xffffffffu, a[{15 - m}].x, lane), "
               f"__shfl_sync(0xffffffffu, a[{15 - m}].y, lane)); "
               f"r[{m}] = r2c_post(a[{m}], tS == 0u ? a[{(16 - m) % 16}] : s, tab[0u + (tS + {32 * m}u)]); }}")
new.append("  if (tS == 0u) r[16] = r2c_post(a[0], a[0], tab[512u]);")
new.append("  }")
print("\n".join(src[:cut] + new + src[last + 1:]))

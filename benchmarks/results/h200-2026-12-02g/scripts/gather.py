# Rewrites the generator's clustered kernel (C groups of M points, group d
# loading the column x[C j + d] by strided reads) so that group d reads the
# contiguous chunk x[d M .. (d+1) M) instead, C consecutive elements a thread
# at a time, and stores element k of each run into group k's shared memory
# (one remote 256-byte run a warp store), then reads its column locally.
# Usage: gather.py IN.cu OUT.cu C M THREADS LINE_POINTS [LINE RANK] (the
# kernel's expressions of its line and its rank in the cluster).
import sys
src, out = sys.argv[1], sys.argv[2]
C, M, T, N = map(int, sys.argv[3:7])
LINE, RANK = (sys.argv[7], sys.argv[8]) if len(sys.argv) > 8 else ('dS1', 'dS0')
lines = open(src).read().split('\n')
a = next(i for i, l in enumerate(lines) if l.startswith('  const cplx_t* gp0 = src +'))
b = next(i for i in range(a, len(lines)) if lines[i] == '  }')
per = M // T        # slots a thread
sync = 'asm volatile("barrier.cluster.arrive.release.aligned;\\n\\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");'
g = ['  ' + sync, '  {', '  uint zs = (uint)__cvta_generic_to_shared(sh);']
for d in range(C):
    g.append(f'  uint za{d}; asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(za{d}) : "r"(zs), "r"({d}u));')
# chunk d: elements d*M + C*q + k, q < M/C; thread tS takes q = tS + T*i
qs = M // C
g.append(f'  const cplx_t* cp = src + {LINE} * {N}u + {RANK} * {M}u;')
g.append('  #pragma unroll')
g.append(f'  for (uint i = 0; i < {qs // T}u; ++i) {{')
g.append(f'    uint q = tS + {T}u * i;')
for h in range(C // 2):
    g.append(f'    float4 v{h} = *(const float4*)(cp + {C}u * q + {2*h}u);')
for k in range(C):
    v, comp = f'v{k//2}', ('x', 'y') if k % 2 == 0 else ('z', 'w')
    g.append(f'    asm volatile("st.shared::cluster.v2.f32 [%0], {{%1, %2}};" :: "r"(za{k} + ({RANK} * {qs}u + q) * 8u), "f"({v}.{comp[0]}), "f"({v}.{comp[1]}) : "memory");')
g.append('  }')
g.append('  }')
g.append('  ' + sync)
for i in range(per):
    g.append(f'  r[{i}] = ((const cplx_t*)sh)[tS + {T * i}u];')
g.append('  __syncthreads();')
lines[a:b + 1] = g
open(out, 'w').write('\n'.join(lines))

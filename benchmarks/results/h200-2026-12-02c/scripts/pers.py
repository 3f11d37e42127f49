# Turns a generated one-pass CUDA kernel (teams 1, one load block from gp0)
# into a persistent kernel that prefetches the next group's first P values
# into shared memory with cp.async while it transforms the current one.
import re, sys
src, name, stg_words, P = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
text = open(src).read()
head, kern = text.split('extern "C" __global__', 1)
head = '\n'.join(l for l in head.splitlines() if not l.startswith('// ----') and not l.startswith('// radices'))
lines = kern.rstrip().splitlines()
sig = lines[0]
m = re.search(r'__launch_bounds__\((\d+)\)', sig); T = int(m.group(1))
body = lines[1:-1]
i_gp = next(i for i, l in enumerate(body) if 'const cplx_t* gp0' in l)
gpline = body[i_gp]
# load block: "if (okS) {" ... "}"
assert body[i_gp + 1].strip() == 'if (okS) {'
j = i_gp + 2; loads = []
while body[j].strip() != '}':
    mm = re.match(r'\s*\{ r\[(\d+)\] = gp0\[(\d+)u\]; \}', body[j]); loads.append((int(mm.group(1)), int(mm.group(2)))); j += 1
rest = body[j + 1:]
pre = [l for l in body[:i_gp] if not re.match(r'\s*r\[\d+\] = CPLX\(0', l)]
G = int(re.search(r'okS = gS < (\d+)u', '\n'.join(pre)).group(1))
pre_keep = [l for l in pre if not any(k in l for k in ('uint group =', 'uint gS', 'bool okS', 'uint dS0'))]
out = [head, 'FN void cp8(uint s, const void* g) { asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(s), "l"(g)); }',
       'FN void cp_commit() { asm volatile("cp.async.commit_group;"); }',
       'FN void cp_wait() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }',
       'extern "C" __global__' + sig.replace('fftmux_pass0', name)]
out += pre_keep
out += [f'  cplx_t* stg = (cplx_t*)(sh + {stg_words}u);', '  uint sb = (uint)__cvta_generic_to_shared(stg);',
        '  uint group = blockIdx.x;']
def prefetch(g):
    o = [f'  if ({g} < {G}u) {{', '    ' + gpline.strip().replace('dS0', g)]
    for (r, off) in loads[:P]:
        o.append(f'    cp8(sb + ({r}u * {T}u + lid) * 8u, gp0 + {off}u);')
    o += ['  }', '  cp_commit();']
    return o
out += prefetch('group')
out += [f'  for (; group < {G}u; group += gridDim.x) {{', '  uint gS = group; bool okS = true; uint dS0 = gS;', '  cp_wait();']
out += [f'  r[{r}] = stg[{r}u * {T}u + lid];' for (r, off) in loads[:P]]
out += ['  { uint nxt = group + gridDim.x;'] + prefetch('nxt') + ['  }']
out += ['  ' + gpline.strip()] + [f'  r[{r}] = gp0[{off}u];' for (r, off) in loads[P:]]
out += rest + ['  __syncthreads();', '  }', '}']
open(sys.argv[5], 'w').write('\n'.join(out) + '\n')
print(T, G, len(loads))

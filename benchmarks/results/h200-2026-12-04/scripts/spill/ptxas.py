# ptxas.py FILE.cu: compiles a kernel with NVRTC as the CUDA backend does
# (sm_90, C++17) and prints what ptxas reports of registers and spills.
import ctypes, sys, re
lib = ctypes.CDLL(sorted(__import__('glob').glob('/usr/local/cuda/lib64/libnvrtc.so*'))[0])
def compile(src):
    prog = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(prog), src.encode(), b"k.cu", 0, None, None) == 0
    opts = [b"--gpu-architecture=sm_90", b"-std=c++17", b"--ptxas-options=-v"]
    arr = (ctypes.c_char_p * 3)(*opts)
    r = lib.nvrtcCompileProgram(prog, 3, arr)
    n = ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog, ctypes.byref(n))
    buf = ctypes.create_string_buffer(n.value); lib.nvrtcGetProgramLog(prog, buf)
    return r, buf.value.decode()
r, log = compile(open(sys.argv[1]).read())
print(r); print("\n".join(l for l in log.splitlines() if 'spill' in l or 'Used' in l or 'error' in l)[:3000])

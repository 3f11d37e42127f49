#!/bin/bash
# Call 3 (2026-12-02a): GL's fixed cost on small single transforms (hooks
# FX_GL_SSBO: storage barrier after the last pass; FX_GL_NOCHECK: no
# glGetError after the dispatches; FX_GL_FINISH: glFinish in place of the
# fence; FX_GL_NOFLUSH: no glFlush after the fence; NVIDIA's
# __GL_THREADED_OPTIMIZATIONS), Vulkan and cuFFT beside it; Nsight Compute
# on CUDA native's two passes at 2^20 and 2^24 against cuFFT's kernels.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
sm() { local n=$1 be=$2 v=$3 e=$4; env $e timeout 60 $B/fftmux run --shape $n --batch 1 --placement device --backend $be --variant $v --repeat 300 --warmup 50 2>&1 | grep execute | awk '{print $2}'; }
for n in 128x128 1024x1024; do
  echo "$n cufft $(sm $n cuda cufft X=0) vulkan $(sm $n vulkan default X=0)" | tee -a $R/a3_gl.txt
  for e in X=0 FX_GL_SSBO=1 FX_GL_NOCHECK=1 FX_GL_FINISH=1 FX_GL_NOFLUSH=1 __GL_THREADED_OPTIMIZATIONS=0 __GL_THREADED_OPTIMIZATIONS=1 "FX_GL_SSBO=1 FX_GL_NOCHECK=1" X=0; do
    echo "$n opengl $e $(sm $n opengl default "$e")" | tee -a $R/a3_gl.txt
  done
done
pack c3
bash scripts/ncu_compare.sh $R 1048576 128 native > $R/a3_ncu_2p20.txt 2>&1
pack c3
bash scripts/ncu_compare.sh $R 16777216 8 native > $R/a3_ncu_2p24.txt 2>&1
pack c3
cat $R/a3_ncu_*.txt

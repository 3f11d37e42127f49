set -u; cd "$(dirname "$0")/.."; . .h200/setup.sh
t() { echo "$* $(one "$@")" | tee -a $R/c4.txt; }
v() { echo "$* $(timeout 120 $B/fftmux run --placement device --repeat 5 --verify "$@" 2>&1 | grep -E '^(execute|verify)' | tr -s ' ' | tr '\n' ' ')" | tee -a $R/c4_verify.txt; }
v --shape 32768 --batch 4096 --backend cuda --variant native
v --shape 32768 --batch 3 --backend cuda --variant native --direction inverse --shift both --norm ortho
v --shape 32768 --batch 5 --backend cuda --variant native --in-place --shift input
v --shape 4x32768 --batch 2 --backend cuda --variant native --shift output
v --shape 32768 --batch 1 --backend cuda --variant native --norm forward
for k in 1 2 3; do
  t 32768 4096 native cuda; t 32768 4096 cufft cuda
done
t 4x32768 1024 native cuda; t 4x32768 1024 cufft cuda
t 32768 4096 native cuda --direction inverse; t 32768 4096 cufft cuda --direction inverse
pack c4
OUT=$OUT/gpu-logs bash tests/cuda/gpu_check.sh .h200 2>&1 | tail -12 | tee $R/c4_gpu_check.txt
pack c4

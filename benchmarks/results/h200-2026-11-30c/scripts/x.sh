#!/bin/bash
# Call X (2026-11-30, third session): OpenGL's single 2D transforms, GPU time
# (GL_TIME_ELAPSED, back to back by GL_TIMESTAMP) against the wall clock of
# a call through the fftmux API, to place its per-call cost.
set -u
cd "$(dirname "$0")/.."
. .h200/setup.sh
timeout 100 $B/opengl_bench --only 2d --peers opengl,vulkan,cuda > $R/gl2d.txt 2>&1; echo "rc=$?"
pack x
cat $R/gl2d.txt | tail -40

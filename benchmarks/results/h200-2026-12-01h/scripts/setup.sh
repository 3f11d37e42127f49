# sourced: loaders and FFTW unpacked, environment for the fftmux binaries
for f in .gl/*.deb; do dpkg -x $f /; done
mkdir -p /opt/fx && for f in .gpu/debs/*.deb; do dpkg -x $f /opt/fx; done
ldconfig
export LD_LIBRARY_PATH=/opt/fx/usr/lib/x86_64-linux-gnu:$PWD/.h200/lib
export XDG_CACHE_HOME=/tmp/fxcache FFTMUX_CONFIG=/tmp/fx.toml
printf '[backends.fftw]\nplanner = "estimate"\n' > /tmp/fx.toml
B=$PWD/.h200/bin
R=/tmp/res; mkdir -p $R
pack() { tar czf $OUT/$1.tgz -C /tmp res; }

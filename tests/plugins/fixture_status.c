/* A status as a C plugin may return it: any int, negative ones included,
 * which a C enum holds but no C++ object of the enum type may. */
#include <fftmux/plugin.h>

fftmux_status fixture_status(int value) {
  return (fftmux_status)value;
}

# ctest -P script: install the build tree into a fresh prefix, build the
# consumer against it with find_package and pkg-config, run both and the
# installed CLI; build the example plugin out of tree both ways (the SDK's
# fftmux_add_plugin, and pkg-config with a manifest written by hand) and
# load each through FFTMUX_ADD_PLUGIN_PATH. Arguments: BUILD, SOURCE, WORK,
# LIBDIR (the build's CMAKE_INSTALL_LIBDIR, Debian's multiarch folder under
# scripts/test.sh), CC.
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
step(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
step(${CMAKE_COMMAND} -S ${SOURCE}/tests/install/consumer -B ${WORK}/consumer
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
step(${CMAKE_COMMAND} --build ${WORK}/consumer)
# No plugin variables: the installed library must find its own plugins.
unset(ENV{FFTMUX_PLUGIN_PATH})
unset(ENV{FFTMUX_ADD_PLUGIN_PATH})
step(${WORK}/consumer/consumer)
set(ENV{LD_LIBRARY_PATH} ${prefix}/${LIBDIR})
step(${WORK}/consumer/consumer_pc)
step(${prefix}/bin/fftmux backends)

# pkg-config names the install's folders, whatever the library folder's depth.
execute_process(COMMAND pkg-config --variable=plugindir fftmux OUTPUT_VARIABLE plugindir
                OUTPUT_STRIP_TRAILING_WHITESPACE)
file(REAL_PATH "${plugindir}" plugindir)
if(NOT plugindir STREQUAL "${prefix}/${LIBDIR}/fftmux/plugins")
  message(FATAL_ERROR "fftmux.pc: plugindir is ${plugindir}, not ${prefix}/${LIBDIR}/fftmux/plugins")
endif()

# check_plugin(<dir>): the installed command lists the example plugin found
# in <dir> and runs a verified transform on it.
function(check_plugin dir)
  set(ENV{FFTMUX_ADD_PLUGIN_PATH} ${dir})
  execute_process(COMMAND ${prefix}/bin/fftmux backends OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nexample +ready")
    message(FATAL_ERROR "the plugin built in ${dir} is not listed ready:\n${out}")
  endif()
  step(${prefix}/bin/fftmux run --backend example --shape 16 --precision f64 --verify)
  unset(ENV{FFTMUX_ADD_PLUGIN_PATH})
endfunction()

set(example ${SOURCE}/examples/plugin/example_plugin.c)
step(${CMAKE_COMMAND} -S ${SOURCE}/tests/install/plugin -B ${WORK}/plugin
     -DCMAKE_PREFIX_PATH=${prefix} -DEXAMPLE_SOURCE=${example} -DCMAKE_BUILD_TYPE=Release)
step(${CMAKE_COMMAND} --build ${WORK}/plugin)
check_plugin(${WORK}/plugin)

execute_process(COMMAND pkg-config --cflags fftmux OUTPUT_VARIABLE cflags
                OUTPUT_STRIP_TRAILING_WHITESPACE)
separate_arguments(cflags UNIX_COMMAND "${cflags}")
file(MAKE_DIRECTORY ${WORK}/pc-plugin)
step(${CC} -std=c99 -O2 -shared -fPIC ${cflags} ${example} -o ${WORK}/pc-plugin/libexample.so -lm)
file(WRITE ${WORK}/pc-plugin/example.toml "file_format_version = 1\n\n[backend]\n"
     "name = \"example\"\nlibrary = \"libexample.so\"\nabi_version = 1\n")
check_plugin(${WORK}/pc-plugin)

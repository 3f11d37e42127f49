# ctest -P script: install the build tree into a fresh prefix, build the
# consumer against it with find_package and pkg-config, run both and the
# installed CLI. Arguments: BUILD, SOURCE, WORK.
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
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
step(${CMAKE_COMMAND} -S ${SOURCE}/tests/install/consumer -B ${WORK}/consumer
     -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
step(${CMAKE_COMMAND} --build ${WORK}/consumer)
# No plugin variables: the installed library must find its own plugins.
unset(ENV{FFTMUX_PLUGIN_PATH})
unset(ENV{FFTMUX_ADD_PLUGIN_PATH})
step(${WORK}/consumer/consumer)
set(ENV{LD_LIBRARY_PATH} ${prefix}/lib)
step(${WORK}/consumer/consumer_pc)
step(${prefix}/bin/fftmux backends)

# Sanitized builds (scripts/sanitize.sh makes them with clang):
#   FFTMUX_SANITIZE=address,undefined   ASan + UBSan, every error fatal
#   FFTMUX_SANITIZE=thread              TSan
# The sanitizer runtime lives in the executable, so shared libraries and
# plugins of such a build leave its symbols undefined.
set(FFTMUX_SANITIZE "" CACHE STRING "Sanitizers for every target: address,undefined or thread")
option(FFTMUX_FUZZ "Build tests/fuzz as libFuzzer programs (clang) rather than replay programs" OFF)
if(FFTMUX_FUZZ AND NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  message(FATAL_ERROR "FFTMUX_FUZZ=ON needs clang (libFuzzer): configure with CXX=clang++-14")
endif()

if(FFTMUX_SANITIZE)
  add_compile_options(-fsanitize=${FFTMUX_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${FFTMUX_SANITIZE})
  # C programs (tests/c99, the C example) load the C++ library: they need
  # the C++ half of the runtime, and the C++ library it calls.
  add_link_options($<$<LINK_LANGUAGE:C>:-fsanitize-link-c++-runtime>)
  string(APPEND CMAKE_C_STANDARD_LIBRARIES " -lstdc++")
  message(STATUS "fftmux: sanitized build (${FFTMUX_SANITIZE})")
endif()

# fftmux_no_undefined(<target>): refuse unresolved symbols at link time,
# except in sanitized builds (see above).
function(fftmux_no_undefined target)
  if(NOT FFTMUX_SANITIZE)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
endfunction()

# fftmux_sanitized_shard(<test> <shards>): in a sanitized build, a GoogleTest
# suite runs one case in <shards> (shard 0 of gtest's round robin, so every
# kind of case still comes up). For the GPU backends on Mesa's CPU drivers,
# whose run time is the driver's, not the sanitized code's.
function(fftmux_sanitized_shard test shards)
  if(FFTMUX_SANITIZE)
    set_property(TEST ${test} APPEND PROPERTY ENVIRONMENT "GTEST_TOTAL_SHARDS=${shards}"
                                                          "GTEST_SHARD_INDEX=0")
  endif()
endfunction()

# The runtime options every test of a sanitized build runs with: errors are
# fatal, leaks are errors, third-party reports are suppressed where
# tests/sanitizers/*.supp justifies it.
function(fftmux_sanitizer_env out)
  set(supp ${PROJECT_SOURCE_DIR}/tests/sanitizers)
  set(env "")
  if(FFTMUX_SANITIZE MATCHES "address")
    list(APPEND env
      "ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1"
      "LSAN_OPTIONS=suppressions=${supp}/lsan.supp:print_suppressions=0")
    # Mesa's lavapipe and llvmpipe drivers (Debian 12's 22.3.6-1+deb12u2)
    # keep 128 bytes reachable only from their own globals: when the Vulkan
    # loader or EGL unloads them, LSan reports those bytes as leaked from an
    # unknown module, which no suppression can name. Preloaded, the drivers
    # stay mapped and the bytes reachable.
    set(mesa "")
    foreach(lib libvulkan_lvp.so dri/swrast_dri.so)
      set(path /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/${lib})
      if(EXISTS ${path})
        list(APPEND mesa ${path})
      endif()
    endforeach()
    if(mesa)
      string(REPLACE ";" ":" mesa "${mesa}")
      list(APPEND env "LD_PRELOAD=${mesa}")
    endif()
  endif()
  if(FFTMUX_SANITIZE MATCHES "undefined")
    list(APPEND env "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:suppressions=${supp}/ubsan.supp")
  endif()
  if(FFTMUX_SANITIZE MATCHES "thread")
    list(APPEND env "TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=${supp}/tsan.supp")
  endif()
  set(${out} "${env}" PARENT_SCOPE)
endfunction()

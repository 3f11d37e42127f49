# fftmux_shaderc_static(found): an INTERFACE target fftmux_shaderc linking
# shaderc statically. Debian 12's libshaderc.so leaves glslang symbols
# unresolved, so shaderc_combined goes with glslang's and SPIRV-Tools'
# static libraries, in one group (they refer to each other).
function(fftmux_shaderc_static found)
  set(${found} FALSE PARENT_SCOPE)
  find_path(FFTMUX_SHADERC_INCLUDE shaderc/shaderc.hpp)
  set(libs shaderc_combined SPIRV glslang MachineIndependent OSDependent GenericCodeGen
      OGLCompiler SPIRV-Tools-opt SPIRV-Tools glslang-default-resource-limits)
  set(paths "")
  foreach(lib ${libs})
    find_library(FFTMUX_STATIC_${lib} NAMES lib${lib}.a)
    if(NOT FFTMUX_STATIC_${lib})
      message(STATUS "fftmux: static lib${lib}.a not found (libshaderc-dev, glslang-dev, spirv-tools)")
      return()
    endif()
    list(APPEND paths ${FFTMUX_STATIC_${lib}})
  endforeach()
  if(NOT FFTMUX_SHADERC_INCLUDE OR TARGET fftmux_shaderc)
    set(${found} ${FFTMUX_SHADERC_INCLUDE} PARENT_SCOPE)
    return()
  endif()
  add_library(fftmux_shaderc INTERFACE)
  target_include_directories(fftmux_shaderc INTERFACE ${FFTMUX_SHADERC_INCLUDE})
  target_link_libraries(fftmux_shaderc INTERFACE -Wl,--start-group ${paths} -Wl,--end-group
                        Threads::Threads)
  set(${found} TRUE PARENT_SCOPE)
endfunction()

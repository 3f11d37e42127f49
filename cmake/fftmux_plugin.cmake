# fftmux_backend_option(VAR doc): a tri-state AUTO|ON|OFF cache option.
function(fftmux_backend_option var doc)
  set(${var} AUTO CACHE STRING "${doc}: AUTO, ON or OFF")
  set_property(CACHE ${var} PROPERTY STRINGS AUTO ON OFF)
endfunction()

# fftmux_backend_enabled(VAR found reason): decides whether a backend is built.
# AUTO leaves it out with a message when its dependencies are missing; ON
# makes their absence an error.
function(fftmux_backend_enabled var found reason)
  if(${var} STREQUAL "OFF")
    message(STATUS "fftmux: ${var}=OFF, backend not built")
    set(${var}_BUILD OFF CACHE INTERNAL "")
  elseif(found)
    message(STATUS "fftmux: ${var}: building the backend")
    set(${var}_BUILD ON CACHE INTERNAL "")
  elseif(${var} STREQUAL "ON")
    message(FATAL_ERROR "fftmux: ${var}=ON but ${reason}")
  else()
    message(STATUS "fftmux: ${var}=AUTO and ${reason}: backend left out")
    set(${var}_BUILD OFF CACHE INTERNAL "")
  endif()
endfunction()

# fftmux_add_plugin(<target> <backend-name> SOURCES ... LIBRARIES ...)
# Builds a plugin module into the plugin folder with its manifest beside it,
# and installs both.
function(fftmux_add_plugin target backend)
  cmake_parse_arguments(P "" "" "SOURCES;LIBRARIES" ${ARGN})
  add_library(${target} MODULE ${P_SOURCES})
  target_link_libraries(${target} PRIVATE fftmux_headers ${P_LIBRARIES})
  set_target_properties(${target} PROPERTIES PREFIX "lib" LIBRARY_OUTPUT_DIRECTORY ${FFTMUX_PLUGIN_DIR})
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL)
  fftmux_no_undefined(${target})
  fftmux_write_manifest(${target} ${backend} ${FFTMUX_PLUGIN_DIR} lib${target}.so)
  install(TARGETS ${target} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/fftmux/plugins)
  install(FILES ${FFTMUX_PLUGIN_DIR}/${backend}.toml DESTINATION ${CMAKE_INSTALL_LIBDIR}/fftmux/plugins)
endfunction()

# fftmux_write_manifest(<target> <backend> <dir> <library> [ABI n])
function(fftmux_write_manifest target backend dir library)
  cmake_parse_arguments(M "" "ABI;FILE" "" ${ARGN})
  if(NOT M_ABI)
    set(M_ABI 1)
  endif()
  if(NOT M_FILE)
    set(M_FILE ${backend}.toml)
  endif()
  file(WRITE ${dir}/${M_FILE}
"# fftmux plugin manifest (docs/plugins.md)
file_format_version = 1

[backend]
name = \"${backend}\"
library = \"${library}\"
abi_version = ${M_ABI}
")
endfunction()

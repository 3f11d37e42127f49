# The plugin SDK's CMake helper: find_package(fftmux) includes it, and the
# fftmux tree builds its own backends with it.
#
#   fftmux_add_plugin(<target> <backend> SOURCES ... [LIBRARIES ...]
#                     [DESTINATION <dir>] [COMPONENT <name>])
#
# builds <target> as a module linked against fftmux::plugin (the ABI's
# headers, nothing else), with its manifest <backend>.toml beside it in
# FFTMUX_PLUGIN_OUTPUT_DIR (default: the current binary folder), so that
# FFTMUX_ADD_PLUGIN_PATH=<that folder> loads it uninstalled; and installs
# both into DESTINATION (default: <libdir>/fftmux/plugins, where libfftmux
# looks) as install component COMPONENT (default: <backend>).
include_guard(GLOBAL)
include(GNUInstallDirs)

# fftmux_write_manifest(<target> <backend> <dir> <library> [ABI n] [FILE name])
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

function(fftmux_add_plugin target backend)
  cmake_parse_arguments(P "" "DESTINATION;COMPONENT" "SOURCES;LIBRARIES" ${ARGN})
  if(NOT P_DESTINATION)
    set(P_DESTINATION ${CMAKE_INSTALL_LIBDIR}/fftmux/plugins)
  endif()
  if(NOT P_COMPONENT)
    set(P_COMPONENT ${backend})
  endif()
  set(dir ${FFTMUX_PLUGIN_OUTPUT_DIR})
  if(NOT dir)
    set(dir ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  add_library(${target} MODULE ${P_SOURCES})
  target_link_libraries(${target} PRIVATE fftmux::plugin ${P_LIBRARIES})
  set_target_properties(${target} PROPERTIES PREFIX "lib" LIBRARY_OUTPUT_DIRECTORY ${dir})
  # The plugin's own dependencies stay its own; an unresolved symbol fails the link, not the load
  # (sanitized builds of the fftmux tree resolve their runtime at load time).
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL)
  if(NOT FFTMUX_SANITIZE)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
  fftmux_write_manifest(${target} ${backend} ${dir} lib${target}.so)
  install(TARGETS ${target} LIBRARY DESTINATION ${P_DESTINATION} COMPONENT ${P_COMPONENT})
  install(FILES ${dir}/${backend}.toml DESTINATION ${P_DESTINATION} COMPONENT ${P_COMPONENT})
endfunction()

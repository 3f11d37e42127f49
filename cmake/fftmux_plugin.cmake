# The fftmux tree's backend options; its plugins are built with the SDK's
# fftmux_add_plugin (fftmuxPlugin.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/fftmuxPlugin.cmake)

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

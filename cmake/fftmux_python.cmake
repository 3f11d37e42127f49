# fftmux_python_lacks(<out> <what> <module>...): sets <out> where
# FFTMUX_PYTHON cannot import every module, with a warning that <what> is
# not added and which Debian packages bring the modules.
function(fftmux_python_lacks out what)
  string(REPLACE ";" ", " modules "${ARGN}")
  execute_process(COMMAND ${FFTMUX_PYTHON} -c "import ${modules}"
                  RESULT_VARIABLE lacks OUTPUT_QUIET ERROR_QUIET)
  if(lacks)
    list(TRANSFORM ARGN PREPEND python3- OUTPUT_VARIABLE packages)
    string(REPLACE ";" " " packages "${packages}")
    message(WARNING "${what} not added: ${FFTMUX_PYTHON} cannot import ${modules} "
                    "(Debian: apt-get install ${packages})")
  endif()
  set(${out} ${lacks} PARENT_SCOPE)
endfunction()

# Debian packages of the install components (cpack -G DEB in the build tree;
# scripts/packages.sh): libfftmux0, libfftmux-dev, fftmux (the command),
# python3-fftmux and one fftmux-backend-<name> a built backend, whose
# plugin module and manifest alone it carries into <libdir>/fftmux/plugins.
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_VENDOR "fftmux")
set(CPACK_PACKAGE_CONTACT "fftmux developers <fftmux@lists.debian.net>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libfftmux (in the build tree) and CUDA's toolkit are found but in no
# Debian package: libfftmux0 is depended on by name below, CUDA by none.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/lib ${CUDAToolkit_LIBRARY_DIR})
# libfftmux0's shlibs file, and the ldconfig trigger Debian's policy asks of it.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/cmake/debian/triggers)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "https://github.com/fftmux/fftmux")
set(lib_dep "libfftmux0 (= ${PROJECT_VERSION})")

# fftmux_package(<component> <name> <section> <summary> [DEPENDS ...])
macro(fftmux_package component name section summary)
  string(TOUPPER ${component} C)
  set(CPACK_DEBIAN_${C}_PACKAGE_NAME ${name})
  set(CPACK_DEBIAN_${C}_PACKAGE_SECTION ${section})
  set(CPACK_COMPONENT_${C}_DESCRIPTION "${summary}")
  string(REPLACE ";" ", " deps "${ARGN}")
  set(CPACK_DEBIAN_${C}_PACKAGE_DEPENDS "${deps}")
  list(APPEND CPACK_COMPONENTS_ALL ${component})
endmacro()

set(CPACK_COMPONENTS_ALL "")
fftmux_package(lib libfftmux0 libs "fftmux: one FFT API over every engine (library)")
fftmux_package(dev libfftmux-dev libdevel "fftmux: headers, CMake package, pkg-config, plugin SDK"
               ${lib_dep})
fftmux_package(cli fftmux utils "fftmux: the command line (run, explain, autotune)" ${lib_dep})
fftmux_package(python python3-fftmux python "fftmux: numpy.fft-style Python binding" ${lib_dep}
               "python3" "python3-numpy")
# The GPU backends load their API's loader at run time (dlopen), so their
# packages name it; a device's driver (Mesa's, NVIDIA's) is the user's choice.
set(vulkan_deps libvulkan1)
set(opengl_deps libegl1 libgl1)
foreach(b FFTW VULKAN OPENGL CUDA)
  if(FFTMUX_WITH_${b}_BUILD)
    string(TOLOWER ${b} name)
    fftmux_package(${name} fftmux-backend-${name} libs "fftmux: the ${name} backend plugin"
                   ${lib_dep} ${${name}_deps})
  endif()
endforeach()
if(FFTMUX_WITH_FFTW_MPI_BUILD) # libfftw3-mpi3 and Open MPI come through its shlibs
  fftmux_package(fftw-mpi fftmux-backend-fftw-mpi libs
                 "fftmux: the fftw-mpi backend plugin (distributed transforms)" ${lib_dep})
endif()
set(CPACK_DEBIAN_VULKAN_PACKAGE_SUGGESTS "mesa-vulkan-drivers")
set(CPACK_DEBIAN_OPENGL_PACKAGE_SUGGESTS "libegl-mesa0, libgl1-mesa-dri")
set(CPACK_DEBIAN_PYTHON_PACKAGE_ARCHITECTURE all)
include(CPack)

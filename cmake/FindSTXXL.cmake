# FindSTXXL.cmake: locates STXXL 1.4.1 (Debian's libstxxl-dev ships no CMake config) and
# defines the imported target stxxl::stxxl (headers as SYSTEM, -fopenmp, pthreads).
#
# Result variables: STXXL_FOUND, STXXL_INCLUDE_DIR, STXXL_LIBRARY, STXXL_VERSION.
# Hints: STXXL_ROOT (a prefix holding include/stxxl.h and lib/libstxxl.so).

find_path(STXXL_INCLUDE_DIR NAMES stxxl.h stxxl/bits/config.h
  HINTS ${STXXL_ROOT} ENV STXXL_ROOT PATH_SUFFIXES include)
find_library(STXXL_LIBRARY NAMES stxxl
  HINTS ${STXXL_ROOT} ENV STXXL_ROOT PATH_SUFFIXES lib lib64)

if(STXXL_INCLUDE_DIR AND EXISTS "${STXXL_INCLUDE_DIR}/stxxl/bits/config.h")
  file(STRINGS "${STXXL_INCLUDE_DIR}/stxxl/bits/config.h" _stxxl_version_line
       REGEX "^#define STXXL_VERSION_STRING \"[^\"]+\"")
  string(REGEX REPLACE ".*\"([^\"]+)\".*" "\\1" STXXL_VERSION "${_stxxl_version_line}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(STXXL
  REQUIRED_VARS STXXL_LIBRARY STXXL_INCLUDE_DIR
  VERSION_VAR STXXL_VERSION)

if(STXXL_FOUND AND NOT TARGET stxxl::stxxl)
  find_package(OpenMP REQUIRED COMPONENTS CXX)
  find_package(Threads REQUIRED)
  add_library(stxxl::stxxl UNKNOWN IMPORTED)
  set_target_properties(stxxl::stxxl PROPERTIES IMPORTED_LOCATION "${STXXL_LIBRARY}")
  # /usr/include is already a system directory: adding it again with -isystem reorders the
  # search path and breaks libstdc++'s #include_next <stdlib.h> (shared/DESIGN.md).
  if(NOT STXXL_INCLUDE_DIR STREQUAL "/usr/include")
    set_target_properties(stxxl::stxxl PROPERTIES
      INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${STXXL_INCLUDE_DIR}"
      INTERFACE_INCLUDE_DIRECTORIES "${STXXL_INCLUDE_DIR}")
  endif()
  target_link_libraries(stxxl::stxxl INTERFACE OpenMP::OpenMP_CXX Threads::Threads)
endif()
mark_as_advanced(STXXL_INCLUDE_DIR STXXL_LIBRARY)

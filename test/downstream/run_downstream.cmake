# Builds and installs flashxxl (headers + static core) into a scratch prefix, then builds test/downstream/consumer with find_package.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/lib" -DCMAKE_INSTALL_PREFIX=${prefix}
    -DFLASHXXL_BUILD_TESTS=OFF -DFLASHXXL_BUILD_BENCH=OFF -DFLASHXXL_BUILD_CLI=OFF)
# The core library (flashxxl::core) is compiled before it is installed.
run(${CMAKE_COMMAND} --build "${WORK_DIR}/lib")
run(${CMAKE_COMMAND} --install "${WORK_DIR}/lib")
# A configure that names no build type installs a Release build (no debug info in the core).
file(STRINGS "${WORK_DIR}/lib/CMakeCache.txt" build_type REGEX "^CMAKE_BUILD_TYPE:")
if(NOT build_type STREQUAL "CMAKE_BUILD_TYPE:STRING=Release")
  message(FATAL_ERROR "default build type is '${build_type}', expected Release")
endif()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/test/downstream/consumer" -B "${WORK_DIR}/consumer"
    -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/consumer")
run("${WORK_DIR}/consumer/consumer")
file(REMOVE_RECURSE "${WORK_DIR}")

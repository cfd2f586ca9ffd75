# Rewriter golden tests.
#   cmake -DCEIC=ceic -DSRC=case.cpp -DCEI=ops.cei.hpp -DINC=dir -DEXPECTED=case.expected
#         -DMODE=rewrite|refuse -DOUT=actual -P golden.cmake
# rewrite: the instrumented source equals EXPECTED (the source's directory written as @DIR@).
# refuse:  ceic fails and its stderr holds every line of EXPECTED (paths relative to @DIR@).
get_filename_component(dir "${SRC}" DIRECTORY)
execute_process(COMMAND "${CEIC}" --instrument "${SRC}" --cei "${CEI}" -o "${OUT}"
                        --registry-header golden_registry.hpp -- "-I${INC}"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(READ "${EXPECTED}" expected)
if(MODE STREQUAL "rewrite")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ceic failed (${rc}):\n${err}")
  endif()
  file(READ "${OUT}" actual)
  string(REPLACE "${dir}" "@DIR@" actual "${actual}")
  if(NOT actual STREQUAL expected)
    file(WRITE "${OUT}.golden" "${actual}")
    execute_process(COMMAND diff -u "${EXPECTED}" "${OUT}.golden")
    message(FATAL_ERROR "rewritten source differs from ${EXPECTED} (actual: ${OUT}.golden)")
  endif()
else()
  if(rc EQUAL 0)
    message(FATAL_ERROR "ceic accepted ${SRC}; expected it to refuse")
  endif()
  string(REPLACE "${dir}" "@DIR@" err "${err}")
  string(REPLACE "\n" ";" lines "${expected}")
  foreach(line IN LISTS lines)
    if(line AND NOT err MATCHES "${line}")
      message(FATAL_ERROR "missing diagnostic:\n  ${line}\nceic said:\n${err}")
    endif()
  endforeach()
  message(STATUS "${err}")
endif()

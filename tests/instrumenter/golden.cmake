# Rewriter golden tests: the instrumented source equals EXPECTED (the source's directory written
# as @DIR@). (Refused constructs are rules: rules/*.cpp, rule_check.py.)
#   cmake -DCEIC=ceic -DSRC=case.cpp -DCEI=ops.cei.hpp -DINC=dir -DEXPECTED=case.expected
#         -DOUT=actual -P golden.cmake
get_filename_component(dir "${SRC}" DIRECTORY)
execute_process(COMMAND "${CEIC}" --instrument "${SRC}" --cei "${CEI}" -o "${OUT}"
                        --registry-header golden_registry.hpp -- "-I${INC}"
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(READ "${EXPECTED}" expected)
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

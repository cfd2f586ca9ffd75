# cei-clbuild reports an error inside a kernel body at the kernel file's line and column, exit 2.
#   cmake -DCLBUILD=<cei-clbuild> -DKERNEL=<syntax_error.cl> -P check.cmake
execute_process(COMMAND "${CLBUILD}" "${KERNEL}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 120)
string(FIND "${err}" "${KERNEL}:3:12: error: expected ';'" at)
if(NOT rc EQUAL 2 OR at EQUAL -1)
  message(FATAL_ERROR "cei-clbuild: exit status ${rc}, stderr:\n${err}${out}")
endif()

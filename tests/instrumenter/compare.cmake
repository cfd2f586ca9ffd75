# Sequential equivalence: the instrumented program (CEI_CPU_CORES=4) prints exactly what its -seq
# twin prints.   cmake -DSEQ=prog-seq -DINST=prog -P compare.cmake
# With -DEXPECT_DIFFERENT=ON both must run to completion and print different things (a program
# built with `ceic --no-sync` shows that the equivalence is owed to the inserted waits).
execute_process(COMMAND "${SEQ}" OUTPUT_VARIABLE seq_out ERROR_VARIABLE seq_err RESULT_VARIABLE seq_rc)
execute_process(COMMAND "${CMAKE_COMMAND}" -E env CEI_CPU_CORES=4 "${INST}"
                OUTPUT_VARIABLE inst_out ERROR_VARIABLE inst_err RESULT_VARIABLE inst_rc)
if(NOT seq_rc EQUAL 0)
  message(FATAL_ERROR "${SEQ} failed (${seq_rc}):\n${seq_err}")
endif()
if(NOT inst_rc EQUAL 0)
  message(FATAL_ERROR "${INST} failed (${inst_rc}):\n${inst_out}\n${inst_err}")
endif()
if(EXPECT_DIFFERENT)
  if(seq_out STREQUAL inst_out)
    message(FATAL_ERROR "${INST} printed what ${SEQ} prints although its waits were left out")
  endif()
  message(STATUS "different output, as expected:\n--- ${SEQ}\n${seq_out}--- ${INST}\n${inst_out}")
  return()
endif()
if(NOT seq_out STREQUAL inst_out)
  message(FATAL_ERROR "outputs differ\n--- ${SEQ}\n${seq_out}--- ${INST}\n${inst_out}${inst_err}")
endif()
message(STATUS "same output:\n${seq_out}")

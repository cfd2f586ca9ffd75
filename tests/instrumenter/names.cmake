# A real instrumented program's graph, trace and decision log name its data after the program's
# text at each call (`C[3] v2`), and it still prints what its -seq twin prints.
#   cmake -DSEQ=prog-seq -DINST=prog -DOUT=dir -P names.cmake
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND "${SEQ}" OUTPUT_VARIABLE seq_out RESULT_VARIABLE seq_rc)
execute_process(COMMAND "${CMAKE_COMMAND}" -E env CEI_POLICY=only:cpu CEI_LOG=debug
                        "CEI_GRAPH=${OUT}/graph.dot" "CEI_TRACE=${OUT}/trace.json" "${INST}"
                OUTPUT_VARIABLE inst_out ERROR_VARIABLE log RESULT_VARIABLE inst_rc)
if(NOT seq_rc EQUAL 0 OR NOT inst_rc EQUAL 0)
  message(FATAL_ERROR "${SEQ}: ${seq_rc}, ${INST}: ${inst_rc}\n${log}")
endif()
if(NOT seq_out STREQUAL inst_out)
  message(FATAL_ERROR "outputs differ\n--- ${SEQ}\n${seq_out}--- ${INST}\n${inst_out}")
endif()
file(READ "${OUT}/graph.dot" graph)
file(READ "${OUT}/trace.json" trace)
# fill's out makes v1, the assigned result of add v2, scale's inout v3; each feeds the next task.
# The graph adds the datum to a value's name (`C[3] v1 (d1)`), which tells apart values named alike.
foreach(edge "t1 -> t2 \\[label=\"C\\[3\\] v1 \\(d[0-9]+\\)\"\\]"
             "t2 -> t3 \\[label=\"C\\[3\\] v2 \\(d[0-9]+\\)\"\\]"
             "t3 -> t4 \\[label=\"C\\[3\\] v3 \\(d[0-9]+\\)\"\\]")
  if(NOT graph MATCHES "${edge}")
    message(FATAL_ERROR "graph.dot has no edge matching ${edge}:\n${graph}")
  endif()
endforeach()
foreach(version "C\\[3\\] v1" "C\\[3\\] v2" "C\\[3\\] v3" "total v1")
  if(NOT trace MATCHES "\"version\": ?\"${version}\"")
    message(FATAL_ERROR "trace.json names no data ${version}")
  endif()
endforeach()
# The literals 4, 1 and 5 are copies the runtime made: short ids, and no program datum has one.
if(NOT trace MATCHES "\"version\": ?\"r[0-9]+v0\"" OR trace MATCHES "\"version\": ?\"d[0-9]+v")
  message(FATAL_ERROR "trace.json: expected short ids for the literals only")
endif()
if(NOT log MATCHES "after t2:C\\[3\\] v2")
  message(FATAL_ERROR "the decision log does not name C[3] v2:\n${log}")
endif()
message(STATUS "graph:\n${graph}")

# A second build with nothing changed runs no ceic step: builds the ceic steps of a copy of
# build_errors/ with its CEI header without kernels (whose registry depends on no kernel file),
# then builds again and expects no registry step; then edits the CEI header and expects it again,
# once.
#   cmake -DSRC=build_errors -DBIN=dir -DCEI_DIR=<CEI build dir> -DGENERATOR=Ninja
#         -P noop_rebuild.cmake
file(REMOVE_RECURSE "${BIN}")
file(COPY "${SRC}/" DESTINATION "${BIN}/src")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${BIN}/src" -B "${BIN}/build" -G "${GENERATOR}"
                        "-DCEI_DIR=${CEI_DIR}" -DCEI_HEADER=app.cei.hpp
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the copy of ${SRC} failed:\n${out}")
endif()
function(build expect_ceic what)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BIN}/build" --target app_generated
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the build ${what} failed:\n${out}")
  endif()
  string(FIND "${out}" "CE registry of app" at)
  if(expect_ceic AND at EQUAL -1)
    message(FATAL_ERROR "the build ${what} did not run the registry step:\n${out}")
  elseif(NOT expect_ceic AND NOT at EQUAL -1)
    message(FATAL_ERROR "the build ${what} ran the registry step again:\n${out}")
  endif()
endfunction()
build(TRUE "from scratch")
build(FALSE "with nothing changed")
# An edit that leaves the registry as it was (Make, which does not look at a step's outputs again
# after it ran, once ran it at every later build).
file(APPEND "${BIN}/src/app.cei.hpp" "// edited\n")
build(TRUE "after the CEI header changed")
build(FALSE "with nothing changed since")
message(STATUS "a build with nothing changed ran no ceic step")

# A kernel edited after a good build is checked again: builds the ceic steps of a copy of
# build_errors/ (whose CMakeLists.txt does not list the kernel in KERNELS) with a kernel that
# matches, then makes the kernel take `int alpha` for the CE's `float alpha`: the next build must
# rerun the registry step and fail on it.
#   cmake -DSRC=build_errors -DBIN=dir -DCEI_DIR=<CEI build dir> -DGENERATOR=Ninja
#         -P kernel_rebuild.cmake
file(REMOVE_RECURSE "${BIN}")
file(COPY "${SRC}/" DESTINATION "${BIN}/src")
set(kernel "${BIN}/src/app.cl")
file(READ "${kernel}" mismatched)
string(REPLACE "int alpha" "float alpha" matching "${mismatched}")
if(matching STREQUAL mismatched)
  message(FATAL_ERROR "${SRC}/app.cl no longer takes 'int alpha'")
endif()
file(WRITE "${kernel}" "${matching}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${BIN}/src" -B "${BIN}/build" -G "${GENERATOR}"
                        "-DCEI_DIR=${CEI_DIR}" -DCEI_HEADER=kernel_mismatch.cei.hpp
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the copy of ${SRC} failed:\n${out}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BIN}/build" --target app_generated
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the build with a matching kernel failed:\n${out}")
endif()
file(WRITE "${kernel}" "${mismatched}")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BIN}/build" --target app_generated
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
set(want "app.cl:1:44: error: ceic: kernel 'scale' argument 1 'alpha' is 'int'")
string(FIND "${out}" "${want}" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "after the kernel changed, the build did not stop at ceic with\n  ${want}\n"
                      "--- build output (exit status ${rc})\n${out}")
endif()
message(STATUS "the edited kernel was checked again:\n${out}")

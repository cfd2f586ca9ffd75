# What a second build of a copy of build_errors/ runs (its CMakeLists.txt does not list the
# kernel in KERNELS):
# - with its CEI header without kernels: a build with nothing changed runs no ceic step; an edit
#   of the CEI header runs the registry step once (Ninja took the registry's empty depfile for a
#   missing one and reran the step at every build; Make, which does not look at a step's outputs
#   again after it ran, reran it at every build after an edit that left the registry as it was);
# - with a CE whose kernel matches: after the kernel is made to take `int alpha` for the CE's
#   `float alpha`, the next build reruns the registry step and fails on it.
#   cmake -DSRC=build_errors -DBIN=dir -DCEI_DIR=<CEI build dir> -DGENERATOR=Ninja
#         -P rebuild.cmake
file(REMOVE_RECURSE "${BIN}")

function(configure copy header)
  file(COPY "${SRC}/" DESTINATION "${BIN}/${copy}/src")
  execute_process(COMMAND "${CMAKE_COMMAND}" -S "${BIN}/${copy}/src" -B "${BIN}/${copy}/build"
                          -G "${GENERATOR}" "-DCEI_DIR=${CEI_DIR}" -DCEI_HEADER=${header}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the copy of ${SRC} with ${header} failed:\n${out}")
  endif()
endfunction()
# Builds ceic's steps of the copy; sets `out` and `rc` in the caller.
function(build copy)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BIN}/${copy}/build" --target app_generated
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  set(out "${out}" PARENT_SCOPE)
  set(rc "${rc}" PARENT_SCOPE)
endfunction()
function(expect_registry_step want what)
  build(noop)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the build ${what} failed:\n${out}")
  endif()
  string(FIND "${out}" "CE registry of app" at)
  if(want AND at EQUAL -1)
    message(FATAL_ERROR "the build ${what} did not run the registry step:\n${out}")
  elseif(NOT want AND NOT at EQUAL -1)
    message(FATAL_ERROR "the build ${what} ran the registry step again:\n${out}")
  endif()
endfunction()

configure(noop app.cei.hpp)
expect_registry_step(TRUE "from scratch")
expect_registry_step(FALSE "with nothing changed")
file(APPEND "${BIN}/noop/src/app.cei.hpp" "// edited\n")  # the registry stays as it was
expect_registry_step(TRUE "after the CEI header changed")
expect_registry_step(FALSE "with nothing changed since")

set(kernel "${BIN}/kernel/src/app.cl")
configure(kernel kernel_mismatch.cei.hpp)
file(READ "${kernel}" mismatched)
string(REPLACE "int alpha" "float alpha" matching "${mismatched}")
if(matching STREQUAL mismatched)
  message(FATAL_ERROR "${SRC}/app.cl no longer takes 'int alpha'")
endif()
file(WRITE "${kernel}" "${matching}")
build(kernel)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the build with a matching kernel failed:\n${out}")
endif()
file(WRITE "${kernel}" "${mismatched}")
build(kernel)
set(want "app.cl:1:44: error: ceic: kernel 'scale' argument 1 'alpha' is 'int'")
string(FIND "${out}" "${want}" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "after the kernel changed, the build did not stop at ceic with\n  ${want}\n"
                      "--- build output (exit status ${rc})\n${out}")
endif()
message(STATUS "nothing rebuilt without a change; the edited kernel was checked again:\n${out}")

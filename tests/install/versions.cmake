# Every program CEI gives a user answers --version with CEI's version, exit status 0.
#   cmake -DVERSION=0.1.0 -DTOOLS=<path>,<path>,... -P versions.cmake
string(REPLACE "," ";" TOOLS "${TOOLS}")
foreach(tool IN LISTS TOOLS)
  execute_process(COMMAND "${tool}" --version RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err TIMEOUT 60)
  get_filename_component(name "${tool}" NAME)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\\(CEI\\) ${VERSION}")
    message(FATAL_ERROR "${name} --version: exit status ${rc}, printed:\n${out}${err}\n"
                        "expected status 0 and '(CEI) ${VERSION}'")
  endif()
  message(STATUS "${out}")
endforeach()

# Kernel signature checks, lit-style: `ceic --registry` on CASE (a CEI header, run from its folder
# so that paths print as written) must print exactly the `// CHECK: ` lines of CASE, in order, and
# exit with status 2; a CASE without CHECK lines must print nothing and exit with 0.
#   cmake -DCEIC=ceic -DCASE=kernels/NN_name.cei.hpp -DOUT=dir -P kernel_check.cmake
get_filename_component(dir "${CASE}" DIRECTORY)
get_filename_component(name "${CASE}" NAME)
execute_process(COMMAND "${CEIC}" --registry --cei "${name}" -o "${OUT}/${name}.cpp"
                        -H "${OUT}/${name}.hpp"
                WORKING_DIRECTORY "${dir}" RESULT_VARIABLE rc ERROR_VARIABLE err)
# Line by line without CMake's lists, which would split the messages at their semicolons.
file(READ "${CASE}" text)
set(expected "")
while(text MATCHES "^([^\n]*)\n(.*)$")
  set(line "${CMAKE_MATCH_1}")
  set(text "${CMAKE_MATCH_2}")
  if(line MATCHES "^// CHECK: (.*)$")
    string(APPEND expected "${CMAKE_MATCH_1}\n")
  endif()
endwhile()
set(want_rc 0)
if(expected)
  set(want_rc 2)
endif()
if(NOT err STREQUAL expected OR NOT rc EQUAL want_rc)
  message(FATAL_ERROR "ceic --registry --cei ${name} exited with ${rc} (expected ${want_rc})\n"
                      "--- expected\n${expected}--- ceic said\n${err}")
endif()
message(STATUS "ceic exited with ${rc}:\n${err}")

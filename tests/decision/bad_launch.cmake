# A real program (the matmul example) launched with one bad value at a time: each must stop with
# exit status 2 and a message naming the variable, before any task runs - not a crash, an abort
# or a silent default. Run as: cmake -DEXE=<matmul> -DCONFIGS=<tests/decision/configs> -P bad_launch.cmake
set(cases
  "CEI_CPU_CORES=100000|CEI_CPU_CORES: expected an integer from 0 to 1024, got '100000'"
  "CEI_PLATFORMS=/dev/zero|CEI_PLATFORMS: '/dev/zero': not a regular file"
  "CEI_PLATFORMS=no-such-platforms.toml|CEI_PLATFORMS: 'no-such-platforms.toml': cannot open"
  "CEI_PROFILE=/tmp|CEI_PROFILE: /tmp: not a regular file"
  "CEI_POLICY=only:gpu|CEI_POLICY: unknown platform 'gpu' (platforms: cpu, opencl0, opencl1"
  "CEI_PLATFORMS=${CONFIGS}/static_unknown_ce.toml|${CONFIGS}/static_unknown_ce.toml:7: policy.static.MatmulCEI.multipy: no CE of that name in this program (CEs: MatmulCEI.add, MatmulCEI.multiply"
  "CEI_OPENCL_MEM_CAP=0|CEI_OPENCL_MEM_CAP: expected a size"
  "CEI_REMOTE=n=http://h:1/a b,token=T|CEI_REMOTE: n: bad URL 'http://h:1/a b'"
  "CEI_LOG=verbose|CEI_LOG: expected trace, debug"
  "CEI_SECOND_THOUGHTS=1|CEI_SECOND_THOUGHTS: expected off or a number from 1.5 to 1000, got '1'")
foreach(c IN LISTS cases)
  string(REPLACE "|" ";" parts "${c}")
  list(GET parts 0 assignment)
  list(GET parts 1 expected)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=CEI_POLICY --unset=CEI_PLATFORMS
                          "${assignment}" "${EXE}" 64 16
                  RESULT_VARIABLE status OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 60)
  string(FIND "${err}" "cei: ${expected}" at)
  if(NOT status EQUAL 2 OR at EQUAL -1)
    message(FATAL_ERROR "${assignment}: exit status ${status}, stderr:\n${err}\n"
                        "expected status 2 and 'cei: ${expected}'")
  endif()
endforeach()

# cei-info lists what a run would find: the platforms of the config in force with their devices,
# memory and energy meters (here cpu and PoCL as opencl0), and refuses a wrong launch as a run does.
# A program run at CEI_LOG=info (PROGRAM, optional) says the platforms it opened.
#   cmake -DCEI_INFO=<cei-info> -DCONFIG=<tests/cpu_and_opencl0.toml> [-DPROGRAM="<exe>;<args>"]
#         -P cei_info.cmake
macro(info)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=CEI_POLICY --unset=CEI_REMOTE ${ARGN}
                          "${CEI_INFO}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
endmacro()
info("CEI_PLATFORMS=${CONFIG}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cei-info: exit status ${rc}:\n${out}${err}")
endif()
foreach(want "config: ${CONFIG} (CEI_PLATFORMS)" "policy: dynperf" "platforms:\n  cpu "
        " worker threads" "\n  opencl0    opencl  " " GiB memory, " " compute units"
        "energy: " "OpenCL devices found (")
  string(FIND "${out}" "${want}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "cei-info printed no '${want}':\n${out}")
  endif()
endforeach()
info("CEI_PLATFORMS=${CONFIG}" "CEI_POLICY=only:gpu")
string(FIND "${err}" "cei-info: CEI_POLICY: unknown platform 'gpu' (platforms: cpu, opencl0" at)
if(NOT rc EQUAL 2 OR at EQUAL -1)
  message(FATAL_ERROR "CEI_POLICY=only:gpu: exit status ${rc}, stderr:\n${err}")
endif()
# A run at CEI_LOG=info names the platforms it opened, as cei-info listed them.
if(PROGRAM)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=CEI_POLICY --unset=CEI_REMOTE
                          "CEI_PLATFORMS=${CONFIG}" CEI_LOG=info CEI_CPU_CORES=2 ${PROGRAM}
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 120)
  foreach(want "platform cpu (cpu): 2 task(s) at once" "platform opencl0 (opencl): ")
    string(FIND "${err}" "${want}" at)
    if(NOT rc EQUAL 0 OR at EQUAL -1)
      message(FATAL_ERROR "${PROGRAM} at CEI_LOG=info: status ${rc}, no '${want}':\n${err}")
    endif()
  endforeach()
endif()
message(STATUS "${out}")

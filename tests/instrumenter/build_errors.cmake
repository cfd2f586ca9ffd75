# A cei_add_application build that ceic must stop: configures build_errors/ with HEADER as its CEI
# header (and MAIN, when given, as its first source), builds its ceic steps (or TARGET) with
# keep-going (so every step that can run, runs) and requires the build to fail with EXPECT1 (and EXPECT2, when
# given) each in its output exactly once, and ABSENT (when given) nowhere in it.
#   cmake -DSRC=build_errors -DBIN=dir -DCEI_DIR=<CEI build dir> -DGENERATOR=Ninja
#         -DHEADER=x.cei.hpp [-DMAIN=x.cpp] [-DTARGET=app_registry] -DEXPECT1=text
#         [-DEXPECT2=text] [-DABSENT=text]
#         -P build_errors.cmake
file(REMOVE_RECURSE "${BIN}")
set(main)
if(MAIN)
  set(main "-DCEI_MAIN=${MAIN}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SRC}" -B "${BIN}" -G "${GENERATOR}"
                        "-DCEI_DIR=${CEI_DIR}" "-DCEI_HEADER=${HEADER}" ${main}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring ${SRC} failed:\n${out}")
endif()
if(GENERATOR MATCHES "Ninja")
  set(keep_going -k 0)
else()
  set(keep_going -k)
endif()
if(NOT TARGET)
  set(TARGET app_generated)
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BIN}" --target ${TARGET} -- ${keep_going}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "the build of ${SRC} with ${HEADER} succeeded; ceic should stop it:\n${out}")
endif()
foreach(var EXPECT1 EXPECT2)
  if(NOT DEFINED ${var})
    continue()
  endif()
  set(rest "${out}")
  set(n 0)
  string(LENGTH "${${var}}" len)
  string(FIND "${rest}" "${${var}}" at)
  while(at GREATER -1)
    math(EXPR n "${n} + 1")
    math(EXPR at "${at} + ${len}")
    string(SUBSTRING "${rest}" ${at} -1 rest)
    string(FIND "${rest}" "${${var}}" at)
  endwhile()
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "the build output holds ${n} times, not once:\n  ${${var}}\n"
                        "--- build output\n${out}")
  endif()
endforeach()
if(DEFINED ABSENT)
  string(FIND "${out}" "${ABSENT}" at)
  if(at GREATER -1)
    message(FATAL_ERROR "the build output holds '${ABSENT}':\n${out}")
  endif()
endif()
message(STATUS "the build failed as expected:\n${out}")

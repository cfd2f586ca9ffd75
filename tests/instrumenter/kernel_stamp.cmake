# cei-clbuild's step alone, first, in a fresh Unix Makefiles build of the worked example: its stamp
# goes into NAME.cei/, which Make (unlike Ninja) does not create for a custom command's output.
# When only ceic's registry step made that folder, a cei-clbuild that finished first failed the
# build with "cmake -E touch: failed to update" (red team of issue 39, p37, 1 build in 2).
#   cmake -DSRC=tests/install/app -DBIN=dir -DCEI_DIR=<CEI build dir> -P kernel_stamp.cmake
file(REMOVE_RECURSE "${BIN}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${SRC}" -B "${BIN}" -G "Unix Makefiles"
                        "-DCEI_DIR=${CEI_DIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring ${SRC} failed:\n${out}")
endif()
execute_process(COMMAND "${CMAKE_MAKE_PROGRAM}" -f CMakeFiles/saxpy.dir/build.make
                        saxpy.cei/saxpy_kernels.built
                WORKING_DIRECTORY "${BIN}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cei-clbuild's step, run before the registry step, failed:\n${out}")
endif()

# A new user's first build: CEI installed into a prefix (its TOOLS on the prefix's bin/), the
# worked example of docs/language.md (app/) configured outside the CEI build with CMake's default
# generator (or GENERATOR), built, installed into a prefix of its own, run from there, and its
# output compared with its -seq twin's.
#   cmake -DCEI_BUILD=<CEI build dir> -DSRC=app -DBIN=<scratch dir> [-DGENERATOR=Ninja]
#         [-DTOOLS=ceic,cei-trace,...] [-DCOMPILER=...] [-DCXX_FLAGS=...] [-DLINKER_FLAGS=...]
#         -P install_app.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${BIN}")
set(prefix "${BIN}/prefix")

macro(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (exit status ${rc}):\n${out}")
  endif()
endmacro()

run("cmake --install ${CEI_BUILD} --prefix ${prefix}"
    "${CMAKE_COMMAND}" --install "${CEI_BUILD}" --prefix "${prefix}")
# The tools a user runs are on the prefix's bin/; CEI's own examples are not installed.
string(REPLACE "," ";" TOOLS "${TOOLS}")
foreach(tool IN LISTS TOOLS)
  if(NOT EXISTS "${prefix}/bin/${tool}")
    file(GLOB installed RELATIVE "${prefix}" "${prefix}/bin/*")
    message(FATAL_ERROR "cmake --install put no ${tool} in ${prefix}/bin (it holds: ${installed})")
  endif()
endforeach()
# pkg-config finds the installed CEI (cei.pc, wherever the prefix was put): a program built with
# its flags alone links the runtime and runs.
file(GLOB_RECURSE pc "${prefix}/*/pkgconfig/cei.pc")
if(NOT pc)
  message(FATAL_ERROR "cmake --install put no pkgconfig/cei.pc in ${prefix}")
endif()
get_filename_component(pc_dir "${pc}" DIRECTORY)
execute_process(COMMAND ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${pc_dir}"
                        pkg-config --cflags --libs cei
                RESULT_VARIABLE rc OUTPUT_VARIABLE pc_flags ERROR_VARIABLE err
                OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pkg-config --cflags --libs cei failed (${rc}): ${err}")
endif()
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
get_filename_component(here "${CMAKE_SCRIPT_MODE_FILE}" DIRECTORY)
set(cxx "${COMPILER}")
if(NOT cxx)
  set(cxx c++)
endif()
separate_arguments(build_flags UNIX_COMMAND "${CXX_FLAGS} ${LINKER_FLAGS}")  # a sanitizer's
run("building with pkg-config's flags" "${cxx}" ${build_flags} "${here}/pkgconfig_main.cpp"
    ${pc_flags} -o "${BIN}/pkgconfig_main")
run("running the pkg-config build" "${BIN}/pkgconfig_main")

if(EXISTS "${prefix}/bin/matmul-worker")
  message(FATAL_ERROR "CEI's install holds its examples (${prefix}/bin/matmul-worker)")
endif()

# No -G unless GENERATOR is given, and no CMAKE_GENERATOR from the environment: what a user who
# types the README's command gets (Unix Makefiles on Linux).
set(generator)
if(GENERATOR)
  set(generator -G "${GENERATOR}")
endif()
set(options)
if(COMPILER)
  list(APPEND options "-DCMAKE_CXX_COMPILER=${COMPILER}")
endif()
# A sanitizer build's libraries need the same instrumentation in the program.
if(CXX_FLAGS)
  list(APPEND options "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
endif()
if(LINKER_FLAGS)
  list(APPEND options "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
endif()
run("configuring ${SRC} against ${prefix}"
    "${CMAKE_COMMAND}" -E env --unset=CMAKE_GENERATOR
    "${CMAKE_COMMAND}" -S "${SRC}" -B "${BIN}/build" ${generator} "-DCMAKE_PREFIX_PATH=${prefix}"
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${options})
# No build type (the README's command): the programs are optimised anyway, and the user is told;
# a build type that optimises nothing is said too (configured only). Not where CXX_FLAGS (a
# sanitizer build's) choose the optimisation themselves.
macro(check_optimisation)
  string(FIND "${out}" "cei_add_application(saxpy): no CMAKE_BUILD_TYPE: built with -O2" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "configuring with no build type said nothing of -O2:\n${out}")
  endif()
  file(READ "${BIN}/build/compile_commands.json" commands)
  string(JSON n LENGTH "${commands}")
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    string(JSON command GET "${commands}" ${i} command)
    if(NOT command MATCHES " -O2 ")
      message(FATAL_ERROR "compiled without -O2 when no build type is set:\n${command}")
    endif()
  endforeach()
  run("configuring ${SRC} as Debug"
      "${CMAKE_COMMAND}" -E env --unset=CMAKE_GENERATOR
      "${CMAKE_COMMAND}" -S "${SRC}" -B "${BIN}/debug" ${generator}
      "-DCMAKE_PREFIX_PATH=${prefix}" -DCMAKE_BUILD_TYPE=Debug ${options})
  string(FIND "${out}" "CMAKE_BUILD_TYPE 'Debug' and CMAKE_CXX_FLAGS build saxpy unoptimised" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "configuring as Debug did not say the build is unoptimised:\n${out}")
  endif()
endmacro()
if(NOT CXX_FLAGS MATCHES "-O")
  check_optimisation()
endif()
run("building ${SRC}" "${CMAKE_COMMAND}" --build "${BIN}/build")

# The build must have used the installed CEI, not this build tree.
file(STRINGS "${BIN}/build/CMakeCache.txt" cei_dir REGEX "^CEI_DIR:")
string(FIND "${cei_dir}" "${prefix}/" at)
if(NOT at GREATER -1)
  message(FATAL_ERROR "the application found CEI elsewhere than in ${prefix}: ${cei_dir}")
endif()

foreach(exe saxpy saxpy-seq saxpy-worker)
  if(NOT EXISTS "${BIN}/build/${exe}")
    message(FATAL_ERROR "the build did not produce ${BIN}/build/${exe}")
  endif()
endforeach()
# The application's own install puts the three on its prefix's bin/, the worker node's program
# among them; they run from there (CEI's library folder is in their run path).
run("cmake --install ${BIN}/build --prefix ${BIN}/app"
    "${CMAKE_COMMAND}" --install "${BIN}/build" --prefix "${BIN}/app")
set(program "${BIN}/app/bin/saxpy")
foreach(exe "${program}" "${program}-seq" "${program}-worker")
  if(NOT EXISTS "${exe}")
    message(FATAL_ERROR "the application's install did not produce ${exe}")
  endif()
endforeach()
run("${program}-worker --help" "${program}-worker" --help)
# stdout only: the runtime may log to stderr.
macro(run_program var)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE ${var} ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${ARGN} failed (exit status ${rc}):\n${${var}}${err}")
  endif()
endmacro()
run_program(seq_out "${program}-seq")
run_program(inst_out "${CMAKE_COMMAND}" -E env CEI_CPU_CORES=2 "${program}")
set(want "sum of squares = ")
string(FIND "${seq_out}" "${want}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${program}-seq printed no '${want}':\n${seq_out}")
endif()
if(NOT seq_out STREQUAL inst_out)
  message(FATAL_ERROR "outputs differ\n--- ${program}-seq\n${seq_out}--- ${program}\n${inst_out}")
endif()
message(STATUS "same output:\n${seq_out}")

# cei_add_application(NAME CEI <headers> SOURCES <files> [KERNELS <files>] [LIBRARIES <targets>]
#                     [NO_WORKER] [NO_INSTALL] [NO_KERNEL_BUILD]
#                     [CEIC_OPTIONS <ceic flags, e.g. --no-sync>])
#
#   find_package(CEI REQUIRED)
#   cei_add_application(matmul CEI matmul.cei.hpp SOURCES main.cpp matmul.cpp KERNELS matmul.cl)
#
# builds
#   NAME         the sources rewritten by ceic (every CE call a task) + the CE registry, on CEI::runtime
#   NAME-seq     the plain sources on CEI::cei only: the sequential reference
#   NAME-worker  (when CEI::worker exists, unless NO_WORKER) the registry + the plain sources for a
#                worker node; the application's main() is renamed so that the worker's main() runs.
# Set include directories and definitions on NAME: ceic and NAME-seq read them from there.
# LIBRARIES are linked to all three. `cmake --install` puts the three in the prefix's bin/ (the
# worker is what a node runs), with CEI's library folder in their run path, unless NO_INSTALL or
# CEI_APPLICATIONS_NO_INSTALL (CEI's own examples, tests and benchmarks) is set.
# KERNELS are compiled at build time by the OpenCL compiler of a device found then (cei-clbuild:
# PoCL's on a machine without a GPU), errors at their file:line:col, unless NO_KERNEL_BUILD.
# With no CMAKE_BUILD_TYPE (CMake's default adds no -O) the three are built with -O2; a build type
# or CMAKE_CXX_FLAGS that leaves them unoptimised (Debug, -O0) is said at configure time.

# An unoptimised program runs its CEs many times slower (5.3 s against 0.34 s for a k-means), and
# the profiles learn those times: nothing in a run says why. Multi-config generators pick the
# configuration at build time and are left alone.
function(_cei_application_optimisation NAME)
  get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi)
    return()
  endif()
  string(TOUPPER "${CMAKE_BUILD_TYPE}" type)
  set(flags " ${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${type}} ")
  if(flags MATCHES " -O0 " OR (NOT flags MATCHES " -O" AND CMAKE_BUILD_TYPE))
    if(NOT CEI_APPLICATIONS_NO_INSTALL)  # CEI's own examples follow CEI's build type
      message(NOTICE "cei_add_application(${NAME}): CMAKE_BUILD_TYPE '${CMAKE_BUILD_TYPE}' and "
                     "CMAKE_CXX_FLAGS build ${NAME} unoptimised: its CEs run several times "
                     "slower, and the profiles learn those times (Release or RelWithDebInfo for "
                     "a fast program)")
    endif()
  elseif(NOT flags MATCHES " -O")
    message(STATUS "cei_add_application(${NAME}): no CMAKE_BUILD_TYPE: built with -O2 "
                   "(-DCMAKE_BUILD_TYPE=Debug for an unoptimised build)")
    foreach(t ${NAME} ${NAME}-seq ${NAME}-worker)
      if(TARGET ${t})
        target_compile_options(${t} PRIVATE -O2)
      endif()
    endforeach()
  endif()
endfunction()

function(cei_add_application NAME)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_WORKER;NO_INSTALL;NO_KERNEL_BUILD" ""
                        "CEI;SOURCES;KERNELS;LIBRARIES;CEIC_OPTIONS")
  if(NOT ARG_CEI OR NOT ARG_SOURCES)
    message(FATAL_ERROR "cei_add_application(${NAME}): CEI and SOURCES are required")
  endif()
  set(abs_ceis)
  foreach(h IN LISTS ARG_CEI)
    get_filename_component(a "${h}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND abs_ceis "${a}")
  endforeach()
  set(abs_kernels)
  foreach(k IN LISTS ARG_KERNELS)
    get_filename_component(a "${k}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND abs_kernels "${a}")
  endforeach()
  set(cei_flags)
  foreach(h IN LISTS abs_ceis)
    list(APPEND cei_flags --cei "${h}")
  endforeach()

  set(gen "${CMAKE_CURRENT_BINARY_DIR}/${NAME}.cei")
  # Made here, not by ceic's first output: with Unix Makefiles (which, unlike Ninja, does not make
  # the folders of custom command outputs) cei-clbuild's stamp below could be written before the
  # registry step made the folder, and `cmake -E touch` failed the build (red team p37, 1 of 2).
  file(MAKE_DIRECTORY "${gen}")
  set(registry_hpp "${gen}/${NAME}_registry.hpp")
  set(registry_cpp "${gen}/${NAME}_registry.cpp")
  # ceic parses with the target's own include directories and definitions, plus the compiler's
  # builtin headers (clang's resource dir) so that the system headers parse.
  set(incs "$<TARGET_PROPERTY:${NAME},INCLUDE_DIRECTORIES>")
  set(defs "$<TARGET_PROPERTY:${NAME},COMPILE_DEFINITIONS>")
  set(ceic_args "$<$<BOOL:${incs}>:-I$<JOIN:${incs},$<SEMICOLON>-I>>" "$<$<BOOL:${defs}>:-D$<JOIN:${defs},$<SEMICOLON>-D>>"
                "-std=c++20")
  set(ceic "$<TARGET_FILE:CEI::ceic>")
  # ceic leaves an output whose text is unchanged as it was, and Ninja then builds nothing after
  # it; other generators (Make) would take that output as out of date at every later build.
  set(ceic_write)
  if(NOT CMAKE_GENERATOR MATCHES "Ninja")
    set(ceic_write --always-write)
  endif()

  # The depfile names the kernel files the registry embeds, listed in KERNELS or not. (CMP0116:
  # CMake, not the caller's policies, maps its absolute paths onto the build tree's.)
  cmake_policy(PUSH)
  cmake_policy(SET CMP0116 NEW)
  add_custom_command(OUTPUT "${registry_cpp}" "${registry_hpp}"
    COMMAND "${ceic}" --registry ${cei_flags} -o "${registry_cpp}" -H "${registry_hpp}"
            --depfile "${gen}/${NAME}_registry.d" ${ceic_write} -- ${ceic_args}
    DEPENDS ${abs_ceis} ${abs_kernels} "${ceic}"
    DEPFILE "${gen}/${NAME}_registry.d"
    COMMENT "ceic: CE registry of ${NAME}"
    COMMAND_EXPAND_LISTS VERBATIM)
  cmake_policy(POP)

  set(instrumented)
  set(plain)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND plain "${abs}")
    file(RELATIVE_PATH rel "${CMAKE_CURRENT_SOURCE_DIR}" "${abs}")
    string(REPLACE "../" "__/" rel "${rel}")
    set(out "${gen}/${rel}")
    get_filename_component(src_dir "${abs}" DIRECTORY)
    # After the registry step, which alone reports the CEI headers' and kernels' mistakes: when it
    # fails, this step does not run, so each mistake is printed once, not once per source.
    add_custom_command(OUTPUT "${out}"
      COMMAND "${ceic}" --instrument "${abs}" ${cei_flags} -o "${out}"
              --registry-header "${NAME}_registry.hpp" ${ARG_CEIC_OPTIONS} ${ceic_write}
              -- ${ceic_args}
      DEPENDS "${abs}" ${abs_ceis} "${registry_hpp}" "${ceic}"
      COMMENT "ceic: instrumenting ${rel}"
      COMMAND_EXPAND_LISTS VERBATIM)
    # The rewritten file lives in the build tree: its #include "..." still finds the user's files.
    set_source_files_properties("${out}" PROPERTIES INCLUDE_DIRECTORIES "${src_dir}")
    list(APPEND instrumented "${out}")
  endforeach()

  add_executable(${NAME} ${instrumented} "${registry_cpp}")
  target_include_directories(${NAME} PRIVATE "${gen}" "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${NAME} PRIVATE CEI::instrumented ${ARG_LIBRARIES})

  add_executable(${NAME}-seq ${plain})
  target_include_directories(${NAME}-seq PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}"
                             "$<TARGET_PROPERTY:${NAME},INCLUDE_DIRECTORIES>")
  target_compile_definitions(${NAME}-seq PRIVATE "$<TARGET_PROPERTY:${NAME},COMPILE_DEFINITIONS>")
  target_link_libraries(${NAME}-seq PRIVATE CEI::cei ${ARG_LIBRARIES})

  if(TARGET CEI::worker AND NOT ARG_NO_WORKER)
    add_executable(${NAME}-worker "${registry_cpp}" ${plain})
    target_include_directories(${NAME}-worker PRIVATE "${gen}" "${CMAKE_CURRENT_SOURCE_DIR}"
                               "$<TARGET_PROPERTY:${NAME},INCLUDE_DIRECTORIES>")
    target_compile_definitions(${NAME}-worker PRIVATE
                               "$<TARGET_PROPERTY:${NAME},COMPILE_DEFINITIONS>"
                               main=cei_application_main_)
    target_link_libraries(${NAME}-worker PRIVATE CEI::worker ${ARG_LIBRARIES})
  endif()

  # A mistake inside a kernel body would otherwise be seen only by the first run that uses a
  # device (never under dynperf where PoCL is a fallback): a build error at its line instead.
  if(TARGET CEI::clbuild AND abs_kernels AND NOT ARG_NO_KERNEL_BUILD)
    set(clbuild "$<TARGET_FILE:CEI::clbuild>")
    set(built "${gen}/${NAME}_kernels.built")
    add_custom_command(OUTPUT "${built}"
      COMMAND "${clbuild}" ${abs_kernels}
      COMMAND "${CMAKE_COMMAND}" -E touch "${built}"
      DEPENDS ${abs_kernels} "${clbuild}"
      COMMENT "cei-clbuild: compiling the OpenCL kernels of ${NAME}"
      VERBATIM)
    target_sources(${NAME} PRIVATE "${built}")
  endif()

  _cei_application_optimisation(${NAME})

  if(NOT ARG_NO_INSTALL AND NOT CEI_APPLICATIONS_NO_INSTALL)
    set(programs ${NAME} ${NAME}-seq)
    if(TARGET ${NAME}-worker)
      list(APPEND programs ${NAME}-worker)
    endif()
    # An installed program still finds libcei_runtime where CEI was installed.
    set_target_properties(${programs} PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
    install(TARGETS ${programs})  # bin/, or CMAKE_INSTALL_BINDIR
  endif()
endfunction()

# Registers, for every example whose instrumented program and -seq twin exist, one ctest per
# policy comparing their outputs on reduced sizes (tests/examples/compare.sh). Called at the end of
# the top-level directory, when examples/ has declared its targets.
set_property(GLOBAL PROPERTY cei_example_tests_dir "${CMAKE_CURRENT_LIST_DIR}")

function(cei_example_equivalence_tests)
  get_property(dir GLOBAL PROPERTY cei_example_tests_dir)
  set(policies dynperf dynen only:cpu only:opencl0)
  # name | compare mode | reduced arguments
  set(cases "matmul|exact|128 32" "bezier|float|64 bezier.png 256" "canny|exact|4 out"
            "digits|exact|128" "cholesky|exact|256 4"
            # A budget the accurate plan meets: every block exact, as in -seq.
            "bezier_budget|exact|1e12 64 256")
  foreach(case IN LISTS cases)
    string(REPLACE "|" ";" fields "${case}")
    list(GET fields 0 name)
    list(GET fields 1 mode)
    list(GET fields 2 arg_string)
    separate_arguments(args UNIX_COMMAND "${arg_string}")
    if(NOT TARGET ${name} OR NOT TARGET ${name}-seq)
      continue()
    endif()
    foreach(policy IN LISTS policies)
      string(REPLACE ":" "_" tag ${policy})
      add_test(NAME examples.${name}.${tag}
               COMMAND bash ${dir}/compare.sh ${mode} $<TARGET_FILE:${name}>
                       $<TARGET_FILE:${name}-seq> ${args})
      # Under DynPerf and DynEn the tasks move between the CPU and the device only when the device
      # is listed (a CPU-type one found by discovery takes only what the CPU cannot run).
      set(platforms "")
      if(policy MATCHES "^dyn")
        set(platforms ";CEI_PLATFORMS=${dir}/../cpu_and_opencl0.toml")
      endif()
      set_tests_properties(examples.${name}.${tag} PROPERTIES
        ENVIRONMENT "CEI_POLICY=${policy};PNG_DIFF=$<TARGET_FILE:example_png_diff>${platforms}"
        LABELS "examples;equivalence" TIMEOUT 300)
    endforeach()
  endforeach()
endfunction()

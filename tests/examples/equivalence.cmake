# Registers, for every example whose instrumented program and -seq twin exist, one ctest per
# policy comparing their outputs on reduced sizes (tests/examples/compare.sh), and one giving both
# bad input (tests/examples/bad_input.sh). Called at the end of
# the top-level directory, when examples/ has declared its targets.
set_property(GLOBAL PROPERTY cei_example_tests_dir "${CMAKE_CURRENT_LIST_DIR}")

# Splits a case "name|field|arguments" into `name`, `field` and `args` (a list) in the caller.
macro(cei_example_case case)
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 field)
  list(GET fields 2 arg_string)
  separate_arguments(args UNIX_COMMAND "${arg_string}")
endmacro()

function(cei_example_equivalence_tests)
  get_property(dir GLOBAL PROPERTY cei_example_tests_dir)
  set(policies dynperf dynen only:cpu only:opencl0)
  # name | compare mode | reduced arguments
  set(cases "matmul|exact|128 32" "bezier|float|64 bezier.png 256" "canny|exact|4 out"
            "digits|exact|128" "cholesky|float|256 4"
            # A budget the accurate plan meets: every block exact, as in -seq.
            "bezier_budget|exact|1e12 64 256")
  foreach(case IN LISTS cases)
    cei_example_case("${case}")
    if(NOT TARGET ${name} OR NOT TARGET ${name}-seq)
      continue()
    endif()
    foreach(policy IN LISTS policies)
      string(REPLACE ":" "_" tag ${policy})
      add_test(NAME examples.${name}.${tag}
               COMMAND bash ${dir}/compare.sh ${field} $<TARGET_FILE:${name}>
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

  # name | what stderr must say | bad arguments: status 2 and that line, from both programs.
  set(bad "matmul|usage:|abc" "bezier|cannot write|64 no-such-dir/b.png 256"
          "canny|cannot read|1 out no-such.pgm" "digits|cannot read weights|16 no-such.weights"
          "cholesky|usage:|256 -4" "bezier_budget|cannot write|none 64 256 no-such-dir/s.f32")
  foreach(case IN LISTS bad)
    cei_example_case("${case}")
    if(NOT TARGET ${name} OR NOT TARGET ${name}-seq)
      continue()
    endif()
    add_test(NAME examples.${name}.bad_input
             COMMAND bash ${dir}/bad_input.sh ${field} $<TARGET_FILE:${name}>
                     $<TARGET_FILE:${name}-seq> ${args})
    set_tests_properties(examples.${name}.bad_input PROPERTIES LABELS examples TIMEOUT 120)
  endforeach()
endfunction()

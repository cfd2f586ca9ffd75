# Platforms reach the runtime through its public SDK only (docs/platforms.md): no source under
# platforms/ includes a header of runtime/src (runtime_core.hpp, task_impl.hpp, executor.hpp...)
# nor adds runtime/src to its include path, and nothing asks which Profiles the runtime has
# (a dynamic_cast to ProfileStore): energy figures go through the Profiles interface.
#   cmake -DROOT=<CEI source dir> -P platform_sdk_only.cmake
cmake_minimum_required(VERSION 3.25)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<CEI source dir> -P platform_sdk_only.cmake")
endif()

set(problems)
file(GLOB_RECURSE sources LIST_DIRECTORIES false "${ROOT}/platforms/*.cpp" "${ROOT}/platforms/*.hpp")
foreach(file IN LISTS sources)
  get_filename_component(dir "${file}" DIRECTORY)
  file(RELATIVE_PATH rel "${ROOT}" "${file}")
  file(STRINGS "${file}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^[^\"]*\"([^\"]+)\".*$" "\\1" header "${line}")
    # A header of the platform's own folder comes first; one found only in runtime/src is private.
    if(NOT EXISTS "${dir}/${header}" AND EXISTS "${ROOT}/runtime/src/${header}")
      list(APPEND problems "${rel}: includes the runtime's private header ${header}")
    endif()
  endforeach()
endforeach()

file(GLOB_RECURSE lists LIST_DIRECTORIES false "${ROOT}/platforms/CMakeLists.txt"
     "${ROOT}/platforms/*/CMakeLists.txt")
foreach(file IN LISTS lists)
  file(STRINGS "${file}" lines REGEX "runtime/src")
  file(RELATIVE_PATH rel "${ROOT}" "${file}")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    list(APPEND problems "${rel}: names runtime/src: ${line}")
  endforeach()
endforeach()

file(GLOB_RECURSE code LIST_DIRECTORIES false "${ROOT}/platforms/*.cpp" "${ROOT}/platforms/*.hpp"
     "${ROOT}/runtime/*.cpp" "${ROOT}/runtime/*.hpp")
foreach(file IN LISTS code)
  file(STRINGS "${file}" casts REGEX "dynamic_cast<[^>]*Profile")
  file(RELATIVE_PATH rel "${ROOT}" "${file}")
  foreach(line IN LISTS casts)
    string(STRIP "${line}" line)
    list(APPEND problems "${rel}: casts its Profiles: ${line}")
  endforeach()
endforeach()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "platforms must use the public SDK only:\n  ${text}")
endif()

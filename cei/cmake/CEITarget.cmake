# CEI::cei — the header users include in CEI headers and programs (attributes, cei::Array).
# Its own file so that a consumer test project can include the very same definition.
cmake_path(SET _cei_include NORMALIZE "${CMAKE_CURRENT_LIST_DIR}/../include")
add_library(cei INTERFACE)
add_library(CEI::cei ALIAS cei)
target_include_directories(cei INTERFACE
  $<BUILD_INTERFACE:${_cei_include}>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_compile_features(cei INTERFACE cxx_std_20)
# The compilers ignore cei:: attributes (ceic reads them); say so quietly.
target_compile_options(cei INTERFACE
  $<$<CXX_COMPILER_ID:GNU>:-Wno-attributes=cei::>
  $<$<CXX_COMPILER_ID:Clang>:-Wno-unknown-attributes>)

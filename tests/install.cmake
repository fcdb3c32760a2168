# Installs into a scratch prefix and builds the README's example against it,
# through pkg-config (shared and static) and through find_package(gemmkit).
# Not in a sanitizer build: the example programs are built without the
# sanitizer runtime, which must come first when an instrumented library loads.
if(GK_SANITIZE)
  return()
endif()
add_test(NAME install_and_link
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install_test.sh
          ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install_test
          ${CMAKE_C_COMPILER})
set_tests_properties(install_and_link PROPERTIES RUN_SERIAL TRUE)

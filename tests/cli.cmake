# The command line: a bash script drives the gemmkit binary through its
# commands, options, errors and .npy files (tests/cli_test.sh).
find_program(GK_BASH bash)
if(GK_BASH AND TARGET gemmkit_cli)
  add_test(NAME cli COMMAND ${GK_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/cli_test.sh $<TARGET_FILE:gemmkit_cli>)
  set_tests_properties(cli PROPERTIES TIMEOUT 120)
  if(GK_TEST_SEED)
    set_tests_properties(cli PROPERTIES ENVIRONMENT "GK_TEST_SEED=${GK_TEST_SEED}")
  endif()
endif()

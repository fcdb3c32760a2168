# Unit tests of the CLI's Reed-Solomon modules, end-to-end tests of
# `gemmkit rs` (rs_cli_test.sh: round trips, lost, corrupt, truncated,
# duplicated and foreign shards, --force, verify; rs_fail_test.sh: failure
# paths) and a smoke run of `gemmkit bench --suite gf256`.
foreach(t test_shard_io test_shard_set)
  if(TARGET ${t})
    target_sources(${t} PRIVATE
      ${PROJECT_SOURCE_DIR}/tools/gemmkit/shard_format.c
      ${PROJECT_SOURCE_DIR}/tools/gemmkit/rs/rs_posix.c
      ${PROJECT_SOURCE_DIR}/tools/gemmkit/rs/rs_outfiles.c
      ${PROJECT_SOURCE_DIR}/tools/gemmkit/rs/shard_io.c
      ${PROJECT_SOURCE_DIR}/tools/gemmkit/rs/shard_set.c)
    target_include_directories(${t} PRIVATE ${PROJECT_SOURCE_DIR}/tools/gemmkit)
    target_link_libraries(${t} PRIVATE Threads::Threads)
  endif()
endforeach()

find_program(GK_BASH bash)
if(NOT GK_BASH)
  message(STATUS "bash not found: the gemmkit rs tests are skipped")
  return()
endif()

add_test(NAME rs_cli
  COMMAND ${GK_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/rs_cli_test.sh
          $<TARGET_FILE:gemmkit_cli> ${CMAKE_CURRENT_BINARY_DIR}/rs_cli_work)
set_tests_properties(rs_cli PROPERTIES TIMEOUT 300)
if(GK_TEST_SEED)
  set_tests_properties(rs_cli PROPERTIES ENVIRONMENT "GK_TEST_SEED=${GK_TEST_SEED}")
endif()

# The failure paths of encode and decode (rs_fail_test.sh: out of memory, a
# full disk, a file size limit, a read-only directory, SIGINT and SIGTERM):
# the output directory as it was, no temporary left. What the machine does
# not allow is skipped with a message.
add_test(NAME rs_cli_failures
  COMMAND ${GK_BASH} ${CMAKE_CURRENT_SOURCE_DIR}/rs_fail_test.sh
          $<TARGET_FILE:gemmkit_cli> ${CMAKE_CURRENT_BINARY_DIR}/rs_fail_work)
set_tests_properties(rs_cli_failures PROPERTIES TIMEOUT 120)

# The benchmark must run, check its results (exit 1 on a parity mismatch)
# and write one CSV row per code x size x thread count x operation.
set(GK_GF256_BENCH_OUT ${CMAKE_CURRENT_BINARY_DIR}/bench_gf256_smoke)
add_test(NAME bench_gf256_smoke
  COMMAND ${GK_BASH} -c "rm -rf \"$1\" && \"$0\" bench --suite gf256 --quick --out \"$1\" --no-plot >/dev/null && rows=$(tail -n +2 \"$1/results.csv\" | grep -cE '^(en|de)code,') && echo \"bench_gf256_smoke: $rows csv rows\" && [ \"$rows\" -eq 4 ]"
          $<TARGET_FILE:gemmkit_cli> ${GK_GF256_BENCH_OUT})
set_tests_properties(bench_gf256_smoke PROPERTIES TIMEOUT 120)

# End-to-end tests of `gemmkit rs` (rs_cli_test.sh: round trips, lost,
# corrupt, truncated, duplicated and foreign shards, --force, verify) and a
# smoke run of `gemmkit bench --suite gf256`.
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

# The benchmark must run, check its results (exit 1 on a parity mismatch)
# and write one CSV row per code x size x thread count x operation.
set(GK_GF256_BENCH_OUT ${CMAKE_CURRENT_BINARY_DIR}/bench_gf256_smoke)
add_test(NAME bench_gf256_smoke
  COMMAND ${GK_BASH} -c "rm -rf \"$1\" && \"$0\" bench --suite gf256 --quick --out \"$1\" --no-plot >/dev/null && rows=$(tail -n +2 \"$1/results.csv\" | grep -cE '^(en|de)code,') && echo \"bench_gf256_smoke: $rows csv rows\" && [ \"$rows\" -eq 4 ]"
          $<TARGET_FILE:gemmkit_cli> ${GK_GF256_BENCH_OUT})
set_tests_properties(bench_gf256_smoke PROPERTIES TIMEOUT 120)

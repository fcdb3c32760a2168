# strassen.cmake - test_strassen again with tiny cache blocks (kc = 24), so
# that every product of cpu.strassen takes several kc steps: the blocks of
# C then take beta in the first step only and every later step adds.
if(TARGET test_strassen)
  add_test(NAME test_strassen_small_blocks COMMAND test_strassen)
  set_tests_properties(test_strassen_small_blocks PROPERTIES ENVIRONMENT
    "GK_GEMM_BLOCKS=40,24,64$<$<BOOL:${GK_TEST_SEED}>:;GK_TEST_SEED=${GK_TEST_SEED}>")
endif()

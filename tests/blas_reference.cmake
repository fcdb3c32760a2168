# netlib's reference BLAS level-3 test programs (Debian's libblas-test:
# xblat3s, xblat3d, xscblat3, xdcblat3) run against the shared libgemmkit,
# their GEMM rows only: computational tests and error exits, both layouts for
# CBLAS (tests/blas_reference/run.sh). The test is always registered and
# skipped, with a message, where the programs are not installed.
find_program(GK_BLAS_TEST_XSCBLAT3 xscblat3
  PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/blas /usr/lib/blas NO_DEFAULT_PATH)
if(GK_BLAS_TEST_XSCBLAT3)
  get_filename_component(GK_BLAS_TEST_DIR ${GK_BLAS_TEST_XSCBLAT3} DIRECTORY)
  message(STATUS "gemmkit: the blas_reference test runs netlib's BLAS test programs in "
                 "${GK_BLAS_TEST_DIR}")
else()
  message(STATUS "gemmkit: netlib's BLAS test programs not found, the blas_reference test "
                 "is skipped; install libblas-test to run it")
endif()
unset(GK_BLAS_TEST_XSCBLAT3 CACHE)

add_test(NAME blas_reference
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/blas_reference/run.sh $<TARGET_FILE:gemmkit>
          $<IF:$<BOOL:${GK_SANITIZE}>,ON,OFF> ${CMAKE_C_COMPILER})
set_tests_properties(blas_reference PROPERTIES SKIP_RETURN_CODE 77)

# CBLAS compatibility: a program written for the system's cblas.h
# (tests/cblas_compat/cblas_program.c) is built twice from the same source,
# linked once against the shared libgemmkit (what users link) and once against
# OpenBLAS; the test runs both and compares what they print, value by value,
# within GEMM's rounding error (tests/cblas_compat/compare_outputs.c).
# Skipped, with a message, where cblas.h or OpenBLAS is not installed (on
# Debian and Ubuntu: libopenblas-dev).
find_path(GK_SYSTEM_CBLAS_INCLUDE_DIR cblas.h
  PATH_SUFFIXES openblas openblas-pthread x86_64-linux-gnu/openblas-pthread)
find_library(GK_OPENBLAS_LIBRARY NAMES openblas
  PATH_SUFFIXES openblas-pthread openblas-openmp openblas-serial)

if(NOT GK_SYSTEM_CBLAS_INCLUDE_DIR OR NOT GK_OPENBLAS_LIBRARY)
  message(STATUS "gemmkit: cblas.h or libopenblas not found, the CBLAS compatibility test "
                 "(cblas_compat) is skipped; install libopenblas-dev to run it")
else()
  message(STATUS "gemmkit: CBLAS compatibility test against ${GK_OPENBLAS_LIBRARY} "
                 "(cblas.h in ${GK_SYSTEM_CBLAS_INCLUDE_DIR})")
  set(GK_CBLAS_COMPAT_SRC ${CMAKE_CURRENT_SOURCE_DIR}/cblas_compat/cblas_program.c)

  # Linked against the shared library only: neither the gemmkit headers nor
  # the static library's internals may stand in for what a user gets.
  add_executable(cblas_program_gemmkit ${GK_CBLAS_COMPAT_SRC})
  target_include_directories(cblas_program_gemmkit BEFORE PRIVATE ${GK_SYSTEM_CBLAS_INCLUDE_DIR})
  target_compile_options(cblas_program_gemmkit PRIVATE ${GK_WARNINGS})
  target_link_libraries(cblas_program_gemmkit PRIVATE gemmkit m)

  add_executable(cblas_program_openblas ${GK_CBLAS_COMPAT_SRC})
  target_include_directories(cblas_program_openblas BEFORE PRIVATE ${GK_SYSTEM_CBLAS_INCLUDE_DIR})
  target_compile_options(cblas_program_openblas PRIVATE ${GK_WARNINGS})
  target_link_libraries(cblas_program_openblas PRIVATE ${GK_OPENBLAS_LIBRARY} m)

  add_executable(cblas_compare_outputs ${CMAKE_CURRENT_SOURCE_DIR}/cblas_compat/compare_outputs.c)
  target_compile_options(cblas_compare_outputs PRIVATE ${GK_WARNINGS})
  target_link_libraries(cblas_compare_outputs PRIVATE m)

  add_test(NAME cblas_compat
    COMMAND cblas_compare_outputs $<TARGET_FILE:cblas_program_gemmkit>
            $<TARGET_FILE:cblas_program_openblas>)
  # One OpenBLAS thread: the machine may be shared, and the result must not
  # depend on its thread count.
  set_tests_properties(cblas_compat PROPERTIES ENVIRONMENT "OPENBLAS_NUM_THREADS=1")
endif()

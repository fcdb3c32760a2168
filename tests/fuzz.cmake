# libFuzzer target for the shard header parser of `gemmkit rs`. Built only
# when the C compiler is clang with libFuzzer; with gcc (the usual default),
# use tests/fuzz_build.sh, which builds it with clang directly.
include(CheckCSourceCompiles)
set(GK_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined)
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer")
  check_c_source_compiles("
    #include <stddef.h>
    #include <stdint.h>
    int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }"
    GK_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
endif()

if(GK_HAVE_LIBFUZZER)
  add_executable(fuzz_shard_header fuzz_shard_header.c ${PROJECT_SOURCE_DIR}/tools/gemmkit/shard_format.c)
  target_include_directories(fuzz_shard_header PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/tools/gemmkit)
  target_compile_options(fuzz_shard_header PRIVATE ${GK_WARNINGS} -g -O1 ${GK_FUZZ_FLAGS})
  target_link_options(fuzz_shard_header PRIVATE ${GK_FUZZ_FLAGS})
  target_link_libraries(fuzz_shard_header PRIVATE Threads::Threads)
  set(GK_FUZZ_CORPUS ${CMAKE_CURRENT_BINARY_DIR}/fuzz_shard_header_corpus)
  file(MAKE_DIRECTORY ${GK_FUZZ_CORPUS})
  add_test(NAME fuzz_shard_header
    COMMAND fuzz_shard_header -max_total_time=10 -runs=5000000 -max_len=512 ${GK_FUZZ_CORPUS})
  set_tests_properties(fuzz_shard_header PROPERTIES TIMEOUT 60)
else()
  message(STATUS "libFuzzer not available: fuzz target skipped")
endif()

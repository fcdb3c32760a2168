# bench_smoke.cmake - smoke tests of `gemmkit bench`.
#
# Included from tests/CMakeLists.txt, it registers the tests; run with
# `cmake -P`, it is the test itself. Nothing here depends on OpenBLAS or BLIS
# being installed (the contenders expected are what `gemmkit bench --list`
# reports on this machine) and nothing looks at timings.

if(NOT CMAKE_SCRIPT_MODE_FILE)
  add_test(NAME bench_smoke
    COMMAND ${CMAKE_COMMAND} -DGK_BENCH_MODE=smoke -DGK_BENCH_EXE=$<TARGET_FILE:gemmkit_cli>
            -DGK_BENCH_OUT=${CMAKE_CURRENT_BINARY_DIR}/bench_smoke_out -P ${CMAKE_CURRENT_LIST_FILE})
  add_test(NAME bench_bad_options
    COMMAND ${CMAKE_COMMAND} -DGK_BENCH_MODE=bad_options -DGK_BENCH_EXE=$<TARGET_FILE:gemmkit_cli>
            -DGK_BENCH_OUT=${CMAKE_CURRENT_BINARY_DIR}/bench_bad_out -P ${CMAKE_CURRENT_LIST_FILE})
  return()
endif()

# ---- script mode -------------------------------------------------------------

cmake_minimum_required(VERSION 3.18)

function(fail msg)
  message(FATAL_ERROR "bench test: ${msg}")
endfunction()

if(GK_BENCH_MODE STREQUAL "bad_options")
  # Each of these must be refused with exit status 2 and a message, before
  # anything is run or written.
  set(cases "--no-such-option" "--sizes|0" "--sizes|16,abc" "--shapes|4x4" "--dtype|q"
      "--threads|0" "--cap|-1" "--reps|0" "--algos|no.such.algo" "--quick=1" "--sizes")
  file(REMOVE_RECURSE ${GK_BENCH_OUT})
  foreach(c IN LISTS cases)
    string(REPLACE "|" ";" args "${c}")
    execute_process(COMMAND ${GK_BENCH_EXE} bench --out ${GK_BENCH_OUT} ${args}
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 2)
      fail("'gemmkit bench ${args}' exited with '${rc}', expected 2\n${err}")
    endif()
    if(NOT err MATCHES "gemmkit bench: ")
      fail("'gemmkit bench ${args}' printed no message on stderr")
    endif()
  endforeach()
  if(EXISTS ${GK_BENCH_OUT})
    fail("a refused command line created ${GK_BENCH_OUT}")
  endif()
  execute_process(COMMAND ${GK_BENCH_EXE} bench --help RESULT_VARIABLE rc OUTPUT_VARIABLE out)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "usage: gemmkit bench" OR NOT out MATCHES "--cap SECONDS")
    fail("'gemmkit bench --help' exited with '${rc}' or printed no usage:\n${out}")
  endif()
  message(STATUS "bench_bad_options: ok")
  return()
endif()

if(NOT GK_BENCH_MODE STREQUAL "smoke")
  fail("unknown GK_BENCH_MODE '${GK_BENCH_MODE}'")
endif()

# The contenders this machine has.
execute_process(COMMAND ${GK_BENCH_EXE} bench --list RESULT_VARIABLE rc OUTPUT_VARIABLE listing ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  fail("'gemmkit bench --list' exited with '${rc}'\n${err}")
endif()
string(REGEX MATCHALL "(^|\n)[^\t\n]+\t" found "${listing}")
set(contenders "")
foreach(f IN LISTS found)
  string(STRIP "${f}" id)
  list(APPEND contenders "${id}")
endforeach()
list(FIND contenders "auto" has_auto)
if(has_auto LESS 0 OR NOT contenders MATCHES "cpu\\.")
  fail("--list names no gemmkit algorithms or no auto:\n${listing}")
endif()

# A fresh seed each run, printed so that a failure can be repeated.
string(RANDOM LENGTH 8 ALPHABET 0123456789 seed)
string(REGEX REPLACE "^0+" "" seed "${seed}1")
message(STATUS "bench_smoke: seed ${seed}; contenders: ${contenders}")

file(REMOVE_RECURSE ${GK_BENCH_OUT})
execute_process(COMMAND ${GK_BENCH_EXE} bench --quick --no-plot --seed ${seed} --out ${GK_BENCH_OUT}
  RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  fail("'gemmkit bench --quick' exited with '${rc}'\n${table}\n${err}")
endif()

# A Markdown table: header, alignment row, one row per quick size.
if(NOT table MATCHES "\n\\| n \\| [^\n]+\\|\n\\|---:\\|[-:|]+\n\\| 16 \\| [^\n]+\\|\n\\| 32 \\| [^\n]+\\|\n\\| 64 \\| [^\n]+\\|\n")
  fail("no Markdown table of sizes 16, 32, 64 on stdout:\n${table}")
endif()
if(NOT err MATCHES "\\[ *[0-9]+/[0-9]+\\] sgemm n=16 ")
  fail("no progress lines on stderr:\n${err}")
endif()

foreach(f results.md results.csv meta.txt)
  if(NOT EXISTS ${GK_BENCH_OUT}/${f})
    fail("${GK_BENCH_OUT}/${f} was not written")
  endif()
endforeach()
if(EXISTS ${GK_BENCH_OUT}/sgemm.png OR EXISTS ${GK_BENCH_OUT}/sgemm.gp)
  fail("--no-plot still made a plot")
endif()
file(READ ${GK_BENCH_OUT}/results.md md)
if(NOT md STREQUAL table)
  fail("results.md differs from the table printed on stdout")
endif()
file(READ ${GK_BENCH_OUT}/meta.txt meta)
if(NOT meta MATCHES "command: gemmkit bench --quick --no-plot --seed ${seed}" OR NOT meta MATCHES "\ncpu: ")
  fail("meta.txt lacks the command line or the CPU:\n${meta}")
endif()

# results.csv: the header, then one row per contender and size, every one ok
# (the quick sizes are far below the cap) with a positive GFLOPS and an error.
file(STRINGS ${GK_BENCH_OUT}/results.csv rows)
list(POP_FRONT rows header)
if(NOT header STREQUAL "dtype,m,n,k,threads,contender,median_s,gflops,err,status,ratio_to_best_ref")
  fail("results.csv header is '${header}'")
endif()
foreach(id IN LISTS contenders)
  set(count_${id} 0)
endforeach()
foreach(row IN LISTS rows)
  string(REPLACE "," ";" fields "${row}")
  list(LENGTH fields nf)
  if(nf LESS 10)
    fail("results.csv row '${row}' has ${nf} fields")
  endif()
  list(GET fields 5 id)
  list(GET fields 7 gflops)
  list(GET fields 8 err)
  list(GET fields 9 status)
  list(FIND contenders "${id}" known)
  if(known LESS 0)
    fail("results.csv names '${id}', which --list does not")
  endif()
  if(NOT status STREQUAL "ok" OR NOT gflops MATCHES "^[0-9]+\\.[0-9]+$" OR gflops MATCHES "^0\\.0+$"
     OR NOT err MATCHES "^[0-9]\\.[0-9]+e[-+][0-9]+$")
    fail("results.csv row '${row}': expected status ok, GFLOPS > 0 and an error value")
  endif()
  math(EXPR count_${id} "${count_${id}} + 1")
endforeach()
foreach(id IN LISTS contenders)
  if(NOT count_${id} EQUAL 3)
    fail("results.csv has ${count_${id}} rows for '${id}', expected 3 (one per quick size)")
  endif()
endforeach()
message(STATUS "bench_smoke: ok")

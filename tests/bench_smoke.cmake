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
  add_test(NAME bench_suite_peak
    COMMAND ${CMAKE_COMMAND} -DGK_BENCH_MODE=peak -DGK_BENCH_EXE=$<TARGET_FILE:gemmkit_cli>
            -DGK_BENCH_OUT=${CMAKE_CURRENT_BINARY_DIR}/bench_peak_out -P ${CMAKE_CURRENT_LIST_FILE})
  add_test(NAME bench_suite_ladder
    COMMAND ${CMAKE_COMMAND} -DGK_BENCH_MODE=ladder -DGK_BENCH_EXE=$<TARGET_FILE:gemmkit_cli>
            -DGK_BENCH_OUT=${CMAKE_CURRENT_BINARY_DIR}/bench_ladder_out -P ${CMAKE_CURRENT_LIST_FILE})
  add_test(NAME bench_suite_gf256
    COMMAND ${CMAKE_COMMAND} -DGK_BENCH_MODE=gf256 -DGK_BENCH_EXE=$<TARGET_FILE:gemmkit_cli>
            -DGK_BENCH_OUT=${CMAKE_CURRENT_BINARY_DIR}/bench_gf256_out -P ${CMAKE_CURRENT_LIST_FILE})
  add_test(NAME bench_unavailable_rung
    COMMAND ${CMAKE_COMMAND} -DGK_BENCH_MODE=unavailable -DGK_BENCH_EXE=$<TARGET_FILE:gemmkit_cli>
            -DGK_BENCH_OUT=${CMAKE_CURRENT_BINARY_DIR}/bench_unavailable_out -P ${CMAKE_CURRENT_LIST_FILE})
  add_test(NAME bench_too_large
    COMMAND ${CMAKE_COMMAND} -DGK_BENCH_MODE=too_large -DGK_BENCH_EXE=$<TARGET_FILE:gemmkit_cli>
            -DGK_BENCH_OUT=${CMAKE_CURRENT_BINARY_DIR}/bench_too_large_out -P ${CMAKE_CURRENT_LIST_FILE})
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
      "--threads|0" "--threads|1,0" "--threads|1,2,3,4,5,6,7,8,9" "--cap|-1" "--reps|0"
      "--algos|no.such.algo" "--quick=1" "--sizes" "--suite|no-such-suite" "--suite"
      "--suite|peak|--sizes|16" "--suite=peak|--algos|auto" "--offset|4096" "--offset|-16"
      "--offset|x" "--suite|gf256|--offset|16" "--suite|cpu-busy|--offset|16")
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
  foreach(suite default ladder cpu strassen peak gf256)
    if(NOT out MATCHES "\n  ${suite} ")
      fail("'gemmkit bench --help' does not list the suite ${suite}:\n${out}")
    endif()
  endforeach()
  message(STATUS "bench_bad_options: ok")
  return()
endif()

if(GK_BENCH_MODE STREQUAL "too_large")
  # A product no machine runs within the cap, and one whose operands fit
  # no machine's memory (16 TiB for A) although it fits the cap at three
  # times the peak of any machine faster than 3 GFLOPS: neither is run,
  # each says why at once, and the run succeeds.
  file(REMOVE_RECURSE ${GK_BENCH_OUT})
  execute_process(COMMAND ${GK_BENCH_EXE} bench --out ${GK_BENCH_OUT} --quick --no-plot --algos auto
    --shapes 1048576x1048576x1048576,4194304x1x1048576 --cap 1000
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
  if(NOT rc EQUAL 0)
    fail("the too-large products exited with '${rc}'\n${err}")
  endif()
  if(NOT err MATCHES "n=1048576 auto x \\(at least [0-9.e+]+ s even at")
    fail("the product past the cap at the peak was not refused as such:\n${err}")
  endif()
  if(NOT err MATCHES "4194304x1x1048576 auto - \\(the matrices need [0-9.]+ GiB of memory")
    fail("the product past the memory was not refused as such:\n${err}")
  endif()
  # The gf256 suite: 200+56 on 1 GiB shards (372 GiB of them) is not set up,
  # where the machine has less than that available.
  file(STRINGS /proc/meminfo avail REGEX "^MemAvailable:")
  string(REGEX MATCH "[0-9]+" avail_kib "${avail}")
  if(avail_kib AND avail_kib LESS 300000000)
    execute_process(COMMAND ${GK_BENCH_EXE} bench --suite gf256 --out ${GK_BENCH_OUT}-gf --no-plot
      --codes 200+56 --sizes 1G --threads 1 --algos gemmkit
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    if(NOT rc EQUAL 0 OR NOT err MATCHES "encode 200\\+56 1024 MiB t=1 gemmkit - \\(the shards need [0-9.]+ GiB of memory")
      fail("the gf256 case past the memory exited with '${rc}' or was not refused as such:\n${err}")
    endif()
  endif()
  message(STATUS "bench_too_large: ok")
  return()
endif()

# Reads results.csv: the header, then one row per cell and contender, each
# ok with a positive GFLOPS, an error value and a percentage of the peak.
# Sets `contenders` (the ids seen) and count_<id>_<threads> in the caller.
macro(check_gemm_csv csv)
  file(STRINGS ${csv} rows)
  list(POP_FRONT rows header)
  if(NOT header STREQUAL "dtype,m,n,k,threads,contender,median_s,gflops,err,status,ratio_to_best_ref,pct_peak,err_f64,paired_ratio_to_best_ref")
    fail("${csv} header is '${header}'")
  endif()
  foreach(row IN LISTS rows)
    string(REPLACE "," ";" fields "${row}")
    list(LENGTH fields nf)
    if(nf LESS 12)
      fail("${csv} row '${row}' has ${nf} fields")
    endif()
    list(GET fields 4 thr)
    list(GET fields 5 id)
    list(GET fields 7 gflops)
    list(GET fields 8 err)
    list(GET fields 9 status)
    list(GET fields 10 ratio)
    list(GET fields 11 pct)
    set(paired "")
    if(nf GREATER 13)
      list(GET fields 13 paired)
    endif()
    list(FIND contenders "${id}" known)
    if(known LESS 0)
      fail("${csv} names '${id}', which --list does not")
    endif()
    list(FIND unavailable "${id}" na)
    if(na GREATER_EQUAL 0)
      # A rung whose instruction set this machine lacks: never timed.
      if(NOT status STREQUAL "unavailable" OR NOT gflops STREQUAL "")
        fail("${csv} row '${row}': ${id} is unavailable here (--list) but was timed")
      endif()
    elseif(NOT status STREQUAL "ok" OR NOT gflops MATCHES "^[0-9]+\\.[0-9]+$" OR gflops MATCHES "^0\\.0+$"
       OR NOT err MATCHES "^[0-9]\\.[0-9]+e[-+][0-9]+$" OR NOT pct MATCHES "^[0-9]+\\.[0-9]+$")
      fail("${csv} row '${row}': expected status ok, GFLOPS > 0, an error value and a % of peak")
    endif()
    # The ratio round by round: with 1 thread wherever there is a ratio
    # (rounds interleaved, at least three), never with several.
    if(thr EQUAL 1 AND NOT ratio STREQUAL "" AND NOT paired MATCHES "^[0-9]+\\.[0-9]+$")
      fail("${csv} row '${row}': 1 thread, a ratio but no ratio round by round")
    elseif(thr GREATER 1 AND NOT paired STREQUAL "")
      fail("${csv} row '${row}': a ratio round by round with several threads")
    endif()
    if(NOT DEFINED count_${id}_${thr})
      set(count_${id}_${thr} 0)
    endif()
    math(EXPR count_${id}_${thr} "${count_${id}_${thr}} + 1")
  endforeach()
endmacro()

# The contenders `gemmkit bench ARGS --list` reports, into `contenders`.
function(list_contenders)
  execute_process(COMMAND ${GK_BENCH_EXE} bench ${ARGN} --list RESULT_VARIABLE rc OUTPUT_VARIABLE listing
    ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("'gemmkit bench ${ARGN} --list' exited with '${rc}'\n${err}")
  endif()
  string(REGEX MATCHALL "(^|\n)[^\t\n]+\t" found "${listing}")
  set(ids "")
  foreach(f IN LISTS found)
    string(STRIP "${f}" id)
    list(APPEND ids "${id}")
  endforeach()
  set(contenders "${ids}" PARENT_SCOPE)
  string(REGEX MATCHALL "(^|\n)[^\t\n]+\tunavailable here" found "${listing}")
  set(ids "")
  foreach(f IN LISTS found)
    string(REGEX REPLACE "\tunavailable here$" "" f "${f}")
    string(STRIP "${f}" id)
    list(APPEND ids "${id}")
  endforeach()
  set(unavailable "${ids}" PARENT_SCOPE)
endfunction()

if(GK_BENCH_MODE STREQUAL "peak")
  # The peak suite: a table with float and double GFLOPS for 1 and 2
  # threads, results.csv with one row per instruction set, precision and
  # thread count, all positive; the widest set the CPU has is there.
  file(REMOVE_RECURSE ${GK_BENCH_OUT})
  execute_process(COMMAND ${GK_BENCH_EXE} bench --suite peak --quick --threads 1,2 --out ${GK_BENCH_OUT}
    RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("'gemmkit bench --suite peak --quick' exited with '${rc}'\n${table}\n${err}")
  endif()
  if(NOT table MATCHES "\\| instruction set \\| loop \\| threads \\| float \\| double \\|"
     OR NOT table MATCHES "\n\\| (avx512|avx2|sse2) \\| [^|]+ \\| 1 \\| [0-9.]+ \\([^)]+\\) \\| [0-9.]+ "
     OR NOT table MATCHES "\n\\| (avx512|avx2|sse2) \\| [^|]+ \\| 2 \\| [0-9.]+ ")
    fail("no peak table for 1 and 2 threads on stdout:\n${table}")
  endif()
  foreach(f results.md results.csv meta.txt)
    if(NOT EXISTS ${GK_BENCH_OUT}/${f})
      fail("${GK_BENCH_OUT}/${f} was not written")
    endif()
  endforeach()
  file(STRINGS ${GK_BENCH_OUT}/results.csv rows)
  list(POP_FRONT rows header)
  if(NOT header STREQUAL "isa,dtype,threads,threads_run,gflops,gflops_min,gflops_max,reps,run_s")
    fail("peak results.csv header is '${header}'")
  endif()
  set(seen "")
  foreach(row IN LISTS rows)
    string(REPLACE "," ";" fields "${row}")
    list(GET fields 0 isa)
    list(GET fields 1 dt)
    list(GET fields 2 thr)
    list(GET fields 4 g)
    if(NOT g MATCHES "^[0-9]+\\.[0-9]+$" OR g MATCHES "^0\\.0+$")
      fail("peak results.csv row '${row}': GFLOPS not positive")
    endif()
    list(APPEND seen "${isa}-${dt}-${thr}")
  endforeach()
  foreach(want sse2-s-1 sse2-d-1 sse2-s-2 sse2-d-2)
    list(FIND seen ${want} i)
    if(i LESS 0)
      fail("peak results.csv lacks ${want} (every x86-64 CPU has SSE2):\n${rows}")
    endif()
  endforeach()
  file(READ ${GK_BENCH_OUT}/meta.txt meta)
  if(NOT meta MATCHES "\npeak_f32_1t_gflops: [0-9.]+ " OR NOT meta MATCHES "\npeak_f64_2t_gflops: [0-9.]+ ")
    fail("meta.txt lacks the peak:\n${meta}")
  endif()
  message(STATUS "bench_suite_peak: ok")
  return()
endif()

if(GK_BENCH_MODE STREQUAL "ladder")
  # The ladder suite, quick, on 1 and 2 threads: every contender of its
  # --list has 3 rows per thread count; the GFLOPS and times tables are
  # there for each thread count, and so are the plots' data and scripts.
  list_contenders(--suite ladder)
  list(FIND contenders "auto" has_auto)
  if(has_auto LESS 0 OR NOT contenders MATCHES "cpu\\.")
    fail("--suite ladder --list names no gemmkit algorithms or no auto: ${contenders}")
  endif()
  string(RANDOM LENGTH 8 ALPHABET 0123456789 seed)
  string(REGEX REPLACE "^0+" "" seed "${seed}1")
  message(STATUS "bench_suite_ladder: seed ${seed}; contenders: ${contenders}")
  file(REMOVE_RECURSE ${GK_BENCH_OUT})
  execute_process(COMMAND ${GK_BENCH_EXE} bench --suite ladder --quick --threads 1,2 --seed ${seed}
    --out ${GK_BENCH_OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("'gemmkit bench --suite ladder --quick --threads 1,2' exited with '${rc}'\n${table}\n${err}")
  endif()
  foreach(t "1 thread" "2 threads")
    if(NOT table MATCHES "\n## SGEMM \\(GFLOPS, ${t}\\)\n\n\\| n \\| [^\n]+ % of peak \\|\n"
       OR NOT table MATCHES "\n## SGEMM times \\(${t}\\)[^\n]*\n\n\\| n \\| 16 \\| 32 \\| 64 \\|\n")
      fail("no GFLOPS or times table for ${t}:\n${table}")
    endif()
  endforeach()
  if(NOT err MATCHES "\\] sgemm n=64 t=2 ")
    fail("no progress lines for 2 threads on stderr:\n${err}")
  endif()
  check_gemm_csv(${GK_BENCH_OUT}/results.csv)
  foreach(id IN LISTS contenders)
    foreach(thr 1 2)
      if(NOT count_${id}_${thr} EQUAL 3)
        fail("results.csv has '${count_${id}_${thr}}' rows for ${id} on ${thr} threads, expected 3")
      endif()
    endforeach()
  endforeach()
  # Plots need gnuplot; their data and scripts are written without it.
  # The front chart and the ladder's, for each thread count.
  foreach(f sgemm-1t.dat sgemm-1t.gp sgemm-2t.dat sgemm-2t.gp sgemm-ladder-1t.dat sgemm-ladder-2t.gp)
    if(NOT EXISTS ${GK_BENCH_OUT}/${f})
      fail("${GK_BENCH_OUT}/${f} was not written")
    endif()
  endforeach()
  file(READ ${GK_BENCH_OUT}/meta.txt meta)
  if(NOT meta MATCHES "\nsuite: ladder\n" OR NOT meta MATCHES "\nthreads: 1,2\n"
     OR NOT meta MATCHES "\npeak_f32_2t_gflops: ")
    fail("meta.txt lacks the suite, the thread counts or the peak:\n${meta}")
  endif()
  message(STATUS "bench_suite_ladder: ok")
  return()
endif()

if(GK_BENCH_MODE STREQUAL "gf256")
  # The Reed-Solomon suite, quick: 4+2 and 10+4, 64 KiB, 1 thread; every
  # row checked and timed for gemmkit (ISA-L where installed).
  file(REMOVE_RECURSE ${GK_BENCH_OUT})
  execute_process(COMMAND ${GK_BENCH_EXE} bench --suite gf256 --quick --no-plot --out ${GK_BENCH_OUT}
    RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("'gemmkit bench --suite gf256 --quick' exited with '${rc}'\n${table}\n${err}")
  endif()
  foreach(row "4\\+2, 64 KiB \\| 1 \\| encode" "4\\+2, 64 KiB \\| 1 \\| decode" "10\\+4, 64 KiB \\| 1 \\| decode")
    if(NOT table MATCHES "\n\\| ${row} \\| [0-9]+\\.[0-9]+ \\| ")
      fail("no timed row '${row}' in the table:\n${table}")
    endif()
  endforeach()
  if(NOT err MATCHES "\\[ *[0-9]+/[0-9]+\\] encode 4\\+2 ")
    fail("no progress lines on stderr:\n${err}")
  endif()
  file(READ ${GK_BENCH_OUT}/results.md md)
  if(NOT md STREQUAL table)
    fail("results.md differs from the table printed on stdout")
  endif()
  file(STRINGS ${GK_BENCH_OUT}/results.csv rows)
  list(POP_FRONT rows header)
  list(LENGTH rows nrows)
  if(NOT header STREQUAL "op,k,m,shard_bytes,threads,gemmkit_gbs,isal_gbs,ratio,verified,paired_ratio" OR NOT nrows EQUAL 4)
    fail("results.csv: header '${header}', ${nrows} rows (expected 4)")
  endif()
  foreach(row IN LISTS rows)
    if(NOT row MATCHES "^(encode|decode),[0-9]+,[0-9]+,65536,1,[0-9]+\\.[0-9]+,[^,]*,[^,]*,(isal|self),[^,]*$")
      fail("results.csv row '${row}': expected a timed, checked row")
    endif()
  endforeach()
  file(READ ${GK_BENCH_OUT}/meta.txt meta)
  if(NOT meta MATCHES "\nsuite: gf256\n" OR NOT meta MATCHES "\nisal: ")
    fail("meta.txt lacks the suite or ISA-L:\n${meta}")
  endif()
  message(STATUS "bench_suite_gf256: ok")
  return()
endif()

if(GK_BENCH_MODE STREQUAL "unavailable")
  # With the generic kernel set forced, the AVX2 rung cannot run as named:
  # it is listed and shown as unavailable, never timed.
  set(ENV{GK_ARCH} generic)
  list_contenders(--algos cpu.avx2_3x32,auto)
  if(NOT unavailable STREQUAL "cpu.avx2_3x32")
    fail("GK_ARCH=generic: --list does not mark cpu.avx2_3x32 unavailable (${unavailable})")
  endif()
  file(REMOVE_RECURSE ${GK_BENCH_OUT})
  execute_process(COMMAND ${GK_BENCH_EXE} bench --algos cpu.avx2_3x32,auto --sizes 16,32 --quick --no-plot
    --out ${GK_BENCH_OUT} RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    fail("GK_ARCH=generic gemmkit bench exited with '${rc}'\n${table}\n${err}")
  endif()
  if(NOT table MATCHES "Not measured: `cpu.avx2_3x32` \\(needs AVX2; the kernel set in use is generic"
     OR NOT table MATCHES "\n\\| 16 \\| n/a \\| [0-9.]+ \\|")
    fail("the unavailable rung is not shown as n/a with its reason:\n${table}")
  endif()
  check_gemm_csv(${GK_BENCH_OUT}/results.csv)
  file(READ ${GK_BENCH_OUT}/meta.txt meta)
  if(NOT meta MATCHES "\nGK_ARCH: generic\n" OR NOT meta MATCHES "\ngemmkit_cpu_kernels: generic\n")
    fail("meta.txt does not say that the generic kernel set was forced:\n${meta}")
  endif()
  if(NOT count_cpu.avx2_3x32_1 EQUAL 2 OR NOT count_auto_1 EQUAL 2)
    fail("results.csv: expected 2 rows each for cpu.avx2_3x32 and auto")
  endif()
  message(STATUS "bench_unavailable_rung: ok")
  return()
endif()

if(NOT GK_BENCH_MODE STREQUAL "smoke")
  fail("unknown GK_BENCH_MODE '${GK_BENCH_MODE}'")
endif()

# The contenders this machine has.
list_contenders()
list(FIND contenders "auto" has_auto)
if(has_auto LESS 0 OR NOT contenders MATCHES "cpu\\.")
  fail("--list names no gemmkit algorithms or no auto: ${contenders}")
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
# The front table (auto, production paths, references) and the ladder
# table (the seed rungs) apart.
if(NOT table MATCHES "\n## SGEMM \\(GFLOPS, 1 thread\\)\n\n\\| n \\| cpu.blocked \\|[^\n]* gemmkit auto \\|"
   OR NOT table MATCHES "\n## SGEMM ladder \\(GFLOPS, 1 thread\\)\n\n\\| n \\| cpu.plain \\|")
  fail("no front and ladder tables apart:\n${table}")
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
# (the quick sizes are far below the cap).
check_gemm_csv(${GK_BENCH_OUT}/results.csv)
foreach(id IN LISTS contenders)
  if(NOT count_${id}_1 EQUAL 3)
    fail("results.csv has '${count_${id}_1}' rows for '${id}', expected 3 (one per quick size)")
  endif()
endforeach()

# The operands 16 bytes past a page (--offset, as malloc places large
# blocks): checked and timed the same way, and said so in the header.
file(REMOVE_RECURSE ${GK_BENCH_OUT}_offset)
execute_process(COMMAND ${GK_BENCH_EXE} bench --quick --no-plot --seed ${seed} --algos auto --sizes 17,64
  --offset 16 --out ${GK_BENCH_OUT}_offset RESULT_VARIABLE rc OUTPUT_VARIABLE table ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  fail("'gemmkit bench --quick --offset 16' exited with '${rc}'\n${table}\n${err}")
endif()
if(NOT table MATCHES "A, B and C start 16 bytes past a 4 KiB page" OR NOT table MATCHES "\n\\| 17 \\| [0-9]")
  fail("--offset 16: no line saying so, or no result at 17:\n${table}")
endif()
message(STATUS "bench_smoke: ok")

#!/bin/bash
# The README's test command, exactly, on one H200 (16 CPU cores), after the
# pool change; then test_pool under ThreadSanitizer as its header builds
# it (the pool with up to 15 workers). From the repository root; OUTDIR the
# first argument.
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; T0=$(date +%s)
{ date -u; nvidia-smi -L; nproc; free -g; } >"$O/machine.txt" 2>&1
timeout 450 ./build.sh test >"$O/test.log" 2>&1
echo "rc=$? after $(( $(date +%s) - T0 )) s" | tee -a "$O/test.log"
grep -E "tests passed|Failed|\*\*\*|Not Run" "$O/test.log" | head -20
gcc -O1 -g -fsanitize=thread -ffunction-sections -Wl,--gc-sections -Isrc/core -Iinclude -Itests \
  -Itools/common tests/test_pool.c src/core/pool.c tests/test_util.c -lpthread -lm -o "$O/test_pool_tsan" \
  >"$O/tsan.log" 2>&1 && timeout 100 "$O/test_pool_tsan" >>"$O/tsan.log" 2>&1
echo "tsan rc=$?" | tee -a "$O/tsan.log"; rm -f "$O/test_pool_tsan"
grep -cE "WARNING: ThreadSanitizer" "$O/tsan.log"; tail -2 "$O/tsan.log"
gzip -f "$O/test.log"

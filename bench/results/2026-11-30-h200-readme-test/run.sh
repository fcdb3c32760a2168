#!/bin/bash
# The README's test command, exactly, on one H200 (from the repository
# root; OUTDIR the first argument).
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; T0=$(date +%s)
{ date -u; nvidia-smi -L; nproc; free -g; } >"$O/machine.txt" 2>&1
timeout 570 ./build.sh test >"$O/test.log" 2>&1
echo "rc=$? after $(( $(date +%s) - T0 )) s" | tee -a "$O/test.log"
grep -E "tests passed|Failed|\*\*\*|Not Run|Skipped|skipped" "$O/test.log" | head -30

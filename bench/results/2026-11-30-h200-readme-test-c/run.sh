#!/bin/bash
# The README's test command, exactly, on one H200 (16 CPU cores, an Intel Xeon with AVX-512
# and GFNI), on the files of the day's last code change (the GF(2^8) kernels' heads, the
# own-columns pieces with several threads). From the repository root; OUTDIR the first argument.
O=${1:?usage: run.sh OUTDIR}; mkdir -p "$O"; T0=$(date +%s)
{ date -u; nvidia-smi -L; nproc; free -g; lscpu | grep -E "Model name|Flags" | cut -c1-120; } >"$O/machine.txt" 2>&1
timeout 500 ./build.sh test >"$O/test.log" 2>&1
echo "rc=$? after $(( $(date +%s) - T0 )) s" | tee -a "$O/test.log"
grep -E "tests passed|Failed|\*\*\*|Not Run" "$O/test.log" | head -20
gzip -f "$O/test.log"

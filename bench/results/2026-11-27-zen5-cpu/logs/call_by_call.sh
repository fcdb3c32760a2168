OB=/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblasp-r0.3.21.so
GK=${GK:-build/libgemmkit.so}  # the library under test (commit 5c86439); abdl built from ../../2026-11-27-emr-cpu/logs/abdl.c
BL=/usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4
echo "# gemmkit (A) against OpenBLAS 0.3.21 OPENBLAS_CORETYPE=SkylakeX (B), call by call, 1 thread"
export GK_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_CORETYPE=SkylakeX
for sz in "16 16 16 21 20000" "64 64 64 21 2000" "256 256 256 21 20" "512 512 512 21 10" "1024 1024 1024 21" "2048 2048 2048 11" "4096 4096 4096 5" "64 4096 4096 11" "4096 4096 64 11"; do
 set -- $sz; ./abdl $GK $OB s $1 $2 $3 $4 $5; ./abdl $GK $OB d $1 $2 $3 $4 $5; done
echo "# gemmkit (A) against BLIS 0.9.0 BLIS_ARCH_TYPE=0 (skx) (B), call by call, 1 thread"
export BLIS_ARCH_TYPE=0 BLIS_NUM_THREADS=1
for sz in "256 256 256 21 20" "1024 1024 1024 21" "2048 2048 2048 11" "4096 4096 4096 5"; do set -- $sz; ./abdl $GK $BL s $1 $2 $3 $4 $5; ./abdl $GK $BL d $1 $2 $3 $4 $5; done

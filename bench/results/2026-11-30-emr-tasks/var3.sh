#!/bin/bash
dt=$1; n=$2; R=$3
for r in $(seq $R); do
  line=""
  for v in one t4 t1 t2; do
    case $v in
      one) x=$(LD_LIBRARY_PATH=/tmp/var_xt GK_NUM_THREADS=1 /tmp/mb/loop $n $dt 0.4);;
      t4) x=$(LD_LIBRARY_PATH=/tmp/var_xt GK_GEMM_ADAPT=0 GK_NUM_THREADS=2 /tmp/mb/loop $n $dt 0.4);;
      t1) x=$(LD_LIBRARY_PATH=/tmp/var_xt XT=1 GK_GEMM_ADAPT=0 GK_NUM_THREADS=2 /tmp/mb/loop $n $dt 0.4);;
      t2) x=$(LD_LIBRARY_PATH=/tmp/var_xt XT=2 GK_GEMM_ADAPT=0 GK_NUM_THREADS=2 /tmp/mb/loop $n $dt 0.4);;
    esac
    line="$line $(echo $x | awk '{print $3}')"
  done
  echo $line
done | python3 -c "
import sys,statistics
rows=[list(map(float,l.split())) for l in sys.stdin if l.strip()]
names=['one','t4','t1','t2']
for i in range(1,4):
    r=sorted(x[i]/x[0] for x in rows)
    print(f'{names[i]}/one median {statistics.median(r):.3f}  ', ' '.join(f'{v:.2f}' for v in r))
print('one GFLOPS', ' '.join(f'{x[0]:.0f}' for x in rows))
"

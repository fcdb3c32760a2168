#!/bin/bash
# var4.sh dt n rounds: per round, 0.4 s each: one thread; the library before (cur) and after (ut), with the learned thread count and with two threads always (GK_GEMM_ADAPT=0); ratios to one thread in the same round, median over rounds
dt=$1; n=$2; R=$3
for r in $(seq $R); do
  line=""
  for v in one cur ut curF utF; do
    case $v in
      one) x=$(LD_LIBRARY_PATH=/tmp/var_cur GK_NUM_THREADS=1 /tmp/mb/loop $n $dt 0.4);;
      cur) x=$(LD_LIBRARY_PATH=/tmp/var_cur GK_NUM_THREADS=2 /tmp/mb/loop $n $dt 0.4);;
      ut) x=$(LD_LIBRARY_PATH=/tmp/var_ut GK_NUM_THREADS=2 /tmp/mb/loop $n $dt 0.4);;
      curF) x=$(LD_LIBRARY_PATH=/tmp/var_cur GK_GEMM_ADAPT=0 GK_NUM_THREADS=2 /tmp/mb/loop $n $dt 0.4);;
      utF) x=$(LD_LIBRARY_PATH=/tmp/var_ut GK_GEMM_ADAPT=0 GK_NUM_THREADS=2 /tmp/mb/loop $n $dt 0.4);;
    esac
    line="$line $(echo $x | awk '{print $3}')"
  done
  echo $line
done | python3 -c "
import sys,statistics
rows=[list(map(float,l.split())) for l in sys.stdin if l.strip()]
names=['one','cur','ut','cur forced','ut forced']
for i in range(1,5):
    r=sorted(x[i]/x[0] for x in rows)
    print(f'{names[i]}/one median {statistics.median(r):.3f}  ', ' '.join(f'{v:.2f}' for v in r))
r=sorted(x[2]/x[1] for x in rows); print(f'ut/cur median {statistics.median(r):.3f}  ', ' '.join(f'{v:.2f}' for v in r))
r=sorted(x[4]/x[3] for x in rows); print(f'ut forced/cur forced median {statistics.median(r):.3f}  ', ' '.join(f'{v:.2f}' for v in r))
print('one GFLOPS', ' '.join(f'{x[0]:.0f}' for x in rows))
"

#!/bin/bash
# alternate old (/tmp/ss3_base) and new (this tree): median CPU ms a step, bench_sim scene
N=${1:-10000}; STEPS=${2:-30}; REPS=${3:-3}
for r in $(seq $REPS); do
  for R in /tmp/ss3_base /work/wt/simspeed3; do
    (cd $R && PYTHONPATH=$R/src python /work/wt/simspeed3/scratch/simhash.py $N $STEPS 1 $R/benchmarks | sed "s|^|$(basename $R) |")
  done
done

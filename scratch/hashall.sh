#!/bin/bash
# usage: hashall.sh SRC_ROOT  -> prints hashes for the scenes
R=$1
cd $R
export PYTHONPATH=$R/src
S=/work/wt/simspeed3/scratch
python $S/simhash.py 2000 40 1 $R/benchmarks
python $S/pilehash.py 400 1 $R/benchmarks
python $S/simhash.py 10000 12 2 $R/benchmarks
python $S/simhash.py 10000 12 1 $R/benchmarks

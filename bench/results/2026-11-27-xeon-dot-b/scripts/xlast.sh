#!/bin/bash
# xnarrow2.sh (the narrow products against OpenBLAS) and xfinal2.sh (the suite built with CUDA) in one call.
cd "$(dirname "$0")/.."
OUT0=$OUT
OUT=$OUT0/n bash build-ab/xnarrow2.sh
OUT=$OUT0/f bash build-ab/xfinal2.sh

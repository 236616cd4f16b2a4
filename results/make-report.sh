#!/usr/bin/env bash
# Regenerates results/report.html and results/SUMMARY.md from every hwrun run
# committed under results/ (litmus and kernels, every device).
# usage: results/make-report.sh [MEMSIM]   (default: build/memsim; run from anywhere)
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${1:-build/memsim}
[ -x "$memsim" ] || { echo "make-report: build memsim first (cmake --build build), or pass its path" >&2; exit 2; }
exec "$memsim" report results -o results

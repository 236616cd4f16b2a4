#!/usr/bin/env bash
# How fast the report of every committed run is made and how fast it loads.
# usage: bench/report.sh [MEMSIM] [RUNS]   (default build/memsim, 5 page loads)
# Prints memsim report's own timings (reading the JSON, drawing the graphs,
# writing), then for the page in headless Chromium: the milliseconds from
# navigation to a usable page (the page's script forces a layout and records
# performance.now() in data-report-ms), and the CPU seconds the browser spends
# on the page beyond an empty one, loading it and drawing the first screen
# (medians of RUNS loads). On a shared machine the wall time follows the load
# average; the CPU time hardly does.
set -euo pipefail
cd "$(dirname "$0")/.."
memsim=${1:-build/memsim}
runs=${2:-5}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== memsim report results (best of 3)"
for i in 1 2 3; do "$memsim" report results -o "$out/r" 2>&1 | grep 'memsim report:'; done
echo "== page: $(stat -c %s "$out/r/report.html") bytes; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# The page as shipped, with a forced layout before the mark (a page is usable once laid out).
sed "s|  document.body.setAttribute('data-report-ms'|  void document.body.offsetHeight;\n&|" "$out/r/report.html" >"$out/page.html"
printf '<html><body><script>document.body.setAttribute("data-report-ms", Math.round(performance.now()))</script></body></html>' >"$out/empty.html"
python3 - "$out" "$runs" <<'PY'
import re, resource, statistics, subprocess, sys
out, runs = sys.argv[1], int(sys.argv[2])
def load(page, mode):
    """CPU seconds of the browser's processes, and the page's own mark (dump-dom only)."""
    args = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            f"--user-data-dir={out}/profile", "--window-size=1600,1000"]
    args += [f"--screenshot={out}/shot.png"] if mode == "shot" else ["--dump-dom"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    dom = subprocess.run(args + [f"file://{out}/{page}"], capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    m = re.search(r'data-report-ms="(\d+)"', dom)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, int(m.group(1)) if m else None
res = {(p, mode): [load(p, mode) for _ in range(runs)] for p in ("empty.html", "page.html") for mode in ("shot", "dom")}
cpu = {k: statistics.median(c for c, _ in r) for k, r in res.items()}
ms = {p: sorted(m for _, m in res[(p, "dom")] if m is not None) for p in ("empty.html", "page.html")}
print(f"empty page: usable after {ms['empty.html']} ms")
print(f"report:     usable after {ms['page.html']} ms (median {statistics.median(ms['page.html'])} ms)")
print(f"browser CPU beyond an empty page, loading and drawing the first screen: "
      f"{cpu[('page.html', 'shot')] - cpu[('empty.html', 'shot')]:.2f} s (median of {runs})")
print(f"... and with --dump-dom's copy of the whole page: "
      f"{cpu[('page.html', 'dom')] - cpu[('empty.html', 'dom')]:.2f} s")
PY

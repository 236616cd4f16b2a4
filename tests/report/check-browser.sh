#!/usr/bin/env bash
# Opens the report of the sample runs in headless Chromium (Debian's
# `chromium`): the page's script must finish (it marks <body
# data-report-ready="ROWS">) without an error (data-report-error), the table,
# histograms and graphs must be in the rendered DOM, the filter must work
# (?filter=kernel leaves the 3 kernels of 10 tests), and the screenshot must not be blank.
# usage: check-browser.sh MEMSIM SOURCE_DIR [SCREENSHOT.png]
set -u
memsim=$1
src=$2
shot_keep=${3:-}
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "SKIP: no chromium (apt-get install chromium)"
  exit 77
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$src" || exit 2
"$memsim" report tests/report -o "$out/r" 2>/dev/null || { echo "FAIL: memsim report failed"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-extensions --user-data-dir="$out/profile"
       --virtual-time-budget=5000)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

timeout 120 "$browser" "${flags[@]}" --dump-dom "file://$out/r/report.html?filter=kernel" >"$out/dom.html" 2>"$out/chromium.err"
body=$(grep -o '<body[^>]*>' "$out/dom.html" | head -1)
echo "rendered: $body"
case "$body" in *'data-report-ready="10"'*) ;; *) fail "the page's script did not finish (body: $body)";; esac
case "$body" in *data-report-error*) fail "script error: $body";; esac
grep -q '3 of 10 tests shown' "$out/dom.html" || fail "the filter ?filter=kernel did not leave 3 of 10 tests"
[ "$(grep -o '<tr id="row-[0-9]*" [^>]*class="[^"]*hidden' "$out/dom.html" | wc -l)" = 7 ] || fail "7 rows hidden by the filter"
[ "$(grep -o '<svg class="hist"' "$out/dom.html" | wc -l)" = 10 ] || fail "10 histograms in the DOM"
grep -q 'data:image/svg+xml;base64' "$out/dom.html" || fail "no execution graph in the DOM"

timeout 120 "$browser" "${flags[@]}" --window-size=1600,1000 --screenshot="$out/shot.png" "file://$out/r/report.html" \
  >/dev/null 2>>"$out/chromium.err"
size=$(stat -c %s "$out/shot.png" 2>/dev/null || echo 0)
echo "screenshot: $size bytes"
# A blank page is about 10 kB; the table with its colours is far more.
[ "$size" -gt 60000 ] || fail "screenshot missing or blank ($size bytes)"
[ -n "$shot_keep" ] && cp "$out/shot.png" "$shot_keep"
if [ $fails -ne 0 ]; then
  tail -5 "$out/chromium.err"
  exit 1
fi
echo "browser checks passed"

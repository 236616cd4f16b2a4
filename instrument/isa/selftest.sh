#!/usr/bin/env bash
# The ISA check must be able to fail: compile the correct HIP message passing
# (mp.ll: a system-scope release store and acquire load) for gfx942, break its
# code sequences one at a time, and require a MISMATCH for each break.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ll="$here/../examples/hip/gen/mp.ll"
llc=${LLC:-llc-22}
py=${PYTHON:-python3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$llc" -mtriple=amdgcn-amd-amdhsa -mcpu=gfx942 -o "$tmp/mp.s" "$ll"
"$py" "$here/isacheck.py" "$ll" --asm "$tmp/mp.s" > "$tmp/ok.txt" || { cat "$tmp/ok.txt"; echo "selftest: the unbroken code does not pass" >&2; exit 1; }
fail=0
mutate() {  # description, sed script, text the report must contain
  sed -e "$2" "$tmp/mp.s" > "$tmp/bad.s"
  if cmp -s "$tmp/mp.s" "$tmp/bad.s"; then echo "selftest: '$1': the edit changed nothing" >&2; fail=1; return; fi
  if "$py" "$here/isacheck.py" "$ll" --asm "$tmp/bad.s" > "$tmp/bad.txt"; then
    echo "selftest: '$1' was not detected:" >&2; cat "$tmp/bad.txt" >&2; fail=1
  elif ! grep -q "MISMATCH: .*$3" "$tmp/bad.txt"; then
    echo "selftest: '$1' reported without '$3':" >&2; cat "$tmp/bad.txt" >&2; fail=1
  else
    echo "selftest: '$1' detected: $(grep MISMATCH "$tmp/bad.txt" | sed 's/.*MISMATCH: //')"
  fi
}
mutate "acquire without buffer_inv" '/buffer_inv sc0 sc1/d' 'no buffer_inv sc0 sc1'
mutate "acquire with agent-scope buffer_inv" 's/buffer_inv sc0 sc1/buffer_inv sc1/' 'buffer_inv sc1 where sc0 sc1'
mutate "release without buffer_wbl2" '/buffer_wbl2 sc0 sc1/d' 'no buffer_wbl2 sc0 sc1'
mutate "release store without sc bits" '/global_store_dword.*sc0 sc1/s/ sc0 sc1//' 'where sc0 sc1 is required'
mutate "release without the wait after buffer_wbl2" '/buffer_wbl2 sc0 sc1/{n;/s_waitcnt vmcnt(0)/d}' 'not followed by s_waitcnt'
exit $fail

#!/bin/sh
# Number options are checked, not cast: each bad value is an error naming the
# option and the value, exit 2, before any GPU is looked for.
# usage: bad_options.sh MEMSIM LITMUS_DIR
memsim=$1 lit=$2
fails=0
bad() { # bad "OPTION VALUE" EXPECTED-MESSAGE
  # shellcheck disable=SC2086
  out=$("$memsim" hwrun $1 "$lit/mp_release_acquire.lit" 2>&1)
  rc=$?
  if [ $rc -ne 2 ] || ! echo "$out" | grep -qF -- "$2"; then
    echo "FAIL: hwrun $1: exit $rc, wanted 2 and '$2'; got: $out"
    fails=$((fails + 1))
  fi
}
bad "--instances 1e30" "--instances needs a number from 1 to 1e+15, not '1e30'"
bad "--seconds 10x" "--seconds needs a number from 1e-06 to 1e+06, not '10x'"
bad "--iterations 0" "--iterations needs a number"
bad "--budget -1" "--budget needs a number"
bad "--seed 1.5" "--seed needs a whole number"
bad "--skew 0,-5" "--skew needs a whole number from 0 to 1e+09, not '-5'"
bad "--skew ," "--skew needs cycles"
bad "--devices 0,abc" "--devices needs a whole number from 0 to 63, not 'abc'"
bad "--tune-rounds 0" "--tune-rounds needs a whole number"
bad "--tune-seconds abc" "--tune-seconds needs a number"
bad "--control-seconds 0" "--control-seconds needs a number"
[ $fails -eq 0 ] && echo ok
exit $((fails > 0))

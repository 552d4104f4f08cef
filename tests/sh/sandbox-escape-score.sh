# SPDX-License-Identifier: Apache-2.0
# sandbox-escape-score.sh -- how the escape suite reads one probe run.
# Sourced by sandbox-escape.sh and tested by sandbox-escape-scoring.sh.

# probe_result: the probe's verdict from $rfile and $rc: "ok", an errno
# name, or "broken" when the report is missing or repeated, or does not
# agree with the exit status (a probe that reported and then crashed, or
# printed nothing, is never a refusal).
probe_result () {
  _lines=$(grep -c '^RESULT ' "$rfile" 2>/dev/null)
  [ "${_lines:-0}" -eq 1 ] || { echo broken; return; }
  _last=$(grep '^RESULT ' "$rfile" | tr -d '\r')
  # shellcheck disable=SC2086
  set -- $_last
  case ${3:-}:$rc in
    ok:0) [ $# -eq 3 ] && echo ok || echo broken ;;
    denied:1)
      case ${4:-} in
        E[A-Z0-9]*) [ $# -eq 4 ] && echo "$4" || echo broken ;;
        *) echo broken ;;
      esac ;;
    *) echo broken ;;
  esac
}

# expected SPEC: the outcomes SPEC allows under backend $B.  SPEC is a
# list of BACKEND:OUTCOME[,OUTCOME...] words, * for any backend; an
# outcome is an errno name or "ok" (the attempt ran, and the host side
# shows it reached nothing: a private /dev/shm, a private loopback).
expected () {
  for _w in $1; do
    case $_w in
      "$B":*|"*":*) echo "${_w#*:}" | tr , ' ' ;;
    esac
  done
}

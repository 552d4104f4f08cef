#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Tool capability probes kept across runs: bandit's --help (does it write
# SARIF?) runs in the first scan only; a change of the tool's identity
# (modification time, size, inode), of the uid, of ash's version or of
# the stored path makes the next scan ask again; --no-probe-cache asks
# every time and writes nothing; and an entry another user could have
# written (a file or directory of another user's, group- or
# world-writable, a link, a second name) is never used, while the same
# forged entry written the way ash writes one is (the negative control).
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

bin=$TEST_TMP/bin
log=$TEST_TMP/bandit.log
src=$TEST_TMP/src
home=$TEST_TMP/home
cache=$home/.cache/ash/tool-bandit.sarif.json
mkdir -p "$bin" "$src" "$home"
chmod 700 "$home"
echo 'x = 1' >"$src/a.py"
# A bandit that lists SARIF in its --help only while $log.sarif exists,
# logs each --help and the format each scan asked for.  The probe runs
# with a bare environment: the log's path is written into the script.
cat >"$bin/bandit" <<EOF
#!/bin/sh
log='$log'
EOF
cat >>"$bin/bandit" <<'EOF'
if [ "$1" = --help ]; then
  echo help >>"$log"
  if [ -e "$log.sarif" ]; then
    echo "  -f {csv,json,sarif}, --format {csv,json,sarif}"
  else
    echo "  -f {csv,json}, --format {csv,json}"
  fi
  exit 0
fi
fmt= out=
while [ $# -gt 0 ]; do
  case $1 in
    -f) fmt=$2; shift ;;
    -o) out=$2; shift ;;
  esac
  shift
done
echo "run $fmt" >>"$log"
case $fmt in
  sarif) printf '{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Bandit"}},"results":[]}]}' >"$out" ;;
  *) printf '{"errors":[],"results":[],"metrics":{}}' >"$out" ;;
esac
EOF
chmod 755 "$bin/bandit"

# scan [ARG...]: one bandit scan with the sandbox off; the log is cleared.
scan () {
  : >"$log"
  env -u XDG_CACHE_HOME HOME="$home" PATH="$bin:/usr/bin:/bin" "$ASH" scan \
    --source-dir "$src" --output-dir "$TEST_TMP/out" --no-progress --quiet \
    --scanners bandit --sandbox off "$@" >"$TEST_TMP/out.txt" 2>"$TEST_TMP/err"
  status=$?
}
probed () { grep -q '^help$' "$log"; }

scan
assert_eq "the scan passes" "$status" 0
check "the first scan ran the probe" probed
check "its answer is stored" test -f "$cache"
check "the entry is the user's, mode 0600" \
  test "$(stat -c '%u %a' "$cache")" = "$(id -u) 600"
scan
check_fails "the second scan uses the stored answer" probed
assert_file_contains "and runs bandit with JSON as it said" "$log" "run json"

scan --no-probe-cache
check "--no-probe-cache probes afresh" probed
rm -f "$cache"
scan --no-probe-cache
check_fails "a bypassed cache is not written" test -e "$cache"
ASH_NO_PROBE_CACHE=1 scan
check "ASH_NO_PROBE_CACHE=1 probes afresh" probed

# Each part of the tool's identity.
scan
scan
probed && not_ok "setup: the entry is used before touching the tool"
touch -d '2001-01-01' "$bin/bandit"
scan
check "a changed modification time invalidates the entry" probed
scan
check_fails "the new entry is used again" probed
echo '# longer' >>"$bin/bandit"
touch -d '2001-01-01' "$bin/bandit"
scan
check "a changed size invalidates the entry" probed
cp -p "$bin/bandit" "$bin/bandit.new"
mv "$bin/bandit.new" "$bin/bandit"
scan
check "a new inode invalidates the entry" probed

# A tool that gained SARIF is asked again once it changed, and is then
# run with SARIF.
touch "$log.sarif"
touch -d '2002-02-02' "$bin/bandit"
scan
check "after the tool changed, the probe runs again" probed
assert_file_contains "and the tool is run with SARIF" "$log" "run sarif"
scan
assert_file_contains "the stored SARIF answer is used" "$log" "run sarif"
rm -f "$log.sarif"
touch -d '2003-03-03' "$bin/bandit"
scan

# edit KEY VALUE: rewrite one field of the stored key, as another uid,
# version, device or path would make it differ.
edit () {
  python3 - "$cache" "$1" "$2" <<'PY'
import json, sys
p, k, v = sys.argv[1:]
d = json.load(open(p))
d["key"][k] = int(v) if k in ("uid", "dev") else v
open(p, "w").write(json.dumps(d))
PY
}
for k in uid dev ash tool; do
  scan
  scan
  probed && not_ok "setup: the entry is used before changing $k"
  case $k in uid|dev) v=12345 ;; *) v="other $k" ;; esac
  edit "$k" "$v"
  scan
  check "a different $k invalidates the entry" probed
done

# forge: the stored entry says SARIF (the tool says JSON), written back as
# ash writes it; the control shows that such an entry is used.
forge () {
  scan
  python3 - "$cache" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["value"] = "yes"
open(p, "w").write(json.dumps(d))
PY
  chmod 600 "$cache"
}
used_forged () { grep -q "run sarif" "$log"; }
forge
scan
check "control: a forged entry the user owns, mode 0600, is used" used_forged

forge
chmod 620 "$cache"
scan
check_fails "a group-writable entry is not used" used_forged
forge
chmod 602 "$cache"
scan
check_fails "a world-writable entry is not used" used_forged

forge
chmod 770 "$home/.cache/ash"
scan
check_fails "a group-writable cache directory is not used" used_forged
chmod 700 "$home/.cache/ash"
forge
chmod 757 "$home/.cache"
scan
check_fails "a world-writable directory on the way is not used" used_forged
chmod 700 "$home/.cache"

forge
mv "$cache" "$TEST_TMP/elsewhere.json"
ln -s "$TEST_TMP/elsewhere.json" "$cache"
scan
check_fails "an entry that is a link is not used" used_forged
rm -f "$cache"

forge
mv "$home/.cache/ash" "$TEST_TMP/ash-cache"
ln -s "$TEST_TMP/ash-cache" "$home/.cache/ash"
scan
check_fails "a cache directory that is a link is not used" used_forged
rm -f "$home/.cache/ash"
rm -rf "$TEST_TMP/ash-cache"

forge
ln "$cache" "$TEST_TMP/hardlink.json"
scan
check_fails "an entry with a second name is not used" used_forged
rm -f "$TEST_TMP/hardlink.json"

if [ "$(id -u)" = 0 ]; then
  user=$(unpriv_user)
  forge
  chown "$user" "$cache"
  scan
  check_fails "an entry owned by $user is not used by root" used_forged
  rm -f "$cache"
  forge
  chown "$user" "$home/.cache/ash"
  scan
  check_fails "a cache directory owned by $user is not used" used_forged
  chown "$(id -u)" "$home/.cache/ash"
else
  ok "# SKIP not root: cannot give a file to another user"
  ok "# SKIP not root: cannot give a directory to another user"
fi

done_testing

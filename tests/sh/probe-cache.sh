#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The probe cache: a usable Landlock probe is kept in ~/.cache/ash and used
# by the next run; each part of its key (the wrapper's identity, the
# kernel, the uid, ash's version) invalidates it; --no-probe-cache and
# ASH_NO_PROBE_CACHE=1 bypass it; and an entry another user could have
# written (a file of another user's, a group- or world-writable file or
# directory, a link) is never used, while the same forged entry, written
# the way ash writes one, is (the negative control).
. "$top_srcdir/tests/libtest.sh"

[ -x "$ASH" ] || bail "$ASH is not built"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

# A copy of ash and its wrapper, so that the wrapper's identity can change.
bin=$TEST_TMP/bin
mkdir -p "$bin"
cp "$ASH" "$bin/ash"
cp "$(dirname "$ASH")/ash-landlock-exec" "$bin/" 2>/dev/null ||
  skip_all "ash-landlock-exec is not built next to ash"
home=$TEST_TMP/home
mkdir -p "$home"
chmod 700 "$home"
cache=$home/.cache/ash/probe-landlock.json

probe () {
  env -u XDG_CACHE_HOME HOME="$home" PATH=/usr/bin:/bin "$@" "$bin/ash" \
    sandbox probe >"$TEST_TMP/out" 2>"$TEST_TMP/err"
}
# from_cache: whether the last probe took Landlock from the cache.
from_cache () {
  sed -n '/^landlock:/,/^[a-z]/p' "$TEST_TMP/out" | grep -q "from the probe cache"
}

probe
grep -q "^landlock: usable" "$TEST_TMP/out" ||
  skip_all "Landlock is not usable here: $(grep '^landlock' "$TEST_TMP/out")"
check "a usable probe is stored" test -f "$cache"
check_fails "the first run probed" from_cache
check "the entry is the user's, mode 0600" \
  test "$(stat -c '%u %a' "$cache")" = "$(id -u) 600"
probe
check "the second run uses the cache" from_cache
grep -q "^landlock: usable" "$TEST_TMP/out" && ok "and Landlock is usable" ||
  not_ok "and Landlock is usable"

probe --no-probe-cache
check_fails "--no-probe-cache probes afresh" from_cache
probe ASH_NO_PROBE_CACHE=1
check_fails "ASH_NO_PROBE_CACHE=1 probes afresh" from_cache
rm -rf "$home/.cache"
probe ASH_NO_PROBE_CACHE=1
check_fails "a bypassed cache is not written" test -e "$cache"

# edit KEY VALUE: rewrite one field of the stored entry's key (as a
# kernel, uid or version change would make it differ), keeping owner
# and mode.
edit () {
  python3 - "$cache" "$1" "$2" <<'PY'
import json, sys
p, k, v = sys.argv[1:]
d = json.load(open(p))
d["key"][k] = int(v) if k == "uid" else v
open(p, "w").write(json.dumps(d))
PY
}
for k in kernel uid ash backend; do
  probe
  probe
  from_cache || not_ok "setup: the cache is used before changing $k"
  case $k in uid) v=12345 ;; *) v="other $k" ;; esac
  edit "$k" "$v"
  probe
  check_fails "a different $k invalidates the entry" from_cache
done
probe
probe
from_cache || not_ok "setup: the cache is used before touching the wrapper"
touch -d '2001-01-01' "$bin/ash-landlock-exec"
probe
check_fails "a changed wrapper (mtime) invalidates the entry" from_cache
probe
check "the new entry is used again" from_cache

# forge: the stored entry with a note of ours, written back as ash
# writes it (the negative control shows the note).
forge () {
  python3 - "$cache" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["probe"]["notes"] = "FORGED-NOTE"
open(p, "w").write(json.dumps(d))
PY
  chmod 600 "$cache"
}
forge
probe
check "control: a forged entry the user owns, mode 0600, is used" \
  grep -q FORGED-NOTE "$TEST_TMP/out"

forge
chmod 620 "$cache"
probe
assert_file_lacks "a group-writable entry is not used" "$TEST_TMP/out" FORGED-NOTE
forge
chmod 602 "$cache"
probe
assert_file_lacks "a world-writable entry is not used" "$TEST_TMP/out" FORGED-NOTE

forge
chmod 770 "$home/.cache/ash"
probe
assert_file_lacks "a group-writable cache directory is not used" "$TEST_TMP/out" FORGED-NOTE
chmod 700 "$home/.cache/ash"
forge
chmod 757 "$home/.cache"
probe
assert_file_lacks "a world-writable directory on the way is not used" "$TEST_TMP/out" FORGED-NOTE
chmod 700 "$home/.cache"

forge
mv "$cache" "$TEST_TMP/elsewhere.json"
ln -s "$TEST_TMP/elsewhere.json" "$cache"
probe
assert_file_lacks "an entry that is a link is not used" "$TEST_TMP/out" FORGED-NOTE
rm -f "$cache"
probe

forge
mv "$home/.cache/ash" "$TEST_TMP/ash-cache"
ln -s "$TEST_TMP/ash-cache" "$home/.cache/ash"
probe
assert_file_lacks "a cache directory that is a link is not used" "$TEST_TMP/out" FORGED-NOTE
rm -f "$home/.cache/ash"
rm -rf "$TEST_TMP/ash-cache"
probe

forge
ln "$cache" "$TEST_TMP/hardlink.json"
probe
assert_file_lacks "an entry with a second name is not used" "$TEST_TMP/out" FORGED-NOTE
rm -f "$TEST_TMP/hardlink.json"

if [ "$(id -u)" = 0 ]; then
  user=$(unpriv_user)
  probe
  forge
  chown "$user" "$cache"
  probe
  assert_file_lacks "an entry owned by $user is not used by root" "$TEST_TMP/out" FORGED-NOTE
  probe
  forge
  chown "$user" "$home/.cache/ash"
  probe
  assert_file_lacks "a cache directory owned by $user is not used" "$TEST_TMP/out" FORGED-NOTE
  chown "$(id -u)" "$home/.cache/ash"
else
  ok "# SKIP not root: cannot give a file to another user"
  ok "# SKIP not root: cannot give a directory to another user"
fi

done_testing

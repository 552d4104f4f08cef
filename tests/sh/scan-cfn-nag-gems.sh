#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cfn-nag is a Ruby gem: its cfn_nag_scan is the wrapper RubyGems writes,
# which finds the gem through GEM_HOME.  Here a gem built on the spot
# (offline) stands in for cfn-nag: installed into a GEM_HOME of the test's
# own, its cfn_nag_scan loads the gem's code, which runs the fake
# cfn_nag_scan.  Unsandboxed it reports the recorded findings; under each
# usable backend the gem directory GEM_HOME names is readable, so the
# findings are the same.  (The fake cfn_nag_scan the gem runs is on PATH,
# where a sandbox finds it; cfn-nag's own code would be in the gem.)  ash sandbox explain shows the gem paths.
. "$top_srcdir/tests/libtest.sh"
. "$top_srcdir/tests/iac-lib.sh"

command -v ruby >/dev/null 2>&1 || skip_all "ruby is not installed"
command -v gem >/dev/null 2>&1 || skip_all "gem is not installed"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"
work=$TEST_TMP/work
mkdir -p "$work/bin" "$work/gemsrc/lib" "$work/gemsrc/exe" "$work/fake" "$work/tool/bin"
cp -R "$top_srcdir/tests/fixtures/repos/iac" "$work/src"
cp "$top_srcdir/tests/fixtures/tools/cfn_nag_scan" "$work/fake/"
cp -R "$top_srcdir/tests/fixtures/tools/iac-data" "$work/fake/"
iac_install_ash "$work/bin"
cat >"$work/gemsrc/lib/ash_fake_nag.rb" <<R
# Stands in for cfn-nag's code: runs the recorded-output fake.
module AshFakeNag
  def self.run(argv)
    exec("$work/fake/cfn_nag_scan", *argv)
  end
end
R
cat >"$work/gemsrc/exe/cfn_nag_scan" <<'R'
#!/usr/bin/env ruby
require 'ash_fake_nag'
AshFakeNag.run(ARGV)
R
chmod +x "$work/gemsrc/exe/cfn_nag_scan"
cat >"$work/gemsrc/ash-fake-nag.gemspec" <<'R'
Gem::Specification.new do |s|
  s.name = 'ash-fake-nag'
  s.version = '0.1.0'
  s.summary = 'stands in for cfn-nag in the tests'
  s.authors = ['ash']
  s.license = 'Apache-2.0'
  s.files = ['lib/ash_fake_nag.rb', 'exe/cfn_nag_scan']
  s.bindir = 'exe'
  s.executables = ['cfn_nag_scan']
end
R
(cd "$work/gemsrc" && gem build ash-fake-nag.gemspec) >"$TEST_TMP/gem.log" 2>&1 ||
  skip_all "gem build failed: $(tail -n 1 "$TEST_TMP/gem.log")"
# The wrapper apart from the gems, as a system's /usr/local/bin is from
# its gem directory.
gem install --local --install-dir "$work/gems" --bindir "$work/tool/bin" --no-document \
  "$work/gemsrc/ash-fake-nag-0.1.0.gem" >>"$TEST_TMP/gem.log" 2>&1 ||
  skip_all "gem install failed: $(tail -n 1 "$TEST_TMP/gem.log")"
chmod -R a+rX "$work"

scan () { # OUT MODE
  env -i $scanner_user_env PATH="$work/tool/bin:/usr/bin:/bin:$work/fake" HOME="$HOME" \
    LANG=C.UTF-8 GEM_HOME="$work/gems" "$work/bin/ash" scan --source-dir "$work/src" \
    --output-dir "$work/$1" --no-progress --scanners cfn-nag --sandbox "$2" \
    >"$TEST_TMP/out" 2>"$TEST_TMP/err"
  status=$?
}

# Without GEM_HOME the wrapper cannot find its gem: the gem is really
# what runs.
env -i PATH="$work/tool/bin:/usr/bin:/bin" HOME="$HOME" "$work/tool/bin/cfn_nag_scan" --version \
  >"$TEST_TMP/nogem" 2>&1
check_fails "control: the wrapper needs GEM_HOME" grep -qx "0.8.10" "$TEST_TMP/nogem"

scan off off
assert_eq "unsandboxed: the gem's cfn_nag_scan ran (exit 2: findings)" "$status" 2
iac_findings "$work/off" >"$TEST_TMP/off"
assert_file_contains "unsandboxed: the recorded findings" "$TEST_TMP/off" "cfn-nag W35 test.yaml 5 MEDIUM"

env -i PATH="$work/tool/bin:/usr/bin:/bin" HOME="$HOME" GEM_HOME="$work/gems" \
  "$work/bin/ash" sandbox explain cfn-nag --source-dir "$work/src" >"$TEST_TMP/explain" 2>&1
python3 - "$TEST_TMP/explain" >"$TEST_TMP/paths" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
for p in d["paths"]:
    print(p["path"], p["access"], p["rule"])
print("env", " ".join(d["env"]))
PY
assert_file_contains "explain: GEM_HOME's directory is readable" \
  "$TEST_TMP/paths" "$work/gems read \$GEM_HOME"
assert_file_contains "explain: GEM_HOME is passed" "$TEST_TMP/paths" "GEM_HOME"
if [ -d /var/lib/gems ]; then
  assert_file_contains "explain: the system's gems outside /usr are readable" "$TEST_TMP/paths" "/var/lib/gems read"
else
  ok "explain: /var/lib/gems # SKIP there is no /var/lib/gems here"
fi

sandboxed () { # BACKEND
  scan "$1" "$1"
  assert_eq "$1: exit 2 as unsandboxed" "$status" 2
  iac_findings "$work/$1" >"$TEST_TMP/$1"
  check "$1: the gem is found, the same findings as unsandboxed" cmp "$TEST_TMP/off" "$TEST_TMP/$1"
}
iac_backends sandboxed
done_testing

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One table of install hints: for every builtin scanner and trivy-repo, the command its
# MISSING reason names is what "ash dependencies install --dry-run"
# prints for it (with no installer: the hint itself; with npm and uv:
# the command it would run, which the hint names too), and both name the
# same tool.
. "$top_srcdir/tests/libtest.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed"

src=$TEST_TMP/src
mkdir -p "$src" "$TEST_TMP/empty/bin" "$TEST_TMP/inst/bin"
echo 'x = 1' >"$src/a.py"
bin=$TEST_TMP/empty/bin
for t in npm uv; do
  printf '#!/bin/sh\nexit 1\n' >"$TEST_TMP/inst/bin/$t"
  chmod 755 "$TEST_TMP/inst/bin/$t"
done

# Every builtin scanner MISSING: no tool on PATH or in the bin directory.
ASH_BIN_PATH=$bin PATH=$TEST_TMP/empty/bin run_ash scan --source-dir "$src" \
  --output-dir "$TEST_TMP/o" --no-progress --sandbox off
cp "$TEST_TMP/err" "$TEST_TMP/missing"
# And trivy-repo, a plugin module's scanner.
ASH_BIN_PATH=$bin PATH=$TEST_TMP/empty/bin run_ash scan --source-dir "$src" \
  --output-dir "$TEST_TMP/o2" --no-progress --sandbox off \
  --ash-plugin-modules "$top_srcdir/data/plugins/trivy-repo.yaml" --scanners trivy-repo
cat "$TEST_TMP/err" >>"$TEST_TMP/missing"
ASH_BIN_PATH=$bin PATH=$TEST_TMP/empty/bin run_ash dependencies install --dry-run
assert_eq "dry run without installers: exit 0" "$status" 0
cp "$TEST_TMP/out" "$TEST_TMP/plain"
ASH_BIN_PATH=$bin PATH=$TEST_TMP/inst/bin run_ash dependencies install --dry-run
assert_eq "dry run with npm and uv: exit 0" "$status" 0
cp "$TEST_TMP/out" "$TEST_TMP/cmds"

python3 - "$TEST_TMP/missing" "$TEST_TMP/plain" "$TEST_TMP/cmds" \
  "$TEST_TMP/inst/bin" >"$TEST_TMP/compare" <<'PY'
import re, sys
missing, plain, cmds, inst = sys.argv[1:5]
reasons = {}
for line in open(missing):
    m = re.search(r"(\S+) not run: (\S+) is not installed \(install it with: "
                  r"(.*), or ash dependencies install\)$", line.rstrip("\n"))
    if m:
        reasons[m.group(1)] = (m.group(2), m.group(3))
def lines(path):
    d = {}
    for line in open(path):
        m = re.match(r"(\S+) +(.*)$", line.rstrip("\n"))
        if m:
            d[m.group(1)] = m.group(2)
    return d
plain, cmds = lines(plain), lines(cmds)
print("scanners", len(reasons))
for name, (tool, hint) in sorted(reasons.items()):
    p = plain.get(name, "")
    m = re.match(r"install (\S+) with: (.*?)( \(Homebrew: brew install \S+\))?$", p)
    n = re.match(r"needs .* to install: (.*)$", p)
    if m:
        ok = m.group(1) == tool and m.group(2) == hint
    else:
        ok = bool(n) and n.group(1) == hint
    print("plain", name, "ok" if ok else "differs: %r / %r %r" % (p, tool, hint))
    c = cmds.get(name, "")
    if c.startswith("install ") or " is installed at " in c or c == p:
        ok = c == p or " is installed at " in c
    else:
        # "ENV=... INST/npm install -g --prefix P --no-fund --no-audit PKGS"
        # or "ENV=... INST/uv tool install PKGS": the hint names the same.
        words = [w for w in c.split() if "=" not in w]
        words[0] = words[0][len(inst) + 1:] if words[0].startswith(inst + "/") else words[0]
        def npm_words(ws):
            # npm install [-g] with --prefix DIR and --no-* left out.
            out = []
            for i, w in enumerate(ws):
                if w.startswith("--") or (i > 0 and ws[i - 1] == "--prefix"):
                    continue
                out.append(w)
            return out
        if words[:2] == ["npm", "install"]:
            words = npm_words(words)
            hw = hint.split()
            hint = " ".join(npm_words(hw))
        ok = " ".join(words) in hint
    print("cmd", name, "ok" if ok else "differs: %r / %r" % (c, hint))
PY
assert_file_contains "every builtin scanner and trivy-repo is MISSING" "$TEST_TMP/compare" "scanners 16"
for s in bandit cdk-nag cfn-nag checkov detect-secrets grype npm-audit opengrep \
         semgrep syft actionlint cfn-lint cfn-guard gitleaks zizmor trivy-repo; do
  assert_file_contains "$s: the dry run prints the MISSING reason's hint" "$TEST_TMP/compare" "plain $s ok"
  assert_file_contains "$s: the install command is the hint's" "$TEST_TMP/compare" "cmd $s ok"
done
done_testing

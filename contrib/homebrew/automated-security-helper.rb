# SPDX-License-Identifier: Apache-2.0
# Homebrew formula for ash, built from the release tarball with the
# darwin (sandbox-exec) backend.  The sha256 below is a placeholder: for a
# release, `make homebrew-formula` writes ash-VERSION.rb with the url of the
# release and the sha256 of the tarball `make dist` made
# (build-aux/release-formula); tests/sh/homebrew-formula.sh checks that the
# version, dependencies and configure options agree with configure.ac.
class AutomatedSecurityHelper < Formula
  desc "Security scanner orchestrator that sandboxes every scanner"
  homepage "https://github.com/ash-sandbox/ash"
  url "https://github.com/ash-sandbox/ash/releases/download/v0.1.0/ash-0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  license "Apache-2.0"

  depends_on "pkgconf" => :build
  depends_on "gettext"
  depends_on "jansson"
  depends_on "libyaml"

  def install
    system "./configure", "--disable-silent-rules",
                          "--with-bash-completion-dir=#{bash_completion}",
                          "--with-zsh-completion-dir=#{zsh_completion}",
                          "--with-fish-completion-dir=#{fish_completion}",
                          *std_configure_args
    system "make"
    system "make", "install"
  end

  def caveats
    <<~EOS
      ash confines each scanner with macOS's sandbox-exec; `ash sandbox probe`
      says whether it can be used here.  Install the scanners themselves
      with `ash dependencies install`.
    EOS
  end

  test do
    assert_match "ash #{version}", shell_output("#{bin}/ash --version")
    assert_match "sandbox-exec", shell_output("#{bin}/ash sandbox probe 2>&1", 0..1)
  end
end

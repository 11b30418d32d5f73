#!/usr/bin/env bash
# The GitHub Action's one script (action.yml runs it in three steps):
#   plan     pick the release tag and the archive for this runner; write
#            tag, target and dir to $GITHUB_OUTPUT (actions/cache keys on them)
#   install  download the archive and its .sha256, refuse it unless the
#            SHA-256 matches, unpack the binary into dir
#   path     put dir on $GITHUB_PATH and check the binary runs
# It only downloads, verifies and caches: the archives are the ones
# cargo-dist builds in .github/workflows/release.yml.
#
# Inputs (environment): ODDSMITH_VERSION (a tag such as v0.1.0, or 0.1.0;
# empty: the version in Cargo.toml beside this action, so `uses: …@v0.1.0`
# installs 0.1.0), ODDSMITH_RELEASE_URL (empty: the repository's GitHub
# releases, `<repository in Cargo.toml>/releases/download`), ODDSMITH_SHA256
# (optional: the archive's expected SHA-256, checked too), and GitHub's
# RUNNER_OS, RUNNER_ARCH, RUNNER_TOOL_CACHE, GITHUB_OUTPUT, GITHUB_PATH,
# GITHUB_ACTION_PATH. .ci/action_test.py runs it against a loopback server.
set -euo pipefail

here="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"

fail() {
  echo "::error title=oddsmith::$*"
  echo "oddsmith action: $*" >&2
  exit 1
}

# The first `key = "value"` of Cargo.toml: the [package] table comes first.
cargo_field() {
  sed -n "s/^$1 *= *\"\\(.*\\)\"/\\1/p" "$here/Cargo.toml" | head -n 1
}

# These set globals rather than print, so that `fail` ends the script
# itself, not a command substitution's subshell.
release_tag() {
  local v="${ODDSMITH_VERSION:-}"
  if [ -z "$v" ]; then
    v="$(cargo_field version)"
    [ -n "$v" ] || fail "no version given and none found in $here/Cargo.toml"
  fi
  case "$v" in
    v[0-9]*) tag="$v" ;;
    [0-9]*) tag="v$v" ;;
    *) fail "version '$v' is not a release tag (expected v0.1.0 or 0.1.0)" ;;
  esac
}

# The runner's Rust target triple: the release workflow builds these five.
runner_target() {
  case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) target=x86_64-unknown-linux-gnu ;;
    Linux/ARM64) target=aarch64-unknown-linux-gnu ;;
    macOS/X64) target=x86_64-apple-darwin ;;
    macOS/ARM64) target=aarch64-apple-darwin ;;
    Windows/X64) target=x86_64-pc-windows-msvc ;;
    *) fail "no oddsmith release for runner ${RUNNER_OS:-?}/${RUNNER_ARCH:-?} (there are Linux X64 and ARM64, macOS X64 and ARM64, Windows X64)" ;;
  esac
}

archive_name() {
  case "$1" in
    *windows*) echo "oddsmith-$1.zip" ;;
    *) echo "oddsmith-$1.tar.xz" ;;
  esac
}

# dir is what actions/cache and $GITHUB_PATH get (C:\… on Windows); the
# script itself works in dir_unix (Git Bash's /c/… there).
install_dir() {
  local root="${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}}"
  dir="$root/oddsmith/$tag/$target"
  dir_unix="$dir"
  if command -v cygpath >/dev/null 2>&1; then
    dir_unix="$(cygpath -u "$dir")"
    dir="$(cygpath -w "$dir")"
  fi
}

sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  elif command -v shasum >/dev/null 2>&1; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
  fi
}

download() {
  curl --fail --silent --show-error --location --retry 3 --output "$2" "$1" ||
    fail "could not download $1"
}

unpack() {
  local archive="$1" into="$2"
  case "$archive" in
    *.zip)
      if command -v unzip >/dev/null 2>&1; then
        unzip -q "$archive" -d "$into"
      elif command -v 7z >/dev/null 2>&1; then
        7z x -y -o"$into" "$archive" >/dev/null
      else
        pwsh -NoProfile -Command "Expand-Archive -LiteralPath '$archive' -DestinationPath '$into'"
      fi
      ;;
    *) tar -xJf "$archive" -C "$into" ;;
  esac
}

release_tag
runner_target
archive="$(archive_name "$target")"
install_dir
exe=oddsmith
case "$target" in *windows*) exe=oddsmith.exe ;; esac

case "${1:-}" in
  plan)
    {
      echo "tag=$tag"
      echo "target=$target"
      echo "dir=$dir"
    } >> "${GITHUB_OUTPUT:-/dev/stdout}"
    ;;

  install)
    base="${ODDSMITH_RELEASE_URL:-}"
    if [ -z "$base" ]; then
      repo="$(cargo_field repository)"
      [ -n "$repo" ] || fail "no release-url given and no repository in $here/Cargo.toml"
      base="$repo/releases/download"
    fi
    url="${base%/}/$tag/$archive"
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    echo "Downloading $url"
    download "$url" "$work/$archive"
    download "$url.sha256" "$work/$archive.sha256"
    # cargo-dist writes `<sha256>  <name>` (or `<sha256> *<name>`).
    published="$(cut -d ' ' -f 1 < "$work/$archive.sha256" | tr 'A-F' 'a-f')"
    actual="$(sha256_of "$work/$archive")"
    if [ "$actual" != "$published" ]; then
      fail "checksum mismatch for $archive: $url.sha256 says ${published:-nothing}, the download is $actual; refusing to install it"
    fi
    if [ -n "${ODDSMITH_SHA256:-}" ] && [ "$actual" != "$(echo "$ODDSMITH_SHA256" | tr 'A-F' 'a-f')" ]; then
      fail "checksum mismatch for $archive: the sha256 input says $ODDSMITH_SHA256, the download is $actual; refusing to install it"
    fi
    echo "SHA-256 verified: $actual  $archive"
    mkdir "$work/unpacked"
    unpack "$work/$archive" "$work/unpacked"
    # cargo-dist's tarballs hold oddsmith-<target>/; a zip may be flat.
    bin="$work/unpacked/oddsmith-$target/$exe"
    [ -f "$bin" ] || bin="$work/unpacked/$exe"
    [ -f "$bin" ] || fail "$archive holds no $exe"
    # Into place whole or not at all: a failed run leaves no half install.
    mkdir -p "$(dirname "$dir_unix")"
    rm -rf "$dir_unix" "$dir_unix.partial.$$"
    mkdir "$dir_unix.partial.$$"
    cp "$bin" "$dir_unix.partial.$$/$exe"
    chmod +x "$dir_unix.partial.$$/$exe"
    mv "$dir_unix.partial.$$" "$dir_unix"
    echo "Installed oddsmith $tag ($target) in $dir"
    ;;

  path)
    [ -x "$dir_unix/$exe" ] || fail "$dir/$exe is missing: the install step did not run or failed"
    echo "$dir" >> "${GITHUB_PATH:-/dev/null}"
    got="$("$dir_unix/$exe" --version)"
    echo "$got"
    case "$got" in
      "oddsmith ${tag#v}"*) ;;
      *) fail "$dir/$exe says '$got', expected oddsmith ${tag#v}" ;;
    esac
    ;;

  *)
    echo "usage: $0 plan|install|path" >&2
    exit 2
    ;;
esac

# Pinned tools for .ci/run and the book's workflow, installed once into a
# cache outside the clone (as the virtual environments are) and keyed by
# version, so a fresh clone on the same machine reuses them and a changed
# pin installs anew. Sourced, not run:
#   source .ci/tools.sh; ensure_tools_venv; ensure_mdbook
ODDSMITH_TOOLS="${ODDSMITH_TOOLS:-$HOME/.cache/oddsmith/tools}"

# mdBook from crates.io, built once (about 2.5 minutes on 2 cores) with
# only what `mdbook build` needs: no server, no file watcher.
MDBOOK_VERSION=0.5.4
MDBOOK="$ODDSMITH_TOOLS/mdbook-$MDBOOK_VERSION/bin/mdbook"

# dist (cargo-dist), actionlint, zizmor and shellcheck: PyPI wheels that carry their
# binaries, pinned in .ci/tools-requirements.txt.
TOOLS_VENV="$ODDSMITH_TOOLS/venv"

ensure_mdbook() {
  [ -x "$MDBOOK" ] && return 0
  echo "== installing mdbook $MDBOOK_VERSION from crates.io into $ODDSMITH_TOOLS (once)"
  local partial="$ODDSMITH_TOOLS/mdbook-$MDBOOK_VERSION.partial"
  rm -rf "$partial"
  mkdir -p "$ODDSMITH_TOOLS"
  # Cargo's own temporary target directory, not the project's.
  env -u CARGO_TARGET_DIR cargo install mdbook --locked --quiet \
    --version "$MDBOOK_VERSION" --no-default-features --features search \
    --root "$partial"
  rm -rf "$ODDSMITH_TOOLS/mdbook-$MDBOOK_VERSION"
  mv "$partial" "$ODDSMITH_TOOLS/mdbook-$MDBOOK_VERSION"
}

ensure_tools_venv() {
  local here
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  if ! cmp -s "$here/tools-requirements.txt" "$TOOLS_VENV/requirements.txt" 2>/dev/null; then
    echo "== installing dist, actionlint, zizmor and shellcheck (.ci/tools-requirements.txt) into $TOOLS_VENV"
    rm -rf "$TOOLS_VENV"
    python3 -m venv "$TOOLS_VENV"
    "$TOOLS_VENV/bin/pip" install --quiet --disable-pip-version-check --only-binary=:all: \
      -r "$here/tools-requirements.txt"
    cp "$here/tools-requirements.txt" "$TOOLS_VENV/requirements.txt"
  fi
}

"""Shared fixtures: the oddsmith binary the answers are compared with."""

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli() -> str:
    """The `oddsmith` binary ($ODDSMITH_BIN, else the cargo target's)."""
    candidates = [
        os.environ.get("ODDSMITH_BIN"),
        os.path.join(os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target")), "release", "oddsmith"),
        shutil.which("oddsmith"),
    ]
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    pytest.fail("no oddsmith binary: build it with `cargo build --release` or set ODDSMITH_BIN")

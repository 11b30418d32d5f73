"""The GitHub Action's script and cargo-dist's shell installer, against a
release served from loopback.

Packs a built `oddsmith` binary the way cargo-dist's release does
(oddsmith-<target>.tar.xz holding oddsmith-<target>/, and a .sha256 beside
it), or takes an archive `dist build` made (--archive), serves the release
directory from a ThreadingHTTPServer on 127.0.0.1 (a free port; stopped at
the end, and the whole check gives up after five minutes), then:
  - runs action/install.sh (plan, install, path) as action.yml does, with
    the runner's environment faked for Linux X64, and runs `oddsmith check`
    with the installed binary;
  - runs `path` again over the installed directory (a cache hit);
  - refuses an archive whose published .sha256 is wrong, with a clear
    message and nothing installed; refuses one that fails the sha256 input;
    says which URL it could not download for a missing release;
  - with --installer (dist's oddsmith-installer.sh), installs with it from
    the same server into a scratch CARGO_HOME and runs the binary.

    python .ci/release_test.py --bin target/release/oddsmith [--installer target/distrib/oddsmith-installer.sh] [--archive oddsmith-x86_64-unknown-linux-gnu.tar.xz]
"""

import argparse
import functools
import hashlib
import http.server
import io
import os
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = "x86_64-unknown-linux-gnu"
ARCHIVE = f"oddsmith-{TARGET}.tar.xz"
MISC = ["README.md", "CHANGELOG.md", "LICENSE-MIT", "LICENSE-APACHE"]


def version():
    """The [package] version of Cargo.toml: the action's default release."""
    text = (ROOT / "Cargo.toml").read_text()
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


def pack(binary, into):
    """An archive in cargo-dist's layout: oddsmith-<target>/{oddsmith, docs}."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:xz") as tar:
        top = f"oddsmith-{TARGET}"
        tar.add(binary, arcname=f"{top}/oddsmith")
        for name in MISC:
            tar.add(ROOT / name, arcname=f"{top}/{name}")
    into.write_bytes(buf.getvalue())


def publish(directory, archive_bytes, checksum=None):
    """A release directory: the archive and its .sha256 as dist writes it."""
    directory.mkdir(parents=True)
    (directory / ARCHIVE).write_bytes(archive_bytes)
    digest = checksum or hashlib.sha256(archive_bytes).hexdigest()
    (directory / f"{ARCHIVE}.sha256").write_text(f"{digest} *{ARCHIVE}\n")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    handler = functools.partial(Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def action(step, tmp, base_url, cache, **extra):
    """One step of action.yml: action/install.sh with the runner's environment."""
    env = {
        **os.environ,
        "RUNNER_OS": "Linux",
        "RUNNER_ARCH": "X64",
        "RUNNER_TOOL_CACHE": str(cache),
        "GITHUB_OUTPUT": str(tmp / "github_output"),
        "GITHUB_PATH": str(tmp / "github_path"),
        "GITHUB_ACTION_PATH": str(ROOT),
        "ODDSMITH_RELEASE_URL": base_url,
        "ODDSMITH_VERSION": "",
        "ODDSMITH_SHA256": "",
        **extra,
    }
    return subprocess.run(
        ["bash", str(ROOT / "action/install.sh"), step],
        env=env, capture_output=True, text=True, timeout=120,
    )


def outputs(tmp):
    lines = (tmp / "github_output").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def __call__(self, ok, what, detail=""):
        print(f"{'ok  ' if ok else 'FAIL'} {what}")
        if detail and not ok:
            print("     " + detail.strip().replace("\n", "\n     "))
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        return ok


def refused(p, needle):
    return p.returncode != 0 and needle in p.stdout + p.stderr


def error_line(p):
    return next((l for l in (p.stdout + p.stderr).splitlines() if l.startswith("oddsmith action:")), "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the oddsmith binary to pack")
    parser.add_argument("--archive", help="an archive dist built, served instead of packing --bin")
    parser.add_argument("--installer", help="dist's oddsmith-installer.sh, to run against the server too")
    args = parser.parse_args()
    # Bounded: the server and every step stop by themselves.
    signal.alarm(300)

    tag = f"v{version()}"
    check = Checks()
    with tempfile.TemporaryDirectory(prefix="oddsmith-release-") as t:
        tmp = Path(t)
        packed = tmp / ARCHIVE
        if args.archive:
            shutil.copyfile(args.archive, packed)
        else:
            pack(args.bin, packed)
        data = packed.read_bytes()
        www = tmp / "www"
        publish(www / "good" / tag, data)
        publish(www / "bad" / tag, data, checksum=hashlib.sha256(b"not the archive").hexdigest())
        if args.installer:
            shutil.copyfile(args.installer, www / "good" / tag / "oddsmith-installer.sh")
        server = serve(www)
        try:
            host, port = server.server_address
            good = f"http://{host}:{port}/good"
            bad = f"http://{host}:{port}/bad"
            print(f"release {tag} ({len(data) / 1e6:.1f} MB {ARCHIVE}) served at http://{host}:{port}/")

            # The action as a first run does it: plan, install, path.
            cache = tmp / "toolcache"
            p = action("plan", tmp, good, cache)
            check(p.returncode == 0, "action plan", p.stderr)
            out = outputs(tmp)
            check(out.get("tag") == tag and out.get("target") == TARGET, f"plan picks {tag} for {TARGET}", str(out))
            start = time.monotonic()
            p = action("install", tmp, good, cache)
            took = time.monotonic() - start
            check(p.returncode == 0 and "SHA-256 verified" in p.stdout, f"install: downloaded, verified, unpacked in {took:.2f} s", p.stdout + p.stderr)
            p = action("path", tmp, good, cache)
            check(p.returncode == 0 and p.stdout.strip().endswith(version()), f"path: {p.stdout.strip().splitlines()[-1] if p.stdout.strip() else '?'}", p.stdout + p.stderr)
            bindir = (tmp / "github_path").read_text().splitlines()[-1]
            installed = shutil.which("oddsmith", path=bindir)
            env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ['PATH']}"}
            scenario = ROOT / "scenarios" / "gateway-raises.toml"
            c = subprocess.run(
                ["bash", "-c", f'[ "$(command -v oddsmith)" = "{installed}" ] && oddsmith check --quiet "{scenario}"'],
                env=env, cwd=tmp, capture_output=True, text=True, timeout=120,
            )
            check(installed is not None and c.returncode == 0, "oddsmith check scenarios/gateway-raises.toml with the installed binary", c.stdout + c.stderr)

            # A cache hit: the install step is skipped, path still works.
            p = action("path", tmp, good, cache)
            check(p.returncode == 0, "path over a restored cache (no download)", p.stderr)

            # A wrong published checksum: refused, nothing installed.
            cache2 = tmp / "toolcache-bad"
            p = action("install", tmp, bad, cache2)
            ok = refused(p, "checksum mismatch") and "refusing to install" in p.stderr and not (cache2 / "oddsmith" / tag).exists()
            check(ok, "a wrong .sha256 is refused, nothing installed", p.stdout + p.stderr)
            print(f"     {error_line(p)}")
            # A pinned sha256 input that the download does not match.
            p = action("install", tmp, good, cache2, ODDSMITH_SHA256="0" * 64)
            check(refused(p, "the sha256 input says"), "a download that fails the sha256 input is refused", p.stdout + p.stderr)
            print(f"     {error_line(p)}")
            # A release that does not exist.
            p = action("install", tmp, good, cache2, ODDSMITH_VERSION="9.9.9")
            check(refused(p, "could not download"), "a missing release names its URL", p.stdout + p.stderr)
            print(f"     {error_line(p)}")

            if args.installer:
                home = tmp / "home"
                home.mkdir()
                ienv = {
                    **os.environ,
                    "HOME": str(home),
                    "CARGO_HOME": str(home / ".cargo"),
                    "ODDSMITH_DOWNLOAD_URL": f"{good}/{tag}",
                    "INSTALLER_NO_MODIFY_PATH": "1",
                }
                start = time.monotonic()
                i = subprocess.run(
                    ["sh", str(www / "good" / tag / "oddsmith-installer.sh")],
                    env=ienv, capture_output=True, text=True, timeout=120,
                )
                took = time.monotonic() - start
                exe = home / ".cargo" / "bin" / "oddsmith"
                v = subprocess.run([str(exe), "--version"], capture_output=True, text=True) if exe.exists() else None
                check(i.returncode == 0 and v is not None and v.stdout.strip().endswith(version()),
                      f"dist's shell installer installs {exe.relative_to(home)} in {took:.2f} s",
                      i.stdout + i.stderr)
        finally:
            server.shutdown()
            server.server_close()
    print(f"release checks: {check.passed} passed, {check.failed} failed")
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Execute every notebook in this folder top to bottom; exit 1 if any fails.

Each notebook makes its own runs with the oddsmith Python package
(python/, installed by `pip install ./python`), so a change that breaks
the package, the Parquet output or a column name breaks a notebook and
fails CI. A run directory made elsewhere (by the CLI, or merged from
shards) is best read through notebooks/rundir.py's `checked`, which
refuses a data file that does not match the digests in manifest.json.

    python3 -m venv .venv && .venv/bin/pip install -r notebooks/requirements.txt
    .venv/bin/pip install ./python
    .venv/bin/python notebooks/run.py
"""

import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient

HERE = pathlib.Path(__file__).resolve().parent


def main() -> int:
    passed, failed = 0, 0
    for path in sorted(HERE.glob("*.ipynb")):
        notebook = nbformat.read(path, as_version=4)
        started = time.monotonic()
        try:
            NotebookClient(
                notebook, timeout=300, kernel_name="python3",
                resources={"metadata": {"path": str(HERE)}},
            ).execute()
        except Exception as e:  # a failing cell: report it and go on
            failed += 1
            print(f"FAILED {path.name}: {e}", file=sys.stderr)
            continue
        passed += 1
        print(f"ok {path.name} ({time.monotonic() - started:.1f} s)")
    print(f"notebooks: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

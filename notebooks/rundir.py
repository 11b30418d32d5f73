"""Read an oddsmith run directory only when it is the run that was written.

`manifest.json` records the SHA-256 of every file of a run. `checked(out)`
recomputes the digests of the data files (scenario.toml, summary.csv,
summary.parquet, results.csv, results.parquet, agreement.csv) and raises
`RunChanged`, naming the file, when one differs, is missing, or is not
recorded; it returns `out` when all match. A run written before oddsmith
recorded digests is read with a warning that says how to run it again.

The digests are unkeyed: they catch a damaged or hand-edited file, not a
forger who rewrites the manifest as well.
"""

import hashlib
import json
import pathlib
import warnings

DATA_FILES = (
    "scenario.toml",
    "summary.csv",
    "summary.parquet",
    "results.csv",
    "results.parquet",
    "agreement.csv",
)

MODE_WORDS = {"auto": "auto", "exact": "exact", "monte-carlo": "mc", "both": "both"}


class RunChanged(Exception):
    """A file of a run is not the one its manifest records."""


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def checked(out):
    """`out` as a path, once its data files match its manifest.json."""
    out = pathlib.Path(out)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    files = manifest.get("files")
    if files is None:
        again = "oddsmith run {} --mode {} --seed {} --trials {}".format(
            manifest["scenario"]["path"],
            MODE_WORDS.get(manifest["mode"], manifest["mode"]),
            manifest["seed"],
            manifest["trials"],
        )
        if manifest.get("precision") is not None:
            again += " --precision {}".format(manifest["precision"])
        again += " --out {}".format(out)
        warnings.warn(
            f"{manifest_path} records no file digests (the run was written before "
            f"oddsmith recorded them), so its files cannot be checked against it; "
            f"to check them, run it again: `{again}`"
        )
        return out
    for name in DATA_FILES:
        path = out / name
        entry = files.get(name)
        if entry is None:
            if path.exists():
                raise RunChanged(
                    f"{path}: is not one of the files the run's manifest.json records; "
                    "the directory is not the run that was written"
                )
            continue
        if not path.exists():
            raise RunChanged(
                f"{path}: is missing, but the run's manifest.json records it; "
                "the directory is not the run that was written"
            )
        sha = sha256_of(path)
        if sha != entry["sha256"]:
            raise RunChanged(
                f"{path}: was changed after the run (its SHA-256 is {sha}, the run's "
                f"manifest.json says {entry['sha256']}); run the scenario again "
                "instead of reading it"
            )
    return out

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def senet_bin():
    """The `senet` command the bindings are compared with: $SENET_BIN (CI sets it to the
    build of `cargo test`), a build in the workspace, or one on PATH."""
    candidates = [os.environ.get("SENET_BIN")]
    candidates += [str(ROOT / "target" / p / "senet") for p in ("release", "debug")]
    candidates.append(shutil.which("senet"))
    for path in candidates:
        if path and os.access(path, os.X_OK):
            return path
    if os.environ.get("SENET_BIN") is not None:
        pytest.fail(f"SENET_BIN={os.environ['SENET_BIN']} is not a program")
    pytest.skip("no senet command built (cargo build -p senet-cli, or set SENET_BIN)")

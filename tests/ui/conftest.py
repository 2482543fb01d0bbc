"""UI tests run Kivy in a real window: start Xvfb when there is no display, isolate Kivy's home."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

HERE = Path(__file__).parent
ROOT = HERE.parent.parent


@pytest.fixture(scope="session")
def display() -> str:
    """A DISPLAY for Kivy: the user's, or an Xvfb server started for the test session."""
    if os.environ.get("DISPLAY"):
        yield os.environ["DISPLAY"]
        return
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed and there is no display")
    for number in range(97, 120):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            break
    proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        if Path(f"/tmp/.X11-unix/X{number}").exists():
            break
        time.sleep(0.1)
    yield f":{number}"
    proc.terminate()
    proc.wait(5)


@pytest.fixture()
def run_driver(display, tmp_path):
    """Run tests/ui/driver.py SCRIPT in a fresh process (Kivy's App cannot restart in one process)."""

    def run(script: str, *args: str, timeout: float = 180) -> dict:
        env = dict(os.environ, DISPLAY=display, KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
                   KIVY_HOME=tempfile.mkdtemp(prefix="kivy-", dir=tmp_path), XDG_DATA_HOME=str(tmp_path / "data"),
                   XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONPATH=str(ROOT))
        # screenshots into the test's own folder, unless COMPANION_SHOTS names one (docs/screenshots to
        # refresh the docs' pictures)
        env.setdefault("COMPANION_SHOTS", str(tmp_path / "shots"))
        out = tmp_path / f"{script}.json"
        proc = subprocess.run([sys.executable, str(HERE / "driver.py"), script, str(out), *args],
                              env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        assert proc.returncode == 0, proc.stderr[-3000:]
        import json

        return json.loads(out.read_text())

    return run

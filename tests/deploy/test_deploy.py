"""The Raspberry Pi appliance files: scripts lint-clean, dry runs that change nothing, a valid unit."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from companion.config import GpioPins, load_config

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
UNIT = DEPLOY / "table-companion.service"
SCRIPTS = [DEPLOY / "install.sh", DEPLOY / "uninstall.sh", DEPLOY / "common.sh"]
# Commands that would change the system; in a dry run none of them may even start.
CHANGING = ["apt-get", "useradd", "usermod", "systemctl", "install", "rm", "pip"]


def os_release(tmp_path: Path, codename: str, os_id: str = "debian") -> Path:
    path = tmp_path / f"os-release-{codename}"
    path.write_text(f'PRETTY_NAME="Test OS"\nID={os_id}\nVERSION_CODENAME={codename}\n')
    return path


@pytest.fixture
def spies(tmp_path):
    """A PATH where every changing command only writes its name to a log."""
    bin_dir = tmp_path / "spy-bin"
    bin_dir.mkdir()
    log = tmp_path / "spy.log"
    for name in CHANGING:
        spy = bin_dir / name
        spy.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\n')
        spy.chmod(0o755)
    return bin_dir, log


def run_script(script: str, *args: str, env_extra: dict[str, str], spies=None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TC_")}
    env.update(env_extra)
    if spies is not None:
        env["PATH"] = f"{spies[0]}:{env['PATH']}"
    return subprocess.run(
        ["bash", str(DEPLOY / script), *args], capture_output=True, text=True, env=env, timeout=60
    )


def fake_root(tmp_path: Path, *paths: str) -> Path:
    root = tmp_path / "root"
    for path in paths:
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("existing\n")
    root.mkdir(exist_ok=True)
    return root


def snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in root.rglob("*") if p.is_file()}


# ---------------------------------------------------------------- scripts


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_scripts_are_shellcheck_clean():
    result = subprocess.run(
        ["shellcheck", "-x", *map(str, SCRIPTS)], capture_output=True, text=True, cwd=REPO, timeout=60
    )
    assert result.returncode == 0, result.stdout


def test_install_dry_run_on_bookworm_shows_every_step_and_changes_nothing(tmp_path, spies):
    root = fake_root(tmp_path)
    result = run_script(
        "install.sh",
        "--dry-run",
        env_extra={"TC_OS_RELEASE": str(os_release(tmp_path, "bookworm")), "TC_ROOT": str(root)},
        spies=spies,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert not spies[1].exists(), spies[1].read_text()  # not one changing command started
    assert snapshot(root) == {}
    for action in [
        "would run: apt-get install -y --no-install-recommends python3-venv python3-pip python3-numpy "
        "python3-picamera2 python3-libcamera python3-gpiozero python3-lgpio",
        "would run: useradd --system --user-group --home-dir /var/lib/table-companion",
        "would run: /usr/bin/python3 -m venv --system-site-packages /opt/table-companion/venv",
        "    opencv-python-headless<4.11",
        "would run: /opt/table-companion/venv/bin/pip install --constraint /opt/table-companion/constraints.txt",
        "/var/lib/table-companion/config/table-companion/config.toml",
        "/var/lib/table-companion/kivy/config.ini",
        "would run: install -D -m 0644 -o root -g root",
        "would run: systemctl enable table-companion.service",
        "would run: systemctl restart table-companion.service",
    ]:
        assert action in out, action
    assert re.search(r"^    numpy==\S+$", out, re.M)  # apt's numpy is pinned
    # Every command line is shown as "would run"; none is run ("+ ...").
    assert not re.search(r"^\+ ", out, re.M)
    assert out.rstrip().endswith("Dry run finished: nothing was changed.")


def test_install_dry_run_on_trixie_keeps_apt_numpy_without_the_opencv_cap(tmp_path, spies):
    result = run_script(
        "install.sh",
        "--dry-run",
        env_extra={"TC_OS_RELEASE": str(os_release(tmp_path, "trixie")), "TC_ROOT": str(fake_root(tmp_path))},
        spies=spies,
    )
    assert result.returncode == 0, result.stderr
    assert "numpy==" in result.stdout and "opencv-python-headless<4.11" not in result.stdout
    assert not spies[1].exists()


def test_rerun_keeps_the_config_and_reuses_the_venv(tmp_path, spies):
    root = fake_root(
        tmp_path,
        "/var/lib/table-companion/config/table-companion/config.toml",
        "/opt/table-companion/venv/bin/python",
    )
    result = run_script(
        "install.sh",
        "--dry-run",
        env_extra={"TC_OS_RELEASE": str(os_release(tmp_path, "bookworm")), "TC_ROOT": str(root)},
        spies=spies,
    )
    assert result.returncode == 0, result.stderr
    assert "config.toml exists, kept" in result.stdout
    assert "deploy/config.toml" not in result.stdout  # the player's settings are not overwritten
    assert "venv exists, updated in place" in result.stdout and "-m venv" not in result.stdout
    assert "kivy-config.ini" in result.stdout  # our own Kivy settings are refreshed
    assert snapshot(root) == {
        "var/lib/table-companion/config/table-companion/config.toml": "existing\n",
        "opt/table-companion/venv/bin/python": "existing\n",
    }


@pytest.mark.parametrize(
    ("os_id", "codename", "says"),
    [
        ("ubuntu", "noble", "this is 'ubuntu', not Raspberry Pi OS"),
        ("debian", "bullseye", "this is 'bullseye'"),
    ],
)
def test_install_refuses_other_systems(tmp_path, spies, os_id, codename, says):
    result = run_script(
        "install.sh",
        "--dry-run",
        env_extra={"TC_OS_RELEASE": str(os_release(tmp_path, codename, os_id))},
        spies=spies,
    )
    assert result.returncode == 1
    assert says in result.stderr and "nothing was changed" in result.stderr
    assert result.stdout == "" and not spies[1].exists()


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root and setpriv to act as another user",
)
@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh"])
def test_real_run_needs_root(tmp_path, spies, script):
    # pytest's tmp_path is private to root, so the other user reads a copy in a public place.
    fd, osr = tempfile.mkstemp(prefix="os-release-")
    os.write(fd, os_release(tmp_path, "bookworm").read_bytes())
    os.close(fd)
    os.chmod(osr, 0o644)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TC_")}
    env.update(TC_OS_RELEASE=osr, PATH=f"{spies[0]}:{env['PATH']}")
    try:
        result = subprocess.run(
            ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "bash", str(DEPLOY / script)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
    finally:
        os.unlink(osr)
    assert result.returncode == 1 and "run it as root" in result.stderr, result.stderr
    assert result.stdout == "" and not spies[1].exists()


def test_install_rejects_unknown_options(tmp_path, spies):
    result = run_script("install.sh", "--yes", env_extra={}, spies=spies)
    assert result.returncode == 1 and "unknown option '--yes'" in result.stderr
    assert not spies[1].exists()


def test_uninstall_dry_run_keeps_the_saved_games(tmp_path, spies):
    root = fake_root(
        tmp_path,
        "/etc/systemd/system/table-companion.service",
        "/opt/table-companion/venv/bin/python",
        "/var/lib/table-companion/config/table-companion/config.toml",
        "/var/lib/table-companion/kivy/config.ini",
        "/var/lib/table-companion/data/table-companion/games.sqlite",
    )
    before = snapshot(root)
    result = run_script(
        "uninstall.sh",
        "--dry-run",
        env_extra={"TC_OS_RELEASE": str(os_release(tmp_path, "bookworm")), "TC_ROOT": str(root)},
        spies=spies,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for action in [
        "would run: systemctl disable --now table-companion.service",
        "would run: rm -f /etc/systemd/system/table-companion.service",
        "would run: rm -rf /opt/table-companion",
        "would run: rm -rf /var/lib/table-companion/config",
        "would run: rm -rf /var/lib/table-companion/kivy",
    ]:
        assert action in out, action
    removed = [line for line in out.splitlines() if line.startswith("would run: rm")]
    assert not any("data" in line or line.endswith("/var/lib/table-companion") for line in removed)
    assert "saved games: /var/lib/table-companion/data/table-companion" in out
    assert snapshot(root) == before and not spies[1].exists()


def test_uninstall_of_nothing_says_so(tmp_path, spies):
    result = run_script(
        "uninstall.sh",
        "--dry-run",
        env_extra={"TC_OS_RELEASE": str(os_release(tmp_path, "trixie")), "TC_ROOT": str(fake_root(tmp_path))},
        spies=spies,
    )
    assert result.returncode == 0
    assert "no service installed" in result.stdout and "would run" not in result.stdout


# ---------------------------------------------------------------- unit file


def unit_settings() -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def test_unit_runs_the_installed_companion_as_the_unprivileged_user():
    settings = unit_settings()
    common = (DEPLOY / "common.sh").read_text()
    assert "PREFIX=/opt/table-companion" in common and "USER_NAME=companion" in common
    assert settings["ExecStart"] == ["/opt/table-companion/venv/bin/companion ui"]
    assert 'companion = "companion.cli:main"' in (REPO / "pyproject.toml").read_text()
    assert settings["User"] == ["companion"] and settings["Restart"] == ["on-failure"]
    assert settings["WantedBy"] == ["multi-user.target"]
    env = dict(value.split("=", 1) for value in settings["Environment"])
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["KIVY_WINDOW"] == "sdl2"
    assert env["KIVY_HOME"] == "/var/lib/table-companion/kivy"
    assert env["XDG_DATA_HOME"] == "/var/lib/table-companion/data"


def test_unit_keeps_devices_reachable_and_the_network_shut():
    settings = unit_settings()
    # Any of these would hide /dev/video*, /dev/dri, /dev/input or /dev/gpiochip* from the app.
    for key in ("PrivateDevices", "DeviceAllow", "DevicePolicy", "ProtectClock", "PrivateUsers"):
        assert key not in settings, key
    assert settings["IPAddressDeny"] == ["any"]
    assert settings["RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"]
    assert settings["NoNewPrivileges"] == ["yes"] and settings["ProtectSystem"] == ["strict"]
    assert settings["CapabilityBoundingSet"] == [""]


def verify(unit: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_unit_passes_systemd_analyze_verify(tmp_path):
    # verify insists that ExecStart's program exists, which it only does after install.sh:
    # as is, that must be the one complaint; with a stand-in program there must be none at all.
    as_is = verify(UNIT)
    complaints = [line for line in as_is.stderr.splitlines() if line.strip()]
    assert complaints == [
        "table-companion.service: Command /opt/table-companion/venv/bin/companion is not executable: "
        "No such file or directory"
    ], as_is.stderr

    program = tmp_path / "bin" / "companion"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\nexit 0\n")
    program.chmod(0o755)
    unit = tmp_path / "table-companion.service"
    unit.write_text(UNIT.read_text().replace("/opt/table-companion/venv/bin/companion", str(program)))
    result = verify(unit)
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr

    # The check can fail: a misspelt key is reported on stderr even though the exit status is 0.
    broken = tmp_path / "broken" / "table-companion.service"
    broken.parent.mkdir()
    broken.write_text(unit.read_text().replace("Restart=on-failure", "Restart=on-failure\nRestartt=always"))
    assert "Unknown key 'Restartt'" in verify(broken).stderr


# ---------------------------------------------------------------- installed settings


def test_installed_config_is_valid_and_matches_the_wiring_guide():
    config, warnings = load_config(DEPLOY / "config.toml")
    assert warnings == []
    assert config.fullscreen is True and config.camera == "auto"
    assert config.gpio == GpioPins(confirm=17, undo=27, next=22, led=23, buzzer=24)
    guide = (REPO / "docs" / "raspberry-pi.md").read_text()
    for role, pin in config.gpio.used().items():
        assert re.search(rf"\|\s*{role}\b[^|\n]*\|\s*GPIO{pin}\b", guide, re.I), (role, pin)


def test_kivy_settings_give_one_touch_per_tap_on_the_7_inch_screen():
    kivy = configparser.ConfigParser(interpolation=None)
    kivy.read(DEPLOY / "kivy-config.ini")
    providers = {key: value for key, value in kivy["input"].items() if value.strip()}
    assert providers == {"%(name)s": "probesysfs,provider=hidinput"}
    assert kivy["input"]["mouse"] == ""  # present but empty, so Kivy does not add its default
    graphics = kivy["graphics"]
    assert (graphics["width"], graphics["height"], graphics["fullscreen"]) == ("800", "480", "auto")
    assert graphics["show_cursor"] == "0"

#!/usr/bin/env bash
# Install Table Companion as an appliance on Raspberry Pi OS Bookworm or Trixie, or update an
# earlier install: running it again is safe and brings everything up to date.
#
#   sudo deploy/install.sh           install or update, then (re)start the service
#   deploy/install.sh --dry-run      print every action it would take, change nothing
#
# What it does: apt packages (picamera2, gpiozero, lgpio, numpy come from Raspberry Pi OS), a
# venv that sees those (--system-site-packages) with the project pip-installed into it under a
# constraints file that keeps apt's numpy, the unprivileged user 'companion', its config (only
# when there is none yet), Kivy settings for the 7" touchscreen, and the systemd service.
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SOURCE=$(dirname "$HERE")
# shellcheck source=common.sh
. "$HERE/common.sh"

SYSTEM_PYTHON=/usr/bin/python3
USER_GROUPS=(video render input gpio)
APT_PACKAGES=(
    python3-venv python3-pip python3-numpy
    python3-picamera2 python3-libcamera
    python3-gpiozero python3-lgpio
    libgbm1 libdrm2 libegl1 libgles2 libmtdev1
)

usage() {
    sed -n '2,11s/^# \{0,1\}//p' "$0"
}

for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        -h | --help)
            usage
            exit 0
            ;;
        *) die "unknown option '$arg' (try --help)" ;;
    esac
done

trap 'printf "%s: stopped because the last command failed; fix that and run it again (it is safe to re-run)\n" "$SCRIPT" >&2' ERR

check_os
check_root
if ((DRY_RUN)); then
    say "Dry run on $OS_CODENAME: nothing is changed."
fi
case "$(uname -m)" in
    aarch64 | x86_64) ;;
    *) say "warning: a 32-bit system; pip has no Kivy or OpenCV wheels for it and builds them for hours: use the 64-bit OS" ;;
esac
if ! grep -qs "Raspberry Pi" "$ROOT/proc/device-tree/model"; then
    say "note: this does not look like a Raspberry Pi; without its camera and GPIO the companion shows the demo table"
fi

step "System packages"
run apt-get update
run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

step "User '$USER_NAME'"
if getent passwd "$USER_NAME" >/dev/null; then
    say "user $USER_NAME exists, kept"
else
    run useradd --system --user-group --home-dir "$STATE" --no-create-home \
        --shell /usr/sbin/nologin --comment "Table Companion" "$USER_NAME"
fi
for group in "${USER_GROUPS[@]}"; do
    if getent group "$group" >/dev/null; then
        run usermod --append --groups "$group" "$USER_NAME"
    else
        say "group $group does not exist on this system, skipped"
    fi
done

step "Python environment in $VENV"
if exists "$VENV/bin/python"; then
    say "venv exists, updated in place"
else
    run "$SYSTEM_PYTHON" -m venv --system-site-packages "$VENV"
fi
# pip must use apt's numpy (picamera2 and simplejpeg are built against it) and never replace it.
numpy_version=$("$SYSTEM_PYTHON" -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
if [ -z "$numpy_version" ]; then
    if ! ((DRY_RUN)); then
        die "python3-numpy is not importable after apt installed it; nothing more was changed"
    fi
    numpy_version="APT-VERSION"
    say "(python3-numpy is not installed yet; the real run pins the version apt installs)"
fi
constraints=("numpy==$numpy_version")
if [ "$OS_CODENAME" = bookworm ]; then
    # Bookworm's numpy is 1.24: OpenCV 4.11 and later wheels want numpy 2.
    constraints+=("opencv-python-headless<4.11")
fi
if ((DRY_RUN)); then
    say "would write $PREFIX/constraints.txt:"
    printf '    %s\n' "${constraints[@]}"
else
    install -d -m 0755 "$PREFIX"
    printf '%s\n' "${constraints[@]}" >"$PREFIX/constraints.txt"
fi
run "$VENV/bin/pip" install --constraint "$PREFIX/constraints.txt" \
    --upgrade --upgrade-strategy only-if-needed "$SOURCE"
run "$VENV/bin/python" -c 'import numpy, cv2, kivy, gpiozero; print("numpy", numpy.__version__, "opencv", cv2.__version__)'

step "Settings and saved games in $STATE"
run install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" \
    "$STATE" "$STATE/config" "$CONFIG_DIR" "$KIVY_DIR" "$STATE/data" "$DATA_DIR"
if exists "$CONFIG_FILE"; then
    say "config $CONFIG_FILE exists, kept (it holds your settings and camera calibration)"
else
    install_file "$HERE/config.toml" "$CONFIG_FILE" 0640 "$USER_NAME"
fi
install_file "$HERE/kivy-config.ini" "$KIVY_DIR/config.ini" 0640 "$USER_NAME"

step "Service"
install_file "$HERE/$APP.service" "$UNIT" 0644 root
run systemctl daemon-reload
run systemctl enable "$APP.service"
if exists /etc/systemd/system/display-manager.service; then
    say "warning: a desktop starts at boot and holds the screen; boot to the console instead:"
    say "    sudo raspi-config nonint do_boot_behaviour B1 && sudo reboot"
fi
run systemctl restart "$APP.service"

step "Done"
if ((DRY_RUN)); then
    say "Dry run finished: nothing was changed."
else
    say "Table Companion starts on the touchscreen at every boot."
    say "Watch it with: journalctl -u $APP -f"
fi

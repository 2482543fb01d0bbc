# Shared by install.sh and uninstall.sh: where things go, and how an action is done or shown.
# shellcheck shell=bash
# shellcheck disable=SC2034  # the variables are used by the scripts that source this file

APP=table-companion
USER_NAME=companion
PREFIX=/opt/table-companion
VENV=$PREFIX/venv
STATE=/var/lib/table-companion
CONFIG_DIR=$STATE/config/$APP
CONFIG_FILE=$CONFIG_DIR/config.toml
KIVY_DIR=$STATE/kivy
DATA_DIR=$STATE/data/$APP
UNIT=/etc/systemd/system/$APP.service

# Overrides for tests and odd setups: read a different os-release, look for existing files
# under another root. Both only change what the scripts look at, never where they write.
OS_RELEASE=${TC_OS_RELEASE:-/etc/os-release}
ROOT=${TC_ROOT:-}
DRY_RUN=0
SCRIPT=${0##*/}

say() { printf '%s\n' "$*"; }

die() {
    printf '%s: %s\n' "$SCRIPT" "$*" >&2
    exit 1
}

step() { printf '\n== %s\n' "$*"; }

# Run a command, or with --dry-run only show it (quoted so it can be pasted into a shell).
run() {
    if ((DRY_RUN)); then
        printf 'would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        printf '+'
        printf ' %q' "$@"
        printf '\n'
        "$@"
    fi
}

# Does this path exist on the target system (TC_ROOT for tests)?
exists() { [ -e "$ROOT$1" ]; }

# install_file SOURCE DEST MODE OWNER: copy a file into place with its mode and owner.
install_file() {
    run install -D -m "$3" -o "$4" -g "$4" "$1" "$2"
}

os_value() {
    sed -n "s/^$1=//p" "$OS_RELEASE" | tr -d '"' | head -n 1
}

# Sets OS_CODENAME, or stops: these scripts know Raspberry Pi OS (Debian) Bookworm and Trixie.
check_os() {
    [ -r "$OS_RELEASE" ] || die "cannot read $OS_RELEASE to tell which system this is"
    local id like
    id=$(os_value ID)
    like=$(os_value ID_LIKE)
    OS_CODENAME=$(os_value VERSION_CODENAME)
    case " $id $like " in
        *" debian "* | *" raspbian "*) ;;
        *) die "this is '${id:-unknown}', not Raspberry Pi OS or Debian; nothing was changed" ;;
    esac
    case "$OS_CODENAME" in
        bookworm | trixie) ;;
        *) die "Raspberry Pi OS Bookworm or Trixie is needed, this is '${OS_CODENAME:-unknown}'; nothing was changed" ;;
    esac
}

check_root() {
    if ! ((DRY_RUN)) && [ "$(id -u)" -ne 0 ]; then
        die "run it as root (sudo $0), or with --dry-run to see what it would do"
    fi
}

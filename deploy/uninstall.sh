#!/usr/bin/env bash
# Remove Table Companion's service, venv and settings, but KEEP the saved games.
#
#   sudo deploy/uninstall.sh         remove
#   deploy/uninstall.sh --dry-run    print every action it would take, change nothing
#
# Kept: the saved games in /var/lib/table-companion/data and the user 'companion' that owns
# them. The apt packages stay too (other programs may use them).
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=common.sh
. "$HERE/common.sh"

for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        -h | --help)
            sed -n '2,9s/^# \{0,1\}//p' "$0"
            exit 0
            ;;
        *) die "unknown option '$arg' (try --help)" ;;
    esac
done

check_os
check_root
if ((DRY_RUN)); then
    say "Dry run on $OS_CODENAME: nothing is changed."
fi

step "Service"
if exists "$UNIT"; then
    run systemctl disable --now "$APP.service"
    run rm -f "$UNIT"
    run systemctl daemon-reload
else
    say "no service installed"
fi

step "Program"
if exists "$PREFIX"; then
    run rm -rf "$PREFIX"
else
    say "$PREFIX is already gone"
fi

step "Settings"
for dir in "$STATE/config" "$KIVY_DIR"; do
    if exists "$dir"; then
        run rm -rf "$dir"
    else
        say "$dir is already gone"
    fi
done

step "Kept"
say "saved games: $DATA_DIR (remove by hand only if you are sure: sudo rm -r $STATE)"
say "user $USER_NAME, which owns them (sudo userdel $USER_NAME to remove)"
if ((DRY_RUN)); then
    say "Dry run finished: nothing was changed."
fi

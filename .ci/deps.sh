#!/usr/bin/env bash
# Install the system packages the test suite needs when they are missing (Debian/Ubuntu/Pi OS):
# Xvfb and Mesa for the Kivy window tests, shellcheck for the deploy scripts, venv for Python.
set -euo pipefail
pkgs=()
command -v Xvfb >/dev/null 2>&1 || pkgs+=(xvfb xauth)
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || [ -e /usr/lib/aarch64-linux-gnu/dri/swrast_dri.so ] \
  || ls /usr/lib/*/dri/*swrast* >/dev/null 2>&1 || pkgs+=(libgl1-mesa-dri)
ldconfig -p 2>/dev/null | grep -q 'libGL.so.1' || pkgs+=(libgl1)
ldconfig -p 2>/dev/null | grep -q 'libEGL.so.1' || pkgs+=(libegl1)
ldconfig -p 2>/dev/null | grep -q 'libmtdev.so.1' || pkgs+=(libmtdev1)
command -v shellcheck >/dev/null 2>&1 || pkgs+=(shellcheck)
command -v make >/dev/null 2>&1 || pkgs+=(make)
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || pkgs+=(python3-venv)
[ ${#pkgs[@]} -eq 0 ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "installing system packages: ${pkgs[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null

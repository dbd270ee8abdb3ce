#!/usr/bin/env bash
# Installs what the project needs (Python packages, and ninja if missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r "$root/requirements.txt"
if ! command -v cmake >/dev/null 2>&1 || ! command -v ninja >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore cmake ninja
fi

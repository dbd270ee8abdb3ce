#!/usr/bin/env bash
# Installs what the project needs (Python packages, and ninja if missing).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r "$root/requirements.txt"
# The header model every tool imports (editable: it reads this checkout's proto/include).
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -e "$root/proto/python"
if ! command -v cmake >/dev/null 2>&1 || ! command -v ninja >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore cmake ninja
fi
# Chromium for the HTML report's browser test (driven by Playwright from
# requirements.txt), Doxygen for the headers' HTML reference (docs/Doxyfile).
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v doxygen >/dev/null 2>&1 || missing+=(doxygen)
# Gloo's headers: impl/torch's collective interface declares c10d's Gloo backend (in LibTorch) through them
# (only the headers are used). Without them impl/torch builds without the collective interface.
[ -f /usr/include/gloo/algorithm.h ] || missing+=(libgloo-dev)
if [ ${#missing[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}") >/dev/null 2>&1 ||
    echo "setup: could not install ${missing[*]}; the HTML report's browser test, the Doxygen reference or impl/torch's collective interface will be left out" >&2
fi

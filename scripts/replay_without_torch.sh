#!/usr/bin/env bash
# Replays the baselines on a vendor library from a Python environment that
# has no torch, as a vendor's test machine would: a fresh virtual
# environment into which this checkout is installed as a package
# (pip install ".[replay]": numpy, cffi, pycparser, pyyaml, tqdm and the
# header model), then the installed `diopi-conformance` console script runs.
#   bash scripts/replay_without_torch.sh cpu [extra run_test arguments]
set -euo pipefail
vendor=${1:-cpu}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${DIOPI_REPLAY_VENV:-$root/build/venv-replay}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
# setuptools leaves files in its build folder (pyproject.toml: build/python)
# after they leave the sources; start empty so the wheel holds only today's.
rm -rf "$root/build/python"
# A venv made by this script's earlier form has the header model installed
# editable on its own; the package below carries it.
"$venv/bin/python" -m pip uninstall --quiet --yes diopi-header 2>/dev/null || true
# Not editable: the installed package, with its package data, is what runs
# (pip rebuilds a local project each time, so today's sources are installed).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$root[replay]"
if "$venv/bin/python" -c "import torch" 2>/dev/null; then
  echo "error: $venv has torch installed; the replay must run without it" >&2
  exit 2
fi
echo "replaying with $("$venv/bin/python" --version) from $venv (torch not importable)"
# Installed, the harness's defaults (data/, impl/<vendor>/device_configs.py)
# are relative to the current directory: run it from the checkout's root.
cd "$root"
exec "$venv/bin/diopi-conformance" --mode run_test --jobs "$(nproc)" \
  --impl_lib "$root/build/$vendor/lib/libdiopi_impl.so" --report_dir "$root/reports/$vendor" "$@"

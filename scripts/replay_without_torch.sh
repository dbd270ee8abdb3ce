#!/usr/bin/env bash
# Replays the baselines on a vendor library from a Python environment that
# has no torch, as a vendor's test machine would: a fresh virtual
# environment with only requirements-replay.txt (numpy, cffi, pycparser) and
# the header model (proto/python, which needs only pycparser).
#   bash scripts/replay_without_torch.sh cpu [extra run_test arguments]
set -euo pipefail
vendor=${1:-cpu}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
venv=${DIOPI_REPLAY_VENV:-$root/build/venv-replay}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/requirements-replay.txt"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$root/proto/python"
if "$venv/bin/python" -c "import torch" 2>/dev/null; then
  echo "error: $venv has torch installed; the replay must run without it" >&2
  exit 2
fi
echo "replaying with $("$venv/bin/python" --version) from $venv (torch not importable)"
cd "$root/diopi_test/python"
exec "$venv/bin/python" main.py --mode run_test --jobs "$(nproc)" \
  --impl_lib "$root/build/$vendor/lib/libdiopi_impl.so" --report_dir "$root/reports/$vendor" "$@"

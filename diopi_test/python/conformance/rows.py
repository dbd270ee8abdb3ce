"""What every report row names besides its verdict: the header family of
its function and the command that replays just its case. Shared by the
report (report.py) and the page that reads another run's report back
(html_report.py), so that neither imports the other for it."""
import functools
import shlex

import diopi_header


def repro_command(case, layout, impl_lib, data_dir, options=None, mode="run_test"):
    """The command that replays one case as this run did; `options` are the
    run's other settings that change a verdict (--runtime_lib,
    --device_config, --timeout), as a list of arguments. A collective case
    (`mode` "collective") names its world size and layout in its name."""
    if mode == "collective":
        parts = ["python", "main.py", "--mode", "collective", "--case", case]
        if impl_lib:
            parts += ["--impl_lib", impl_lib]
        parts += list(options or [])
        return " ".join(shlex.quote(str(p)) for p in parts)
    parts = ["python", "main.py", "--mode", "run_test", "--case", case, "--layout", layout]
    if impl_lib:
        parts += ["--impl_lib", impl_lib]
    if data_dir:
        parts += ["--data_dir", data_dir]
    parts += list(options or [])
    return " ".join(shlex.quote(str(p)) for p in parts)


@functools.lru_cache(maxsize=None)
def family_of(func):
    """The header's family of a function; `library` for the library checks."""
    fn = diopi_header.load().get(func)
    return fn.family if fn is not None and fn.family else "library"

"""A vendor's device config: which cases it skips and which tolerances it
needs, each with a reason. The file (impl/<vendor>/device_configs.py) is
read as data, never run: only literal assignments to SKIP and TOLERANCES.

    SKIP = {"<case-name glob>": "reason", ...}
    TOLERANCES = {"<case-name glob>": {"float16": (atol, rtol), "reason": "..."}, ...}
"""
import ast
import dataclasses
import fnmatch

from . import tolerances


class DeviceConfigError(ValueError):
    pass


@dataclasses.dataclass
class DeviceConfig:
    path: str = ""
    skip: dict = dataclasses.field(default_factory=dict)
    tolerances: dict = dataclasses.field(default_factory=dict)
    used: set = dataclasses.field(default_factory=set)

    def skip_reason(self, case_name):
        for pattern, reason in self.skip.items():
            if fnmatch.fnmatchcase(case_name, pattern):
                self.used.add(("SKIP", pattern))
                return reason
        return None

    def tolerance(self, case_name):
        """dtype -> (atol, rtol, VENDOR) overrides for a case (later patterns
        win). The mark keeps a vendor's stated allowance from being capped by
        the output's magnitude (tolerances.resolve): it is the vendor's call,
        with its reason, not a derived bound."""
        out = {}
        for pattern, tol in self.tolerances.items():
            if fnmatch.fnmatchcase(case_name, pattern):
                self.used.add(("TOLERANCES", pattern))
                out.update({k: (float(v[0]), float(v[1]), tolerances.VENDOR) for k, v in tol.items() if k != "reason"})
        return out

    def unused(self):
        """Entries that matched no case of the run (stale skip lists)."""
        entries = [("SKIP", p) for p in self.skip] + [("TOLERANCES", p) for p in self.tolerances]
        return [e for e in entries if e not in self.used]


def load(path):
    with open(path) as f:
        text = f.read()
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        raise DeviceConfigError(f"{path}:{e.lineno}: {e.msg}") from None
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # docstring
        # MODEL_TOLERANCES belongs to the diopi device's model suite (bridge/torch/diopi_torch/suite.py), which
        # reads it the same way; the harness checks only that it is a literal.
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id in ("SKIP", "TOLERANCES", "MODEL_TOLERANCES")):
            raise DeviceConfigError(f"{path}:{node.lineno}: only literal SKIP = {{...}}, TOLERANCES = {{...}} and "
                                    "MODEL_TOLERANCES = {...} are allowed")
        try:
            found[node.targets[0].id] = ast.literal_eval(node.value)
        except ValueError:
            raise DeviceConfigError(f"{path}:{node.lineno}: {node.targets[0].id} must be a literal") from None
    cfg = DeviceConfig(path, found.get("SKIP", {}), found.get("TOLERANCES", {}))
    for pattern, reason in cfg.skip.items():
        if not isinstance(reason, str) or not reason.strip():
            raise DeviceConfigError(f"{path}: SKIP[{pattern!r}] needs a reason")
    for pattern, tol in cfg.tolerances.items():
        if not isinstance(tol, dict) or not str(tol.get("reason", "")).strip():
            raise DeviceConfigError(f"{path}: TOLERANCES[{pattern!r}] needs a 'reason'")
        for k, v in tol.items():
            if k != "reason" and not (isinstance(v, (tuple, list)) and len(v) == 2):
                raise DeviceConfigError(f"{path}: TOLERANCES[{pattern!r}][{k!r}] must be (atol, rtol)")
    return cfg

"""ABI comparisons on the header model.

`diff(old, new)` lists what changed between two versions of the headers
(functions, runtime functions, enums, structs, handle typedefs, version) and
marks each change breaking or not. `check_v1(facts, std)` checks the headers
against the DIOPI 1.0 interface facts (proto/interface/diopi_v1_interface.json).
"""
import dataclasses
import re

ADDED, REMOVED, CHANGED = "added", "removed", "changed"


@dataclasses.dataclass(frozen=True)
class Change:
    change: str        # ADDED, REMOVED or CHANGED
    what: str          # "function", "runtime function", "enum", "enumerator", "struct", "typedef", "version",
                       # "interface version" (a header's own DIOPI_<NAME>_VER_*)
    name: str
    detail: str = ""
    breaking: bool = False

    def __str__(self):
        mark = {ADDED: "+", REMOVED: "-", CHANGED: "~"}[self.change]
        tail = f": {self.detail}" if self.detail else ""
        return f"{mark} {self.what} {self.name}{tail}{'  [BREAKING]' if self.breaking else ''}"


def _sig(fn):
    return f"{fn.returns} {fn.name}({', '.join(f'{p.ctype} {p.name}' for p in fn.params)})"


def _diff_functions(old, new, what):
    out = []
    for name in old:
        if name not in new:
            out.append(Change(REMOVED, what, name, _sig(old[name]), True))
    for name, fn in new.items():
        was = old.get(name)
        if was is None:
            out.append(Change(ADDED, what, name, _sig(fn)))
            continue
        if was.signature != fn.signature:
            out.append(Change(CHANGED, what, name, f"{_sig(was)} -> {_sig(fn)}", True))
        elif [p.name for p in was.params] != [p.name for p in fn.params]:
            out.append(Change(CHANGED, what, name, f"parameter names {[p.name for p in was.params]} -> "
                                                   f"{[p.name for p in fn.params]} (types unchanged; case configs use the names)"))
        if was.header != fn.header:
            out.append(Change(CHANGED, what, name, f"moved from {was.header} to {fn.header}"))
    return out


def _diff_enums(old, new):
    out = []
    for name, enum in old.items():
        if name not in new:
            out.append(Change(REMOVED, "enum", name, "", True))
            continue
        now = new[name].as_dict()
        for e in enum.enumerators:
            if e.name not in now:
                out.append(Change(REMOVED, "enumerator", f"{name}::{e.name}", f"was {e.value}", True))
            elif now[e.name] != e.value:
                out.append(Change(CHANGED, "enumerator", f"{name}::{e.name}", f"{e.value} -> {now[e.name]}", True))
    for name, enum in new.items():
        if name not in old:
            out.append(Change(ADDED, "enum", name, ", ".join(f"{e.name}={e.value}" for e in enum.enumerators)))
            continue
        was = old[name].as_dict()
        used = {v: k for k, v in was.items()}
        for e in enum.enumerators:
            if e.name not in was:
                reuse = used.get(e.value)
                out.append(Change(ADDED, "enumerator", f"{name}::{e.name}", f"= {e.value}"
                                  + (f" (reuses the value of {reuse})" if reuse else ""), bool(reuse)))
    return out


def _diff_plain(old, new, what, render):
    out = []
    for name in old:
        if name not in new:
            out.append(Change(REMOVED, what, name, render(old[name]), True))
        elif render(old[name]) != render(new[name]):
            out.append(Change(CHANGED, what, name, f"{render(old[name])} -> {render(new[name])}", True))
    out += [Change(ADDED, what, name, render(v)) for name, v in new.items() if name not in old]
    return out


def diff(old, new):
    """Changes from Standard `old` to Standard `new`, breaking ones marked."""
    changes = []
    changes += _diff_functions(old.functions, new.functions, "function")
    changes += _diff_functions(old.runtime, new.runtime, "runtime function")
    changes += _diff_enums(old.enums, new.enums)
    changes += _diff_plain(old.structs, new.structs, "struct",
                           lambda s: "{" + " ".join(f"{f.ctype} {f.name};" for f in s.fields) + "}")
    changes += _diff_plain(old.typedefs, new.typedefs, "typedef", str)
    for header in sorted(set(old.header_versions) | set(new.header_versions)):
        was, now = old.header_versions.get(header), new.header_versions.get(header)
        if was is None:
            changes.append(Change(ADDED, "interface version", header, str(now)))
        elif now is None:
            changes.append(Change(REMOVED, "interface version", header, str(was), True))
        elif str(was) != str(now):
            changes.append(Change(CHANGED, "interface version", header, f"{was} -> {now}", now.major != was.major))
    if str(old.version) != str(new.version):
        breaking = any(c.breaking for c in changes)
        note = ""
        if breaking and new.version.major == old.version.major:
            note = " (breaking changes need a MAJOR version change)"
        changes.append(Change(CHANGED, "version", "DIOPI_VER", f"{old.version} -> {new.version}{note}"))
    return changes


# ---------------------------------------------------------------- DIOPI 1.0 facts
def _norm(t):
    t = re.sub(r"\s*\*", "*", t.strip())
    return re.sub(r"\s+", " ", t)


def _runtime_arg_types(args):
    """Types of a facts entry's "args" text ("diopiTensorHandle_t th, void**")."""
    want = []
    for a in filter(None, (s.strip() for s in args.split(","))):
        m = re.match(r"^(.*?[\w\*])\s+(\w+)$", a)  # the facts keep parameter names where the original has them
        want.append(_norm(m.group(1) if m and not a.endswith("*") else a))
    return want


@dataclasses.dataclass(frozen=True)
class Problem:
    area: str          # "functions", "enums", "structs", "handles", "runtime", "version"
    message: str

    def __str__(self):
        return f"{self.area}: {self.message}"


def check_v1(facts, std):
    """(problems, notes): every fact the headers in `std` break, and the
    facts they cannot be checked against (functions of headers not shipped)."""
    problems, notes = [], []
    shipped = {fn.header for fn in std.functions.values()}
    for f in facts["functions"]:
        if f["header"] not in shipped:
            notes.append(f"{f['name']}: {f['header']} is not part of this standard")
            continue
        d = std.functions.get(f["name"])
        if d is None:
            problems.append(Problem("functions", f"{f['name']} ({f['header']}) is not declared"))
            continue
        if d.header != f["header"]:
            problems.append(Problem("functions", f"{f['name']} is declared in {d.header}, DIOPI 1.0 has it in {f['header']}"))
        want = [(_norm(p["type"]), p["name"]) for p in f["params"]]
        got = [(p.ctype, p.name) for p in d.params]
        if want != got or _norm(f["returns"]) != d.returns:
            problems.append(Problem("functions", f"{f['name']}: declared {_sig(d)}, DIOPI 1.0 has "
                                    f"{_norm(f['returns'])} {f['name']}({', '.join(f'{t} {n}' for t, n in want)})"))
    rt = facts["runtime"]
    for name, values in rt["enums"].items():
        have = std.enums.get(name)
        got = [[e.name, e.value] for e in have.enumerators] if have else None
        if got != [list(v) for v in values]:
            problems.append(Problem("enums", f"{name}: declared {got}, DIOPI 1.0 has {values}"))
    for name, fields in rt["structs"].items():
        have = std.structs.get(name)
        got = [[f.ctype, f.name] for f in have.fields] if have else None
        want = [[_norm(t), n] for t, n in fields]
        if got != want:
            problems.append(Problem("structs", f"{name}: declared {got}, DIOPI 1.0 has {want}"))
    for entry in rt["opaque_handles"]:
        name, target = (s.strip() for s in entry.split("="))
        if std.typedefs.get(name) != _norm(target):
            problems.append(Problem("handles", f"{name}: declared {std.typedefs.get(name)!r}, DIOPI 1.0 has {target!r}"))
    for f in rt["functions"]:
        have = std.runtime.get(f["name"])
        if have is None:
            problems.append(Problem("runtime", f"{f['name']} is not declared"))
            continue
        want = _runtime_arg_types(f["args"])
        got = [p.ctype for p in have.params]
        if got != want or have.returns != _norm(f["returns"]):
            problems.append(Problem("runtime", f"{f['name']}: declared {have.signature}, DIOPI 1.0 has "
                                    f"{_norm(f['returns'])}({', '.join(want)})"))
    vm = rt.get("version_macros", {})
    if vm:
        major = vm.get("DIOPI_VER_MAJOR")
        if std.version.major != major:
            problems.append(Problem("version", f"DIOPI_VER_MAJOR is {std.version.major}, DIOPI 1.0 is {major}"))
        elif (std.version.minor, std.version.patch) < (vm.get("DIOPI_VER_MINOR", 0), vm.get("DIOPI_VER_PATCH", 0)):
            problems.append(Problem("version", f"version {std.version} is older than the facts' "
                                    f"{major}.{vm.get('DIOPI_VER_MINOR', 0)}.{vm.get('DIOPI_VER_PATCH', 0)}"))
    return problems, notes

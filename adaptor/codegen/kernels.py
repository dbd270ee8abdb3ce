"""Stage 1c: which kernels the vendor defines, from `nm -C --defined-only`.

A kernel is `impl::<vendor>::diopiXxx(...)`. Its demangled parameter list is
compared with the header's declaration translated the way the demangler
spells C types (typedefs resolved, `const` written after the type), so a
kernel written with a wrong parameter type is caught at build time instead
of at link time with an unhelpful undefined reference.
"""
import functools
import re
import subprocess


class KernelError(Exception):
    pass


# typedef (or builtin) -> how the demangler prints it.
_DEMANGLED = {
    "diopiContextHandle_t": "diopiContext*",
    "diopiTensorHandle_t": "diopiTensor*",
    "diopiConstTensorHandle_t": "diopiTensor const*",
    "diopiGeneratorHandle_t": "diopiGenerator*",
    "diopiConstGeneratorHandle_t": "diopiGenerator const*",
    "diopiStreamHandle_t": "void*",
    "diopiDeviceIndex_t": "signed char",
    "int64_t": "long",
    "uint64_t": "unsigned long",
    "int32_t": "int",
    "uint32_t": "unsigned int",
    "int16_t": "short",
    "uint16_t": "unsigned short",
    "int8_t": "signed char",
    "uint8_t": "unsigned char",
    "size_t": "unsigned long",
}


@functools.lru_cache(maxsize=None)
def _handle_typedefs():
    """Handle typedefs of the header model that the table above lacks
    ("diopiCommHandle_t" = "struct diopiComm*" -> "diopiComm*"): the
    demangler names the struct a handle points to."""
    import diopi_header
    out = {}
    for name, target in diopi_header.standard().typedefs.items():
        m = re.fullmatch(r"(const )?struct (\w+)\*", target)
        if m and name not in _DEMANGLED:
            out[name] = m.group(2) + (" const" if m.group(1) else "") + "*"
    return out


def demangled_type(ctype):
    """'const diopiScalar_t*' -> 'diopiScalar_t const*' (the demangler's spelling)."""
    t = ctype.strip()
    stars = len(t) - len(t.rstrip("*"))
    t = t[: len(t) - stars].strip()
    const = t.startswith("const ")
    if const:
        t = t[len("const "):].strip()
    base = _DEMANGLED.get(t) or _handle_typedefs().get(t, t)
    if stars == 0:
        return base  # top-level const is not part of the signature
    out = base + (" const" if const else "") + "*"
    return out + "*" * (stars - 1)


def demangled_params(fn):
    return [demangled_type(p.ctype) for p in fn.params]


def _norm(t):
    t = re.sub(r"\s+", " ", t.strip())
    return re.sub(r"\s*\*", "*", t)


def _split_params(text):
    text = text.strip()
    if text in ("", "void"):
        return []
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "(<":
            depth += 1
        elif ch in ")>":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    out.append(cur)
    return [_norm(t) for t in out]


def parse_nm(listing, vendor):
    """{function name: [parameter type lists, one per overload]} for every
    `impl::<vendor>::diopiXxx` defined (T or W) in an `nm -C` listing."""
    pat = re.compile(r"^(?:[0-9a-fA-F]+\s+)?[TW]\s+impl::" + re.escape(vendor) + r"::(diopi\w+)\((.*)\)\s*$")
    found = {}
    for line in listing.splitlines():
        m = pat.match(line.strip())
        if m:
            sig = _split_params(m.group(2))
            lst = found.setdefault(m.group(1), [])
            if sig not in lst:
                lst.append(sig)
    return found


def run_nm(nm, archive):
    try:
        r = subprocess.run([nm, "-C", "--defined-only", archive], capture_output=True, text=True, check=False)
    except OSError as e:
        raise KernelError(f"cannot run {nm}: {e}") from None
    if r.returncode != 0:
        raise KernelError(f"{nm} -C --defined-only {archive} failed: {r.stderr.strip()}")
    return r.stdout


def match(functions, listing_by_name, vendor):
    """Names of the header functions the vendor implements. Raises
    KernelError listing every kernel whose parameters differ from the header."""
    implemented, errors = [], []
    for name, fn in functions.items():
        overloads = listing_by_name.get(name)
        if not overloads:
            continue
        want = [_norm(t) for t in demangled_params(fn)]
        if want in overloads:
            implemented.append(name)
            continue
        for got in overloads:
            errors.append(f"impl::{vendor}::{name} does not match its declaration in {fn.header}:\n"
                          f"    header: {name}({', '.join(want)})\n"
                          f"    kernel: {name}({', '.join(got)})")
    if errors:
        raise KernelError("\n".join(errors))
    return implemented

"""Generates the simulated chip's operator wrappers and the rename list of its
kernels, from the one parsed header model (diopi_header) into the build tree.

    generate.py --syms FILE
        the objcopy --redefine-syms list: every diopirt.h runtime function
        NAME -> simrt_NAME, so impl/cpu's kernels call the simulator's runtime
    generate.py --archive LIB.a --nm nm --out-dir DIR [--stamp FILE]
        one wrappers_<family>.cpp per family: an exported diopiXxx for every
        impl::cpu::diopiXxx the archive defines, which captures the call's
        arguments and queues the kernel on the context's stream
    generate.py --list-outputs --out-dir DIR
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
ADAPTOR_DIR = os.path.join(ROOT, "adaptor")
if ADAPTOR_DIR not in sys.path:
    sys.path.insert(0, ADAPTOR_DIR)

import diopi_header  # noqa: E402

from codegen import kernels  # noqa: E402  (which kernels an archive defines, as the adaptor finds them)
from codegen import model as adaptor_model  # noqa: E402

VENDOR = "cpu"  # whose kernels the simulator runs
# Kinds whose value exists only when the call has run: such a call finishes before it returns.
SYNC_KINDS = {"generator", "bool_out", "double_out", "int_out", "pointer"}
# Kinds the simulator does not wrap (collectives: impl/cpu has none).
UNWRAPPED_KINDS = {"comm", "comm_out", "unique_id", "unique_id_out", "string_out", "unknown"}
HAND_WRITTEN = {"diopiGetVendorName", "diopiGetImplVersion", "diopiGetLastErrorString"}


def syms_text():
    return "".join(f"{name} simrt_{name}\n" for name in diopi_header.runtime_functions())


def is_sync(fn):
    for i, p in enumerate(fn.params):
        if p.kind in SYNC_KINDS:
            return True
        if p.kind == "tensor_array_out" and adaptor_model.array_count(fn, i) is None:
            return True  # one output the library allocates: its size is known once the kernel ran
    return False


def wrapper(fn):
    """C++ text of one exported wrapper, or None when the simulator leaves the function out."""
    if fn.returns != "diopiError_t" or fn.name in HAND_WRITTEN:
        return None
    if any(p.kind in UNWRAPPED_KINDS for p in fn.params):
        return None
    ctx = next((p.name for p in fn.params if p.kind == "context"), None)
    if ctx is None:
        return None
    lines, args = [], []
    for i, p in enumerate(fn.params):
        a = f"sim_a{i}"
        k = p.kind
        if k == "context":
            args.append("sim_k")
            continue
        if k == "tensor_in":
            cap = f'sim_launch.tensor("{p.name}", static_cast<diopiConstTensorHandle_t>({p.name}))'
        elif k == "tensor_out":
            cap = f'sim_launch.tensor("{p.name}", {p.name})'
        elif k in ("tensor_array_in", "tensor_array_out"):
            count = adaptor_model.array_count(fn, i)
            if count is None:
                cap = f"sim_launch.allocated({p.name})"
            elif k == "tensor_array_in":
                cap = f'sim_launch.tensors("{p.name}", const_cast<diopiConstTensorHandle_t*>({p.name}), {count})'
            else:
                cap = f'sim_launch.tensors("{p.name}", {p.name}, {count})'
        elif k == "scalar":
            cap = f"const_cast<{p.ctype}>(sim_launch.scalar({p.name}))"
        elif k in ("size", "size_ptr"):
            cap = f"sim_launch.size({p.name})"
        elif k in ("int_ptr", "bool_ptr", "double_ptr"):
            cap = f"sim_launch.value({p.name})"
        elif k == "string":
            cap = f"sim_launch.string({p.name})"
        else:  # numbers, enums, generators, host outputs and pointers: passed as they are (numbers and enums are part of the call's signature)
            cap = f"sim_launch.plain({p.name})"
        lines.append(f"        auto {a} = {cap};")
        args.append(a)
    params = ", ".join(f"{p.ctype} {p.name}" for p in fn.params)
    sync = "true" if is_sync(fn) else "false"
    body = "\n".join(lines)
    return f"""extern "C" DIOPI_API diopiError_t {fn.name}({params}) {{
    try {{
        sim::Launch sim_launch("{fn.name}", {ctx}, /*sync=*/{sync});
{body}
        return sim_launch.run([=](diopiContextHandle_t sim_k) {{ return impl::{VENDOR}::{fn.name}({", ".join(args)}); }});
    }} catch (...) {{
        return sim::failWith(diopiErrorOccurred, "{fn.name}: out of host memory");
    }}
}}
"""


def render(functions, implemented):
    """{file name: text}: one file per family, every family listed (the file list depends on the headers only)."""
    by_file = {f: [] for f in adaptor_model.output_files(functions)[1:]}
    for name, fn in functions.items():
        if name not in implemented:
            continue
        text = wrapper(fn)
        if text is None:
            continue
        decl = ", ".join(f"{p.ctype} {p.name}" for p in fn.params)
        by_file[adaptor_model.family_file(fn.family)].append((f"{fn.returns} {name}({decl});", text))
    out = {}
    for file, items in by_file.items():
        head = (f"// Generated by impl/sim/codegen/generate.py from the header model -- do not edit.\n"
                f"// {len(items)} operator(s): capture the arguments, queue impl::{VENDOR}'s kernel on the context's stream.\n"
                "#include <diopi/collective.h>\n#include <diopi/functions.h>\n#include <diopi/functions_ext.h>\n\n"
                '#include "launch.hpp"\n\n')
        if items:
            head += f"namespace impl::{VENDOR} {{\n" + "\n".join(d for d, _ in items) + f"\n}}  // namespace impl::{VENDOR}\n\n"
        out[file] = head + "\n".join(t for _, t in items)
    return out


def write_if_changed(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return False
    except OSError:
        pass
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--syms")
    ap.add_argument("--archive")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--out-dir")
    ap.add_argument("--stamp")
    ap.add_argument("--list-outputs", action="store_true")
    args = ap.parse_args(argv)
    functions = diopi_header.load()
    if args.syms:
        os.makedirs(os.path.dirname(os.path.abspath(args.syms)), exist_ok=True)
        write_if_changed(args.syms, syms_text())
        return 0
    if args.list_outputs:
        print(";".join(os.path.join(args.out_dir, f) for f in adaptor_model.output_files(functions)[1:]), end="")
        return 0
    if not (args.archive and args.out_dir):
        ap.error("--archive and --out-dir are required")
    try:
        implemented = kernels.match(functions, kernels.parse_nm(kernels.run_nm(args.nm, args.archive), VENDOR), VENDOR)
    except kernels.KernelError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    os.makedirs(args.out_dir, exist_ok=True)
    files = render(functions, set(implemented))
    changed = [f for f, t in sorted(files.items()) if write_if_changed(os.path.join(args.out_dir, f), t)]
    if args.stamp:
        with open(args.stamp, "w") as f:
            f.write(f"{len(implemented)} kernels\n")
    print(f"diopi sim: {len(implemented)} impl::{VENDOR} kernels wrapped, {len(changed)} file(s) updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())

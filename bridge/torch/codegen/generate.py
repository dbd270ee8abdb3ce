"""Generates the `diopi` device's operator registrations from the mapping.

    python -m codegen.generate --out BUILD_DIR [--mapping aten_to_diopi.yaml] [--list]

Pipeline: parse (diopi_torch.mapping, checked against the header model and
torch's own schemas) -> kernels (one per ATen overload, its entries in file
order) -> C++ text (codegen.cpp) -> templates/registrations.cpp.j2 -> one
file per family in BUILD_DIR, rewritten only when its content changed.
`--list` prints the names of the files it would write (for CMake).
A bad entry stops the generator with `file:line: message`.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys

import jinja2

# The build must not load the device it is building: with $DIOPI_IMPL_LIB set, `import torch` would
# (diopi_torch.runtime.autoload, PyTorch's autoloading of backends), so this process turns that off.
os.environ["TORCH_DEVICE_BACKEND_AUTOLOAD"] = "0"

# Run as `python -m codegen.generate` from bridge/torch (the build system does): this tree's codegen and
# diopi_torch are the ones imported. Importing the mapping loads nothing (no extension, no vendor library).
from codegen.cpp import Translator
from diopi_torch.ops import mapping as mapping_mod
from diopi_torch.ops import schemas

HERE = os.path.dirname(os.path.abspath(__file__))
BRIDGE = os.path.dirname(HERE)

TEMPLATE = "registrations.cpp.j2"


def header_functions():
    return mapping_mod.header_functions()


@dataclasses.dataclass(frozen=True)
class EntryCode:
    diopi: str
    where: str
    condition: str       # C++ bool expression ("" when none)
    condition_text: str  # for messages
    uses_result: bool    # the result is allocated from ATen's meta shapes before the call
    args: tuple          # C++ argument expressions after ctx
    allocated: str = ""  # a single output the library allocates: "result", or the out= argument it is copied into
    params: str = ""     # DIOPI parameter names after the context, comma-separated (the tools name arguments by them)
    inits: tuple = ()    # C++ statements copying arguments into results before the call (`init:`)


@dataclasses.dataclass(frozen=True)
class Kernel:
    aten: str
    schema: str
    cpp_name: str
    op: str              # at::_ops struct
    decl: str            # the kernel's C++ declaration
    forward: str         # argument names, comma separated
    meta_args: tuple     # (prelude statements, call arguments)
    returns: str         # the return statement after a successful call
    out_arg: str         # the out= argument resized from the meta result ("" when none)
    otherwise: str       # the call made when no entry applies: ATen's composite kernel, else the CPU fallback
    family: str
    entries: tuple
    check_devices: bool  # every tensor on one device (PyTorch's rule), and that device made current
    meta_call: str = ""  # the C++ function computing result shapes on meta copies (see _meta_call)
    meta_include: str = ""  # the header declaring it ("" when already included)


# Operators with no C++ meta kernel in ATen whose shapes the device computes in
# C++ itself (csrc/aten/meta.cpp): the call is `diopi_torch::meta::<name>_<overload>`.
HAND_WRITTEN_META = {"convolution", "convolution_backward", "add.Scalar", "mul.Scalar", "div.Scalar", "rsub.Scalar", "sum",
                     "mean", "relu", "ones_like", "zeros_like", "full_like", "new_zeros", "new_ones", "new_full", "zeros",
                     "ones", "full", "scalar_tensor", "clone", "_to_copy", "abs", "where.self", "embedding",
                     "embedding_dense_backward", "native_layer_norm", "native_layer_norm_backward", "native_batch_norm",
                     "native_batch_norm_backward", "select_backward", "slice_backward", "arange", "arange.start",
                     "arange.start_step", "constant_pad_nd", "logical_not", "masked_fill.Scalar", "masked_fill.Tensor",
                     "where.self_out", "native_dropout", "floor_divide"}

# Operators whose arguments live on different devices by definition.
CROSS_DEVICE = {"copy_", "_to_copy", "_copy_from", "_copy_from_and_resize"}


def _meta_call(aten, f, backend_meta):
    """The C++ function that sizes this operator's results, and its header.

    Where ATen has a C++ meta kernel (every structured operator, and those
    with a Meta entry in native_functions.yaml) the generated kernel calls
    it directly (`at::meta::addmm`): dispatching to the Meta key instead
    would reach the Python meta registrations that override many of them,
    whose first use imports torch._dynamo (seconds) and whose every use
    runs Python. Then the device's own C++ shape functions; only operators
    with neither go through the dispatcher (`at::_ops::<op>::call`)."""
    from torchgen.api.types import CppSignatureGroup, DispatcherSignature

    if aten in HAND_WRITTEN_META:
        return "diopi_torch::meta::" + aten.replace(".", "_"), ""
    if not (backend_meta.has_kernel(f) or f.structured or f.structured_delegate is not None):
        return "", ""
    group = CppSignatureGroup.from_native_function(f, method=False, fallback_binding=f.manual_cpp_binding)
    sig = (group.symint_faithful_signature or group.symint_signature) if f.func.has_symint() else None
    sig = sig or group.faithful_signature or group.signature
    # The call passes the dispatcher's arguments unchanged: only a signature taking them in that order fits.
    if [a.name for a in sig.arguments()] != [a.name for a in DispatcherSignature.from_schema(f.func).arguments()]:
        return "", ""
    return f"at::meta::{sig.name()}", f"ATen/ops/{f.root_name}_meta_dispatch.h"


def _family_file(family):
    return "registrations_" + (re.sub(r"\W+", "_", family or "other").strip("_") or "other") + ".cpp"


def native_functions():
    """torchgen's model of ATen's native_functions.yaml, keyed by overload
    name: the C++ dispatcher signature of an operator depends on flags kept
    there (const refs for mutable tensors, ITensorListRef for structured ops)."""
    import torchgen
    from torchgen.gen import parse_native_yaml

    base = os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native")
    parsed = parse_native_yaml(os.path.join(base, "native_functions.yaml"), os.path.join(base, "tags.yaml"))
    global _BACKEND_INDICES
    _BACKEND_INDICES = parsed.backend_indices
    out = {}
    for f in parsed.native_functions:
        name = str(f.func.name)
        out[name] = f
    return out


_BACKEND_INDICES = None


def native_backend_indices():
    """torchgen's backend indices (which dispatch keys have a kernel for
    which operator), from the same parse as native_functions()."""
    if _BACKEND_INDICES is None:
        native_functions()
    return _BACKEND_INDICES


def build_kernels(mapping, functions):
    natives = native_functions()
    from torchgen.model import DispatchKey
    backend_meta = native_backend_indices()[DispatchKey.Meta]
    kernels = []
    for aten in mapping.aten_ops:
        if "::" in aten:  # a fused operator of compiled graphs (diopi::rms_norm): no eager kernel
            continue
        f = natives.get(aten)
        if f is None:
            first = mapping.for_op(aten)[0]
            raise mapping_mod.MappingError(f"{first.where}: {aten} is not in ATen's native_functions.yaml")
        from torchgen.context import native_function_manager
        with native_function_manager(f):
            kernels.append(_kernel(aten, f, mapping, functions, backend_meta))
    return kernels


def _kernel(aten, f, mapping, functions, backend_meta):
    from torchgen.api.types import DispatcherSignature

    if True:
        entries = mapping.for_op(aten)
        first = entries[0]
        schema = schemas.schema_of(aten)
        fs = f.func
        sig = DispatcherSignature.from_schema(fs)
        cpp_name = "k_" + re.sub(r"\W", "_", aten)
        bindings = sig.arguments()
        names = [b.name for b in bindings]
        arg_types = {a.name: a.type for a in schema.args}
        # Result shapes come from ATen's meta kernels on meta copies of the arguments.
        prelude, call_args = [], []
        for b in bindings:
            if "Tensor" in b.type:
                prelude.append(f"auto meta_{b.name} = diopi_torch::toMeta({b.name});")
                if "ITensorListRef" in b.type:
                    call_args.append(f"at::ITensorListRef(meta_{b.name})")
                elif "c10::List<::std::optional<at::Tensor>>" in b.type:  # toMeta gives a vector (index_put's indices)
                    call_args.append(f"c10::List<::std::optional<at::Tensor>>(c10::ArrayRef<::std::optional<at::Tensor>>(meta_{b.name}))")
                else:
                    call_args.append(f"meta_{b.name}")
            elif "Device" in b.type:
                call_args.append(f"diopi_torch::toMeta({b.name})")
            else:
                call_args.append(b.name)
        returns = _return_statement(fs)
        result_is_tuple = len(fs.returns) > 1
        codes = []
        for e in entries:
            fn = functions[e.diopi]
            tr = Translator(e.where, arg_types, result_is_tuple)
            args = []
            allocated = ""
            for p in fn.params:
                if p.kind == "context":
                    continue
                if p.kind == "unknown" or p.ctype.endswith("**"):
                    raise mapping_mod.MappingError(f"{e.where}: {e.diopi} parameter {p.name} ({p.ctype}) cannot be mapped")
                target = _allocated_target(e, p, arg_types)
                if target:  # the library allocates this output (diopiRequireTensor) and stores its handle
                    if allocated or (target == mapping_mod.RESULT and (result_is_tuple or not fs.returns)):
                        raise mapping_mod.MappingError(f"{e.where}: {e.diopi} parameter {p.name}: only one output the "
                                                       "library allocates, as the single result or an out= argument")
                    allocated = target
                    args.append("&allocated")
                    continue
                arg = tr.convert(p.kind, e.expression(p.name))
                if p.kind == "scalar" and p.ctype.replace(" ", "") == "diopiScalar_t*":
                    # DIOPI 1.0 declares a few scalar inputs without const (LinalgVecNorm's ord); they are not written.
                    arg = f"const_cast<diopiScalar_t*>({arg})"
                args.append(arg)
            cond = " && ".join(f"({tr.condition(c)})" for c in e.when)
            uses_result = (e.uses_result or bool(e.init)) and allocated != mapping_mod.RESULT
            inits = tuple(f"{tr.condition(t)}.copy_({tr.condition(src)});" for t, src in e.init)
            if uses_result and not fs.returns:
                raise mapping_mod.MappingError(f"{e.where}: {aten} returns nothing; `result` cannot be used")
            if uses_result and (fs.name.name.inplace or fs.is_out_fn()):
                raise mapping_mod.MappingError(f"{e.where}: {aten} writes its arguments; map them instead of `result`")
            params = ",".join(p.name for p in fn.params if p.kind != "context")
            codes.append(EntryCode(e.diopi, e.where, cond, " and ".join(e.when), uses_result, tuple(args), allocated,
                                   params=params, inits=inits))
        return Kernel(
            aten=aten, schema=schema.text, cpp_name=cpp_name, op=f"at::_ops::{fs.name.unambiguous_name()}",
            out_arg=_out_arg(fs, first.where), decl=sig.decl(name=cpp_name),
            otherwise=("composite" if f.has_composite_explicit_autograd_kernel else "fallback"), forward=", ".join(names), meta_args=(tuple(prelude), ", ".join(call_args)),
            returns=returns, family=functions[first.diopi].family, entries=tuple(codes),
            check_devices=aten.split(".")[0] not in CROSS_DEVICE, **dict(zip(("meta_call", "meta_include"),
                                                                             _meta_call(aten, f, backend_meta))))


def _allocated_target(entry, param, arg_types):
    """For a DIOPI output the library allocates (a `diopiTensorHandle_t*`
    holding one handle, e.g. diopiNonzero's out): "result" or the name of
    the single-tensor out= argument the entry maps it to; "" for anything
    else (arrays of caller tensors share that C type)."""
    if param.kind != "tensor_array_out" or param.ctype != "diopiTensorHandle_t*":
        return ""
    expr = entry.expression(param.name)
    if expr == mapping_mod.RESULT:
        return expr
    if arg_types.get(expr) == "Tensor":
        return expr
    return ""


def _out_arg(fs, where):
    outs = [a.name for a in fs.arguments.out]
    if len(outs) > 1:
        raise mapping_mod.MappingError(f"{where}: out= overloads with several outputs are not supported yet")
    return outs[0] if outs else ""


def _return_statement(fs):
    if not fs.returns:
        return "return;"
    aliased = []
    for r in fs.returns:
        if r.annotation is not None and r.annotation.is_write:
            arg = next(a for a in fs.arguments.flat_all if a.annotation is not None and a.annotation.alias_set == r.annotation.alias_set)
            aliased.append(arg.name)
        else:
            aliased.append(None)
    if all(a is None for a in aliased):
        return "return result;"
    if len(aliased) == 1:
        return f"return {aliased[0]};"
    return "return std::forward_as_tuple(" + ", ".join(aliased) + ");"


def render(kernels, mapping_path):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(BRIDGE, "templates")),
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    tpl = env.get_template(TEMPLATE)
    files = {}
    by_file = {}
    for k in kernels:
        by_file.setdefault(_family_file(k.family), []).append(k)
    for name, ks in sorted(by_file.items()):
        files[name] = tpl.render(kernels=ks, family=ks[0].family, mapping=os.path.basename(mapping_path),
                                 generator="bridge/torch/codegen/generate.py", template=f"bridge/torch/templates/{TEMPLATE}")
    return files


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return False
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    return True


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="build directory for the generated files")
    p.add_argument("--mapping", default=mapping_mod.DEFAULT_PATH)
    p.add_argument("--list", action="store_true", help="only print the generated file names")
    p.add_argument("--python-meta", action="store_true",
                   help="only print the operators whose result shapes still come from the dispatcher's Meta key "
                        "(ATen's Python meta kernels for most): neither a C++ meta function nor HAND_WRITTEN_META")
    args = p.parse_args(argv)
    try:
        functions = header_functions()
        mapping = mapping_mod.load(args.mapping, functions=functions, schema_of=schemas.schema_of)
        kernels = build_kernels(mapping, functions)
    except mapping_mod.MappingError as e:
        print(f"{e}", file=sys.stderr)
        return 1
    if args.python_meta:
        for k in kernels:
            if not k.meta_call and any(e.uses_result or (k.out_arg and not e.allocated) for e in k.entries):
                print(k.aten)
        return 0
    files = render(kernels, args.mapping)
    os.makedirs(args.out, exist_ok=True)
    # A stable list for the build system: every family file, even when empty.
    index = "\n".join(sorted(files)) + "\n"
    if args.list:
        sys.stdout.write(index)
        return 0
    changed = sum(write_if_changed(os.path.join(args.out, n), t) for n, t in files.items())
    write_if_changed(os.path.join(args.out, "generated_files.txt"), index)
    print(f"diopi device codegen: {len(kernels)} ATen overloads, {sum(len(k.entries) for k in kernels)} entries, "
          f"{len(files)} files ({changed} rewritten)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

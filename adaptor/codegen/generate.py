"""Generates the adaptor's C++ wrappers for one vendor.

Pipeline: headers (the diopi_header package) + convert_config.yaml (config.py)
+ the vendor's kernels (kernels.py, from nm) -> wrapper model (model.py)
-> Jinja2 templates (adaptor/templates) -> files in the build tree, each
rewritten only when its content changed.

    python adaptor/codegen/generate.py --vendor cpu --config impl/cpu/convert_config.yaml \
        --archive build/cpu/impl/cpu/libdiopi_impl_kernels.a --out-dir build/cpu/adaptor/cpu
    python adaptor/codegen/generate.py --list-outputs --out-dir DIR   # the files it writes
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ADAPTOR_DIR = os.path.dirname(HERE)
TEMPLATE_DIR = os.path.join(ADAPTOR_DIR, "templates")
if ADAPTOR_DIR not in sys.path:  # run as a script: make this package importable as `codegen`
    sys.path.insert(0, ADAPTOR_DIR)

import diopi_header  # noqa: E402
import jinja2  # noqa: E402

from codegen import config as config_mod  # noqa: E402
from codegen import kernels, model  # noqa: E402


class GenerateError(Exception):
    pass


def _env():
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE_DIR), trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True, undefined=jinja2.StrictUndefined)


def render(functions, cfg, implemented, vendor):
    """{file name: C++ text} for every output file (empty families included,
    so the file list never depends on the config or the kernels)."""
    families = {f.file: f for f in model.build(functions, cfg, implemented)}
    has_copy = model.COPY_KERNEL in implemented
    if model.needs_copy_kernel(families.values()) and not has_copy:
        raise GenerateError(f"{cfg.path}: the config converts tensors, but impl::{vendor}::{model.COPY_KERNEL} "
                            "(used to fill and copy back the converted tensors) is not defined")
    env = _env()
    out = {"adaptor_glue.cpp": env.get_template("adaptor_glue.cpp.j2").render(
        vendor=vendor, has_copy=has_copy, has_last_error=model.LAST_ERROR in implemented)}
    tmpl = env.get_template("wrappers.cpp.j2")
    for file in model.output_files(functions)[1:]:
        fam = families.get(file) or model.Family(file[len("wrappers_"):-len(".cpp")], file, (), ())
        out[file] = tmpl.render(vendor=vendor, family=fam)
    return out


def write_if_changed(path, text):
    """Returns True when the file was (re)written."""
    try:
        with open(path) as f:
            if f.read() == text:
                return False
    except OSError:
        pass
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)
    return True


def generate(vendor, config_path, listing, functions=None):
    """Runs the pipeline on an nm listing; returns ({file: text}, implemented names)."""
    functions = functions if functions is not None else diopi_header.load()
    cfg = config_mod.load(config_path, functions)
    found = kernels.parse_nm(listing, vendor)
    implemented = kernels.match(functions, found, vendor)
    files = render(functions, cfg, implemented, vendor)
    return files, implemented


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vendor")
    ap.add_argument("--config")
    ap.add_argument("--archive", help="the vendor's static kernels library")
    ap.add_argument("--nm", default="nm")
    ap.add_argument("--nm-listing", help="read this nm -C listing instead of running nm (tests)")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--stamp", help="touched after every successful run (the build's output)")
    ap.add_argument("--list-outputs", action="store_true", help="print the generated files, ';'-separated, and exit")
    args = ap.parse_args(argv)

    functions = diopi_header.load()
    if args.list_outputs:
        print(";".join(os.path.join(args.out_dir, f) for f in model.output_files(functions)), end="")
        return 0
    if not (args.vendor and args.config and (args.archive or args.nm_listing)):
        ap.error("--vendor, --config and --archive (or --nm-listing) are required")
    try:
        if args.nm_listing:
            with open(args.nm_listing) as f:
                listing = f.read()
        else:
            listing = kernels.run_nm(args.nm, args.archive)
        files, implemented = generate(args.vendor, args.config, listing, functions)
    except (config_mod.ConfigError, kernels.KernelError, model.ModelError, GenerateError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    os.makedirs(args.out_dir, exist_ok=True)
    changed = [f for f, text in sorted(files.items()) if write_if_changed(os.path.join(args.out_dir, f), text)]
    if args.stamp:
        with open(args.stamp, "w") as f:
            f.write(f"{len(implemented)} wrappers\n")
    print(f"diopi adaptor: impl::{args.vendor}: {len(implemented)} of {len(functions)} functions wrapped, "
          f"{len(changed)} file(s) updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())

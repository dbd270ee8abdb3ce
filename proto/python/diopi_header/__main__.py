"""Command line of the header model.

    python -m diopi_header abi-diff OLD_DIR NEW_DIR   # exit 1 on a breaking change
    python -m diopi_header check-v1 [FACTS.json] [--include DIR]
    python -m diopi_header summary [--include DIR]
    python -m diopi_header c-tables OUT.h [--stamp FILE]   # C enum-name tables (the build runs it)
    python -m diopi_header reference OUT.md [--check] [--include DIR]   # Markdown operator reference

OLD_DIR / NEW_DIR / DIR are include directories (holding diopi/diopirt.h)
or the diopi/ folders themselves.
"""
import argparse
import json
import sys

import diopi_header
from diopi_header import abi


def _std(include_dir):
    return diopi_header.standard_in(include_dir) if include_dir else diopi_header.standard()


def cmd_abi_diff(args):
    old, new = _std(args.old), _std(args.new)
    changes = abi.diff(old, new)
    for c in changes:
        print(c)
    breaking = [c for c in changes if c.breaking]
    added = sum(c.change == abi.ADDED for c in changes)
    print(f"abi-diff: {len(changes)} change(s), {added} addition(s), {len(breaking)} breaking "
          f"({old.version} -> {new.version})")
    return 1 if breaking else 0


def cmd_check_v1(args):
    with open(args.facts) as f:
        facts = json.load(f)
    std = _std(args.include)
    problems, notes = abi.check_v1(facts, std)
    for p in problems:
        print(p)
    if args.verbose:
        for n in notes:
            print(f"note: {n}")
    checked = sum(1 for f in facts["functions"] if f["header"] in {fn.header for fn in std.functions.values()})
    print(f"check-v1: {checked} function(s) of {len(facts['functions'])} in shipped headers checked, "
          f"{len(notes)} in headers not shipped; {len(problems)} problem(s)")
    return 1 if problems else 0


def cmd_summary(args):
    std = _std(args.include)
    print(f"DIOPI {std.version}: {len(std.functions)} functions in {len(std.families())} families, "
          f"{len(std.runtime)} runtime functions, enums {', '.join(std.enums)}")
    return 0


def cmd_c_tables(args):
    from diopi_header import ctables
    changed = ctables.write_if_changed(args.out, ctables.render(_std(args.include)))
    if args.stamp:
        with open(args.stamp, "w") as f:
            f.write("c-tables\n")
    print(f"diopi_header: {args.out} {'written' if changed else 'unchanged'}")
    return 0


def cmd_reference(args):
    from pycparser.c_parser import ParseError

    from diopi_header import ctables, reference
    try:
        text = reference.render(_std(args.include))
    except (OSError, ValueError, KeyError, ParseError) as e:
        print(f"diopi_header reference: cannot read the headers: {e}", file=sys.stderr)
        return 2
    if args.check:
        if reference.is_current(args.out, text):
            print(f"diopi_header: {args.out} is up to date")
            return 0
        rerun = f"{reference.GENERATOR} {args.out}" + (f" --include {args.include}" if args.include else "")
        print(f"{args.out} is stale: run {rerun}", file=sys.stderr)
        return 1
    try:
        changed = ctables.write_if_changed(args.out, text)
    except OSError as e:
        print(f"diopi_header reference: cannot write {args.out}: {e}", file=sys.stderr)
        return 2
    print(f"diopi_header: {args.out} {'written' if changed else 'unchanged'}")
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m diopi_header", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("abi-diff", help="added, removed and changed declarations; exit 1 on a breaking change")
    p.add_argument("old")
    p.add_argument("new")
    p.set_defaults(func=cmd_abi_diff)
    p = sub.add_parser("check-v1", help="check the headers against the DIOPI 1.0 interface facts")
    p.add_argument("facts", nargs="?", default=diopi_header.V1_INTERFACE)
    p.add_argument("--include", help="include directory to check (default: this checkout's proto/include)")
    p.add_argument("-v", "--verbose", action="store_true", help="also list the facts that could not be checked")
    p.set_defaults(func=cmd_check_v1)
    p = sub.add_parser("summary", help="one line about the headers")
    p.add_argument("--include")
    p.set_defaults(func=cmd_summary)
    p = sub.add_parser("c-tables", help="write the C header of enumerator-name tables (rewritten only when changed)")
    p.add_argument("out")
    p.add_argument("--include")
    p.add_argument("--stamp", help="touched after every successful run (the build's output)")
    p.set_defaults(func=cmd_c_tables)
    p = sub.add_parser("reference", help="write the Markdown operator reference (docs/operators.md)")
    p.add_argument("out")
    p.add_argument("--check", action="store_true", help="write nothing; exit 1 when OUT differs from what would be written")
    p.add_argument("--include", help="include directory to document (default: this checkout's proto/include)")
    p.set_defaults(func=cmd_reference)
    args = ap.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())

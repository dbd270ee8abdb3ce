"""Conformance harness CLI (`python main.py ...` or the installed `diopi-conformance ...`).

  python main.py --mode gen_data [--fname add ...]          baselines from PyTorch
  python main.py --mode run_test [--fname add] [--impl_lib PATH]   replay (numpy + cffi only)
                  [--repro DIR]                             plus a standalone C program per failing case
                  [--shard K/N]                             only the K-th of N disjoint parts of the selection
  python main.py --mode merge DIR [DIR ...] [--report_dir OUT]  one report from the N shards' reports
  python main.py --mode coverage [--impl_lib PATH]          declared / implemented / cases / passing
  python main.py --mode fuzz [--fname add] [--impl_lib PATH]  malformed calls: errors, never crashes
  python main.py --mode capture --model NAME                 capture a model case set (runs bridge/torch's capture)
  python main.py --mode collective [--world_size 2,4] [--impl_lib PATH]   the collective interface on N ranks at once
  python main.py --mode graph_replay --graphs DIR [--impl_lib PATH]   captured graphs against the library's graph compiler

Exit codes:
  0  pass: all selected cases passed (or were skipped / not implemented)
  1  library failures: some case failed, errored, crashed or timed out, or the
     library could not be loaded / exports no DIOPI function (reported)
  2  usage: bad options or names, a library file that does not exist, bad input
  3  data problem: baselines missing, refused (altered, corrupt, foreign) or
     being written by gen_data; the library was not at fault
  128+N  stopped by signal N (SIGTERM, SIGINT): the report of the cases done
     so far is written, marked incomplete

Baseline folders are locked while gen_data writes them: the other modes wait
up to 30 s (environment DIOPI_LOCK_WAIT, seconds) and then stop with exit 3.

stdout carries the results (summary, report paths); stderr the log
(progress, warnings; --log-level) and, for a run that cannot go on, one
`error: ...` line.
"""
import argparse
import contextlib
import difflib
import logging
import math
import os
import re
import signal
import sys

from conformance import paths

# Vendor code never runs in the harness's own process: with $DIOPI_IMPL_LIB set, `import torch` (gen_data,
# capture) would load the `diopi` device and its vendor library through PyTorch's backend autoloading
# (bridge/torch's `torch.backends` entry point). The workers inherit the switch; they load vendors themselves.
os.environ["TORCH_DEVICE_BACKEND_AUTOLOAD"] = "0"

log = logging.getLogger("conformance")


EXIT_DATA = 3  # baselines refused: a data problem, not the library's failure
DEFAULT_TIMEOUT = 20.0
MODEL_TIMEOUT = 120.0  # --model_name: cases at real model sizes


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one `error: ...` line (exit 2), with a
    "did you mean" for a mistyped choice or option."""

    def error(self, message):
        hint = ""
        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if m:
            close = difflib.get_close_matches(m.group(1), re.findall(r"'([^']*)'", m.group(2)), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
        m = re.search(r"unrecognized arguments: (\S+)", message)
        if m and m.group(1).startswith("-"):
            close = difflib.get_close_matches(m.group(1).split("=")[0], list(self._option_string_actions), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
        print(f"error: {message}{hint} (--help lists the options)", file=sys.stderr)
        sys.exit(2)


def _at_least_one(text):
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def _positive_seconds(text):
    try:
        t = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not math.isfinite(t) or t <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds, got {text}")
    return t


def parse_args(argv):
    p = _Parser(prog=os.path.basename(sys.argv[0]) or "main.py", description="DIOPI conformance harness")
    p.add_argument("--mode", choices=["gen_data", "run_test", "merge", "coverage", "fuzz", "bench", "capture", "collective",
                                        "graph_replay"])
    p.add_argument("dirs", nargs="*", metavar="DIR", help="merge: the report directories of the shards (--report_dir of "
                   "each run_test --shard K/N)")
    p.add_argument("--get_model_list", action="store_true", help="list the model case sets and exit")
    p.add_argument("--model_name", "--model", default=None, help="only the operators of this model (see "
                   "--get_model_list); capture: the zoo model (or hf:<Class>:k=v,...) to capture")
    p.add_argument("--fname", nargs="+", default=[], help="operators to select: snake name (add selects add, add_inp, "
                   "add_scalar...), C name (diopiAdd) or glob")
    p.add_argument("--case", nargs="+", default=[], help="run_test: exact case names (as printed in reports)")
    p.add_argument("--filter_dtype", nargs="+", default=[], help="only cases of these dtypes")
    p.add_argument("--data_dir", default=paths.DEFAULT_DATA_DIR, help="baseline folder (default: %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="gen_data: base seed of the input generators")
    p.add_argument("--device", default="cpu", help="gen_data: torch device of the reference (cpu, cuda)")
    p.add_argument("--impl_lib", default=None, help="run_test: libdiopi_impl.so to test (default: build/torch/lib)")
    p.add_argument("--runtime_lib", default=None, help="run_test: test runtime (default: libdiopirt.so beside --impl_lib)")
    p.add_argument("--layout", nargs="+", default=[], choices=["contiguous", "noncontig", "channels_last", "captured"],
                   help="run_test: only these layouts (default: every layout a case allows)")
    p.add_argument("--nhwc", action="store_true", help="run_test: only the channels-last variants (ops on 4-D/5-D tensors)")
    p.add_argument("--device_config", default=None, help="run_test: the vendor's device_configs.py (default: "
                   "impl/<vendor name>/device_configs.py when it exists; 'none' for none)")
    p.add_argument("--jobs", type=_at_least_one, default=1, help="run_test: worker processes")
    p.add_argument("--max_crashes_per_function", type=_at_least_one, default=None, metavar="N",
                   help="run_test, fuzz: after N crashes of a function, its remaining cases are skipped (with that reason) "
                   "instead of run (default: every case runs; a crash costs a fork of a loaded worker)")
    p.add_argument("--timeout", type=_positive_seconds, default=DEFAULT_TIMEOUT, help="run_test: seconds per case before a timeout verdict "
                   "(plus 1 s per 20 MB of case data) on an idle machine; stretched to the machine's slowdown now, at most "
                   "8x (DIOPI_TIME_SCALE=F fixes the slowdown)")
    p.add_argument("--report_dir", default=paths.DEFAULT_REPORT_DIR, help="run_test, merge: where the reports go "
                   "(error_report.csv, summary.json, junit.xml, report.html)")
    p.add_argument("--compare_report", default=None, metavar="DIR", help="run_test, merge: show the run whose report is in "
                   "DIR beside this one in report.html (e.g. impl/torch against impl/cpu)")
    p.add_argument("--shard", default=None, metavar="K/N", help="run_test: run only the K-th of N disjoint, "
                   "deterministic parts of the selection (every N-th case); --mode merge joins the N reports")
    p.add_argument("--verbose", "-v", action="store_true", help="run_test, merge, fuzz: a summary line per function "
                   "(default: per family)")
    p.add_argument("--log-level", "--log_level", dest="log_level", default="info",
                   choices=["debug", "info", "warning", "error"], help="messages on stderr from this level up; "
                   "progress is info (default: %(default)s)")
    p.add_argument("--repro", default=None, metavar="DIR", help="run_test: write a standalone C reproducer (program + "
                   "data files) of every failing case into DIR/<case>/")
    p.add_argument("--baseline_lib", default=None, help="bench: library the --impl_lib one is timed against "
                   "(default: build/torch/lib/libdiopi_impl.so)")
    p.add_argument("--bench_dtype", default="float32", help="bench: dtype of the timed cases (default: %(default)s)")
    p.add_argument("--world_size", default=None, metavar="N[,N...]", help="collective: numbers of ranks to run the "
                   "collective cases on, one after the other (default: 2,4; with --case, the world size its name gives)")
    p.add_argument("--graphs", default=None, metavar="DIR", help="graph_replay: the folder of captured graphs "
                   "(DIOPI_GRAPH_CAPTURE of the PyTorch device's compile route)")
    args = p.parse_args(argv)
    if not args.mode and not args.get_model_list:
        p.error("--mode is required")
    return args


def gen_data(args):
    from conformance import expand
    from conformance import gen_data as gd  # imports torch

    bad_device = gd.check_device(args.device)  # before any case is built
    if bad_device:
        raise UsageError(bad_device)
    skipped = []
    if args.model_name:
        from conformance import model_cases
        entries = model_cases.ops(args.model_name)
        ops = [(fam, op) for fam, op, why in entries if not why]
        skipped = [(op.name, why) for _, op, why in entries if why]
        for name, why in skipped:
            log.info("gen_data: %s (%s) not replayed: %s", name, op_func(entries, name), why)
    else:
        ops = expand.load_ops()
    cases = expand.expand(ops, args.seed, args.fname, args.filter_dtype)
    if not cases:
        raise UsageError(f"no cases match --fname {' '.join(args.fname)}")
    from conformance import progress
    with progress.Progress(len(cases), label="gen_data") as bar:
        res = gd.generate(cases, args.data_dir, args.device, args.seed, progress=bar)
    for name, why in res["failures"]:
        log.warning("gen_data: case %s failed: %s", name, why)
    print(f"gen_data: {res['cases']} cases of {res['functions']} functions in {res['seconds']:.1f} s; "
          f"baselines in {args.data_dir}: {res['bytes'] / 2**20:.1f} MiB")
    return 1 if res["failures"] else 0


def op_func(entries, stem):
    return next(op.func for _, op, _ in entries if op.name == stem)


def run_test(args):
    import diopi_header
    from conformance import device_config, execute, expand, progress, report, runner, shard, store

    impl = args.impl_lib or os.path.join(paths.default_lib_dir("torch"), "libdiopi_impl.so")
    compare = _compare(args)  # checked before anything runs
    if args.nhwc:
        args.layout = ["channels_last"]
    manifest = store.read_manifest(args.data_dir)
    files = {f: rec for f, rec in manifest["files"].items() if expand.matches(f, args.fname)}
    if not files:
        raise UsageError(f"no baselines match --fname {' '.join(args.fname)} in {args.data_dir}")
    # Refuse altered baselines before anything runs.
    for func in sorted(files):
        store.load_function(args.data_dir, func, manifest, lazy=True)  # recipes are drawn (and checked) when run
    runtime = _runtime_for(args, impl)
    probed = _probe(args, impl, runtime)
    devcfg = _device_config(args, probed.get("vendor"), device_config)
    selection = []  # (item, skip reason), in the fixed order that shards are cut from
    for func in sorted(files):
        for index, row in enumerate(files[func]["index"]):
            name, dtype, layouts, nbytes = row[:4]
            if args.filter_dtype and dtype not in args.filter_dtype:
                continue
            if args.case and name not in args.case:
                continue
            reason = devcfg.skip_reason(name)
            tol = devcfg.tolerance(name)
            for layout in layouts:
                if args.layout and layout not in args.layout:
                    continue
                item = runner.WorkItem(func, index, layout, name, case_timeout(args.timeout, nbytes, row[4] if len(row) > 4 else None),
                                       tol, seq=len(selection), limit=case_timeout(args.timeout, nbytes, None))
                selection.append((item, reason))
    if not selection:
        raise UsageError("no cases selected")
    k, n = args.shard_spec
    mine = shard.take(selection, k, n)
    items = [i for i, reason in mine if not reason]
    skipped = [(i, reason) for i, reason in mine if reason]
    funcs = sorted({i.func for i, _ in selection})
    digest = shard.selection_digest([f"{i.name}::{i.layout}" for i, _ in selection], {f: files[f]["sha256"] for f in funcs},
                                    {"device_config": shard.file_digest(devcfg.path) if devcfg.path else None,
                                     "timeout": args.timeout})
    log.debug("selected %d cases of %d functions; this run: %d to replay, %d skipped", len(selection), len(funcs),
              len(items), len(skipped))
    meta = dict(report.run_identity(), mode="run_test", library={k: probed.get(k) for k in ("vendor", "version")},
                impl_lib=os.path.abspath(impl), impl_sha256=shard.file_digest(impl), runtime_lib=os.path.abspath(runtime),
                data_dir=args.data_dir, model_name=args.model_name, device_config=devcfg.path or None,
                shard={"index": k, "count": n, "selection": digest, "selected": len(selection)},
                repro_options=_repro_options(args, runtime, devcfg))
    report_dir = report.claim_dir(args.report_dir, meta["run_id"])
    if report_dir != args.report_dir:
        log.warning("another run is writing reports into %s: this run writes into %s", args.report_dir, report_dir)
    rep = report.Report()
    rep.start_live(report_dir, args.impl_lib, None if args.data_dir == paths.DEFAULT_DATA_DIR else args.data_dir, meta,
                   compare=compare)
    for item, reason in skipped:
        rep.add(item, {"verdict": execute.SKIPPED, "message": f"{os.path.basename(devcfg.path)}: {reason}"})
    if not args.fname and not args.case and not args.filter_dtype:
        for table, pattern in devcfg.unused():
            log.warning("%s: %s entry %r matches no case", devcfg.path, table, pattern)

    # Runs even when every case of this shard is skipped: the report must
    # name the library it tested, and shard 1 runs the library checks.
    with _interruptible() as stop, progress.Progress(len(items)) as bar:
        def on_result(item, result):
            rep.add(item, result)
            bar.update(result["verdict"])

        try:
            info = runner.run(items, impl, runtime, args.data_dir, args.jobs, on_result, _load_timeout(args), manifest=manifest,
                              max_crashes=args.max_crashes_per_function)
        except runner.WorkerFailed as e:
            rep.add(_load_item(), {"verdict": _load_verdict(str(e)), "message": str(e)})
            rep.finish(status="library unusable")
            raise LibraryUnusable(str(e), _load_verdict(str(e)), reported=True) from None
        except Interrupted as e:
            stop.append(e.signum)
    if stop:
        path = rep.finish(status=f"incomplete: stopped by {signal.Signals(stop[0]).name} after {len(rep.rows)} cases")
        print(f"error: stopped by {signal.Signals(stop[0]).name}; the report of the {len(rep.rows)} cases done is in "
              f"{os.path.dirname(path)} (marked incomplete)", file=sys.stderr)
        return 128 + stop[0]
    info = dict(probed, **info)
    if not info.get("memory_judged", True):
        log.info("memory growth is not judged: AddressSanitizer's quarantine keeps freed memory resident (LeakSanitizer finds leaks)")
    rep.note(workers_started=info.get("workers_started"), forked=info.get("forked"))
    if k == 1 and not args.case and not args.filter_dtype:
        checks = [c for c in info.get("checks", []) if expand.matches(c[0], args.fname)]
        for j, (func, verdict, message, seconds) in enumerate(checks):
            rep.add(runner.WorkItem(func, -1, "contiguous", f"library::{diopi_header.snake(func)}", 0.0, seq=len(selection) + j),
                    {"verdict": verdict, "message": message, "seconds": seconds})
    rep.tolerance = _tolerance_totals(args.data_dir, manifest, rep.rows)
    print(f"library: {info.get('vendor')} {info.get('version')} ({impl})")
    if devcfg.path:
        print(f"device config: {devcfg.path}")
    if n > 1:
        print(f"shard: {k}/{n}, {len(mine)} of {len(selection)} selected cases (--mode merge joins the shards' reports)")
    rep.print_summary(verbose=args.verbose)
    if args.repro:
        _write_repros(args, rep, manifest, impl, runtime, execute)
    csv_path = rep.finish()
    print(f"report: {csv_path}")
    if args.model_name:
        from conformance import model_cases
        print(model_cases.pass_share(args.model_name, rep.rows))
    t = rep.totals()
    if t[execute.BASELINE_REFUSED]:
        print(f"error: {t[execute.BASELINE_REFUSED]} cases not run: their baselines were refused (see the report); "
              "regenerate them with --mode gen_data", file=sys.stderr)
        return EXIT_DATA
    return 1 if any(t[v] for v in execute.FAILING) else 0


def _tolerance_totals(data_dir, manifest, rows):
    """proof.run_totals of the cases this run ran (each once, with the tolerance it was compared with)."""
    from conformance import execute, proof, store
    wanted = {}  # func -> {index: the run's tolerance allowance}
    for item, r in rows:
        if item.index >= 0 and r["verdict"] != execute.SKIPPED and item.func in manifest["files"]:
            wanted.setdefault(item.func, {})[item.index] = item.tol

    def records():
        for func in sorted(wanted):
            recs = store.load_function(data_dir, func, manifest, lazy=True)
            for index, tol in sorted(wanted[func].items()):
                record = recs[index]
                yield dict(record, tol=dict(record.get("tol") or {}, **tol)) if tol else record
    return proof.run_totals(records())


def case_timeout(limit, nbytes, ref_seconds):
    """Seconds one case may take: --timeout plus 1 s per 20 MB of case data,
    or less when the reference's own run time (recorded by gen_data) says
    the case is quick: 5 s plus 100 times that. A function that never
    returns then costs seconds per case, not the full limit; a case that
    overruns the quick limit is re-run with the full one before it is
    charged (conformance/runner.py). These are limits on an idle machine:
    the runner stretches them to the machine's pace (conformance/pace.py)."""
    cap = limit + nbytes / 20e6
    if ref_seconds is None:
        return cap
    return min(cap, 5.0 + 100.0 * ref_seconds + nbytes / 20e6)


class Interrupted(Exception):
    def __init__(self, signum):
        super().__init__(f"signal {signum}")
        self.signum = signum


@contextlib.contextmanager
def _interruptible():
    """SIGTERM and SIGINT end the run as an exception (so the workers are
    stopped and the report of the cases done is written); yields a list
    that holds the signal number once one arrived."""
    def on_signal(signum, frame):
        raise Interrupted(signum)

    stop = []
    old = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield stop
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _load_item():
    from conformance import runner
    return runner.WorkItem("library", -1, "contiguous", "library::load", 0.0)


def _repro_options(args, runtime, devcfg):
    """The options besides the case, library and data that a repro line needs."""
    opts = ["--runtime_lib", os.path.abspath(runtime)]
    if args.device_config:
        opts += ["--device_config", args.device_config]
    if args.timeout != DEFAULT_TIMEOUT:
        opts += ["--timeout", f"{args.timeout:g}"]
    return opts


def _write_repros(args, rep, manifest, impl, runtime, execute):
    from conformance import repro

    written, skipped = repro.write_all(args.repro, rep, args.data_dir, manifest, impl, runtime, execute.FAILING)
    for case, why in skipped:
        log.warning("repro: no C reproducer for %s: %s", case, why)
    print(f"repro: {written} C reproducers in {args.repro} (build command at the top of each repro.c)")


def _runtime_for(args, impl):
    """--runtime_lib, else libdiopirt.so beside the library, else the in-tree build's."""
    if args.runtime_lib:
        return args.runtime_lib
    beside = os.path.join(os.path.dirname(os.path.abspath(impl)), "libdiopirt.so")
    return beside if os.path.exists(beside) else os.path.join(paths.default_lib_dir("torch"), "libdiopirt.so")


def _device_config(args, vendor, device_config):
    """The vendor's skip list and tolerances: --device_config, else
    impl/<vendor>/device_configs.py for the vendor the library names (as a
    worker process read it: the library is never loaded here)."""
    if args.device_config == "none":
        return device_config.DeviceConfig()
    path = args.device_config
    if path is None:
        candidate = os.path.join(paths.REPO_ROOT, "impl", os.path.basename(vendor or ""), "device_configs.py")
        path = candidate if vendor and os.path.exists(candidate) else None
    return device_config.load(path) if path else device_config.DeviceConfig()


class LibraryUnusable(Exception):
    """The library could not be loaded, or exports no DIOPI function: the
    run ends with exit 1 after writing a report that says so."""

    def __init__(self, message, verdict, reported=False):
        super().__init__(message)
        self.verdict = verdict
        self.reported = reported  # the run's report already says so


def _report_unusable(args, e):
    """The report of a run that could not load its library: one row."""
    from conformance import report

    impl = os.path.abspath(args.impl_lib or os.path.join(paths.default_lib_dir("torch"), "libdiopi_impl.so"))
    meta = dict(report.run_identity(), mode=args.mode, impl_lib=impl, status="library unusable", library={})
    report_dir = report.claim_dir(args.report_dir, meta["run_id"])
    rep = report.Report()
    rep.add(_load_item(), {"verdict": e.verdict, "message": str(e)})
    path = rep.write(report_dir, args.impl_lib, None, meta)
    print(f"report: {path}")


def _load_verdict(message):
    from conformance import verdicts
    if "did not finish within" in message:
        return verdicts.TIMEOUT
    if "exited with code" in message or "was killed by" in message:
        return verdicts.CRASHED
    return verdicts.ERROR


def _probe(args, impl, runtime):
    """What a worker process learns loading the library (vendor, version,
    exported functions); LibraryUnusable when that fails or finds nothing."""
    from conformance import binding, runner

    if not os.path.exists(impl):
        raise binding.LoadError(f"operator library not found at {impl} (build it with scripts/build_impl.sh, or pass --impl_lib)")
    if not os.path.exists(runtime):
        raise binding.LoadError(f"test runtime not found at {runtime} (build it with scripts/build_impl.sh, or pass --runtime_lib)")
    try:
        info = runner.probe(impl, runtime, _load_timeout(args))
    except runner.WorkerFailed as e:
        raise LibraryUnusable(str(e), _load_verdict(str(e))) from None
    if not info.get("exported"):
        from conformance import verdicts
        raise LibraryUnusable(f"{os.path.basename(impl)}: exports none of the {len(__import__('diopi_header').load())} "
                              "functions the header declares (not a DIOPI operator library?)", verdicts.ERROR)
    if info.get("output"):
        log.info("the library printed while loading: %s", info["output"].strip()[:300])
    return info


def _load_timeout(args):
    """Seconds a worker may take to load the library and run the library checks."""
    return max(10.0, min(120.0, 3 * args.timeout))


def fuzz(args):
    import diopi_header
    from conformance import execute, expand, fuzz as fz, progress, report, runner, store

    impl = args.impl_lib or os.path.join(paths.default_lib_dir("torch"), "libdiopi_impl.so")
    manifest = store.read_manifest(args.data_dir)
    exported = set(_probe(args, impl, _runtime_for(args, impl))["exported"])
    funcs = sorted(f for f in manifest["files"] if expand.matches(f, args.fname) and f in exported)
    if not funcs:
        raise UsageError("no implemented function with baselines matches the selection")
    items = []
    for func in funcs:
        records = store.load_function(args.data_dir, func, manifest)
        base = fz.pick_base(records)
        for k, (label, _) in enumerate(fz.mutations(diopi_header.load()[func], records[base])):
            items.append(runner.WorkItem(func, base, "contiguous", f"{records[base]['name']}::fuzz:{label}", args.timeout, mutation=k))
    rep = report.Report()
    runtime = _runtime_for(args, impl)
    with progress.Progress(len(items), label="fuzz") as bar:
        def on_result(item, result):
            rep.add(item, result)
            bar.update(result["verdict"])

        try:
            info = runner.run(items, impl, runtime, args.data_dir, args.jobs, on_result, _load_timeout(args),
                              max_crashes=args.max_crashes_per_function)
        except runner.WorkerFailed as e:
            raise LibraryUnusable(str(e), _load_verdict(str(e))) from None
    print(f"library: {info.get('vendor')} {info.get('version')} ({impl})")
    rep.print_summary(verbose=args.verbose, label="fuzz")
    rep.write(args.report_dir, args.impl_lib, None, {"library": info, "impl_lib": impl, "mode": "fuzz"})
    t = rep.totals()
    bad = sum(t[v] for v in execute.FAILING)
    print(f"fuzz: {len(items)} malformed calls over {len(funcs)} functions "
          f"({len(items) / len(funcs):.1f} per function), {bad} unsafe")
    return 1 if bad else 0


def coverage(args):
    from conformance import coverage as cov, execute, expand, store

    impl = args.impl_lib or os.path.join(paths.default_lib_dir("torch"), "libdiopi_impl.so")
    info = _probe(args, impl, _runtime_for(args, impl))
    try:
        manifest = store.read_manifest(args.data_dir)
    except store.BaselineError:
        manifest = None
    from conformance import collective_cases
    # Collectives are checked by --mode collective, whose cases are not Op configs.
    configured = {op.func for _, op in expand.load_ops()} | set(execute.LIBRARY_CHECKS) | collective_cases.checked_functions()
    summary = cov.load_summary(args.report_dir)
    if summary is not None and summary.get("impl_lib") != os.path.abspath(impl):
        summary = None  # the last report is of another library
    rows, total = cov.collect(info["exported"], manifest, summary, configured)
    print(f"library: {info['vendor']} {info['version']} ({impl})")
    cov.print_table(rows, total, sys.stdout)
    not_exported, no_cases = cov.missing(info["exported"], configured)
    if not_exported:
        print(f"\nnot implemented ({len(not_exported)}): {' '.join(not_exported)}")
    if no_cases:
        print(f"\nwithout cases ({len(no_cases)}): {' '.join(no_cases)}")
    path = os.path.join(args.report_dir, "coverage.csv")
    cov.write_csv(path, rows, total)
    print(f"report: {path}")
    return 0


def bench(args):
    from conformance import bench as bm, expand, runner, store

    base = args.baseline_lib or os.path.join(paths.default_lib_dir("torch"), "libdiopi_impl.so")
    if not args.impl_lib:
        raise UsageError("bench needs --impl_lib (the library timed against --baseline_lib)")
    runtime = args.runtime_lib or os.path.join(os.path.dirname(os.path.abspath(args.impl_lib)), "libdiopirt.so")
    manifest = store.read_manifest(args.data_dir)
    funcs = sorted(f for f in manifest["files"] if expand.matches(f, args.fname))
    if not funcs:
        raise UsageError(f"no baselines match --fname {' '.join(args.fname)} in {args.data_dir}")
    names = [_probe(args, p, runtime)["vendor"] for p in (base, args.impl_lib)]
    # Both libraries are timed side by side in one process, which is not this one.
    try:
        rows = runner.isolated(bm.run, (base, args.impl_lib, runtime, args.data_dir, funcs, args.bench_dtype, 0.2, 200, log.info),
                               timeout=60 + 30 * len(funcs), what="bench")
    except runner.WorkerFailed as e:
        raise LibraryUnusable(str(e), _load_verdict(str(e))) from None
    print(f"bench: {names[1]} ({args.impl_lib}) against {names[0]} ({base}), {args.bench_dtype}, "
          f"largest contiguous case per function, best of {bm.ROUNDS} alternating rounds' medians")
    bm.print_table(rows, names[0], names[1], sys.stdout)
    return 0


def merge(args):
    from conformance import execute, merge as mg, report

    if not args.dirs:
        raise UsageError("--mode merge needs the shards' report directories: --mode merge DIR [DIR ...] [--report_dir OUT]")
    out = os.path.realpath(args.report_dir)
    for d in args.dirs:
        if os.path.realpath(d) == out:
            raise UsageError(f"--report_dir {args.report_dir} is one of the merged directories: write the merged report elsewhere")
    compare = _compare(args)
    meta, repro_args, rows, tolerance = mg.combine(args.dirs)
    meta = dict(report.run_identity(), **meta, status="complete")
    rep = report.Report()
    for item, result in rows:
        rep.add(item, result)
    rep.tolerance = tolerance
    lib = meta.get("library") or {}
    print(f"library: {lib.get('vendor')} {lib.get('version')} ({meta.get('impl_lib')})")
    if meta.get("device_config"):
        print(f"device config: {meta['device_config']}")
    print(f"merged: {len(args.dirs)} shards, {meta['shard']['selected']} selected cases")
    rep.print_summary(verbose=args.verbose)
    csv_path = rep.write(args.report_dir, repro_args.get("impl_lib"), repro_args.get("data_dir"), meta, compare=compare)
    print(f"report: {csv_path}")
    if meta.get("model_name"):
        from conformance import model_cases
        print(model_cases.pass_share(meta["model_name"], rep.rows))
    t = rep.totals()
    return 1 if any(t[v] for v in execute.FAILING) else 0


def collective(args):
    """The collective interface on N rank processes at once (conformance/collective.py); no baselines."""
    from conformance import collective as coll, execute, progress, report

    impl = args.impl_lib or os.path.join(paths.default_lib_dir("torch"), "libdiopi_impl.so")
    runtime = _runtime_for(args, impl)
    for path, what in ((impl, "operator library"), (runtime, "test runtime")):
        if not os.path.exists(path):
            raise UsageError(f"{what} not found at {path} (build it with scripts/build_impl.sh, or pass --impl_lib)")
    sizes = _world_sizes(args)
    selection = coll.select(sizes, args.fname, args.case, args.filter_dtype)
    total = sum(len(cases) for _, cases in selection)
    if not selection or (args.case and total == len(selection)):
        raise UsageError("no collective case matches the selection" + (f": {' '.join(args.case)}" if args.case else ""))
    meta = dict(report.run_identity(), mode="collective", impl_lib=os.path.abspath(impl), runtime_lib=os.path.abspath(runtime),
                world_sizes=sizes, repro_mode="collective", repro_options=_repro_options(args, runtime, None)[:2] +
                (["--timeout", f"{args.timeout:g}"] if args.timeout != DEFAULT_TIMEOUT else []))
    report_dir = report.claim_dir(args.report_dir, meta["run_id"])
    rep = report.Report()
    rep.start_live(report_dir, args.impl_lib, None, meta)
    with progress.Progress(total, label="collective") as bar:
        def on_result(item, result):
            rep.add(item, result)
            bar.update(result["verdict"])

        info = coll.run(impl, runtime, selection, args.timeout, _load_timeout(args), on_result)
    rep._live["meta"]["library"] = {k: info.get(k) for k in ("vendor", "version")}
    print(f"library: {info.get('vendor')} {info.get('version')} ({impl}); world sizes {', '.join(map(str, sizes))}")
    rep.print_summary(verbose=args.verbose, label="collective")
    path = rep.finish()
    print(f"report: {path}")
    t = rep.totals()
    return 1 if any(t[v] for v in execute.FAILING) else 0


def graph_replay(args):
    """Captured graphs against the library's graph compiler (conformance/graph_replay.py); no baselines."""
    from conformance import graph_replay as gr
    return gr.run(args)


def _world_sizes(args):
    """--world_size as a list; with --case and no --world_size, the sizes the case names carry."""
    if args.world_size is None and args.case:
        found = sorted({int(m.group(1)) for c in args.case for m in [re.search(r"::ws(\d+)::", c)] if m})
        if found:
            return found
    text = args.world_size or "2,4"
    try:
        sizes = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--world_size must be numbers separated by commas, got {text!r}") from None
    if not sizes or any(n < 2 or n > 16 for n in sizes):
        raise UsageError(f"--world_size takes numbers of ranks from 2 to 16, got {text!r}")
    return sizes


def _compare(args):
    """--compare_report's cases, read before anything runs."""
    if not args.compare_report:
        return None
    from conformance import html_report
    try:
        return html_report.load_cases(args.compare_report)
    except (OSError, ValueError) as e:
        raise UsageError(f"--compare_report: {e}") from None


class _Format(logging.Formatter):
    """Info lines as they are; other levels prefixed, as in `warning: ...`."""

    def format(self, record):
        text = super().format(record)
        return text if record.levelno == logging.INFO else f"{record.levelname.lower()}: {text}"


def _setup_logging(level):
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_Format("%(message)s"))
    log.handlers[:] = [handler]
    log.setLevel(level.upper())
    log.propagate = False


def _check_options(args):
    """Usage errors argparse cannot see, as one line each."""
    from conformance import shard

    if args.dirs and args.mode != "merge":
        raise UsageError(f"unexpected argument {args.dirs[0]!r}: only --mode merge takes report directories")
    if args.graphs is not None and args.mode != "graph_replay":
        raise UsageError(f"--graphs applies to --mode graph_replay, not --mode {args.mode}")
    if args.shard is not None and args.mode != "run_test":
        raise UsageError(f"--shard applies to --mode run_test, not --mode {args.mode}")
    args.shard_spec = shard.parse(args.shard) if args.shard is not None else (1, 1)


# Modes that read a baseline folder: they hold its shared lock while they run.
_READERS = ("run_test", "coverage", "fuzz", "bench")


def _check_names(args, expand):
    """--fname and --filter_dtype resolved to the harness's names (conv2d ->
    convolution2d, half -> float16) before any mode runs; an unknown one is a
    usage error with "did you mean"."""
    if not args.fname and not args.filter_dtype:
        return
    args.fname, args.filter_dtype, renamed = expand.check_selection(args.fname, args.filter_dtype)
    for written, taken in renamed:
        log.info("%s: taken as %s", written, taken)


def main(argv=None):
    args = parse_args(argv)
    _setup_logging(args.log_level)
    from conformance import binding, expand, lock, store
    known = (UsageError, binding.LoadError, ValueError, OSError)
    try:
        _check_options(args)
        _check_names(args, expand)
        if args.get_model_list:
            from conformance import model_cases
            for name in model_cases.names():
                print(model_cases.summary_line(name))
            return 0
        if args.mode == "capture":
            from conformance import model_cases
            if not args.model_name:
                raise UsageError("--mode capture needs --model NAME")
            return model_cases.run_capture(args.model_name)
        if args.model_name:
            from conformance import model_cases
            model_cases.load(args.model_name)  # an unknown name stops here, with "did you mean"
            if args.data_dir == paths.DEFAULT_DATA_DIR:  # a model's baselines live apart from the generic ones
                args.data_dir = os.path.join(paths.DEFAULT_DATA_DIR, "models", args.model_name)
            if args.timeout == DEFAULT_TIMEOUT:  # real-size GEMMs in half precision take seconds on a CPU
                args.timeout = MODEL_TIMEOUT
        modes = {"gen_data": gen_data, "run_test": run_test, "merge": merge, "coverage": coverage, "fuzz": fuzz, "bench": bench,
                 "collective": collective, "graph_replay": graph_replay}
        if args.mode in _READERS:
            with lock.reading(args.data_dir):
                return modes[args.mode](args)
        return modes[args.mode](args)
    except BrokenPipeError:  # output piped into `head`: the reader has what it wanted
        sys.stdout = None
        return 0
    except LibraryUnusable as e:
        print(f"error: {e}", file=sys.stderr)
        if args.mode in ("run_test", "fuzz") and not e.reported:
            _report_unusable(args, e)
        return 1
    except store.BaselineError as e:  # the data, not the library or the command line
        print(f"error: {_one_line(e)}", file=sys.stderr)
        return EXIT_DATA
    except known as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130


def _one_line(e):
    text = " ".join(str(e).split())
    return text or type(e).__name__


if __name__ == "__main__":
    sys.exit(main())

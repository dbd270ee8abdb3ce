"""impl/sim catches what it exists to catch: a host read of device memory, a
missing synchronization, a launch that fails after its call returned, and
finite memory. Each scenario runs in a fresh process (the knobs are read at
load time, and one of them ends in abort()). Every check here would fail on
a simulator whose memory the host can read or whose work is synchronous."""
import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from conformance import paths

SIM_LIB = os.path.join(paths.default_lib_dir("sim"), "libdiopi_impl.so")
HARNESS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# A small consumer of the sim through the test runtime: tensors, diopiAdd, reads.
PRELUDE = textwrap.dedent("""
    import json, sys
    import numpy as np
    from conformance.binding import Library
    lib = Library(sys.argv[1])
    ffi, rt = lib.ffi, lib.rt
    add = lib.function("diopiAdd")
    N = 4096

    def tensor(values=None):
        shape = ffi.new("int64_t[]", [N])
        t = rt.dt_tensor_create(shape, ffi.NULL, 1, 9, 0, -1, 1)  # float32, device memory
        assert t != ffi.NULL, lib.string(rt.dt_last_error())
        if values is not None:
            arr = np.ascontiguousarray(values, dtype=np.float32)
            assert rt.dt_tensor_write_storage(t, ffi.from_buffer(arr), arr.nbytes) == 0
        return t

    def read(t):
        buf = np.zeros(N, dtype=np.float32)
        rc = rt.dt_tensor_read_storage(t, ffi.from_buffer(buf), buf.nbytes)
        return rc, buf

    alpha = ffi.new("diopiScalar_t*")
    alpha.stype = 10  # float64
    alpha.fval = 1.0
    a_values = np.arange(N, dtype=np.float32)
    a, b = tensor(a_values), tensor(np.ones(N, dtype=np.float32))
    expected = a_values + 1
""")


def run_sim(body, env=None, timeout=120):
    if not os.path.exists(SIM_LIB):
        pytest.skip("needs impl/sim: run `bash scripts/build_impl.sh sim` first")
    full_env = {k: v for k, v in os.environ.items() if not k.startswith("DIOPI_SIM_")}
    full_env.update(env or {})
    full_env["PYTHONPATH"] = HARNESS + os.pathsep + full_env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(body), SIM_LIB], capture_output=True, text=True,
                          env=full_env, timeout=timeout)


def result_of(proc):
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_add_through_the_device_runtime():
    out = result_of(run_sim("""
        o = tensor()
        ctx = rt.dt_context_create()
        rc = add(ctx, o, a, b, alpha)
        synced = rt.dt_context_sync(ctx)
        got = read(o)[1]
        print(json.dumps({"rc": rc, "synced": synced, "ok": bool(np.array_equal(got, expected)),
                          "runtime": lib.string(rt.dt_device_runtime_name()), "vendor": lib.info()["vendor"]}))
    """))
    assert out == {"rc": 0, "synced": 0, "ok": True, "runtime": "diopi sim (simulated chip)", "vendor": "sim"}


def test_host_read_of_device_memory_is_reported():
    proc = run_sim("""
        import ctypes
        ptr = ffi.new("void**")
        assert rt.diopiGetTensorData(a, ptr) == 0
        address = int(ffi.cast("uintptr_t", ptr[0]))
        print(f"address {address:#018x}", flush=True)
        data = ctypes.string_at(address, 4)  # a host read of device memory
        print("read", data.hex(), flush=True)
    """)
    address = proc.stdout.split("address ")[1].split()[0]
    assert proc.returncode == -signal.SIGABRT, (proc.returncode, proc.stdout, proc.stderr[-2000:])
    assert "read" not in proc.stdout.split("address")[1]
    assert f"host access to device memory at {address}" in proc.stderr, proc.stderr[-2000:]
    assert "(device 0" in proc.stderr


# A consumer that reads the output on the harness's own stream without
# synchronizing the operator's stream first: a race a synchronous or
# in-order device always wins. `sync` plants the missing synchronization back.
MISSING_SYNC = """
    wrong = 0
    for attempt in range(40):
        o = tensor()
        ctx = rt.dt_context_create()
        assert add(ctx, o, a, b, alpha) == 0
        if {sync}:
            assert rt.dt_context_sync(ctx) == 0
        rc, got = read(o)
        assert rc == 0
        wrong += not np.array_equal(got, expected)
        rt.dt_context_destroy(ctx)
        rt.dt_tensor_destroy(o)
    print(json.dumps({{"wrong": wrong}}))
"""


def test_missing_synchronization_fails_under_jitter():
    out = result_of(run_sim(MISSING_SYNC.format(sync=False), env={"DIOPI_SIM_JITTER": "1"}))
    assert out["wrong"] > 0, "a read without synchronizing the operator's stream was never stale under jitter"


def test_the_synchronized_consumer_passes_under_jitter():
    out = result_of(run_sim(MISSING_SYNC.format(sync=True), env={"DIOPI_SIM_JITTER": "1"}))
    assert out == {"wrong": 0}


def test_launch_failure_surfaces_at_synchronization_and_the_device_recovers():
    out = result_of(run_sim("""
        ctx = rt.dt_context_create()
        report = []
        for i in range(3):
            o = tensor()
            rc = add(ctx, o, a, b, alpha)
            synced = rt.dt_context_sync(ctx)
            report.append({"rc": rc, "synced": synced, "message": lib.last_error() if synced else "",
                           "ok": bool(np.array_equal(read(o)[1], expected))})
        print(json.dumps(report))
    """, env={"DIOPI_SIM_FAIL": "launch:2"}))
    first, failed, after = out
    assert first == {"rc": 0, "synced": 0, "message": "", "ok": True}
    # The call itself succeeded (the work was queued); its failure comes with the synchronization.
    assert failed["rc"] == 0 and failed["synced"] != 0 and not failed["ok"]
    assert "diopiAdd" in failed["message"] and "DIOPI_SIM_FAIL=launch:2" in failed["message"]
    assert after == {"rc": 0, "synced": 0, "message": "", "ok": True}


def test_memory_capacity_makes_an_allocation_fail_cleanly():
    out = result_of(run_sim("""
        big = rt.dt_tensor_create(ffi.new("int64_t[]", [1 << 20]), ffi.NULL, 1, 9, 0, -1, 1)  # 4 MiB
        message = lib.string(rt.dt_last_error())
        small = tensor(np.full(N, 2, dtype=np.float32))
        print(json.dumps({"big": big == ffi.NULL, "message": message, "small": bool(np.all(read(small)[1] == 2))}))
    """, env={"DIOPI_SIM_MEMORY": str(1 << 20)}))
    assert out["big"] and out["small"]
    assert "out of device memory" in out["message"] and str(1 << 20) in out["message"]


def test_allocation_failure_knob():
    out = result_of(run_sim("""
        first = rt.dt_tensor_create(ffi.new("int64_t[]", [4]), ffi.NULL, 1, 9, 0, -1, 1)
        message = lib.string(rt.dt_last_error())
        second = rt.dt_tensor_create(ffi.new("int64_t[]", [4]), ffi.NULL, 1, 9, 0, -1, 1)
        print(json.dumps({"first": first == ffi.NULL, "second": second == ffi.NULL, "message": message}))
    """, env={"DIOPI_SIM_FAIL": "alloc:3"}))  # a and b took the first two
    assert out["first"] and not out["second"]
    assert "DIOPI_SIM_FAIL=alloc:3" in out["message"]


def test_kernel_time_shows_in_event_timing():
    out = result_of(run_sim("""
        table = lib.function("diopiGetDeviceRuntime")()
        ev = ffi.new("diopiEventHandle_t[2]")
        for i in range(2):
            assert table.event_create(0, 1, ev + i) == 0
        ctx = rt.dt_context_create()
        stream = ffi.new("diopiStreamHandle_t*")
        assert rt.diopiGetStream(ctx, stream) == 0
        o = tensor()
        assert table.event_record(ev[0], stream[0]) == 0
        for _ in range(5):
            assert add(ctx, o, a, b, alpha) == 0
        assert table.event_record(ev[1], stream[0]) == 0
        queued = ffi.new("bool*")
        assert table.event_query(ev[1], queued) == 0
        assert table.event_synchronize(ev[1]) == 0
        ms = ffi.new("float*")
        assert table.event_elapsed_time(ev[0], ev[1], ms) == 0
        print(json.dumps({"ms": ms[0], "done_at_return": bool(queued[0])}))
    """, env={"DIOPI_SIM_KERNEL_US": "20000"}))
    # Five kernels of at least 20 ms of device time each; the host returned long before they ran.
    assert out["ms"] >= 100.0
    assert out["done_at_return"] is False


def test_a_kernel_given_another_devices_memory_fails():
    out = result_of(run_sim("""
        assert rt.dt_set_device(1) == 0
        other = tensor(np.ones(N, dtype=np.float32))  # in device 1's memory
        assert rt.dt_set_device(0) == 0
        o = tensor()
        ctx = rt.dt_context_create()
        rc = add(ctx, o, a, other, alpha)
        message = lib.last_error()
        synced = rt.dt_context_sync(ctx)
        print(json.dumps({"rc": rc, "message": message, "synced": synced, "devices": rt.dt_set_device(2) != 0}))
    """, env={"DIOPI_SIM_DEVICES": "2"}))
    # Refused when called (an argument error), not later.
    assert out["rc"] != 0 and out["synced"] == 0 and out["devices"]
    assert "other" in out["message"] and "device 1" in out["message"] and "device 0" in out["message"]


def test_an_argument_error_fails_the_call_that_made_it():
    out = result_of(run_sim("""
        half = rt.dt_tensor_create(ffi.new("int64_t[]", [N // 2]), ffi.NULL, 1, 9, 0, -1, 1)
        ctx = rt.dt_context_create()
        report = []
        for i in range(2):  # the same bad call twice: never queued to fail later
            rc = add(ctx, half, a, b, alpha)
            report.append({"rc": rc, "message": lib.last_error() if rc else "", "synced": rt.dt_context_sync(ctx)})
        o = tensor()
        rc = add(ctx, o, a, b, alpha)
        report.append({"rc": rc, "synced": rt.dt_context_sync(ctx), "ok": bool(np.array_equal(read(o)[1], expected))})
        print(json.dumps(report))
    """, env={"DIOPI_SIM_JITTER": "1"}))
    for bad in out[:2]:
        assert bad["rc"] != 0 and bad["synced"] == 0, bad
        assert "diopiAdd" in bad["message"], bad
    assert out[2] == {"rc": 0, "synced": 0, "ok": True}


def test_free_waits_for_the_queued_work_that_uses_the_block():
    # x is freed while slow kernels that read it are still queued; a free that
    # released the block at once would hand its pages back (zeros) under them.
    out = result_of(run_sim("""
        ctx = rt.dt_context_create()
        x = tensor(a_values)
        o = tensor()
        assert add(ctx, o, x, b, alpha) == 0  # the first call of a signature is tried on stand-ins, then queued
        assert rt.dt_context_sync(ctx) == 0
        for _ in range(4):
            assert add(ctx, o, x, b, alpha) == 0
        stream = ffi.new("diopiStreamHandle_t*")
        assert rt.diopiGetStream(ctx, stream) == 0
        table = lib.function("diopiGetDeviceRuntime")()
        busy = ffi.new("bool*")
        assert table.stream_query(stream[0], busy) == 0
        rt.dt_tensor_destroy(x)
        synced = rt.dt_context_sync(ctx)
        print(json.dumps({"queued_at_free": not busy[0], "synced": synced, "ok": bool(np.array_equal(read(o)[1], expected))}))
    """, env={"DIOPI_SIM_KERNEL_US": "20000"}))
    assert out == {"queued_at_free": True, "synced": 0, "ok": True}

"""cffi binding (ABI mode) built from the parsed headers.

The test runtime is loaded with RTLD_GLOBAL first, so that the operator
library resolves diopiGetTensorData & co. against it; then the library.
A function the library does not export is reported, not called.
"""
import functools
import os

import cffi
import diopi_header

from . import paths


@functools.lru_cache(maxsize=None)
def ffi():
    f = cffi.FFI()
    f.cdef(diopi_header.cdef_source(extra_headers=[paths.TESTRT_HEADER]))
    # device.h declares only the entry point's type: a vendor with a device runtime exports it.
    f.cdef("const diopiDeviceRuntime_t* diopiGetDeviceRuntime(void);")
    # graph.h likewise: a vendor with a graph compiler exports its entry point.
    f.cdef("const diopiGraphCompiler_t* diopiGetGraphCompiler(void);")
    # Not part of the standard: libraries built with the adaptor (adaptor/) export
    # it to tell which conversions their last call made.
    f.cdef("const char* diopiAdaptorLastConversions(void);")
    return f


class LoadError(Exception):
    pass


class Library:
    """The test runtime plus one operator library."""

    def __init__(self, impl_path, runtime_path=None):
        self.ffi = ffi()
        impl_path = os.path.abspath(impl_path)
        runtime_path = os.path.abspath(runtime_path or os.path.join(os.path.dirname(impl_path), "libdiopirt.so"))
        for p, what in ((runtime_path, "test runtime"), (impl_path, "operator library")):
            if not os.path.exists(p):
                raise LoadError(f"{what} not found at {p} (build it with scripts/build_impl.sh, or pass --impl_lib)")
        try:
            self.rt = self.ffi.dlopen(runtime_path, self.ffi.RTLD_NOW | self.ffi.RTLD_GLOBAL)
            self.impl = self.ffi.dlopen(impl_path, self.ffi.RTLD_NOW | self.ffi.RTLD_LOCAL)
        except OSError as e:
            raise LoadError(f"cannot load {impl_path}: {e}") from None
        self.impl_path = impl_path
        self.runtime_path = runtime_path
        self._funcs = {}
        # The vendor's device runtime (diopi/device.h) when it has one, else host memory.
        get_runtime, last_error = self.function("diopiGetDeviceRuntime"), self.function("diopiGetLastErrorString")
        table = get_runtime() if get_runtime is not None else self.ffi.NULL
        if self.rt.dt_init_device(table, last_error if last_error is not None else self.ffi.NULL) != 0:
            raise LoadError("test runtime device init failed: " + self.string(self.rt.dt_last_error()))

    def string(self, cstr):
        return self.ffi.string(cstr).decode(errors="replace") if cstr != self.ffi.NULL else ""

    def function(self, name):
        """The C function, or None when the library does not export it."""
        if name not in self._funcs:
            try:
                self._funcs[name] = getattr(self.impl, name)
            except (AttributeError, NotImplementedError):
                self._funcs[name] = None
        return self._funcs[name]

    def last_error(self):
        fn = self.function("diopiGetLastErrorString")
        return self.string(fn()) if fn else ""

    def conversions(self):
        """What the adaptor converted in the last call ("" if nothing), or
        None for a library not built with the adaptor."""
        fn = self.function("diopiAdaptorLastConversions")
        return self.string(fn()) if fn else None

    def info(self):
        out = {}
        for key, fname in (("vendor", "diopiGetVendorName"), ("version", "diopiGetImplVersion")):
            fn = self.function(fname)
            out[key] = self.string(fn()) if fn else "?"
        return out

    def exported(self):
        """Names of declared functions the library exports."""
        return sorted(n for n in diopi_header.load() if self.function(n) is not None)

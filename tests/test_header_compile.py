"""The headers compile alone as C11 and as C++ without warnings, and they
stay readable by cffi (no function-like macros in declarations)."""
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(ROOT, "proto", "include")
TESTRT_INCLUDE = os.path.join(ROOT, "diopi_test", "csrc", "include")
SOURCE = "#include <diopi/diopirt.h>\n#include <diopi/functions.h>\n#include <diopi/functions_ext.h>\n#include <diopi/collective.h>\n" \
         "#include <diopi/device.h>\n#include <diopi/graph.h>\n" \
         "#include <diopi_test/testrt.h>\nint main(void) { return diopi_dtype_float32 == 9 ? 0 : 1; }\n"


@pytest.mark.parametrize("compiler,std,lang", [("cc", "-std=c11", "c"), ("c++", "-std=c++17", "c++"), ("c++", "-std=c++20", "c++")])
def test_headers_compile(tmp_path, compiler, std, lang):
    if shutil.which(compiler) is None:
        pytest.skip(f"no {compiler} on PATH")
    src = tmp_path / f"t.{'c' if lang == 'c' else 'cpp'}"
    src.write_text(SOURCE)
    cmd = [compiler, std, "-Wall", "-Wextra", "-Werror", "-pedantic", "-I", INCLUDE, "-I", TESTRT_INCLUDE, "-c", str(src), "-o", str(tmp_path / "t.o")]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


def test_cffi_reads_the_headers():
    import diopi_header
    from conformance import binding
    ffi = binding.ffi()
    assert ffi.sizeof("diopiScalar_t") == 16
    assert ffi.offsetof("diopiScalar_t", "fval") == 8
    assert ffi.sizeof("diopiSize_t") == 16
    # every type of the header model is one cffi knows from the same headers
    funcs = diopi_header.load()
    assert funcs
    for fn in funcs.values():
        fptr = ffi.typeof(f"{fn.returns}(*)({', '.join(p.ctype for p in fn.params) or 'void'})")
        assert len(fptr.args) == len(fn.params), fn.name


def test_the_model_lists_the_v1_functions():
    """No exact count: new functions are welcome, the DIOPI 1.0 ones must stay."""
    import json
    import diopi_header
    with open(diopi_header.V1_INTERFACE) as f:
        facts = json.load(f)
    v1 = {f["name"] for f in facts["functions"] if f["header"] in ("functions.h", "functions_ext.h")}
    assert v1 <= set(diopi_header.load())

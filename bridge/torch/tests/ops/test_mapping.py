"""The ATen->DIOPI mapping: every entry checks out, and a bad entry stops
with file:line and a hint."""
import os
import textwrap

import pytest

torch = pytest.importorskip("torch")

from diopi_torch.ops import mapping, schemas  # noqa: E402


def load_text(tmp_path, text):
    path = tmp_path / "m.yaml"
    path.write_text(textwrap.dedent(text))
    return mapping.load(str(path), schema_of=schemas.schema_of)


def test_the_mapping_file_checks_out():
    m = mapping.load(schema_of=schemas.schema_of)
    assert m.entries and all(e.diopi.startswith("diopi") for e in m.entries)
    # every DIOPI parameter except the context is mapped, explicitly or implicitly
    fns = mapping.header_functions()
    for e in m.entries:
        params = [p.name for p in fns[e.diopi].params if p.kind != "context"]
        assert [p for p, _, _ in e.args] == params


@pytest.mark.parametrize("text, message", [
    ("- aten: add.Tensor\n  diopi: diopiAddd\n", "m.yaml:2: diopiAddd is not declared in the header; did you mean diopiAdd?"),
    ("- aten: add.Tensr\n  diopi: diopiAdd\n", "m.yaml:1: ATen has no operator overload 'add.Tensr'"),
    ("- aten: mm\n  diopi: diopiAdd\n", "m.yaml:1: diopiAdd parameter 'other'"),
    ("- aten: add.Tensor\n  diopi: diopiAdd\n  args: {alpha: alpah}\n", "m.yaml:3: alpha of diopiAdd reads 'alpah'"),
    ("- aten: add.Tensor\n  diopi: diopiAdd\n  when: \"__import__('os')\"\n", "m.yaml:3: unknown function __import__()"),
    ("- aten: add.Tensor\n  diopi: diopiAdd\n  colour: red\n", "m.yaml:3: unknown key 'colour'"),
])
def test_bad_entries_name_file_and_line(tmp_path, text, message):
    with pytest.raises(mapping.MappingError) as e:
        load_text(tmp_path, text)
    assert os.path.basename(str(e.value).split(":")[0]) == "m.yaml"
    assert message.split(":", 1)[1] in str(e.value), str(e.value)


def test_select_and_bind_follow_when(tmp_path):
    m = load_text(tmp_path, """
        - aten: convolution
          diopi: diopiConvolution2d
          when: "not transposed and input.dim() == 4"
        - aten: convolution
          diopi: diopiConvolution3d
          when: "not transposed and input.dim() == 5"
    """)
    x4 = torch.empty(1, 2, 3, 3, device="meta")
    x5 = torch.empty(1, 2, 3, 3, 3, device="meta")
    env = dict(input=x4, weight=None, bias=None, stride=[1, 1], padding=[0, 0], dilation=[1, 1], transposed=False,
               output_padding=[0, 0], groups=1, result="R")
    assert m.select("convolution", env).diopi == "diopiConvolution2d"
    assert m.select("convolution", dict(env, input=x5)).diopi == "diopiConvolution3d"
    assert m.select("convolution", dict(env, transposed=True)) is None
    bound = m.select("convolution", env).bind(env)
    assert bound["out"] == "R" and bound["stride"] == [1, 1]


def test_a_python_number_selects_the_scalar_function():
    # Python sees the wrapped number itself (capture, FX graphs); the device tests ATen's wrapped-number flag.
    m = mapping.load(schema_of=schemas.schema_of)
    x = torch.empty(2, 3, device="meta")
    env = dict(self=x, other=0.5, result="R")
    assert m.select("mul.Tensor", env).diopi == "diopiMulScalar"
    assert m.select("mul.Tensor", env).bind(env)["other"] == 0.5
    assert m.select("mul.Tensor", dict(env, other=2)).diopi == "diopiMulScalar"
    assert m.select("mul.Tensor", dict(env, other=torch.empty((), device="meta"))).diopi == "diopiMul"
    assert m.select("mul.Tensor", dict(env, other=1j)).diopi == "diopiMul"
    assert m.select("mul.Tensor", dict(env, self=torch.empty(2, dtype=torch.int64, device="meta"))).diopi == "diopiMul"
    assert m.select("add.Tensor", dict(env, alpha=1)).diopi == "diopiAddScalar"
    assert mapping.evaluate("is_number(other)", {"other": True}) and not mapping.evaluate("is_number(other)", {"other": x})

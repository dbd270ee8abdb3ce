"""The harness's enum and dtype tables are read from the header model, and
spell what the case configs have always written."""
import diopi_header

from conformance import dtypes, enums, execute


def test_config_spellings_of_the_header_enums():
    assert enums.config_values("enum_round") == {None: 0, "none": 0, "trunc": 1, "floor": 2}
    assert enums.config_values("enum_reduction") == {None: 0, "none": 0, "mean": 1, "sum": 2}
    assert enums.config_values("enum_memory_format") == \
        {"contiguous": 0, "channels_last": 1, "channels_last_3d": 2, "preserve": 3, "channels_last_1d": 4}
    assert enums.config_names("enum_reduction") == {0: "none", 1: "mean", 2: "sum"}


def test_every_enum_kind_of_the_header_has_a_spelling():
    kinds = {p.kind for fn in diopi_header.load().values() for p in fn.params if p.kind.startswith("enum_")}
    assert kinds - {"enum_dtype"} <= set(enums.KIND_ENUMS)


def test_dtype_values_come_from_diopirt():
    header = diopi_header.dtypes()
    for name in dtypes.NAMES:
        assert dtypes.enum_value(name) == header[name]
        assert dtypes.from_enum(header[name]) == name
    assert dtypes.storage("bfloat16").itemsize == 2


def test_scalar_stype_and_error_codes():
    assert execute.scalar_stype(1.5) == diopi_header.dtypes()["float64"]
    assert execute.scalar_stype(True) == diopi_header.dtypes()["bool"]
    assert execute.scalar_stype(3) == diopi_header.dtypes()["int64"]
    assert enums.error_code("diopiNoImplement") == diopi_header.enum("diopiError_t").value_of("diopiNoImplement")

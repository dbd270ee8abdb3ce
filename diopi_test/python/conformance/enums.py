"""How case configs spell the standard's enum arguments, with the values
read from diopirt.h (diopi_header), never copied.

A config writes an enumerator in snake case without the enum's common
prefix: "trunc" for RoundModeTrunc, "mean" for ReductionMean,
"channels_last_3d" for ChannelsLast3d. Sentinels ("...END", documented as
not a valid argument) are not spellable. A reduction or rounding mode given
as None means its "none" enumerator. Needs neither numpy nor torch.
"""
import functools
import re

import diopi_header

# parameter kind (diopi_header.KINDS) -> (enum typedef, prefix of its enumerators)
KIND_ENUMS = {
    "enum_round": ("diopiRoundMode_t", "RoundMode"),
    "enum_reduction": ("diopiReduction_t", "Reduction"),
    "enum_memory_format": ("diopiMemoryFormat_t", ""),
    "enum_reduce_op": ("diopiReduceOp_t", "diopiReduce"),  # collective.h: "sum", "prod", "min", "max", "avg"
}


def spelling(enumerator, prefix=""):
    """RoundModeTrunc -> trunc, ChannelsLast3d -> channels_last_3d."""
    base = enumerator[len(prefix):] if prefix and enumerator.startswith(prefix) else enumerator
    return re.sub(r"(?<=[a-z])(?=[A-Z0-9])|(?<=[0-9])(?=[A-Z])", "_", base).lower()


@functools.lru_cache(maxsize=None)
def config_values(kind):
    """{spelling: value} a config may use for a parameter of this kind."""
    typedef, prefix = KIND_ENUMS[kind]
    out = {}
    for e in diopi_header.enum(typedef).enumerators:
        if e.name.endswith("END"):
            continue
        out[spelling(e.name, prefix)] = e.value
    if "none" in out:
        out[None] = out["none"]
    return out


@functools.lru_cache(maxsize=None)
def config_names(kind):
    """{value: spelling}: the inverse of config_values (None excluded)."""
    return {v: k for k, v in config_values(kind).items() if k is not None}


def is_enum_kind(kind):
    return kind in KIND_ENUMS


@functools.lru_cache(maxsize=None)
def error_code(name):
    """A diopiError_t value by enumerator name ("diopiNoImplement")."""
    return diopi_header.error_codes()[name]

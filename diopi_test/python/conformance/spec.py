"""The vocabulary of case configs.

A config module (one per operator family under `configs/`) defines `Op`
objects at module level. Keys are the C parameter names of the function,
exactly as the header spells them; values are tensors to generate (`T`,
`TList`) or plain Python values (numbers, tuples for diopiSize_t, strings
for enums such as rounding_mode="floor" or reduction="mean", None for NULL).

Cases are the product dtypes x shapes x params, or dtypes x `cases` when
shapes and parameters must go together (dims valid for a shape's rank).
Names in `extra` reach `ref` and `prepare` but not the C call (keepdim,
or the forward input a backward case derives its saved tensors from).

Random operators give `checks` instead of relying on values: a function of
the case arguments returning property checks (conformance/random_checks.py);
`ref` then only fixes the shape and dtype of each output. `ref` receives every
argument by name (tensors as torch tensors) and returns the expected
value of each output parameter in header order (None for an output the
case passes as NULL).
"""
import dataclasses
import itertools
from typing import Any, Callable, Optional

from .gen import randn

FLOAT = ("float16", "bfloat16", "float32", "float64")
FLOAT_NO_BF16 = ("float16", "float32", "float64")
SIGNED = ("int8", "int16", "int32", "int64")
INT = ("int8", "uint8", "int16", "int32", "int64")
NUMERIC = FLOAT + INT
ALL = NUMERIC + ("bool",)

# Every case replays in each layout that applies to it: channels_last only
# when some tensor argument is 4-D or 5-D.
LAYOUTS = ("contiguous", "noncontig", "channels_last")
# Model case sets replay each tensor with the strides the model produced.
CAPTURED = "captured"

# Cases whose tensors hold more elements than this run in one dtype only
# (Op.large_dtypes): large shapes test blocking and threading, not dtypes,
# and they dominate baseline size.
LARGE_ELEMENTS = 65536


@dataclasses.dataclass(frozen=True)
class T:
    """A generated tensor argument. `dtype` fixes its dtype (else the case's)."""
    gen: Any = randn()
    dtype: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class TList:
    """A generated list of tensors (diopiConstTensorHandle_t* arguments); its
    shape entry is a list of shapes, one per tensor."""
    gen: Any = randn()
    dtype: Optional[str] = None


@dataclasses.dataclass(frozen=True)
class Op:
    func: str                          # C function name
    ref: Callable                      # torch reference
    tensors: dict                      # C param -> T / TList
    shapes: tuple = ()                 # per case: tuple of shapes in `tensors` order
    dtypes: tuple = FLOAT
    params: tuple = ({},)              # per case: dict of non-tensor C params
    cases: tuple = ()                  # explicit (shapes, params) pairs, instead of shapes x params
    extra: tuple = ()                  # names given to ref/prepare but not to the C function
    large_dtypes: tuple = ("float32",)  # dtypes of the cases above LARGE_ELEMENTS (else the first dtype)
    checks: Optional[Callable] = None  # random ops: fn(**args) -> property checks (see random_checks.py)
    accumulation: Optional[Callable] = None  # fn(**args) -> terms summed per output element (scales tolerances)
    prepare: Optional[Callable] = None  # torch: derive more arguments from the generated ones
    # dtype -> (atol, rtol), or (atol, rtol, wrong): the relative error the bound is proven to reject when a
    # correct library cannot meet tolerances.WRONG (conformance/tolerances.py); tol_reason says why
    tol: dict = dataclasses.field(default_factory=dict)
    tol_reason: str = ""
    layouts: tuple = LAYOUTS
    layout_reason: str = ""            # why a layout was left out
    name: Optional[str] = None         # case-name stem; default: snake case of func
    strides: dict = dataclasses.field(default_factory=dict)  # "captured" layout: param -> element strides
    weight: int = 1                    # how many calls a case stands for (model case sets)
    sample_outputs: bool = False       # store large outputs as a sample + block sums (conformance/sampled.py)

    def __post_init__(self):
        # Generators would be consumed by the first pass over them.
        for field in ("shapes", "params", "cases", "dtypes", "layouts", "extra", "large_dtypes"):
            object.__setattr__(self, field, tuple(getattr(self, field)))
        if not self.shapes and not self.cases:
            raise ValueError(f"{self.func}: give shapes or cases")
        if self.tol and not self.tol_reason:
            raise ValueError(f"{self.func}: a tolerance override needs tol_reason")
        for dtype, v in self.tol.items():
            if len(v) not in (2, 3) or not all(isinstance(x, (int, float)) and x >= 0 for x in v):
                raise ValueError(f"{self.func}: tol[{dtype!r}] must be (atol, rtol) or (atol, rtol, wrong answer)")
        if tuple(self.layouts) != LAYOUTS and not self.layout_reason:
            raise ValueError(f"{self.func}: leaving out layouts needs layout_reason")


def grid(**axes):
    """All combinations of the given parameter values, as a tuple of dicts."""
    keys = list(axes)
    return tuple(dict(zip(keys, combo)) for combo in itertools.product(*(axes[k] for k in keys)))


def variants(op, **changes):
    """A copy of `op` with fields replaced (for Inp / Scalar siblings)."""
    return dataclasses.replace(op, **changes)

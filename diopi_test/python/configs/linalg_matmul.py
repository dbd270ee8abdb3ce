"""Matrix products and linear algebra: mm, bmm, addmm, baddbmm (+ in place), matmul (+ backward), linear
(+ backward), cdist (+ backward), vector norm, cholesky (+ backward), triangular solve (+ backward), QR.

The later references (addmm onwards) work in float64 and round once; their tolerances scale with the length of
each dot product (`accumulation`) instead of one fixed bound.
"""
import math

from conformance.gen import randn, special
from conformance.reftorch import torch, F
from conformance.spec import FLOAT, INT, Op, T

# GEMMs accumulate k products: half types get a looser bound.
_TOL = {"float16": (1e-2, 1e-2), "bfloat16": (5e-2, 2e-2), "float32": (1e-4, 1e-4)}
_TOL_REASON = "accumulation over k products; blocked GEMMs sum in a different order than the reference"

mm = Op("diopiMm", lambda input, mat2: torch.mm(input, mat2), tensors=dict(input=T(), mat2=T()),
        shapes=(((3, 4), (4, 5)), ((1, 7), (7, 1)), ((0, 3), (3, 2)), ((128, 256), (256, 64))),
        dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)
# Integer products are exact (they wrap modulo 2^bits like the reference); int8/uint8 overflow on purpose.
mm_int = Op("diopiMm", lambda input, mat2: torch.mm(input, mat2), tensors=dict(input=T(), mat2=T()),
            shapes=(((3, 4), (4, 5)), ((1, 7), (7, 1)), ((0, 3), (3, 2)), ((33, 70), (70, 17))), dtypes=INT, name="mm_int")
bmm = Op("diopiBmm", lambda input, mat2: torch.bmm(input, mat2), tensors=dict(input=T(), mat2=T()),
         shapes=(((2, 3, 4), (2, 4, 5)), ((1, 1, 7), (1, 7, 1)), ((8, 64, 32), (8, 32, 48))),
         dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)
linear = Op("diopiLinear", lambda input, weight, bias=None: F.linear(input, weight, bias),
            tensors=dict(input=T(), weight=T(), bias=T()),
            shapes=(((4, 8), (3, 8), (3,)), ((2, 5, 8), (6, 8), (6,)), ((64, 256), (128, 256), (128,))),
            dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)
linear_no_bias = Op("diopiLinear", lambda input, weight: F.linear(input, weight),
                    tensors=dict(input=T(), weight=T()), shapes=(((4, 8), (3, 8)), ((2, 5, 8), (6, 8))),
                    dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON, name="linear_no_bias")


def _linear_grads(grad_output, input, weight):
    x = input.detach().double().requires_grad_(True)
    w = weight.detach().double().requires_grad_(True)
    b = torch.zeros(weight.shape[0], dtype=torch.float64, requires_grad=True)
    y = F.linear(x, w, b)
    gi, gw, gb = torch.autograd.grad(y, (x, w, b), grad_output.double())
    return gi.to(input.dtype), gw.to(input.dtype), gb.to(input.dtype)


linear_backward = Op("diopiLinearBackward", _linear_grads, tensors=dict(grad_output=T(), input=T(), weight=T()),
                     shapes=(((4, 3), (4, 8), (3, 8)), ((2, 5, 6), (2, 5, 8), (6, 8)), ((64, 128), (64, 256), (128, 256))),
                     dtypes=FLOAT, tol=_TOL, tol_reason=_TOL_REASON)


# ================================================================ addmm, baddbmm
HALF_UP = ("float16", "float32", "float64")
F32_64 = ("float32", "float64")


def _rounded(fn):
    """fn on float64 copies of the tensor arguments, rounded to the first tensor's dtype."""
    def ref(**kw):
        like = next(v for v in kw.values() if isinstance(v, torch.Tensor))
        args = {k: (v.double() if isinstance(v, torch.Tensor) and v.is_floating_point() else v) for k, v in kw.items()}
        return fn(**args).to(like.dtype)
    return ref


# (input, mat1, mat2): input broadcasts to (n, p)
ADDMM_SHAPES = (((3, 5), (3, 4), (4, 5)), ((5,), (3, 4), (4, 5)), ((1, 5), (3, 4), (4, 5)), ((3, 1), (3, 4), (4, 5)), ((), (3, 4), (4, 5)),
                ((2, 3), (2, 0), (0, 3)), ((0, 3), (0, 4), (4, 3)), ((1, 1), (1, 7), (7, 1)), ((256, 256), (256, 1024), (1024, 256)))
ADDMM_SCALARS = ({"beta": 1, "alpha": 1}, {"beta": 0.5, "alpha": -2.0}, {"beta": 0.0, "alpha": 1.5}, {"beta": 2, "alpha": 0})


def _addmm(input, mat1, mat2, beta, alpha):
    prod = alpha * (mat1 @ mat2)
    # beta = 0 ignores input (NaN and inf in it do not propagate).
    return prod + (beta * input if beta != 0 else torch.zeros_like(input))


addmm = Op("diopiAddmm", _rounded(_addmm), tensors=dict(input=T(), mat1=T(), mat2=T()),
           cases=tuple((s, p) for s in ADDMM_SHAPES for p in (ADDMM_SCALARS if s[1][0] != 256 else ADDMM_SCALARS[1:2])),
           dtypes=HALF_UP + ("bfloat16",), accumulation=lambda mat1: mat1.shape[1])
addmm_nan = Op("diopiAddmm", _rounded(_addmm), tensors=dict(input=T(special(0.5)), mat1=T(), mat2=T()),
               cases=tuple((s, {"beta": 0.0, "alpha": 1.0}) for s in ADDMM_SHAPES[:3]), dtypes=HALF_UP, name="addmm_beta0_nan",
               accumulation=lambda mat1: mat1.shape[1])

BADDBMM_SHAPES = (((2, 3, 5), (2, 3, 4), (2, 4, 5)), ((5,), (2, 3, 4), (2, 4, 5)), ((1, 3, 1), (2, 3, 4), (2, 4, 5)), ((3, 5), (2, 3, 4), (2, 4, 5)),
                  ((1, 1, 1), (1, 1, 7), (1, 7, 1)), ((0, 3, 2), (0, 3, 4), (0, 4, 2)), ((2, 3, 2), (2, 3, 0), (2, 0, 2)),
                  ((8, 128, 64), (8, 128, 256), (8, 256, 64)))
BADDBMM_SCALARS = ({"beta": 1.0, "alpha": 1.0}, {"beta": 0.5, "alpha": -2.0}, {"beta": 0.0, "alpha": 1.5}, {"beta": 2.0, "alpha": 0.0})


def _baddbmm(input, batch1, batch2, beta, alpha):
    prod = alpha * (batch1 @ batch2)
    return prod + (beta * input if beta != 0 else torch.zeros_like(input))


baddbmm = Op("diopiBaddbmm", _rounded(_baddbmm), tensors=dict(input=T(), batch1=T(), batch2=T()),
             cases=tuple((s, p) for s in BADDBMM_SHAPES for p in (BADDBMM_SCALARS if s[1][0] != 8 else BADDBMM_SCALARS[1:2])),
             dtypes=HALF_UP, accumulation=lambda batch1: batch1.shape[2])
baddbmm_nan = Op("diopiBaddbmm", _rounded(_baddbmm), tensors=dict(input=T(special(0.5)), batch1=T(), batch2=T()),
                 cases=tuple((s, {"beta": 0.0, "alpha": 1.0}) for s in BADDBMM_SHAPES[:2]), dtypes=HALF_UP, name="baddbmm_beta0_nan",
                 accumulation=lambda batch1: batch1.shape[2])
# In place: input has the product's shape.
baddbmm_inp = Op("diopiBaddbmmInp", _rounded(_baddbmm), tensors=dict(input=T(), batch1=T(), batch2=T()),
                 cases=tuple((s, p) for s in BADDBMM_SHAPES if len(s[0]) == 3 and s[0] == (s[1][0], s[1][1], s[2][2])
                             for p in BADDBMM_SCALARS),
                 dtypes=HALF_UP, accumulation=lambda batch1: batch1.shape[2])

# ================================================================ matmul and its backward
# (input, other): every rank combination of torch.matmul, with broadcast batch dims
MATMUL_SHAPES = (((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
                 ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((4,), (2, 4, 5)), ((2, 3, 4), (4,)), ((0, 4), (4, 3)),
                 ((3, 0), (0, 2)), ((1024, 1024), (1024, 64)))


def _k(input):
    return input.shape[-1]


matmul = Op("diopiMatmul", _rounded(lambda input, other: torch.matmul(input, other)), tensors=dict(input=T(), other=T()),
            shapes=MATMUL_SHAPES, dtypes=F32_64, accumulation=_k)


def _matmul_out_shape(a, b):
    if len(a) == 1 and len(b) == 1:
        return ()
    if len(b) == 1:
        return tuple(a[:-1])
    if len(a) == 1:
        return tuple(b[:-2]) + (b[-1],)
    batch_a, batch_b = a[:-2], b[:-2]
    n = max(len(batch_a), len(batch_b))
    batch_a, batch_b = (1,) * (n - len(batch_a)) + tuple(batch_a), (1,) * (n - len(batch_b)) + tuple(batch_b)
    return tuple(max(x, y) for x, y in zip(batch_a, batch_b)) + (a[-2], b[-1])


def _matmul_grads(grad_out, input, other):
    x, y = input.double().requires_grad_(True), other.double().requires_grad_(True)
    gx, gy = torch.autograd.grad(torch.matmul(x, y), (x, y), grad_out.double())
    return gx.to(input.dtype), gy.to(other.dtype)


matmul_backward = Op("diopiMatmulBackward", _matmul_grads, tensors=dict(grad_out=T(), input=T(), other=T()),
                     shapes=tuple((_matmul_out_shape(a, b), a, b) for a, b in MATMUL_SHAPES[:-1]) + (((512, 256), (512, 1024), (1024, 256)),),
                     dtypes=F32_64, accumulation=lambda grad_out, input, other: max([input.shape[-1], other.shape[-1]] + list(grad_out.shape[:1])))

# ================================================================ cdist and its backward
# (input1, input2): (.., P, M) and (.., R, M), batch dims broadcast
CDIST_SHAPES = (((4, 3), (5, 3)), ((2, 4, 3), (2, 6, 3)), ((2, 1, 4, 3), (3, 5, 3)), ((30, 8), (27, 8)), ((1, 1), (1, 1)), ((0, 3), (4, 3)),
                ((4, 0), (2, 0)))
CDIST_PS = (2.0, 1.0, 0.0, 3.0, 0.5, float("inf"))
MODE_NAMES = {None: "use_mm_for_euclid_dist_if_necessary", 0: "use_mm_for_euclid_dist_if_necessary", 1: "use_mm_for_euclid_dist",
              2: "donot_use_mm_for_euclid_dist"}


def _cdist(input1, input2, p, compute_mode=None):
    # Exact distances (no matrix-multiply shortcut) in float64: what every compute_mode approximates.
    return torch.cdist(input1.double(), input2.double(), p, compute_mode=MODE_NAMES[2]).to(input1.dtype)


cdist = Op("diopiCdist", _cdist, tensors=dict(input1=T(), input2=T()),
           cases=tuple((s, {"p": p, "compute_mode": None}) for s in CDIST_SHAPES for p in CDIST_PS)
           + tuple((s, {"p": 2.0, "compute_mode": m}) for s in CDIST_SHAPES[:4] for m in (0, 1, 2))
           + ((((1024, 64), (256, 64)), {"p": 2.0, "compute_mode": 2}),),
           dtypes=F32_64, accumulation=lambda input1: input1.shape[-1])


def _cdist_saved(input1, input2, p):
    return {"cdist": torch.cdist(input1.double(), input2.double(), p, compute_mode=MODE_NAMES[2]).to(input1.dtype)}


def _cdist_grad(grad_output, input1, input2, p):
    x1, x2 = input1.double().requires_grad_(True), input2.double()
    (g,) = torch.autograd.grad(torch.cdist(x1, x2, p, compute_mode=MODE_NAMES[2]), x1, grad_output.double())
    return g.to(input1.dtype)


def _cdist_out(a, b):
    batch_a, batch_b = a[:-2], b[:-2]
    n = max(len(batch_a), len(batch_b))
    batch_a, batch_b = (1,) * (n - len(batch_a)) + tuple(batch_a), (1,) * (n - len(batch_b)) + tuple(batch_b)
    return tuple(max(x, y) for x, y in zip(batch_a, batch_b)) + (a[-2], b[-2])


# p < 1 is left out: its gradient |d|^(p-1) is unbounded near coinciding coordinates.
cdist_backward = Op("diopiCdistBackward", _cdist_grad, tensors=dict(grad_output=T(), input1=T(), input2=T()),
                    cases=tuple(((_cdist_out(a, b), a, b), {"p": p}) for a, b in CDIST_SHAPES[:6] for p in (2.0, 1.0, 3.0, 1.5, float("inf"), 0.0)),
                    dtypes=F32_64, prepare=_cdist_saved, accumulation=lambda input2: input2.shape[-2])

# ================================================================ vector norm
VN_ROWS = (((3, 4, 5), (1,), False), ((3, 4, 5), (0, 2), True), ((3, 4, 5), (), False), ((3, 4, 5), (), True), ((6,), (0,), False),
           ((), (), False), ((0, 4), (1,), False), ((2, 3, 4, 5), (-1, -3), False))
VN_ORDS = (2.0, 1.0, 3.0, 0.5, float("inf"), float("-inf"), 0.0, 2)


def _vec_norm(input, ord, dim, keepdim):
    return torch.linalg.vector_norm(input.double(), ord, dim=list(dim) or None, keepdim=keepdim).to(input.dtype)


def _vn_terms(input, dim):
    nd = input.dim()
    ds = {d % nd for d in dim} if (dim and nd) else set(range(nd))
    return math.prod(input.shape[d] for d in ds) if nd else 1


linalg_vec_norm = Op("diopiLinalgVecNorm", _vec_norm, tensors=dict(input=T()),
                     cases=tuple(((s,), {"ord": o, "dim": d, "keepdim": k}) for s, d, k in VN_ROWS for o in VN_ORDS)
                     + ((((1024, 1024),), {"ord": 2.0, "dim": (1,), "keepdim": True}),),
                     dtypes=HALF_UP, accumulation=_vn_terms)
# Huge values whose 1-norm is still representable. Orders 2 and 3 are not cases here: their powers leave float's
# range, and the header promises torch.linalg.vector_norm's semantics, under which ATen's float32 kernel returns
# inf there (a vendor may do better, as impl/cpu does, but cannot be required to).
linalg_vec_norm_large = Op("diopiLinalgVecNorm", _vec_norm, tensors=dict(input=T(randn(scale=1e30))),
                           cases=tuple((((3, 700),), {"ord": o, "dim": (1,), "keepdim": False}) for o in (1.0,)),
                           dtypes=("float32",), accumulation=_vn_terms, name="linalg_vec_norm_large")

# ================================================================ cholesky and its backward
# Symmetric positive-definite inputs: A A^T + n I from a random A (prepare). Non-definite inputs are not cases: the
# header leaves the factor's contents open when the factorization fails.
CHOL_SHAPES = (((3, 3),), ((5, 5),), ((2, 4, 4),), ((2, 3, 2, 2),), ((1, 1),), ((0, 3, 3),), ((64, 64),))


def _spd(mat):
    a = mat.double()
    n = a.shape[-1]
    return {"mat": (a @ a.mT + n * torch.eye(n, dtype=torch.float64)).to(mat.dtype)}


def _cholesky(mat, upper, checkerror):
    L, info = torch.linalg.cholesky_ex(mat.double(), upper=upper)
    return L.to(mat.dtype), info.to(torch.int32)


cholesky = Op("diopiCholesky", _cholesky, tensors=dict(mat=T()), shapes=CHOL_SHAPES,
              params=tuple({"upper": u, "checkerror": c} for u in (False, True) for c in (False, True)), dtypes=F32_64,
              prepare=_spd, accumulation=lambda mat: mat.shape[-1])


def _chol_saved(grad_output, mat, upper):
    a = mat.double()
    n = a.shape[-1]
    spd = a @ a.mT + n * torch.eye(n, dtype=torch.float64)
    return {"L": torch.linalg.cholesky(spd, upper=upper).to(mat.dtype)}


def _chol_grad(grad_output, L, upper):
    l = L.double()
    spd = (l.mT @ l if upper else l @ l.mT).requires_grad_(True)
    (g,) = torch.autograd.grad(torch.linalg.cholesky(spd, upper=upper), spd, grad_output.double())
    return g.to(L.dtype)


cholesky_backward = Op("diopiCholeskyBackward", _chol_grad, tensors=dict(grad_output=T(), mat=T()),
                       shapes=tuple((s[0], s[0]) for s in CHOL_SHAPES[:-1]) + (((32, 32), (32, 32)),),
                       params=({"upper": False}, {"upper": True}), dtypes=F32_64, prepare=_chol_saved, extra=("mat",),
                       accumulation=lambda grad_output: grad_output.shape[-1])

# ================================================================ triangular solve and its backward
# mat: small off-diagonal entries and a diagonal of 2 (added in prepare) keep every solve well conditioned; the
# unused triangle holds values too, which must be ignored.
TS_SHAPES = (((4, 2), (4, 4)), ((3, 3), (3, 3)), ((2, 4, 2), (2, 4, 4)), ((2, 4, 3), (4, 4)), ((4, 1), (2, 4, 4)), ((2, 1, 3, 2), (3, 3, 3)),
             ((1, 1), (1, 1)), ((4, 0), (4, 4)), ((0, 3, 2), (0, 3, 3)), ((128, 64), (128, 128)))
TS_FLAGS = tuple({"upper": u, "transpose": t, "unitriangular": un} for u in (True, False) for t in (False, True) for un in (False, True))


def _ts_prepare(mat):
    n = mat.shape[-1]
    return {"mat": (mat.double() + 2.0 * torch.eye(n, dtype=torch.float64)).to(mat.dtype)}


def _tsolve(b, mat, upper, transpose, unitriangular):
    x, _ = torch.triangular_solve(b.double(), mat.double(), upper, transpose, unitriangular)
    return x.to(b.dtype), mat.clone()


def _ts_terms(mat):
    return max(mat.shape[-1], 1)


triangular_solve = Op("diopiTriangularSolve", _tsolve, tensors=dict(b=T(), mat=T(randn(scale=0.3))),
                      # The large case keeps the diagonal: random unit-triangular matrices grow ill-conditioned with n.
                      cases=tuple((s, f) for s in TS_SHAPES for f in (TS_FLAGS if s[1][-1] < 128 else TS_FLAGS[::2])),
                      dtypes=F32_64, prepare=_ts_prepare, accumulation=_ts_terms)
# Large systems (solved rows of a column group past 128 KB) are solved in row blocks updated by GEMMs;
# float64 only, so that the float32 case the benchmark times stays the one above.
triangular_solve_blocked = Op("diopiTriangularSolve", _tsolve, tensors=dict(b=T(), mat=T(randn(scale=0.3))),
                              cases=tuple((((400, 48), (400, 400)), f) for f in TS_FLAGS[::2]), dtypes=("float64",),
                              prepare=_ts_prepare, accumulation=_ts_terms, name="triangular_solve_blocked")


def _ts_saved(b, mat, upper, transpose, unitriangular):
    m = mat.double() + 2.0 * torch.eye(mat.shape[-1], dtype=torch.float64)
    x, _ = torch.triangular_solve(b.double(), m, upper, transpose, unitriangular)
    return {"mat": m.to(mat.dtype), "x": x.to(b.dtype)}


def _ts_grads(b, mat, upper, transpose, unitriangular, grad_x=None, grad_cloned_mat=None):
    bb, m = b.double().requires_grad_(True), mat.double().requires_grad_(True)
    x, _ = torch.triangular_solve(bb, m, upper, transpose, unitriangular)
    cm = m.clone()  # cloned_mat copies mat as given (without the broadcast batch of b)
    outs, seeds = [], []
    for o, g in ((x, grad_x), (cm, grad_cloned_mat)):
        if g is not None:
            outs.append(o)
            seeds.append(g.double())
    if not outs:  # no gradient flows in: both are zero
        return torch.zeros_like(b), torch.zeros_like(mat)
    gb, gm = torch.autograd.grad(outs, (bb, m), seeds, allow_unused=True, materialize_grads=True)
    return gb.to(b.dtype), gm.to(mat.dtype)


def _ts_bwd_split():
    """(shapes, flags) of the backward cases; grad_x has the broadcast batch of b and mat."""
    out = []
    for b, m in TS_SHAPES[:-1]:
        x = _cdist_out(b, m)[:-2] + (b[-2], b[-1])
        for f in TS_FLAGS:
            out.append((dict(grad_x=x, grad_cloned_mat=m, b=b, mat=m), f))
    return tuple(out)


triangular_solve_backward = [
    Op("diopiTriangularSolveBackward", _ts_grads, tensors=tensors, cases=cases, dtypes=F32_64, prepare=_ts_saved, name=name,
       accumulation=lambda mat: mat.shape[-1])
    for name, tensors, cases in (
        ("triangular_solve_backward", dict(grad_x=T(), grad_cloned_mat=T(), b=T(), mat=T(randn(scale=0.3))), _ts_bwd_split()),
        ("triangular_solve_backward_grad_x_only", dict(grad_x=T(), b=T(), mat=T(randn(scale=0.3))),
         tuple(({k: v for k, v in s.items() if k != "grad_cloned_mat"}, f) for s, f in _ts_bwd_split()[::3])),
        ("triangular_solve_backward_grad_cloned_mat_only", dict(grad_cloned_mat=T(), b=T(), mat=T(randn(scale=0.3))),
         tuple(({k: v for k, v in s.items() if k != "grad_x"}, f) for s, f in _ts_bwd_split()[:4])),
    )
]

# ================================================================ QR
# The factors are unique only up to the signs of R's diagonal, which the header leaves to the library (Householder
# and Gram-Schmidt schemes differ). Inputs that are already upper-triangular with a positive diagonal (stacked on
# zero rows when m > n) factor the same way under every scheme (Q = I, R = A), so those are the value cases.
QR_SHAPES = (((4, 4),), ((5, 3),), ((3, 5),), ((2, 4, 4),), ((2, 5, 3),), ((1, 1),), ((0, 3),), ((3, 0),), ((2, 0, 0),))


def _upper_pos(A):
    a = A.double().triu()
    k = min(a.shape[-2], a.shape[-1])
    idx = torch.arange(k)
    a[..., idx, idx] = a[..., idx, idx].abs() + 0.5
    return {"A": a.to(A.dtype)}


def _qr(A, mode):
    q, r = torch.linalg.qr(A.double(), mode=mode)
    return (None if mode == "r" else q.to(A.dtype)), r.to(A.dtype)


linalg_qr = Op("diopiLinalgQR", _qr, tensors=dict(A=T()), shapes=QR_SHAPES, params=({"mode": "reduced"}, {"mode": "complete"}, {"mode": "r"}),
               dtypes=F32_64, prepare=_upper_pos, accumulation=lambda A: max(A.shape[-2], 1))

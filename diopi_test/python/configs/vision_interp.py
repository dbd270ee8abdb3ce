"""Vision and interpolation: NMS, RoIAlign (forward and backward), grid sampling, nearest and (bi/tri)linear /
bicubic resizing (forward and backward).

References are float64 math cast once: grid_sample / interpolate run on float64 copies of the inputs; RoIAlign is
written out here (torchvision is not a dependency): every bin averages a gh x gw grid of bilinear samples, and as
the sample points of one RoI form a product grid, the bilinear weights are separable matrices Wy (samples x H) and
Wx (samples x W). Backward references are torch.autograd of the float64 forwards.
"""
import math

from conformance.gen import arange_perm, randn, uniform
from conformance.reftorch import torch
from conformance.spec import FLOAT, FLOAT_NO_BF16, Op, T

F = torch.nn.functional

_BWD_TOL = {"float16": (4e-3, 4e-3), "bfloat16": (3e-2, 3e-2), "float32": (1e-4, 1e-5)}
_BWD_TOL_REASON = ("half-precision backward kernels accumulate several output gradients per input pixel in half precision; "
                   "float32 kernels compute weights from float32 coordinates (see _COORD_TOL)")
# float32 kernels compute sample coordinates in float32: near pixel 64 a coordinate is off by ~4e-6 pixel, which
# moves the interpolated value by that much times the local difference between neighbouring pixels (up to ~6).
_COORD_TOL = {"float32": (1e-4, 1e-5)}
_COORD_TOL_REASON = "sample coordinates are computed in float32; the error grows with the coordinate (image size)"


# ---------------------------------------------------------------- NMS
def _nms_prepare(boxes, confidence):
    """Boxes (x1, y1, x2, y2) from random corners and positive sizes; distinct scores from a permutation."""
    b = boxes.double()
    x1, y1 = b[:, 0] * 20, b[:, 1] * 20
    w, h = b[:, 2].abs() * 8 + 0.5, b[:, 3].abs() * 8 + 0.5
    return {"boxes": torch.stack([x1, y1, x1 + w, y1 + h], 1).to(boxes.dtype), "confidence": confidence / max(confidence.numel(), 1)}


def _nms_ref(boxes, confidence, iou_threshold):
    b = boxes.double()
    order = torch.argsort(confidence.double(), descending=True, stable=True).tolist()
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    removed, keep = set(), []
    for a, i in enumerate(order):
        if i in removed:
            continue
        keep.append(i)
        for j in order[a + 1:]:
            if j in removed:
                continue
            w = max(0.0, float(torch.minimum(b[i, 2], b[j, 2]) - torch.maximum(b[i, 0], b[j, 0])))
            h = max(0.0, float(torch.minimum(b[i, 3], b[j, 3]) - torch.maximum(b[i, 1], b[j, 1])))
            inter = w * h
            if inter / (float(area[i]) + float(area[j]) - inter) > iou_threshold:
                removed.add(j)
    return torch.tensor(keep, dtype=torch.int64)


nms = Op("diopiNms", _nms_ref, tensors=dict(boxes=T(randn()), confidence=T(arange_perm())), prepare=_nms_prepare,
         cases=tuple((((n, 4), (n,)), dict(iou_threshold=t)) for n in (0, 1, 2, 10, 60, 200) for t in (0.0, 0.3, 0.5, 0.7)),
         dtypes=FLOAT_NO_BF16)


# ---------------------------------------------------------------- RoIAlign
def _taps_matrix(coords, size):
    """(samples, size) bilinear weights of 1-D sample positions, zero rows for positions outside [-1, size]."""
    m = torch.zeros(len(coords), size, dtype=torch.float64)
    for r, y in enumerate(coords):
        if y < -1.0 or y > size:
            continue
        y = max(y, 0.0)
        y0 = int(y)
        if y0 >= size - 1:
            m[r, size - 1] = 1.0
        else:
            ly = y - y0
            m[r, y0] += 1.0 - ly
            m[r, y0 + 1] += ly
    return m


def _roi_align_math(x, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned):
    """x (N, C, H, W) float64 -> (K, C, ph, pw)."""
    k = rois.shape[0]
    c, h, w = x.shape[1], x.shape[2], x.shape[3]
    outs = []
    off = 0.5 if aligned else 0.0
    for r in rois.double().tolist():
        b = int(r[0])
        sw, sh = r[1] * spatial_scale - off, r[2] * spatial_scale - off
        rw, rh = r[3] * spatial_scale - off - sw, r[4] * spatial_scale - off - sh
        if not aligned:
            rw, rh = max(rw, 1.0), max(rh, 1.0)
        bh, bw = rh / pooled_height, rw / pooled_width
        gh = sampling_ratio if sampling_ratio > 0 else math.ceil(rh / pooled_height)
        gw = sampling_ratio if sampling_ratio > 0 else math.ceil(rw / pooled_width)
        if gh * gw == 0:
            outs.append(torch.zeros(c, pooled_height, pooled_width, dtype=torch.float64) * x[b, :, :1, :1])
            continue
        ys = [sh + i * bh + (iy + 0.5) * bh / gh for i in range(pooled_height) for iy in range(gh)]
        xs = [sw + j * bw + (ix + 0.5) * bw / gw for j in range(pooled_width) for ix in range(gw)]
        wy, wx = _taps_matrix(ys, h), _taps_matrix(xs, w)
        s = wy @ x[b] @ wx.t()  # (C, ph * gh, pw * gw)
        outs.append(s.reshape(c, pooled_height, gh, pooled_width, gw).sum((2, 4)) / (gh * gw))
    return torch.stack(outs) if outs else torch.zeros(0, c, pooled_height, pooled_width, dtype=torch.float64) + x.sum() * 0


def _rois(raw, n, h, w, spatial_scale, dtype):
    """(K, 5) RoIs in image coordinates from uniform [0, 1) draws: a batch index and a box that mostly lies on the
    feature map (some stick out of it, some are thinner than a pixel)."""
    r = raw.double()
    b = (r[:, 0] * n).floor().clamp(max=n - 1)
    x1, y1 = (r[:, 1] * 1.2 - 0.1) * w, (r[:, 2] * 1.2 - 0.1) * h
    bw, bh = r[:, 3] * w * 0.8, r[:, 4] * h * 0.8
    return torch.stack([b, x1 / spatial_scale, y1 / spatial_scale, (x1 + bw) / spatial_scale, (y1 + bh) / spatial_scale], 1).to(dtype)


def _roi_prepare(input, rois, spatial_scale):
    n, _, h, w = input.shape
    return {"rois": _rois(rois, max(n, 1), h, w, spatial_scale, input.dtype)}


def _roi_ref(input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned):
    return _roi_align_math(input.double(), rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned).to(input.dtype)


# (N, C, H, W, K) x (spatial_scale, pooled_h, pooled_w, sampling_ratio, aligned)
_ROI_SHAPES = ((1, 3, 8, 8, 4), (2, 4, 10, 7, 6), (2, 1, 5, 12, 3), (1, 2, 6, 6, 0), (2, 16, 32, 32, 8), (2, 16, 192, 192, 8))
_ROI_PARAMS = ((1.0, 2, 2, 2, False), (0.5, 3, 3, 0, True), (0.25, 2, 4, 1, False), (1.0, 7, 7, 0, False), (0.125, 1, 1, 3, True),
               (1.0, 3, 2, -1, True))


def _roi_cases(backward=False):
    out = []
    for n, c, h, w, k in _ROI_SHAPES:
        big = n * c * h * w > 16384
        for s, ph, pw, sr, al in (_ROI_PARAMS[:2] if big else _ROI_PARAMS):
            p = dict(spatial_scale=s, pooled_height=ph, pooled_width=pw, sampling_ratio=sr, aligned=al)
            if backward:
                out.append((((k, c, ph, pw), (k, 5)), dict(p, batch_size=n, channels=c, height=h, width=w)))
            else:
                out.append((((n, c, h, w), (k, 5)), p))
    return tuple(out)


roi_align = Op("diopiRoiAlign", _roi_ref, tensors=dict(input=T(), rois=T(uniform(0.0, 1.0))), cases=_roi_cases(), prepare=_roi_prepare,
               dtypes=FLOAT_NO_BF16)


def _roi_bwd_prepare(grad, rois, spatial_scale, batch_size, height, width):
    return {"rois": _rois(rois, max(batch_size, 1), height, width, spatial_scale, grad.dtype)}


def _roi_bwd_ref(grad, rois, spatial_scale, pooled_height, pooled_width, batch_size, channels, height, width, sampling_ratio, aligned):
    x = torch.zeros(batch_size, channels, height, width, dtype=torch.float64, requires_grad=True)
    y = _roi_align_math(x, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned)
    (g,) = torch.autograd.grad(y, x, grad.double(), allow_unused=True)
    return (torch.zeros_like(x) if g is None else g).to(grad.dtype)


roi_align_backward = Op("diopiRoiAlignBackward", _roi_bwd_ref, tensors=dict(grad=T(), rois=T(uniform(0.0, 1.0))), cases=_roi_cases(True),
                        prepare=_roi_bwd_prepare, dtypes=FLOAT_NO_BF16, accumulation=lambda rois: 4 * max(rois.shape[0], 1),
                        tol={"float16": (4e-3, 4e-3)}, tol_reason="gradients of overlapping RoIs sum into one pixel; half rounds once more")


# ---------------------------------------------------------------- grid sample
# The header asks half-precision inputs to be sampled at float32 (or wider) coordinates, so the reference is the
# float64 result rounded once and the bounds are the depth-based ones. A kernel that unnormalises the grid in half
# precision (ATen's own float16 grid_sampler on the CPU) misses them on most random grids: bilinear results by up to
# twice the bound, nearest ones by whole pixel values.
def _grid_ref(input, grid, mode):
    return F.grid_sample(input.double(), grid.double(), mode=mode, padding_mode="zeros", align_corners=False).to(input.dtype)


# (input, grid): 2-D and 3-D sampling, a grid larger and smaller than the input, an empty batch, a large one
_GRID_SHAPES = (((2, 3, 5, 7), (2, 4, 6, 2)), ((1, 1, 8, 8), (1, 3, 3, 2)), ((1, 2, 3, 4, 5), (1, 2, 3, 4, 3)), ((2, 1, 4, 4, 4), (2, 5, 1, 3, 3)),
                ((0, 3, 4, 4), (0, 2, 2, 2)), ((3, 2, 1, 9), (3, 2, 5, 2)), ((4, 16, 64, 64), (4, 32, 32, 2)),
                ((2, 16, 192, 192), (2, 8, 8, 2)))



def _grid_steps(input, mode):
    """Depth of a sample (tolerances.resolve). Bilinear over n spatial dims: the coordinate ((g + 1) * size - 1) / 2 (3),
    its fraction (1), 1 - fraction (1), the n - 1 products of a corner weight, * value (1), and the 2^n - 1 additions
    of the corners. Nearest copies an input value: nothing to round."""
    n = input.dim() - 2
    return {"steps": 6 + (n - 1) + (2 ** n - 1) if mode == "bilinear" else 1}


grid_sample = Op("diopiGridSample", _grid_ref, tensors=dict(input=T(), grid=T(uniform(-1.1, 1.1))), shapes=_GRID_SHAPES,
                 params=({"mode": "bilinear"}, {"mode": "nearest"}), dtypes=FLOAT, tol=_COORD_TOL, tol_reason=_COORD_TOL_REASON,
                 accumulation=_grid_steps)


# ---------------------------------------------------------------- upsampling
# (input shape, output spatial size): up, down, mixed, identity, empty batch, and one large
_NEAREST = (((2, 3, 5), (9,)), ((1, 2, 8), (3,)), ((2, 3, 4, 5), (8, 10)), ((1, 2, 7, 3), (3, 6)), ((1, 1, 4, 4), (4, 4)),
            ((1, 2, 2, 3, 4), (4, 6, 5)), ((0, 3, 4, 4), (6, 6)), ((2, 1, 3), (1,)), ((1, 3, 6, 9), (4, 4)), ((2, 2, 3, 3), (7, 5)),
            ((1, 1, 5, 4, 3), (2, 8, 3)), ((1, 2, 1, 1), (3, 2)), ((2, 8, 64, 64), (128, 96)))


def _nearest_ref(input, size):
    return F.interpolate(input.double(), size=tuple(size), mode="nearest").to(input.dtype)


upsample_nearest = Op("diopiUpsampleNearest", _nearest_ref, tensors=dict(input=T()), dtypes=FLOAT,
                      cases=tuple(((s,), dict(size=o)) for s, o in _NEAREST))


def _nearest_bwd_ref(grad_output, in_size):
    x = torch.zeros(tuple(in_size), dtype=torch.float64, requires_grad=True)
    y = F.interpolate(x, size=tuple(grad_output.shape[2:]), mode="nearest")
    (g,) = torch.autograd.grad(y, x, grad_output.double())
    return g.to(grad_output.dtype)


def _ratio(in_size, out_size):
    return max(1, math.prod(math.ceil(o / i) if i else 1 for i, o in zip(in_size[2:], out_size)))


upsample_nearest_backward = Op(
    "diopiUpsampleNearestBackward", _nearest_bwd_ref, tensors=dict(grad_output=T()), dtypes=FLOAT,
    cases=tuple(((s[:2] + o,), dict(out_size=o, in_size=s)) for s, o in _NEAREST + (((4, 4, 64, 64), (256, 256)),)),
    accumulation=lambda in_size, out_size: _ratio(in_size, out_size), tol=_BWD_TOL, tol_reason=_BWD_TOL_REASON)

_LINEAR = (("linear", ((2, 3, 5), (9,))), ("linear", ((1, 2, 8), (3,))), ("bilinear", ((2, 3, 4, 5), (8, 10))),
           ("bilinear", ((1, 2, 7, 3), (3, 6))), ("bilinear", ((1, 1, 4, 4), (4, 4))), ("bicubic", ((2, 2, 5, 6), (9, 4))),
           ("bicubic", ((1, 3, 8, 8), (5, 11))), ("trilinear", ((1, 2, 2, 3, 4), (4, 6, 5))), ("trilinear", ((1, 1, 5, 4, 3), (2, 2, 2))),
           ("bilinear", ((0, 3, 4, 4), (6, 6))), ("bilinear", ((2, 8, 64, 64), (128, 96))))


def _linear_ref(input, size, align_corners, mode):
    return F.interpolate(input.double(), size=tuple(size), mode=mode, align_corners=align_corners).to(input.dtype)


upsample_linear = Op("diopiUpsampleLinear", _linear_ref, tensors=dict(input=T()), dtypes=FLOAT,
                     cases=tuple(((s,), dict(size=o, align_corners=a, mode=m)) for m, (s, o) in _LINEAR for a in (False, True)),
                     tol=dict(_COORD_TOL, bfloat16=(1e-2, 8e-3, 0.03)),
                     tol_reason=_COORD_TOL_REASON + "; ATen interpolates bfloat16 with bfloat16 weights: proven for a 3% error")


def _linear_bwd_ref(grad_output, in_size, align_corners, mode):
    x = torch.zeros(tuple(in_size), dtype=torch.float64, requires_grad=True)
    y = F.interpolate(x, size=tuple(grad_output.shape[2:]), mode=mode, align_corners=align_corners)
    (g,) = torch.autograd.grad(y, x, grad_output.double())
    return g.to(grad_output.dtype)


upsample_linear_backward = Op(
    "diopiUpsampleLinearBackward", _linear_bwd_ref, tensors=dict(grad_output=T()), dtypes=FLOAT,
    cases=tuple(((s[:2] + o,), dict(out_size=o, in_size=s, align_corners=a, mode=m)) for m, (s, o) in _LINEAR for a in (False, True)),
    accumulation=lambda in_size, out_size, mode: 4 ** (len(in_size) - 2) * _ratio(in_size, out_size), tol=_BWD_TOL,
    tol_reason=_BWD_TOL_REASON)

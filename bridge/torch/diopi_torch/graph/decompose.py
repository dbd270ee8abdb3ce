"""The compile route's own decompositions: operators the header has no function for and PyTorch does
not decompose, rewritten while aot_autograd traces into operators the mapping serves, so a graph
holding them runs in its plans instead of splitting around them.

  histc                                  aten_to_diopi.yaml lists it under `decompose:`
  transformers::grouped_mm_fallback      the MoE experts' grouped GEMM transformers uses under
  transformers::grouped_mm_fallback_backward   torch.compile in float32 (integrations/moe.py)

Each keeps the sizes static: the data (expert ids, group offsets) only selects values through
masks, never sizes, so the graph stays one graph with no data-dependent shape.
"""
from __future__ import annotations

import torch

aten = torch.ops.aten


def histc(input, bins=100, min=0, max=0):
    """Counts per bin as torch.histc with a given range: bin = (x - min) * bins / (max - min) truncated,
    x == max in the last bin, values outside [min, max] not counted. The range taken from the data
    (min == max) is left to the operator."""
    if not min < max:
        return NotImplemented
    flat = input.reshape(-1)
    wide = torch.float64 if input.dtype == torch.float64 else torch.float32
    x = flat.to(wide)
    pos = ((x - min) * bins / (max - min)).to(torch.int64)
    pos = torch.clamp(pos, 0, bins - 1)
    inside = torch.bitwise_and(torch.ge(x, min), torch.le(x, max))
    hit = torch.eq(pos.unsqueeze(1), torch.arange(bins, device=input.device))  # (numel, bins)
    hit = torch.bitwise_and(hit, inside.unsqueeze(1))
    return torch.sum(hit.to(torch.int64), 0).to(input.dtype)


def _group_mask(offs, rows, groups, dtype):
    """(groups, rows) mask: row r belongs to group g when offs[g-1] <= r < offs[g]. A row at or past
    the last offset (an expert-parallel sentinel) belongs to none and gets zeros."""
    r = torch.arange(rows, device=offs.device)
    group = torch.sum(torch.ge(r.unsqueeze(0), offs.to(torch.int64).unsqueeze(1)).to(torch.int64), 0)  # (rows,)
    mask = torch.eq(group.unsqueeze(0), torch.arange(groups, device=offs.device).unsqueeze(1))
    return mask.to(dtype).unsqueeze(-1)  # (groups, rows, 1)


def grouped_mm(input, weight, offs):
    """out[r] = input[r] @ weight[g] for the rows r of group g: every group's product over all rows
    (one bmm), each row kept from its own group. Costs groups x the GEMM work of the grouped kernel,
    in exchange for static sizes."""
    g, (s, k) = weight.shape[0], input.shape
    y = torch.bmm(input.unsqueeze(0).expand(g, s, k), weight)  # (groups, rows, n)
    return torch.sum(y * _group_mask(offs, s, g, y.dtype), 0)


def grouped_mm_backward(input, weight, offs, grad_output):
    """grad_input[r] = grad_output[r] @ weight[g].T; grad_weight[g] = input[rows of g].T @ grad_output[rows of g]."""
    g, (s, k) = weight.shape[0], input.shape
    masked = grad_output.unsqueeze(0) * _group_mask(offs, s, g, grad_output.dtype)  # (groups, rows, n)
    grad_input = torch.sum(torch.bmm(masked, weight.transpose(1, 2)), 0)
    grad_weight = torch.bmm(input.unsqueeze(0).expand(g, s, k).transpose(1, 2), masked)
    return grad_input, grad_weight


# ATen overloads the yaml may name under `decompose:` with no PyTorch decomposition: served from here.
OWN = {"histc": histc}


def foreign():
    """Decompositions of other libraries' custom operators, for those registered in this process."""
    table = {}
    ns = getattr(torch.ops, "transformers", None)
    if ns is not None:
        for name, fn in (("grouped_mm_fallback", grouped_mm), ("grouped_mm_fallback_backward", grouped_mm_backward)):
            try:
                table[getattr(ns, name).default] = fn
            except AttributeError:  # an older transformers without this operator
                pass
    return table

"""Recipes: the ways real jobs train and serve, each run on the `diopi` device
and in eager CPU from the same weights, so that every capability of the
device is accepted by comparing what matters (logits, loss, gradients,
parameters, generated tokens).

    fp32        one AdamW step in float32 (the device's base line)
    bf16        the step under torch.autocast(dtype=bfloat16)
    fp16        the step under torch.autocast(dtype=float16) with a GradScaler
    bf16-cast   the model itself in bfloat16
    checkpoint  activation checkpointing on every block
    resume      2 steps, save model + optimizer, load both into fresh objects
                with map_location=<device>, 2 more steps; against 4 steps straight
    loader      3 steps fed by a DataLoader with 2 workers, pinned memory and
                non-blocking copies
    generate    greedy generate() with the KV cache, 16 new tokens (decoders)
    device1     the fp32 step on the second device (diopi:1)

The CPU side runs the same recipe (its autocast, its GradScaler) except where
the recipe is about the device (checkpoint files, loaders, device indices):
there it trains plainly, which is what the device must reproduce.
"""
from __future__ import annotations

import copy
import dataclasses
import io

import torch

# Dropout draws from a device's own generator, so a masked step can never
# match the CPU's. Every dropout, by module or by function call, runs with
# p=0 during a comparison (whatever the model's configuration calls it).
_DROPOUTS = {torch.nn.functional.dropout, torch.nn.functional.dropout1d, torch.nn.functional.dropout2d,
             torch.nn.functional.dropout3d, torch.nn.functional.alpha_dropout, torch.nn.functional.feature_alpha_dropout,
             torch.dropout, torch.alpha_dropout, torch.feature_dropout, torch.feature_alpha_dropout}


class NoDropout(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        if func in _DROPOUTS:
            if "p" in kwargs:
                kwargs["p"] = 0.0
            elif len(args) > 1:
                args = (args[0], 0.0) + tuple(args[2:])
            else:
                kwargs["p"] = 0.0
        elif func is torch.nn.functional.scaled_dot_product_attention:
            if "dropout_p" in kwargs:
                kwargs["dropout_p"] = 0.0
            elif len(args) > 4:
                args = tuple(args[:4]) + (0.0,) + tuple(args[5:])
        return func(*args, **kwargs)


class NoDropoutPatched:
    """NoDropout for compiled steps: the dropout functions themselves are
    replaced by ones that call them with p=0 while the step runs. TorchDynamo
    traces through a TorchFunctionMode, but resuming after a graph break under
    one (Mixtral's routing breaks the graph) hands the model wrong values, on
    the CPU as on the device; functions it simply inlines."""

    _NAMES = ("dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout")

    def __enter__(self):
        import functools
        F = torch.nn.functional
        self._saved = [(F, n, getattr(F, n)) for n in self._NAMES]
        self._saved += [(torch, n, getattr(torch, n)) for n in ("dropout", "alpha_dropout", "feature_dropout",
                                                                 "feature_alpha_dropout")]
        self._saved.append((F, "scaled_dot_product_attention", F.scaled_dot_product_attention))
        for owner, name, fn in self._saved:
            if name == "scaled_dot_product_attention":
                @functools.wraps(fn)
                def sdpa(*args, _fn=fn, **kwargs):
                    if "dropout_p" in kwargs:
                        kwargs["dropout_p"] = 0.0
                    elif len(args) > 4:
                        args = tuple(args[:4]) + (0.0,) + tuple(args[5:])
                    return _fn(*args, **kwargs)
                setattr(owner, name, sdpa)
            else:
                @functools.wraps(fn)
                def no_drop(input, *args, _fn=fn, **kwargs):
                    kwargs.pop("p", None)
                    return _fn(input, 0.0, *args[1:], **kwargs)
                setattr(owner, name, no_drop)
        return self

    def __exit__(self, *exc):
        for owner, name, fn in self._saved:
            setattr(owner, name, fn)
        return False


@dataclasses.dataclass(frozen=True)
class Recipe:
    name: str
    precision: str = "fp32"          # tolerance class: fp32 | bf16 | fp16
    steps: int = 1
    autocast: torch.dtype | None = None
    scaler: bool = False
    cast: torch.dtype | None = None
    checkpoint: bool = False
    resume_after: int = 0            # device side: save and reload after this many steps
    loader: bool = False
    generate: bool = False
    device_index: int = 0
    compile: bool = False            # device side: torch.compile(model, backend="diopi")
    doc: str = ""


RECIPES = {r.name: r for r in [
    Recipe("fp32", doc="one AdamW step in float32"),
    Recipe("bf16", "bf16", autocast=torch.bfloat16, doc="the step under autocast bfloat16"),
    Recipe("fp16", "fp16", autocast=torch.float16, scaler=True, doc="the step under autocast float16 with a GradScaler"),
    Recipe("bf16-cast", "bf16", cast=torch.bfloat16, doc="the model itself in bfloat16"),
    Recipe("checkpoint", checkpoint=True, doc="activation checkpointing on every block"),
    Recipe("resume", steps=4, resume_after=2, doc="2 steps, save + load model and optimizer, 2 steps; vs 4 straight"),
    Recipe("loader", steps=3, loader=True, doc="3 steps from a DataLoader (2 workers, pinned memory, non-blocking copies)"),
    Recipe("generate", generate=True, doc="greedy generate() with the KV cache, 16 new tokens"),
    Recipe("device1", device_index=1, doc="the fp32 step on diopi:1"),
]}

GENERATE_TOKENS = 16
LR, EPS, WEIGHT_DECAY = 1e-2, 1e-3, 0.01


def compiled(recipe: Recipe) -> Recipe:
    """The recipe with its device side compiled (models.sh --compile)."""
    return dataclasses.replace(recipe, name=recipe.name + "+compile", compile=True)


def in_float32(recipe: Recipe) -> Recipe:
    """The same recipe without its 16-bit parts: the float32 result a 16-bit run is measured against."""
    return dataclasses.replace(recipe, precision="fp32", autocast=None, scaler=False, cast=None)


def applies(recipe: Recipe, model) -> bool:
    """Whether a recipe means something for a model (generation needs a decoder)."""
    if recipe.generate:
        return model.kind in ("causal-lm", "seq2seq")
    return True


def _loss(m, batch):
    if isinstance(getattr(m, "_orig_mod", m), torch.nn.Sequential):  # a compiled module keeps the model as _orig_mod
        logits = m(batch["pixel_values"])
        return logits, torch.nn.functional.cross_entropy(logits.float(), batch["labels"])
    out = m(**batch)
    return out.logits, out.loss


def _no_dropout_contexts():
    # Checkpointing recomputes in backward, where the mode entered around the
    # step is not active: the recomputation gets its own.
    return NoDropout(), NoDropout()


def _enable_checkpointing(m, compiling=False, reentrant=True):
    """Activation checkpointing on every block: transformers' own switch where
    the class has one, else every element of every ModuleList (the blocks or
    stages of a model), and every layer of a plain Sequential.
    Compiled, no context_fn: under torch.compile it must give TorchDispatchModes
    (any backend, Inductor too, rejects NoDropout), and none is needed: the
    recomputation replays the traced graph, traced under NoDropoutPatched.
    reentrant=False: torch.compile traces every checkpoint as non-reentrant,
    which trains a first layer whose input needs no gradient where eager
    reentrant checkpointing leaves it without one; a compiled recipe's eager
    side uses the same semantics, or the two steps train different layers."""
    if getattr(m, "supports_gradient_checkpointing", False):
        kwargs = {"use_reentrant": False} if compiling else {"use_reentrant": False, "context_fn": _no_dropout_contexts}
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs=kwargs)
        return True
    if isinstance(m, torch.nn.Sequential):
        for i, layer in enumerate(list(m)):
            if not isinstance(layer, (torch.nn.Flatten, torch.nn.Linear)):
                # Reentrant checkpointing on convolutions, non-reentrant elsewhere: both implementations run.
                m[i] = _Checkpointed(layer, reentrant=reentrant and isinstance(layer, torch.nn.Conv2d),
                                     compiling=compiling)
        return True
    lists = [mod for mod in m.modules() if isinstance(mod, torch.nn.ModuleList)]
    for ml in lists:
        for i in range(len(ml)):
            ml[i] = _Checkpointed(ml[i], reentrant=False, compiling=compiling)
    return bool(lists)


class _Checkpointed(torch.nn.Module):
    def __init__(self, inner, reentrant, compiling=False):
        super().__init__()
        self.inner = inner
        self.reentrant = reentrant
        self.compiling = compiling

    def forward(self, *args, **kwargs):
        from torch.utils.checkpoint import checkpoint
        if self.reentrant:
            return checkpoint(self.inner, *args, use_reentrant=True, **kwargs)
        if self.compiling:
            return checkpoint(self.inner, *args, use_reentrant=False, **kwargs)
        return checkpoint(self.inner, *args, use_reentrant=False, context_fn=_no_dropout_contexts, **kwargs)


def optimizer(params, fused=False):
    """The suite's AdamW (one and many ranks); fused on the device, where DIOPI serves _fused_adamw_
    (diopiFusedAdamW)."""
    return torch.optim.AdamW(params, lr=LR, eps=EPS, weight_decay=WEIGHT_DECAY, fused=fused)


def _optimizer(m, device):
    return optimizer(m.parameters(), fused=device.type != "cpu")


def _cast_batch(batch, dtype):
    return {k: (v.to(dtype) if v.is_floating_point() else v) for k, v in batch.items()}


class _Batches(torch.utils.data.Dataset):
    def __init__(self, batches):
        self.batches = batches

    def __len__(self):
        return len(self.batches)

    def __getitem__(self, i):
        return self.batches[i]


def _feed(recipe, batches, device):
    """The batches one side trains on: from a DataLoader on the device side of `loader`."""
    if recipe.loader and device.type != "cpu":
        loader = torch.utils.data.DataLoader(_Batches(batches), batch_size=None, num_workers=2, pin_memory=True)
        for b in loader:
            if not all(v.is_pinned() for v in b.values()):
                raise RuntimeError("DataLoader(pin_memory=True) gave a batch that is not in pinned memory")
            yield {k: v.to(device, non_blocking=True) for k, v in b.items()}
        return
    for b in batches:
        yield {k: v.to(device) for k, v in b.items()}


def train(recipe: Recipe, model, batches, device: torch.device):
    """Run a training recipe on one side; returns {"forward": {...}, "backward": {...}, "step": {...}}
    of CPU tensors: the first step's logits and loss, the last step's gradients, the final parameters."""
    model = copy.deepcopy(model)
    if recipe.cast is not None:
        model = model.to(recipe.cast)
        batches = [_cast_batch(b, recipe.cast) for b in batches]
    if recipe.checkpoint and not _enable_checkpointing(model, compiling=recipe.compile and device.type != "cpu",
                                                       reentrant=not recipe.compile):
        raise RuntimeError(f"{type(model).__name__} does not support gradient checkpointing")
    model = model.to(device)  # a plain move keeps tied parameters tied, as on CUDA
    model.train()
    opt = _optimizer(model, device)
    # 2**10, not the default 2**16: the two sides cast different operators to float16 (the CPU's autocast lists are
    # not CUDA's), so at 2**16 one side's gradients may overflow where the other's do not, and the step is skipped
    # on one side only. The growth and back-off of the scale still run (and run on DIOPI).
    scaler = torch.amp.GradScaler(device.type, init_scale=2.0 ** 10) if recipe.scaler else None
    first, grads = None, {}
    compiling = recipe.compile and device.type != "cpu"
    step_model = None
    with (NoDropoutPatched() if compiling else NoDropout()):
        for i, batch in enumerate(_feed(recipe, batches, device)):
            if recipe.resume_after and i == recipe.resume_after and device.type != "cpu":
                model, opt, scaler = _resume(model, opt, scaler, device)
            if step_model is None or getattr(step_model, "_orig_mod", step_model) is not model:  # new after resume
                step_model = torch.compile(model, backend="diopi") if compiling else model
            opt.zero_grad(set_to_none=True)
            with torch.autocast(device.type, dtype=recipe.autocast, enabled=recipe.autocast is not None):
                logits, loss = _loss(step_model, batch)
            (scaler.scale(loss) if scaler else loss).backward()
            if scaler:
                scaler.unscale_(opt)
            grads = {n: p.grad.detach().float().cpu().clone() for n, p in model.named_parameters() if p.grad is not None}
            if scaler:
                scaler.step(opt)
                scaler.update()
            else:
                opt.step()
            if first is None:
                first = {"logits": logits.detach().float().cpu(), "loss": loss.detach().float().cpu()}
    params = {n: p.detach().float().cpu().clone() for n, p in model.named_parameters()}
    return {"forward": first, "backward": grads, "step": params}


def _resume(model, opt, scaler, device):
    """Save model and optimizer (and scaler) state, then load all of it into fresh objects
    with map_location=device, as a job restarting from a checkpoint does."""
    buf = io.BytesIO()
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
                "scaler": scaler.state_dict() if scaler else None}, buf)
    buf.seek(0)
    state = torch.load(buf, map_location=str(device), weights_only=True)
    fresh = copy.deepcopy(model)
    with torch.no_grad():
        for p in fresh.parameters():
            p.zero_()
    fresh.load_state_dict(state["model"])
    for k, v in fresh.state_dict().items():
        if v.device != device:
            raise RuntimeError(f"{k} was loaded onto {v.device}, not {device}")
    new_opt = _optimizer(fresh, device)
    new_opt.load_state_dict(state["optimizer"])
    new_scaler = None
    if scaler:
        new_scaler = torch.amp.GradScaler(device.type, init_scale=2.0 ** 10)
        new_scaler.load_state_dict(state["scaler"])
    return fresh, new_opt, new_scaler


def generate(model, batch, device: torch.device, compiled=False):
    """Greedy generation of GENERATE_TOKENS tokens with the KV cache; returns {"generate": {"tokens": ...}}.
    `compiled`: generate()'s own compilation of the decode step, on the diopi backend: a static KV cache
    (fixed shapes, written in place at the cache positions) and the model's forward compiled by
    torch.compile(backend="diopi") for every step after the prefill, which runs eagerly."""
    model = copy.deepcopy(model).to(device).eval()
    ids = batch["input_ids"].to(device)
    kwargs = dict(max_new_tokens=GENERATE_TOKENS, min_new_tokens=GENERATE_TOKENS, do_sample=False, use_cache=True,
                  pad_token_id=0)
    if compiled:
        from transformers import CompileConfig
        config = CompileConfig(backend="diopi", mode=None)  # mode: inductor's CUDA graphs, not for this backend
        config._compile_all_devices = True  # generate() compiles on accelerators it knows unless told otherwise
        kwargs.update(cache_implementation="static", compile_config=config)
    with torch.no_grad():
        out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), **kwargs)
    return {"generate": {"tokens": out.cpu()}}

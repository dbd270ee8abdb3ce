"""The model suite's models: small configurations of real architectures
(transformers classes and a torch.nn CNN) built with random weights, nothing
downloaded; `hf:<ModelClass>:key=value,...` names any other transformers
class (parsed by zoo.parse_hf_values, the one hf: parser); inputs() makes
every batch the suite and its multi-rank runner train on."""
from __future__ import annotations

import dataclasses
import os

from .. import _C
from . import zoo

ROOT = _C.CHECKOUT
DEFAULT_LIB = os.path.join(ROOT, "build", "torch", "lib", "libdiopi_impl.so")
TEXT_BATCH, TEXT_SEQ, VOCAB = 2, 8, 128
IMAGE_BATCH, IMAGE = 2, 32
# Small transformer sizes shared by the text models (2 layers, hidden 64).
SMALL = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4)


@dataclasses.dataclass(frozen=True)
class Model:
    name: str
    kind: str            # "text-lm" | "text-cls" | "seq2seq" | "vision" | "nn"
    cls: str             # transformers class, or "" for torch.nn models
    config: dict


MODELS = {m.name: m for m in [
    # Dropout stays as each configuration has it: comparisons run every dropout with p=0 (recipes.NoDropout).
    Model("bert", "text-cls", "BertForSequenceClassification", dict(SMALL, vocab_size=VOCAB, num_labels=3)),
    Model("gpt2", "text-lm", "GPT2LMHeadModel",
          dict(vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=64, bos_token_id=0, eos_token_id=0)),
    Model("llama", "text-lm", "LlamaForCausalLM", dict(SMALL, vocab_size=VOCAB, num_key_value_heads=2)),
    Model("qwen2", "text-lm", "Qwen2ForCausalLM", dict(SMALL, vocab_size=VOCAB, num_key_value_heads=2)),
    # A mixture of experts: routing by top-k, tokens gathered per expert (nonzero, indexing) and summed back
    # (index_add). transformers' default experts implementation, which on any device but the CPU counts
    # tokens per expert with an integer histc (csrc/aten/decompose.cpp serves it).
    Model("mixtral", "text-lm", "MixtralForCausalLM",
          dict(SMALL, vocab_size=VOCAB, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2)),
    Model("t5", "seq2seq", "T5ForConditionalGeneration",
          dict(vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4,
               decoder_start_token_id=0, pad_token_id=0)),
    Model("vit", "vision", "ViTForImageClassification",
          dict(image_size=IMAGE, patch_size=8, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
               num_attention_heads=4, num_labels=10)),
    Model("convnext", "vision", "ConvNextForImageClassification",
          dict(num_channels=3, hidden_sizes=[16, 32, 32, 64], depths=[1, 1, 1, 1], num_labels=10, image_size=IMAGE)),
    Model("resnet", "vision", "ResNetForImageClassification",
          dict(num_channels=3, embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1],
               layer_type="basic", num_labels=10)),
    Model("cnn", "nn", "", dict(channels=[3, 16, 32], num_labels=10)),
]}


def parse_model(spec: str) -> Model:
    """A suite name, or hf:<ModelClass>:key=value,... for any transformers model class."""
    if spec in MODELS:
        return MODELS[spec]
    if not spec.startswith("hf:"):
        import difflib
        close = difflib.get_close_matches(spec, list(MODELS), n=1)
        raise SystemExit(f"unknown model {spec!r}" + (f"; did you mean {close[0]}?" if close else "")
                         + f" (known: {', '.join(MODELS)}, or hf:<ModelClass>:key=value,...)")
    cls, cfg = zoo.parse_hf_values(spec)
    # The suite's kinds decide its batches and recipes; the zoo's finer ones map onto them.
    kind = {"image-cls": "vision", "seq2seq": "seq2seq", "speech-seq2seq": "seq2seq", "seq-cls": "text-cls"}.get(
        zoo.kind_of(cls), "text-lm")
    if kind != "vision":
        cfg.setdefault("vocab_size", VOCAB)
    return Model(spec, kind, cls, cfg)


class SmallCNN:
    """A plain torch.nn image classifier: conv, batch norm, ReLU, max pool, linear."""

    @staticmethod
    def build(channels, num_labels):
        import torch.nn as nn
        layers = []
        for cin, cout in zip(channels, channels[1:]):
            layers += [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]
        return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(channels[-1], num_labels))


def build(model: Model):
    import torch
    torch.manual_seed(0)
    if model.kind == "nn":
        return SmallCNN.build(**model.config)
    import transformers
    cls = getattr(transformers, model.cls, None)
    if cls is None:
        raise SystemExit(f"transformers {transformers.__version__} has no class {model.cls}")
    return cls(cls.config_class(**model.config))


def inputs(model: Model, m, seed=1, batch=None):
    """One batch of `batch` samples (default: the suite's TEXT_BATCH or IMAGE_BATCH) drawn from `seed`:
    token ids below m's vocabulary (labels the same ids, or classes), or images and class labels."""
    import torch
    g = torch.Generator().manual_seed(seed)
    if model.kind in ("vision", "nn"):
        n = batch or IMAGE_BATCH
        n_labels = model.config.get("num_labels", getattr(getattr(m, "config", None), "num_labels", 10))
        return {"pixel_values": torch.randn(n, 3, IMAGE, IMAGE, generator=g),
                "labels": torch.randint(0, n_labels, (n,), generator=g)}
    n = batch or TEXT_BATCH
    vocab = m.config.vocab_size
    ids = torch.randint(1, vocab, (n, TEXT_SEQ), generator=g)
    if model.kind == "text-cls":
        return {"input_ids": ids, "labels": torch.randint(0, m.config.num_labels, (n,), generator=g)}
    return {"input_ids": ids, "labels": ids.clone()}

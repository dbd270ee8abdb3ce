"""The one model registry: every model the suite trains and the harness
captures, built from transformers configuration classes (or torch.nn
builders) with random weights; nothing is downloaded.

Two groups share the table. SUITE: small configurations of real
architectures the model suite trains and compares (`scripts/models.sh`).
PUBLISHED: models at the sizes people train and serve, as their published
architecture configurations (facts: widths, depths, heads, vocabularies,
image sizes); model capture builds them on the `meta` device, so a 7B model
costs no memory, and each carries `small` overrides that make a tiny version
of the same architecture. `hf:<ModelClass>:key=value,...` names any other
transformers class (parse_hf, the one parser).

    m = build(MODELS["llama"])                       # a module, float32 on the CPU (the suite)
    batch = inputs(MODELS["llama"], m, seed=1)       # one batch of the suite
    model, inputs, spec = build_with_inputs("llama2_7b", device="meta")
    model, inputs, spec = build_with_inputs("llama2_7b", small=True, device="cpu", dtype="float32")
    loss(model(**inputs), inputs)                    # the scalar a training step differentiates

make_inputs is the one batch maker. `overrides` replaces configuration
values; the keys of INPUT_KEYS (batch, seq_len, image_size) in it size the
inputs instead.
"""
from __future__ import annotations

import ast
import dataclasses
import os

from .. import _C

ROOT = _C.CHECKOUT
DEFAULT_LIB = os.path.join(ROOT, "build", "torch", "lib", "libdiopi_impl.so")

# Keys of `overrides` (and of ModelSpec.small_inputs) that size the inputs,
# not the configuration.
INPUT_KEYS = ("batch", "seq_len", "image_size")
# Dropout draws random masks: cases of their own, not of the model; capture
# and comparisons want the deterministic network.
DROPOUT_KEYS = ("hidden_dropout_prob", "attention_probs_dropout_prob", "dropout_rate", "dropout", "attention_dropout",
                "resid_pdrop", "embd_pdrop", "attn_pdrop", "activation_dropout", "hidden_dropout", "classifier_dropout",
                "classifier_dropout_prob", "drop_path_rate", "summary_first_dropout")
KINDS = ("causal-lm", "seq-cls", "seq2seq", "image-cls", "speech-seq2seq", "base")


@dataclasses.dataclass(frozen=True)
class ModelSpec:
    name: str
    cls: str                 # transformers model class ("" for a torch.nn builder)
    config: dict             # published architecture configuration
    kind: str                # one of KINDS: decides the inputs and the loss
    dtype: str               # dtype it is trained/served in
    batch: int               # small enough that one activation fits a replayed case's budget
    seq_len: int = 0         # text models (decoder length for speech models)
    image_size: int = 0      # vision models
    modes: tuple = ("train",)  # "train": forward, loss, backward, AdamW; "infer": forward without grad
    note: str = ""
    small: dict = dataclasses.field(default_factory=dict)         # overrides for a tiny version (2 layers, hidden 64)
    small_inputs: dict = dataclasses.field(default_factory=dict)  # its input sizes: batch, seq_len / image_size
    runtime: dict = dataclasses.field(default_factory=dict)  # how the code runs, not the architecture (e.g. experts implementation)
    routing: str = ""        # data-dependent control flow capture must assume on meta ("uniform-topk": MoE routing)
    builder: str = ""        # name in BUILDERS for models transformers lacks

    def loss(self, output, inputs):
        return loss(output, inputs)

    def input_sizes(self, small=False):
        sizes = {"batch": self.batch, "seq_len": self.seq_len, "image_size": self.image_size}
        if small:
            sizes.update(self.small_inputs)
        return sizes


# Sequence lengths: LLM case sets use batch 1 x 256 tokens. Every width
# (hidden, intermediate, heads, vocabulary) is the published one; a longer
# sequence only makes the same operators longer, and at 256 tokens the
# baselines of one LLM stay within budget and replay in minutes on 2 cores.
LLM_SEQ = 256
TEXT_SMALL_INPUTS = {"batch": 2, "seq_len": 8}
IMAGE_SMALL_INPUTS = {"batch": 2, "image_size": 32}


def _small_decoder(kv_heads, **extra):
    return dict(vocab_size=256, hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                num_key_value_heads=kv_heads, max_position_embeddings=64, **extra)


LLAMA2_7B = dict(vocab_size=32000, hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
                 num_key_value_heads=32, max_position_embeddings=4096, rms_norm_eps=1e-5, rope_theta=10000.0,
                 hidden_act="silu", tie_word_embeddings=False)
RESNET50 = dict(num_channels=3, embedding_size=64, hidden_sizes=[256, 512, 1024, 2048], depths=[3, 4, 6, 3],
                layer_type="bottleneck", hidden_act="relu", downsample_in_first_stage=False, num_labels=1000)
RESNET_SMALL = dict(embedding_size=16, hidden_sizes=[32, 64, 128, 256], depths=[1, 1, 1, 1], num_labels=10)
VIT_BASE = dict(image_size=224, patch_size=16, num_channels=3, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                intermediate_size=3072, num_labels=1000, hidden_act="gelu")
VIT_SMALL = dict(image_size=32, patch_size=8, hidden_size=64, num_hidden_layers=2, num_attention_heads=4,
                 intermediate_size=128, num_labels=10)

# ----------------------------------------------------------------- the suite's models
# Small transformer sizes shared by the suite's text models (2 layers, hidden 64), vocabulary 128.
VOCAB = 128
SMALL = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4)


def _suite(name, cls, kind, config, builder=""):
    """A suite model: float32, its batch and sizes those of every suite run (TEXT_/IMAGE_SMALL_INPUTS)."""
    sizes = IMAGE_SMALL_INPUTS if kind == "image-cls" else TEXT_SMALL_INPUTS
    return ModelSpec(name, cls, config, kind, "float32", sizes["batch"], sizes.get("seq_len", 0),
                     sizes.get("image_size", 0), note="suite model", builder=builder)


SUITE_MODELS = [
    # Dropout stays as each configuration has it: comparisons run every dropout with p=0 (recipes.NoDropout).
    _suite("bert", "BertForSequenceClassification", "seq-cls", dict(SMALL, vocab_size=VOCAB, num_labels=3)),
    _suite("gpt2", "GPT2LMHeadModel", "causal-lm",
           dict(vocab_size=VOCAB, n_embd=64, n_layer=2, n_head=4, n_positions=64, bos_token_id=0, eos_token_id=0)),
    _suite("llama", "LlamaForCausalLM", "causal-lm", dict(SMALL, vocab_size=VOCAB, num_key_value_heads=2)),
    _suite("qwen2", "Qwen2ForCausalLM", "causal-lm", dict(SMALL, vocab_size=VOCAB, num_key_value_heads=2)),
    # A mixture of experts: routing by top-k, tokens gathered per expert (nonzero, indexing) and summed back
    # (index_add). transformers' default experts implementation, which on any device but the CPU counts
    # tokens per expert with an integer histc (csrc/aten/decompose.cpp serves it).
    _suite("mixtral", "MixtralForCausalLM", "causal-lm",
           dict(SMALL, vocab_size=VOCAB, num_key_value_heads=2, num_local_experts=4, num_experts_per_tok=2)),
    _suite("t5", "T5ForConditionalGeneration", "seq2seq",
           dict(vocab_size=VOCAB, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_heads=4,
                decoder_start_token_id=0, pad_token_id=0)),
    _suite("vit", "ViTForImageClassification", "image-cls",
           dict(image_size=32, patch_size=8, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                num_attention_heads=4, num_labels=10)),
    _suite("convnext", "ConvNextForImageClassification", "image-cls",
           dict(num_channels=3, hidden_sizes=[16, 32, 32, 64], depths=[1, 1, 1, 1], num_labels=10, image_size=32)),
    _suite("resnet", "ResNetForImageClassification", "image-cls",
           dict(num_channels=3, embedding_size=16, hidden_sizes=[16, 32], depths=[1, 1],
                layer_type="basic", num_labels=10)),
    _suite("cnn", "", "image-cls", dict(channels=[3, 16, 32], num_labels=10), builder="small_cnn"),
]

# ----------------------------------------------------------------- published configurations
PUBLISHED_MODELS = [
    ModelSpec("llama2_7b", "LlamaForCausalLM", LLAMA2_7B, "causal-lm", "bfloat16", 1, LLM_SEQ, modes=("train", "infer"),
              small=_small_decoder(4), small_inputs=TEXT_SMALL_INPUTS),
    ModelSpec("llama3_8b", "LlamaForCausalLM", dict(
        vocab_size=128256, hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, max_position_embeddings=8192, rms_norm_eps=1e-5, rope_theta=500000.0,
        hidden_act="silu", tie_word_embeddings=False), "causal-lm", "bfloat16", 1, LLM_SEQ, modes=("train", "infer"),
        small=_small_decoder(2), small_inputs=TEXT_SMALL_INPUTS),
    ModelSpec("qwen2_7b", "Qwen2ForCausalLM", dict(
        vocab_size=152064, hidden_size=3584, intermediate_size=18944, num_hidden_layers=28, num_attention_heads=28,
        num_key_value_heads=4, max_position_embeddings=32768, rms_norm_eps=1e-6, rope_theta=1000000.0,
        hidden_act="silu", tie_word_embeddings=False), "causal-lm", "bfloat16", 1, LLM_SEQ, modes=("train", "infer"),
        small=_small_decoder(2), small_inputs=TEXT_SMALL_INPUTS),
    ModelSpec("mistral_7b", "MistralForCausalLM", dict(
        vocab_size=32000, hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, max_position_embeddings=32768, rms_norm_eps=1e-5, rope_theta=10000.0,
        sliding_window=4096, hidden_act="silu", tie_word_embeddings=False), "causal-lm", "bfloat16", 1, LLM_SEQ,
        modes=("train", "infer"), small=_small_decoder(2), small_inputs=TEXT_SMALL_INPUTS),
    ModelSpec("mixtral_8x7b", "MixtralForCausalLM", dict(
        vocab_size=32000, hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, max_position_embeddings=32768, rms_norm_eps=1e-5, rope_theta=1000000.0,
        num_local_experts=8, num_experts_per_tok=2, router_aux_loss_coef=0.02, sliding_window=None,
        hidden_act="silu", tie_word_embeddings=False), "causal-lm", "bfloat16", 1, LLM_SEQ, modes=("train", "infer"),
        small=_small_decoder(2, num_local_experts=4, num_experts_per_tok=2), small_inputs=TEXT_SMALL_INPUTS,
        runtime=dict(experts_implementation="eager"), routing="uniform-topk",
        note="mixture of experts, eager experts (a loop of per-expert GEMMs); routing assumed uniform on meta: "
             "each expert receives batch*seq*top_k/experts tokens"),
    ModelSpec("llama2_7b_fp16", "LlamaForCausalLM", LLAMA2_7B, "causal-lm", "float16", 1, LLM_SEQ, modes=("infer",),
              note="served in float16", small=_small_decoder(4), small_inputs=TEXT_SMALL_INPUTS),
    # Named apart from the suite's small gpt2; its case set keeps the name gpt2 (capture --name gpt2).
    ModelSpec("gpt2_124m", "GPT2LMHeadModel", dict(
        vocab_size=50257, n_positions=1024, n_embd=768, n_layer=12, n_head=12, activation_function="gelu_new",
        layer_norm_epsilon=1e-5), "causal-lm", "float32", 2, 1024,
        small=dict(vocab_size=256, n_positions=64, n_embd=64, n_layer=2, n_head=4), small_inputs=TEXT_SMALL_INPUTS),
    ModelSpec("bert_base", "BertForSequenceClassification", dict(
        vocab_size=30522, hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
        max_position_embeddings=512, type_vocab_size=2, num_labels=2, hidden_act="gelu"), "seq-cls", "float32", 4, 512,
        small=dict(vocab_size=256, hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128,
                   max_position_embeddings=64, num_labels=3), small_inputs=TEXT_SMALL_INPUTS),
    ModelSpec("t5_base", "T5ForConditionalGeneration", dict(
        vocab_size=32128, d_model=768, d_kv=64, d_ff=3072, num_layers=12, num_decoder_layers=12, num_heads=12,
        relative_attention_num_buckets=32, feed_forward_proj="relu", decoder_start_token_id=0, pad_token_id=0),
        "seq2seq", "float32", 2, 512,
        small=dict(vocab_size=256, d_model=64, d_kv=16, d_ff=128, num_layers=2, num_decoder_layers=2, num_heads=4),
        small_inputs=TEXT_SMALL_INPUTS),
    ModelSpec("vit_base", "ViTForImageClassification", VIT_BASE, "image-cls", "float32", 4, image_size=224,
              small=VIT_SMALL, small_inputs=IMAGE_SMALL_INPUTS),
    ModelSpec("resnet50", "ResNetForImageClassification", RESNET50, "image-cls", "float32", 4, image_size=224,
              small=RESNET_SMALL, small_inputs=IMAGE_SMALL_INPUTS),
    ModelSpec("resnet50_fp16", "ResNetForImageClassification", RESNET50, "image-cls", "float16", 4, image_size=224,
              modes=("infer",), note="served in float16", small=RESNET_SMALL, small_inputs=IMAGE_SMALL_INPUTS),
    ModelSpec("vit_base_fp16", "ViTForImageClassification", VIT_BASE, "image-cls", "float16", 4, image_size=224,
              modes=("infer",), note="served in float16", small=VIT_SMALL, small_inputs=IMAGE_SMALL_INPUTS),
    ModelSpec("convnext_tiny", "ConvNextForImageClassification", dict(
        num_channels=3, patch_size=4, num_stages=4, hidden_sizes=[96, 192, 384, 768], depths=[3, 3, 9, 3],
        hidden_act="gelu", layer_scale_init_value=1e-6, drop_path_rate=0.0, num_labels=1000),
        "image-cls", "float32", 4, image_size=224,
        small=dict(hidden_sizes=[16, 32, 64, 128], depths=[1, 1, 1, 1], num_labels=10), small_inputs=IMAGE_SMALL_INPUTS),
    ModelSpec("whisper_small", "WhisperForConditionalGeneration", dict(
        vocab_size=51865, num_mel_bins=80, d_model=768, encoder_layers=12, decoder_layers=12,
        encoder_attention_heads=12, decoder_attention_heads=12, encoder_ffn_dim=3072, decoder_ffn_dim=3072,
        max_source_positions=1500, max_target_positions=448, decoder_start_token_id=50258, pad_token_id=50257),
        "speech-seq2seq", "float16", 1, 448, modes=("infer",), note="served in float16; 30 s of audio, 448 tokens",
        small=dict(vocab_size=256, d_model=64, encoder_layers=2, decoder_layers=2, encoder_attention_heads=4,
                   decoder_attention_heads=4, encoder_ffn_dim=128, decoder_ffn_dim=128, max_source_positions=16,
                   max_target_positions=16, decoder_start_token_id=1, pad_token_id=0),
        small_inputs=TEXT_SMALL_INPUTS),
]


# ----------------------------------------------------------------- building
def parse_model(spec):
    """The suite's reading of a model name: a registry name, or an hf: spec whose text model gets the suite's
    small vocabulary unless it names one."""
    try:
        model = spec_of(spec)
    except KeyError as e:
        raise SystemExit(e.args[0]) from None
    if spec.startswith("hf:") and model.kind != "image-cls" and "vocab_size" not in model.config:
        model = dataclasses.replace(model, config=dict(model.config, vocab_size=VOCAB))
    return model


def spec_of(name):
    """The ModelSpec of a registry name or of an hf:<ModelClass>:key=value,... spec."""
    if name in MODELS:
        return MODELS[name]
    if name.startswith("hf:"):
        return parse_hf(name)
    import difflib
    close = difflib.get_close_matches(name, list(MODELS), n=1)
    raise KeyError(f"unknown model {name!r}" + (f"; did you mean {close[0]}?" if close else "")
                   + f" (known: {', '.join(MODELS)}, or hf:<ModelClass>:key=value,...)")


def parse_hf(text):
    """hf:<ModelClass>[:key=value,...]: any transformers text or vision model
    class, built from its configuration class with these values (Python
    literals: 64, 1e-5, [1, 2], "gelu"). batch=, seq_len=, image_size= size
    the inputs (default 2 x 8 tokens or 2 x 32x32 images); dtype= sets the dtype."""
    cls, values = parse_hf_values(text)
    dtype = values.pop("dtype", "float32")
    sizes = {k: values.pop(k) for k in INPUT_KEYS if k in values}
    kind = kind_of(cls)
    if kind in ("image-cls",):
        image = sizes.get("image_size", values.get("image_size", 32))
        if "image_size" in _config_fields(cls):
            values.setdefault("image_size", image)
        sizes.setdefault("image_size", image)
    return ModelSpec(text, cls, values, kind, dtype, sizes.get("batch", 2), sizes.get("seq_len", 8),
                     sizes.get("image_size", 0), modes=("train",), note="hf: spec")


def _config_fields(cls):
    import transformers
    c = getattr(transformers, cls, None)
    if c is None:
        return set()
    return set(vars(c.config_class()))


def parse_hf_values(text):
    """hf:<ModelClass>[:key=value,...] -> (ModelClass, {key: value}); values are Python literals where they
    parse as one (64, 1e-5, [1, 2]), else strings. The one parser of hf: specs (capture and the suite)."""
    _, cls, *rest = text.split(":", 2)
    values = {}
    for item in _split_top_level(rest[0]) if rest and rest[0] else []:
        k, _, v = item.partition("=")
        try:
            values[k.strip()] = ast.literal_eval(v.strip())
        except (ValueError, SyntaxError):
            values[k.strip()] = v.strip()
    return cls, values


def kind_of(cls):
    """The kind of a transformers model class, from its name."""
    if "ImageClassification" in cls:
        return "image-cls"
    if cls.startswith("Whisper") and "ConditionalGeneration" in cls or "SpeechSeq2Seq" in cls:
        return "speech-seq2seq"
    if "ConditionalGeneration" in cls or "Seq2SeqLM" in cls:
        return "seq2seq"
    if "SequenceClassification" in cls:
        return "seq-cls"
    if cls.endswith(("ForCausalLM", "LMHeadModel")):
        return "causal-lm"
    return "base"


def _split_top_level(text):
    """Split k=v,k=[1,2] on the commas outside brackets."""
    items, depth, cur = [], 0, ""
    for ch in text:
        depth += 1 if ch in "[({" else (-1 if ch in "])}" else 0)
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    return items + ([cur] if cur else [])


def config_values(spec, overrides=None, small=False):
    """The configuration values a build uses: published, then small, then overrides."""
    values = dict(spec.config)
    if small:
        values.update(spec.small)
    values.update({k: v for k, v in (overrides or {}).items() if k not in INPUT_KEYS})
    return values


def build(model):
    """The suite's module of a spec or name: its small version (a suite model is small as it is), float32, on
    the CPU, weights from seed 0, dropout as configured."""
    spec = spec_of(model) if isinstance(model, str) else model
    return _build(spec, None, "cpu", "float32", True, 0, keep_dropout=True)[0]


def inputs(model, m, seed=1, batch=None):
    """One suite batch for module `m` of `model` (a spec), drawn from `seed`, on the CPU in float32;
    `batch` samples instead of the spec's."""
    import torch

    sizes = model.input_sizes(small=True)
    if batch:
        sizes["batch"] = batch
    cfg = getattr(m, "config", None) or _NnConfig(config_values(model, small=True))
    return make_inputs(model, cfg, "cpu", torch.float32, sizes, seed)


def build_with_inputs(name, overrides=None, device="meta", dtype=None, small=False, seed=0):
    """(model, inputs, spec): the model of a name (or an hf: spec) built from
    its configuration (published values; spec.small when `small`; then
    `overrides`), in its dtype (or `dtype`), on `device`, dropout off, and
    one batch of inputs (labels included) drawn with seed + 1 (indices below
    the vocabulary, labels below the class count); on meta they are empty."""
    spec = spec_of(name)
    sizes = spec.input_sizes(small)
    sizes.update({k: v for k, v in (overrides or {}).items() if k in INPUT_KEYS})
    model, cfg, torch_dtype = _build(spec, overrides, device, dtype, small, seed)
    inputs = make_inputs(spec, cfg, device, torch_dtype, sizes, seed + 1)
    if spec.runtime.get("memory_format") == "channels_last" and "pixel_values" in inputs:
        import torch
        inputs["pixel_values"] = inputs["pixel_values"].contiguous(memory_format=torch.channels_last)
    return model, inputs, spec


def _build(spec, overrides, device, dtype, small, seed, keep_dropout=False):
    """(model, its configuration, its torch dtype). Dropout draws random masks: cases of their own, not of
    the model, so capture and comparisons get the deterministic network unless `keep_dropout`."""
    import torch

    values = config_values(spec, overrides, small)
    torch_dtype = getattr(torch, dtype or spec.dtype) if isinstance(dtype or spec.dtype, str) else dtype
    torch.manual_seed(seed)
    if spec.builder:
        cfg = _NnConfig(values)
        with torch.device(device):
            model = BUILDERS[spec.builder](**values).to(torch_dtype)
        if spec.runtime.get("memory_format") == "channels_last":
            model = model.to(memory_format=torch.channels_last)
    else:
        import transformers
        cls = getattr(transformers, spec.cls, None)
        if cls is None:
            raise KeyError(f"transformers {transformers.__version__} has no class {spec.cls}")
        cfg = cls.config_class(**dict(values, **spec.runtime))
        for k in () if keep_dropout else DROPOUT_KEYS:
            if isinstance(getattr(cfg, k, None), float):
                setattr(cfg, k, 0.0)
        with torch.device(device):
            model = cls(cfg).to(torch_dtype)
    return model, cfg, torch_dtype


def make_inputs(spec, cfg, device, dtype, sizes=None, seed=1):
    """The one batch maker: one batch for `spec.kind` drawn from `seed`, token
    ids from 1 to below the vocabulary (a causal or seq2seq model's labels are
    its input ids), labels below the class count, normal images / log-mel
    features."""
    import torch

    sizes = sizes or spec.input_sizes()
    b, seq, image = sizes["batch"], sizes["seq_len"], sizes["image_size"]
    meta = torch.device(device).type == "meta"
    g = None if meta else torch.Generator().manual_seed(seed)

    def ids(shape, high, low=0):
        if meta:
            return torch.zeros(shape, dtype=torch.long, device=device)
        return torch.randint(low, high, shape, generator=g).to(device)

    def floats(shape):
        if meta:
            return torch.zeros(shape, dtype=dtype, device=device)
        return torch.randn(shape, generator=g).to(device=device, dtype=dtype)

    vocab = getattr(cfg, "vocab_size", 2)
    labels = getattr(cfg, "num_labels", 2)
    if spec.kind in ("causal-lm", "seq2seq"):
        x = ids((b, seq), vocab, 1)
        return {"input_ids": x, "labels": x.clone()}
    if spec.kind == "seq-cls":
        return {"input_ids": ids((b, seq), vocab, 1), "labels": ids((b,), labels)}
    if spec.kind == "base":
        return {"input_ids": ids((b, seq), vocab, 1)}
    if spec.kind == "image-cls":
        channels = getattr(cfg, "num_channels", 3)
        return {"pixel_values": floats((b, channels, image, image)), "labels": ids((b,), labels)}
    if spec.kind == "speech-seq2seq":
        frames = 2 * cfg.max_source_positions
        return {"input_features": floats((b, cfg.num_mel_bins, frames)),
                "decoder_input_ids": ids((b, seq), vocab, 1)}
    raise ValueError(spec.kind)


def loss(output, inputs):
    """The scalar loss of a model output: the model's own loss when it
    computed one (labels given), else cross entropy of classification logits
    against inputs["labels"], else the mean of the logits (or of the first
    output) in float32."""
    import torch
    import torch.nn.functional as F

    own = output.get("loss") if isinstance(output, dict) else getattr(output, "loss", None)
    if own is not None:
        return own
    if isinstance(output, torch.Tensor):
        logits = output
    elif isinstance(output, dict) or hasattr(output, "logits"):
        logits = output.get("logits") if isinstance(output, dict) else output.logits
        if logits is None:
            logits = output.get("last_hidden_state") if isinstance(output, dict) else output[0]
    else:
        logits = output[0]
    labels = inputs.get("labels") if isinstance(inputs, dict) else None
    if labels is not None and logits.dim() == 2 and labels.dim() == 1 and labels.shape[0] == logits.shape[0]:
        return F.cross_entropy(logits.float(), labels)
    return logits.float().mean()


# ----------------------------------------------------------------- torch.nn builders
class _NnConfig:
    """Configuration values of a torch.nn model, read like a transformers config."""

    def __init__(self, values):
        self.__dict__.update(values)


class NnOutput(dict):
    """What a torch.nn model of the registry returns: logits (and loss with labels), like transformers outputs."""

    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k) from None


def _classifier(body_fn):
    """Wraps a torch.nn image network so it takes pixel_values (and labels) like a transformers model."""
    import torch.nn as nn
    import torch.nn.functional as F

    class Classifier(nn.Module):
        def __init__(self, **cfg):
            super().__init__()
            self.net = body_fn(**cfg)

        def forward(self, pixel_values, labels=None):
            logits = self.net(pixel_values)
            out = NnOutput(logits=logits)
            if labels is not None:
                out["loss"] = F.cross_entropy(logits.float(), labels)
            return out

    return Classifier


def _resnet_v15(num_channels=3, embedding_size=64, hidden_sizes=(256, 512, 1024, 2048), depths=(3, 4, 6, 3),
                num_labels=1000, **_):
    """ResNet v1.5 as torchvision lays it out (stride on the 3x3 conv of the bottleneck), from torch.nn."""
    import torch.nn as nn

    class Bottleneck(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            mid = cout // 4
            self.conv1, self.bn1 = nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid)
            self.conv2, self.bn2 = nn.Conv2d(mid, mid, 3, stride, 1, bias=False), nn.BatchNorm2d(mid)
            self.conv3, self.bn3 = nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout)
            self.relu = nn.ReLU(inplace=True)
            self.downsample = None
            if stride != 1 or cin != cout:
                self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

        def forward(self, x):
            idt = x if self.downsample is None else self.downsample(x)
            y = self.relu(self.bn1(self.conv1(x)))
            y = self.relu(self.bn2(self.conv2(y)))
            return self.relu(self.bn3(self.conv3(y)) + idt)

    layers = [nn.Conv2d(num_channels, embedding_size, 7, 2, 3, bias=False), nn.BatchNorm2d(embedding_size),
              nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1)]
    cin = embedding_size
    for i, (width, depth) in enumerate(zip(hidden_sizes, depths)):
        for j in range(depth):
            layers.append(Bottleneck(cin, width, 2 if (i > 0 and j == 0) else 1))
            cin = width
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, num_labels)]
    return nn.Sequential(*layers)


def _small_cnn(channels, num_labels, **_):
    """A plain torch.nn image classifier: conv, batch norm, ReLU, max pool, linear (the suite's cnn; the
    recipes give it pixel_values alone)."""
    import torch.nn as nn
    layers = []
    for cin, cout in zip(channels, channels[1:]):
        layers += [nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(), nn.MaxPool2d(2)]
    return nn.Sequential(*layers, nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(channels[-1], num_labels))


BUILDERS = {"resnet_v15": _classifier(_resnet_v15), "small_cnn": _small_cnn}

PUBLISHED_MODELS.append(ModelSpec(
    "resnet50_torchvision", "", dict(RESNET50), "image-cls", "float32", 4, image_size=224, builder="resnet_v15",
    small=RESNET_SMALL, small_inputs=IMAGE_SMALL_INPUTS,
    note="torch.nn, laid out as torchvision's resnet50 (v1.5: stride on the 3x3 convolution), channels_last",
    runtime=dict(memory_format="channels_last")))

MODELS = {m.name: m for m in SUITE_MODELS + PUBLISHED_MODELS}
SUITE = tuple(m.name for m in SUITE_MODELS)          # what the suite runs by default
PUBLISHED = tuple(m.name for m in PUBLISHED_MODELS)  # what capture --all captures

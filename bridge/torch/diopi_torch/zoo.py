"""Models at the sizes people train and serve, as their published
architecture configurations (facts: widths, depths, heads, vocabularies,
image sizes), built from transformers configuration classes with random
weights. Nothing is downloaded. Model capture builds them on the `meta`
device, so a 7B model costs no memory.

    zoo.MODELS["llama2_7b"].config        # the published configuration values
    model, inputs, spec = zoo.build("llama2_7b", device="meta")
"""
from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class ModelSpec:
    name: str
    cls: str                 # transformers model class
    config: dict             # published architecture configuration
    kind: str                # "causal-lm" | "seq-cls" | "seq2seq" | "image-cls" | "speech-seq2seq"
    dtype: str               # dtype it is trained/served in
    batch: int               # small enough that one activation fits a replayed case's budget
    seq_len: int = 0         # text models
    image_size: int = 0      # vision models
    modes: tuple = ("train",)  # "train": forward, loss, backward, AdamW; "infer": forward without grad
    note: str = ""


# Mixture-of-experts models (Mixtral) are not here: their routing picks
# experts with data-dependent operators (nonzero), which the meta device
# cannot evaluate, so they cannot be captured without memory.
#
# Sequence lengths: LLM case sets use batch 1 x 256 tokens. Every width
# (hidden, intermediate, heads, vocabulary) is the published one; a longer
# sequence only makes the same operators longer, and at 256 tokens the
# baselines of one LLM stay near 500 MB and replay in minutes on 2 cores.
LLM_SEQ = 256

MODELS = {m.name: m for m in [
    ModelSpec("llama2_7b", "LlamaForCausalLM", dict(
        vocab_size=32000, hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=32, max_position_embeddings=4096, rms_norm_eps=1e-5, rope_theta=10000.0,
        hidden_act="silu", tie_word_embeddings=False), "causal-lm", "bfloat16", 1, LLM_SEQ, modes=("train", "infer")),
    ModelSpec("llama3_8b", "LlamaForCausalLM", dict(
        vocab_size=128256, hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, max_position_embeddings=8192, rms_norm_eps=1e-5, rope_theta=500000.0,
        hidden_act="silu", tie_word_embeddings=False), "causal-lm", "bfloat16", 1, LLM_SEQ, modes=("train", "infer")),
    ModelSpec("qwen2_7b", "Qwen2ForCausalLM", dict(
        vocab_size=152064, hidden_size=3584, intermediate_size=18944, num_hidden_layers=28, num_attention_heads=28,
        num_key_value_heads=4, max_position_embeddings=32768, rms_norm_eps=1e-6, rope_theta=1000000.0,
        hidden_act="silu", tie_word_embeddings=False), "causal-lm", "bfloat16", 1, LLM_SEQ, modes=("train", "infer")),
    ModelSpec("mistral_7b", "MistralForCausalLM", dict(
        vocab_size=32000, hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=8, max_position_embeddings=32768, rms_norm_eps=1e-5, rope_theta=10000.0,
        sliding_window=4096, hidden_act="silu", tie_word_embeddings=False), "causal-lm", "bfloat16", 1, LLM_SEQ,
        modes=("train", "infer")),
    ModelSpec("llama2_7b_fp16", "LlamaForCausalLM", dict(
        vocab_size=32000, hidden_size=4096, intermediate_size=11008, num_hidden_layers=32, num_attention_heads=32,
        num_key_value_heads=32, max_position_embeddings=4096, rms_norm_eps=1e-5, rope_theta=10000.0,
        hidden_act="silu", tie_word_embeddings=False), "causal-lm", "float16", 1, LLM_SEQ, modes=("infer",),
        note="served in float16"),
    ModelSpec("gpt2", "GPT2LMHeadModel", dict(
        vocab_size=50257, n_positions=1024, n_embd=768, n_layer=12, n_head=12, activation_function="gelu_new",
        layer_norm_epsilon=1e-5), "causal-lm", "float32", 2, 1024),
    ModelSpec("bert_base", "BertForSequenceClassification", dict(
        vocab_size=30522, hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072,
        max_position_embeddings=512, type_vocab_size=2, num_labels=2, hidden_act="gelu"), "seq-cls", "float32", 4, 512),
    ModelSpec("t5_base", "T5ForConditionalGeneration", dict(
        vocab_size=32128, d_model=768, d_kv=64, d_ff=3072, num_layers=12, num_decoder_layers=12, num_heads=12,
        relative_attention_num_buckets=32, feed_forward_proj="relu", decoder_start_token_id=0, pad_token_id=0),
        "seq2seq", "float32", 2, 512),
    ModelSpec("vit_base", "ViTForImageClassification", dict(
        image_size=224, patch_size=16, num_channels=3, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
        intermediate_size=3072, num_labels=1000, hidden_act="gelu"), "image-cls", "float32", 4, image_size=224),
    ModelSpec("resnet50", "ResNetForImageClassification", dict(
        num_channels=3, embedding_size=64, hidden_sizes=[256, 512, 1024, 2048], depths=[3, 4, 6, 3],
        layer_type="bottleneck", hidden_act="relu", downsample_in_first_stage=False, num_labels=1000),
        "image-cls", "float32", 4, image_size=224),
    ModelSpec("resnet50_fp16", "ResNetForImageClassification", dict(
        num_channels=3, embedding_size=64, hidden_sizes=[256, 512, 1024, 2048], depths=[3, 4, 6, 3],
        layer_type="bottleneck", hidden_act="relu", downsample_in_first_stage=False, num_labels=1000),
        "image-cls", "float16", 4, image_size=224, modes=("infer",), note="served in float16"),
    ModelSpec("vit_base_fp16", "ViTForImageClassification", dict(
        image_size=224, patch_size=16, num_channels=3, hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
        intermediate_size=3072, num_labels=1000, hidden_act="gelu"), "image-cls", "float16", 4, image_size=224,
        modes=("infer",), note="served in float16"),
    ModelSpec("convnext_tiny", "ConvNextForImageClassification", dict(
        num_channels=3, patch_size=4, num_stages=4, hidden_sizes=[96, 192, 384, 768], depths=[3, 3, 9, 3],
        hidden_act="gelu", layer_scale_init_value=1e-6, drop_path_rate=0.0, num_labels=1000),
        "image-cls", "float32", 4, image_size=224),
    ModelSpec("whisper_small", "WhisperForConditionalGeneration", dict(
        vocab_size=51865, num_mel_bins=80, d_model=768, encoder_layers=12, decoder_layers=12,
        encoder_attention_heads=12, decoder_attention_heads=12, encoder_ffn_dim=3072, decoder_ffn_dim=3072,
        max_source_positions=1500, max_target_positions=448, decoder_start_token_id=50258, pad_token_id=50257),
        "speech-seq2seq", "float16", 1, 448, modes=("infer",), note="served in float16; 30 s of audio, 448 tokens"),
]}


def build(name, overrides=None, device="meta", dtype=None):
    """(model, inputs, spec): the model built from its configuration with
    `overrides`, in its dtype (or `dtype`), on `device`, and one batch of
    inputs of the spec's sizes (labels included for training)."""
    import torch
    import transformers

    spec = MODELS[name]
    cls = getattr(transformers, spec.cls)
    cfg = cls.config_class(**dict(spec.config, **(overrides or {})))
    for k in ("hidden_dropout_prob", "attention_probs_dropout_prob", "dropout_rate", "dropout", "attention_dropout",
              "resid_pdrop", "embd_pdrop", "attn_pdrop", "activation_dropout"):
        if hasattr(cfg, k):
            setattr(cfg, k, 0.0)  # dropout draws random masks: cases of their own, not of the model
    torch_dtype = getattr(torch, dtype or spec.dtype)
    with torch.device(device):
        model = cls(cfg).to(torch_dtype)
    return model, make_inputs(spec, cfg, device, torch_dtype), spec


def make_inputs(spec, cfg, device, dtype):
    import torch

    b = spec.batch
    if spec.kind in ("causal-lm", "seq2seq"):
        ids = torch.zeros(b, spec.seq_len, dtype=torch.long, device=device)
        return {"input_ids": ids, "labels": ids.clone()}
    if spec.kind == "seq-cls":
        return {"input_ids": torch.zeros(b, spec.seq_len, dtype=torch.long, device=device),
                "labels": torch.zeros(b, dtype=torch.long, device=device)}
    if spec.kind == "image-cls":
        return {"pixel_values": torch.zeros(b, 3, spec.image_size, spec.image_size, dtype=dtype, device=device),
                "labels": torch.zeros(b, dtype=torch.long, device=device)}
    if spec.kind == "speech-seq2seq":
        frames = 2 * cfg.max_source_positions
        return {"input_features": torch.zeros(b, cfg.num_mel_bins, frames, dtype=dtype, device=device),
                "decoder_input_ids": torch.zeros(b, spec.seq_len, dtype=torch.long, device=device)}
    raise ValueError(spec.kind)

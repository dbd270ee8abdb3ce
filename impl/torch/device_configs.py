"""What impl/torch, the reference implementation, states about itself.

Read as data (only literal assignments). The harness's SKIP and TOLERANCES
are empty: the reference computes the baselines' own ATen calls.
MODEL_TOLERANCES is for the diopi device's model suite (scripts/models.sh):
per precision class of a recipe, the largest difference from eager CPU,
relative to each tensor's scale, with the reason.
"""

SKIP = {
}

TOLERANCES = {
}

MODEL_TOLERANCES = {
    "fp32": (1e-4, "the reference: the same ATen kernels as eager CPU, in another order of calls"),
    # Times eager CPU's own error against float32 (plus one rounding of the format), see suite.compare_16bit.
    "bf16": (3.0, "the same ATen kernels, but autocast casts CUDA's operators on the device and the CPU's in eager CPU, so the device rounds at other places: up to 1.7x eager CPU's error plus one rounding measured (convnext, bf16)"),
    "fp16": (3.0, "float16 as bfloat16; the largest ratios measured come with errors below one float16 rounding"),
}

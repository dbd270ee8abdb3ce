"""Cases impl/cpu skips and tolerances it needs, each with its reason.

Read as data by the harness (conformance/device_config.py): only literal
SKIP and TOLERANCES assignments. Case names are "<case>::<dtype>::<shape...>"
globs, as printed in error_report.csv.
"""

SKIP = {
}

TOLERANCES = {
    "bce_with_logits*::float16::*": {
        "float16": (5e-3, 5e-3),
        "reason": "the baseline is torch's float16 composite (every intermediate rounded to half); this vendor evaluates the loss in float and rounds once, closer to the float64 value",
    },
    "bce_with_logits*::bfloat16::*": {
        "bfloat16": (2e-2, 2e-2),
        "reason": "the baseline is torch's bfloat16 composite (every intermediate rounded to bfloat16); this vendor evaluates the loss in float and rounds once, closer to the float64 value",
    },
    "nll_loss*::bfloat16::*reduction=sum*": {
        "bfloat16": (4e-2, 2e-2),
        "reason": "the baseline sums in bfloat16 (cancelling terms lose most bits); this vendor sums in double and rounds once, closer to the float64 value",
    },
    "nll_loss*::bfloat16::*reduction=mean*": {
        "bfloat16": (1e-2, 2e-2),
        "reason": "the baseline averages in bfloat16 (up to 1.7% off the float64 mean); this vendor sums in double and rounds once; the magnitude-capped bound (0.8% + 0.15% of the value) rejects that difference",
    },
    "nll_loss*::float16::*reduction=mean*": {
        "float16": (1e-3, 1e-2),
        "reason": "the baseline averages in float16 (up to 0.53% off the float64 mean); this vendor sums in double and rounds once; the magnitude-capped bound (0.1% + 0.4% of the value) rejects that difference",
    },
}

# For the diopi device's model suite (scripts/models.sh): largest difference from eager CPU per recipe precision,
# relative to each tensor's scale.
MODEL_TOLERANCES = {
    "fp32": (1e-4, "own kernels (other summation orders and vector widths than ATen's): up to 1.2e-5 measured "
                   "after four AdamW steps (resume)"),
    # Times eager CPU's own error against float32 (plus one rounding of the format), see suite.compare_16bit.
    "bf16": (3.0, "own kernels accumulate in float32 and round once; autocast casts CUDA's operators on the device and the CPU's in eager CPU: up to 1.9x eager CPU's error measured (bert, bf16)"),
    "fp16": (3.0, "float16 as bfloat16; the largest ratios measured come with errors below one float16 rounding"),
}

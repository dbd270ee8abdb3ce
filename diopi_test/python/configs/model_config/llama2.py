"""Llama-2 inference and training kernels (RMS norm, rotary, attention, SiLU)."""
FUNCTIONS = [
    "diopiRMSNorm", "diopiRMSNormBackward", "diopiRotaryEmbedding",
    "diopiFlashAttention", "diopiFlashAttentionBackward", "diopiFlashAttentionVarLen",
    "diopiLinear", "diopiLinearBackward", "diopiMatmul", "diopiSilu", "diopiSiluBackward",
    "diopiMul", "diopiAdd", "diopiEmbedding", "diopiEmbeddingBackward", "diopiSoftmax",
    "diopiCrossEntropyLoss", "diopiCrossEntropyLossBackward", "diopiAdamW", "diopiCastDtype",
]

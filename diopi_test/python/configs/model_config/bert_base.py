"""BERT-base fine-tuning step (embeddings, attention in plain ops, layer norm, GELU, AdamW)."""
FUNCTIONS = [
    "diopiEmbedding", "diopiEmbeddingBackward",
    "diopiLayerNorm", "diopiLayerNormBackward",
    "diopiLinear", "diopiLinearBackward", "diopiBmm", "diopiMatmul",
    "diopiSoftmax", "diopiSoftmaxBackward", "diopiDropout",
    "diopiGelu", "diopiGeluBackward", "diopiAdd", "diopiMul", "diopiDiv",
    "diopiTranspose", "diopiMaskedFill", "diopiCrossEntropyLoss", "diopiCrossEntropyLossBackward",
    "diopiAdamW", "diopiCastDtype",
]

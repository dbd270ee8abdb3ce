"""ResNet-50 training step (convolutions, batch norm, ReLU, pooling, FC, SGD)."""
FUNCTIONS = [
    "diopiConvolution2d", "diopiConvolution2dBackward",
    "diopiBatchNorm", "diopiBatchNormBackward",
    "diopiRelu", "diopiReluInp", "diopiThresholdBackward",
    "diopiMaxPool2dWithIndices", "diopiMaxPool2dBackward",
    "diopiAdaptiveAvgPool2d", "diopiAdaptiveAvgPool2dBackward",
    "diopiAdd", "diopiAddInp", "diopiLinear", "diopiLinearBackward",
    "diopiCrossEntropyLoss", "diopiCrossEntropyLossBackward",
    "diopiSgd", "diopiFill", "diopiCopyInp", "diopiMean", "diopiSum",
]

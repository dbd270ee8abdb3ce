"""relu, sigmoid."""
from conformance.gen import randn, special
from conformance.reftorch import torch
from conformance.spec import FLOAT, Op, T

SHAPES = (((2, 3),), ((),), ((0, 3),), ((2, 8, 7, 7),), ((1024, 1024),))

relu = Op("diopiRelu", lambda input: torch.relu(input), tensors=dict(input=T()), shapes=SHAPES, dtypes=FLOAT + ("int32", "int64", "int8", "uint8"))
relu_special = Op("diopiRelu", lambda input: torch.relu(input), tensors=dict(input=T(special())), shapes=(((64,),),), dtypes=FLOAT, name="relu_special")
relu_inp = Op("diopiReluInp", lambda input: input.relu_(), tensors=dict(input=T()), shapes=SHAPES[:4], dtypes=FLOAT)
sigmoid = Op("diopiSigmoid", lambda input: torch.sigmoid(input), tensors=dict(input=T(randn(scale=4))), shapes=SHAPES, dtypes=FLOAT)
sigmoid_inp = Op("diopiSigmoidInp", lambda input: input.sigmoid_(), tensors=dict(input=T(randn(scale=4))), shapes=SHAPES[:4], dtypes=FLOAT)

"""abs, neg, exp, sqrt, tanh: out of place and in place."""
from conformance.gen import positive, randn, special
from conformance.reftorch import torch
from conformance.spec import FLOAT, NUMERIC, SIGNED, Op, T

SHAPES = (((2, 3),), ((),), ((0, 5),), ((3, 4, 5, 6),), ((1024, 1025),))
SMALL = SHAPES[:4]

abs = Op("diopiAbs", lambda input: torch.abs(input), tensors=dict(input=T()), shapes=SHAPES, dtypes=FLOAT + SIGNED)
abs_special = Op("diopiAbs", lambda input: torch.abs(input), tensors=dict(input=T(special())), shapes=((( 64,),),),
                 dtypes=FLOAT + SIGNED, name="abs_special")
abs_inp = Op("diopiAbsInp", lambda input: input.abs_(), tensors=dict(input=T()), shapes=SMALL, dtypes=FLOAT + SIGNED)
neg = Op("diopiNeg", lambda input: torch.neg(input), tensors=dict(input=T()), shapes=SHAPES, dtypes=FLOAT + SIGNED)
neg_inp = Op("diopiNegInp", lambda input: input.neg_(), tensors=dict(input=T()), shapes=SMALL, dtypes=FLOAT + SIGNED)
exp = Op("diopiExp", lambda input: torch.exp(input), tensors=dict(input=T()), shapes=SHAPES, dtypes=FLOAT)
exp_special = Op("diopiExp", lambda input: torch.exp(input), tensors=dict(input=T(special())), shapes=(((64,),),),
                 dtypes=FLOAT, name="exp_special")
exp_inp = Op("diopiExpInp", lambda input: input.exp_(), tensors=dict(input=T()), shapes=SMALL, dtypes=FLOAT)
sqrt = Op("diopiSqrt", lambda input: torch.sqrt(input), tensors=dict(input=T(positive(0.0, 9.0))), shapes=SHAPES, dtypes=FLOAT)
sqrt_special = Op("diopiSqrt", lambda input: torch.sqrt(input), tensors=dict(input=T(special())), shapes=(((64,),),),
                  dtypes=FLOAT, name="sqrt_special")
sqrt_inp = Op("diopiSqrtInp", lambda input: input.sqrt_(), tensors=dict(input=T(positive(0.0, 9.0))), shapes=SMALL, dtypes=FLOAT)
tanh = Op("diopiTanh", lambda input: torch.tanh(input), tensors=dict(input=T(randn(scale=3))), shapes=SHAPES, dtypes=FLOAT)
tanh_inp = Op("diopiTanhInp", lambda input: input.tanh_(), tensors=dict(input=T()), shapes=SMALL, dtypes=FLOAT)

"""fill."""
from conformance.spec import ALL, FLOAT, Op, T, grid

fill = Op("diopiFill", lambda input, value: input.fill_(value), tensors=dict(input=T()),
          shapes=(((2, 3),), ((),), ((0, 2),), ((512, 512),)), dtypes=FLOAT, params=grid(value=[1.5, -2, 0.0]))
fill_int = Op("diopiFill", lambda input, value: input.fill_(value), tensors=dict(input=T()),
              shapes=(((2, 3),), ((),)), dtypes=ALL, params=grid(value=[1, 0]), name="fill_int")

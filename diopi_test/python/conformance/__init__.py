"""Conformance harness for the DIOPI operator standard.

Modules by concern: `header` (parse the C headers), `binding` (cffi),
`dtypes`, `spec` and `gen` (case descriptions), `expand` (cases),
`store` (baselines and manifest), `gen_data` (torch reference, needs torch),
`execute` (one case in a worker), `compare` and `tolerances`, `runner`
(worker processes), `report`. Only `gen_data` imports torch.
"""

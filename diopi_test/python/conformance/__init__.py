"""Conformance harness for the DIOPI operator standard.

The header model (functions, parameter roles, dtypes, enums) is the
`diopi_header` package (proto/python); the harness builds on it.
Modules by concern: `binding` (cffi), `dtypes` and `enums` (numpy storage
and config spellings of the header's enums), `spec` and `gen` (case
descriptions), `expand` (cases), `store` (baselines and manifest), `gen_data` (torch reference, needs torch),
`execute` (one case in a worker), `compare` and `tolerances`, `runner`
(worker processes), `report`. Only `gen_data` imports torch.
"""

"""Conformance harness for the DIOPI operator standard.

The header model (functions, parameter roles, dtypes, enums) is the
`diopi_header` package (proto/python); the harness builds on it.
Modules by concern: `binding` (cffi), `dtypes` and `enums` (numpy storage
and config spellings of the header's enums), `spec` and `gen` (case
descriptions), `expand` (cases), `store` (baselines and manifest), `gen_data` (torch reference, needs torch),
`execute` (the worker's entry points: one case, one fuzz call) built from
`arguments` (a case record decoded once into one argument description),
`call` (that description rendered as cffi arguments; `repro` renders it as
C), `checks` (after the call), `verdicts` and `library_checks`;
`compare` and `tolerances`, `runner` (worker processes), `shard`,
`progress`, `report`, `junit`, `html_report`, `merge`, `cli`.
Only `gen_data` imports torch.
"""

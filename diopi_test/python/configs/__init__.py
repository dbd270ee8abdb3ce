"""Operator case configs, one module per operator family.

Each module defines `Op` objects (see conformance/spec.py) whose keys are
the C parameter names of the function they test.
"""

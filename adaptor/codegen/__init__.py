"""The adaptor code generator (run generate.py)."""

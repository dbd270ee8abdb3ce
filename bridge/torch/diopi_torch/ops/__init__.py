"""The one ATen -> DIOPI mapping (aten_to_diopi.yaml), its expression language (mapping.py) and
torch's schemas in its terms (schemas.py). Importing it loads nothing."""

"""The device's runtime: the `torch.diopi` module (device_module.py)."""

"""The model suite of the `diopi` device: real models under recipes, compared with eager CPU.

    python -m diopi_torch.suite [--models ...] [--recipe ...]     # runner.py (scripts/models.sh)
    python -m diopi_torch.suite.dist [--recipes ddp,fsdp]          # across ranks (dist.py)
    python -m diopi_torch.suite.dist_bench                         # all-reduce bandwidth (dist_bench.py)
"""

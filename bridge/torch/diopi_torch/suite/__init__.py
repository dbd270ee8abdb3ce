"""The model suite of the `diopi` device: real models under recipes, compared with eager CPU.

    python -m diopi_torch.suite [--models ...] [--recipe ...]     # runner.py (scripts/models.sh)
    python -m diopi_torch.suite.dist [--recipes ddp,fsdp]          # across ranks (dist.py)
    python -m diopi_torch.suite.dist_bench                         # all-reduce bandwidth (dist_bench.py)

models.py   the one model registry: the suite's models and the published configurations (model capture),
            the one `hf:` parser and the one batch maker every runner trains on
recipes.py  what a run does on each side (precision, checkpointing, resume, loader, generate, ...)
compare.py  device against eager CPU, and the vendor's tolerances
bench.py    the benchmarks (--bench, --bench_tools, --compile --bench)
"""

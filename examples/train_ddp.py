"""Data-parallel training on the `diopi` device, one process per rank.

    torchrun --nproc_per_node 2 examples/train_ddp.py [--steps 20]

The vendor library comes from DIOPI_IMPL_LIB (default: this checkout's build/torch/lib/libdiopi_impl.so).
init_process_group() names no backend: torch picks "diccl", the diopi device's, from the device type.
"""
import argparse
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, DistributedSampler, TensorDataset

import diopi_torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--steps", type=int, default=20)
    args = p.parse_args()

    diopi_torch.load(os.environ.get("DIOPI_IMPL_LIB") or os.path.join(ROOT, "build", "torch", "lib", "libdiopi_impl.so"))
    dist.init_process_group()  # env:// from torchrun; backend: the one registered for device type diopi
    rank, world = dist.get_rank(), dist.get_world_size()

    # A regression problem every rank can make: y = x @ w_true + noise.
    g = torch.Generator().manual_seed(0)
    x = torch.randn(1024, 16, generator=g)
    y = x @ torch.randn(16, 1, generator=g) + 0.01 * torch.randn(1024, 1, generator=g)
    data = DataLoader(TensorDataset(x, y), batch_size=32, sampler=DistributedSampler(TensorDataset(x, y), seed=0))

    torch.manual_seed(0)  # the same initial weights on every rank (DDP also broadcasts rank 0's)
    model = torch.nn.Sequential(torch.nn.Linear(16, 64), torch.nn.GELU(), torch.nn.Linear(64, 1)).to("diopi")
    model = DistributedDataParallel(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-2, fused=True)

    step, epoch = 0, 0
    while step < args.steps:
        data.sampler.set_epoch(epoch)
        for xb, yb in data:
            loss = torch.nn.functional.mse_loss(model(xb.to("diopi")), yb.to("diopi"))
            opt.zero_grad()
            loss.backward()  # gradients are averaged across the ranks here
            opt.step()
            step += 1
            if rank == 0 and (step % 5 == 0 or step == 1):
                print(f"step {step:3d}  loss {loss.item():.4f}", flush=True)
            if step == args.steps:
                break
        epoch += 1

    # Every rank holds the same weights after data-parallel steps.
    w = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    ws = [torch.empty_like(w) for _ in range(world)]
    dist.all_gather(ws, w)
    if rank == 0:
        same = all(torch.equal(ws[0].cpu(), v.cpu()) for v in ws)
        print(f"ranks agree on the weights: {same}")
        print(f"collectives: {diopi_torch.distributed.summary()}")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

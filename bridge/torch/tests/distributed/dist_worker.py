"""One rank of the distributed tests (test_distributed.py starts N of them).

    python dist_worker.py CHECK      # RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT, DIOPI_IMPL_LIB in the environment

Prints "ok" after its checks. EXPECT=vendor|staged says which path diopi tensors must have taken.
"""
import os
import sys

import torch
import torch.distributed as dist

import diopi_torch

D = "diopi"


def check_collectives():
    dist.init_process_group("diccl")
    r, n = dist.get_rank(), dist.get_world_size()
    for dtype in (torch.float32, torch.int64, torch.bfloat16):
        x = (torch.arange(12).reshape(3, 4) * (r + 1)).to(dtype)
        d = x.to(D)
        dist.all_reduce(d)
        assert torch.equal(d.cpu(), (torch.arange(12).reshape(3, 4) * sum(range(1, n + 1))).to(dtype)), (dtype, d.cpu())
        strided = x.to(D).t()  # non-contiguous
        dist.all_reduce(strided, dist.ReduceOp.MAX)
        assert torch.equal(strided.cpu(), (torch.arange(12).reshape(3, 4) * n).to(dtype).t())
    avg = torch.full((5,), float(r), device=D)
    dist.all_reduce(avg, dist.ReduceOp.AVG)
    assert torch.allclose(avg.cpu(), torch.full((5,), (n - 1) / 2))
    empty = torch.empty(0, 3, device=D)
    dist.all_reduce(empty)
    y = torch.full((3,), float(r), device=D)
    dist.broadcast(y, n - 1)
    assert torch.equal(y.cpu(), torch.full((3,), float(n - 1)))
    z = torch.full((2,), float(r + 1), device=D)
    dist.reduce(z, 0, dist.ReduceOp.PRODUCT)
    if r == 0:
        assert torch.equal(z.cpu(), torch.full((2,), float(torch.arange(1, n + 1).prod())))
    out = torch.empty(n, 2, device=D)
    dist.all_gather_into_tensor(out, torch.full((2,), float(r), device=D))
    assert torch.equal(out.cpu(), torch.arange(n).float()[:, None].expand(n, 2))
    lst = [torch.empty(2, device=D) for _ in range(n)]
    dist.all_gather(lst, torch.full((2,), float(r), device=D))
    assert [t.cpu().tolist() for t in lst] == [[float(i)] * 2 for i in range(n)]
    rs = torch.empty(2, device=D)
    dist.reduce_scatter_tensor(rs, torch.arange(2 * n, dtype=torch.float32, device=D))
    assert torch.equal(rs.cpu(), torch.arange(2 * r, 2 * r + 2).float() * n)
    # all-to-all with uneven splits: rank r sends i + 1 rows to rank i
    send_rows = [i + 1 for i in range(n)]
    recv_rows = [r + 1] * n
    a = torch.cat([torch.full((k, 2), float(10 * r + i)) for i, k in enumerate(send_rows)]).to(D)
    b = torch.empty(sum(recv_rows), 2, device=D)
    dist.all_to_all_single(b, a, recv_rows, send_rows)
    want = torch.cat([torch.full((r + 1, 2), float(10 * j + r)) for j in range(n)])
    assert torch.equal(b.cpu(), want)
    # point to point both ways: batched, and as plain isend/irecv pairs
    s, t = torch.full((4,), float(r), device=D), torch.empty(4, device=D)
    for q in dist.batch_isend_irecv([dist.P2POp(dist.isend, s, (r + 1) % n), dist.P2POp(dist.irecv, t, (r - 1) % n)]):
        q.wait()
    assert torch.equal(t.cpu(), torch.full((4,), float((r - 1) % n)))
    t2 = torch.empty(4, device=D)
    w1, w2 = dist.isend(s, (r + 1) % n), dist.irecv(t2, (r - 1) % n)
    w1.wait()
    w2.wait()
    assert torch.equal(t2.cpu(), t.cpu())
    dist.barrier()
    st = diopi_torch.distributed.stats()
    expect = os.environ["EXPECT"]
    for op in ("allreduce", "broadcast", "reduce", "_allgather_base", "_reduce_scatter_base", "alltoall_base", "send", "recv"):
        c = st[op]
        if expect == "vendor":
            assert c["vendor"] > 0 and c["staged"] == 0, (op, c)
        else:
            assert c["vendor"] == 0 and c["staged"] > 0 and c["staged_bytes"] >= 0 and c["reasons"], (op, c)
    assert diopi_torch.distributed.uses_vendor() == (expect == "vendor")
    dist.destroy_process_group()


def check_default_backend():
    dist.init_process_group()  # no backend named: the diopi device's default
    be = dist.distributed_c10d._get_default_group()._get_backend(torch.device(D))
    assert be.name() == diopi_torch.distributed.BACKEND_NAME, be.name()
    x = torch.ones(3, device=D)
    dist.all_reduce(x)
    assert torch.equal(x.cpu(), torch.full((3,), float(dist.get_world_size())))
    dist.destroy_process_group()


def check_mixed():
    """cpu:gloo,diopi:diccl over a tcp:// rendezvous: CPU tensors to Gloo itself, diopi tensors to diccl."""
    addr, port = os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"]
    dist.init_process_group("cpu:gloo,diopi:diccl", init_method=f"tcp://{addr}:{port}", rank=int(os.environ["RANK"]),
                            world_size=int(os.environ["WORLD_SIZE"]))
    n = dist.get_world_size()
    c, d = torch.ones(3), torch.ones(3, device=D)
    dist.all_reduce(c)
    dist.all_reduce(d)
    assert torch.equal(c, torch.full((3,), float(n))) and torch.equal(d.cpu(), c)
    st = diopi_torch.distributed.stats()
    assert st["allreduce"]["cpu"] == 0 and st["allreduce"]["vendor"] + st["allreduce"]["staged"] == 1, st
    dist.destroy_process_group()


if __name__ == "__main__":
    diopi_torch.load()
    {"collectives": check_collectives, "default": check_default_backend, "mixed": check_mixed}[sys.argv[1]]()
    print("ok", flush=True)

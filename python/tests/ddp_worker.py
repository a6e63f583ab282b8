"""Run by test_ddp.py: a model with mishgrad.torch.Mish under DistributedDataParallel
(gloo, two processes on 127.0.0.1). Each rank trains on its half of the batch; rank 0
writes the gradients after one backward pass to the file named on the command line."""
import os
import sys

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def model():
    import mishgrad.torch as mt
    torch.manual_seed(7)
    return torch.nn.Sequential(torch.nn.Linear(6, 16), mt.Mish(), torch.nn.Linear(16, 16),
                               mt.Mish(), torch.nn.Linear(16, 1))


def data():
    gen = torch.Generator().manual_seed(8)
    x = torch.randn(64, 6, generator=gen)
    return x, torch.cos(x.sum(1, keepdim=True))


def single_process_grads():
    m = model()
    x, y = data()
    torch.nn.functional.mse_loss(m(x), y).backward()
    return [p.grad.clone() for p in m.parameters()]


def rank_main(rank, world, port, path):
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=world)
    try:
        ddp = torch.nn.parallel.DistributedDataParallel(model())
        x, y = data()
        half = x.shape[0] // world
        sl = slice(rank * half, (rank + 1) * half)
        torch.nn.functional.mse_loss(ddp(x[sl]), y[sl]).backward()
        if rank == 0:
            torch.save([p.grad.clone() for p in ddp.module.parameters()], path)
        dist.barrier()
    finally:
        dist.destroy_process_group()


if __name__ == "__main__":
    port, path = int(sys.argv[1]), sys.argv[2]
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    mp.spawn(rank_main, args=(2, port, path), nprocs=2, join=True)

"""cuSOLVER's spotrf through PyTorch (torch.linalg.cholesky on a CUDA tensor), data already on the
GPU: the library a user with an NVIDIA GPU would call instead. Same single-precision matrix as
examples/cholesky, same flop count (N^3 / 3). One line per run:
    cusolver_spotrf n=N run=R time S s, G GFlop/s
    python3 bench/cholesky/cusolver.py N [RUNS=3]
Exits 3 (a row to skip, not an error) where PyTorch or a CUDA device is missing."""
import sys
import time

def main():
    try:
        n = int(sys.argv[1])
        runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
        if n <= 0 or runs <= 0:
            raise ValueError
    except (IndexError, ValueError):
        print("usage: cusolver.py N [RUNS=3]  (positive whole numbers)", file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError:
        print("cusolver.py: no PyTorch", file=sys.stderr)
        return 3
    if not torch.cuda.is_available():
        print("cusolver.py: no CUDA device", file=sys.stderr)
        return 3
    i = torch.arange(n, device="cuda", dtype=torch.float32)
    a = 1.0 / (1.0 + i[:, None] + i[None, :]) + n * torch.eye(n, device="cuda")
    torch.linalg.cholesky(a)  # cuSOLVER's handle and workspace: not part of a run
    torch.cuda.synchronize()
    flop = n ** 3 / 3
    for r in range(runs):
        start = time.perf_counter()
        torch.linalg.cholesky(a)
        torch.cuda.synchronize()
        s = time.perf_counter() - start
        print(f"cusolver_spotrf n={n} run={r} time {s:.4f} s, {flop / s * 1e-9:.2f} GFlop/s")
    return 0

if __name__ == "__main__":
    sys.exit(main())

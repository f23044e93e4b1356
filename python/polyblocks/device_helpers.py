"""Device helpers (spec: `polyblocks.device_helpers.cuda_synchronize`)."""


def cuda_synchronize():
    """Waits for compiled GPU work. A compiled function (CPU or GPU) returns
    only when its work is done (a GPU call's host code waits once, at its
    end, for its kernels and copies), so there is nothing of ours to wait
    for; if PyTorch work is queued on a GPU, that is synchronized."""
    try:
        import torch
    except ImportError:
        return
    if torch.cuda.is_available():
        torch.cuda.synchronize()

"""Device helpers (spec: `polyblocks.device_helpers.cuda_synchronize`)."""


def cuda_synchronize():
    """Waits for compiled GPU work. polyblocks-rs runs on the CPU today, where
    calls return only when done, so there is nothing to wait for; if PyTorch
    work is queued on a GPU, that is synchronized."""
    try:
        import torch
    except ImportError:
        return
    if torch.cuda.is_available():
        torch.cuda.synchronize()

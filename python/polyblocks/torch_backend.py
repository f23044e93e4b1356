"""`torch.compile(model, backend="polyblocks")`: the backend function that
the package's `torch_dynamo_backends` entry point names, so the backend
works without importing polyblocks first. Loading it imports nothing
else: the PyTorch front (which also registers the name, for checkouts
run without the entry point installed) is imported on the first compile."""


def polyblocks_backend(gm, example_inputs):
    """The backend registered as `torch.compile(..., backend="polyblocks")`."""
    from .torch_polyblocks_compiler import make_backend

    return make_backend()(gm, example_inputs)

"""polyblocks' messages, through Python's `logging` under the logger
`"polyblocks"` (children: `polyblocks.engine`, `polyblocks.cache`, ...).

What a user asked for or should know (progress of a compile longer than
`PROGRESS_AFTER_S`, the `debug` and `report` options' output, a graph
split because part of it could not compile) is logged at INFO; details
(each compile's stage times, cache hits, evictions) at DEBUG. The level is
INFO unless `$POLYBLOCKS_LOG` names another (`debug`, `info`, `warning`,
`error`) or the application sets it (`logging.getLogger("polyblocks")
.setLevel(...)`).

Where it goes: records propagate to the application's handlers as usual.
An application that configured no logging at all (the root logger has no
handler) still sees them on stderr, prefixed `polyblocks:`, through a
fallback handler that steps aside as soon as the root logger has one, so
nothing is printed twice."""

from __future__ import annotations

import contextlib
import logging
import os
import sys

# A compile that runs longer than this reports which stage it is in.
PROGRESS_AFTER_S = 2.0

_LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


class _FallbackHandler(logging.StreamHandler):
    """stderr, only while the application has configured no handler."""

    def emit(self, record):
        if not logging.getLogger().handlers:
            self.setStream(sys.stderr)  # today's (a test may have replaced it)
            super().emit(record)


def _configure() -> logging.Logger:
    root = logging.getLogger("polyblocks")
    if not any(isinstance(h, _FallbackHandler) for h in root.handlers):
        handler = _FallbackHandler()
        handler.setFormatter(logging.Formatter("polyblocks: %(message)s"))
        root.addHandler(handler)
    if root.level == logging.NOTSET:
        name = os.environ.get("POLYBLOCKS_LOG", "info").strip().lower()
        root.setLevel(_LEVELS.get(name, logging.INFO))
    return root


logger = _configure()


@contextlib.contextmanager
def no_implicit_root_handler():
    """Undoes the handler a library's module-level `logging.debug(...)`
    call installs on an unconfigured root logger (`logging.basicConfig`'s
    side effect; torch-mlir's importer does this): the application's
    logging stays as the application left it."""
    root = logging.getLogger()
    before = list(root.handlers)
    try:
        yield
    finally:
        if not before:
            for handler in list(root.handlers):
                root.removeHandler(handler)


def get(name: str) -> logging.Logger:
    """The logger `polyblocks.<name>`."""
    return logging.getLogger(f"polyblocks.{name}")

"""`compile_options={"report": "report.html"}`: the compile report as a page
a person can look at rather than read.

For each compiled graph the page shows a picture (SVG) of the source
operators (PyTorch: the FX graph's nodes, in program order, with their data
edges) beside the kernels the engine generated for them (in execution
order): a line joins each operator to every kernel holding code from its
source line, so fusion shows as many operators meeting in one kernel. Then
a table of the kernels (their operators, source lines and, once the program
has run, their share of its time: the report's compile also times its
kernels, as `profile` does) and the decisions the engine's model took per
loop nest (what was fused or tiled, the sizes chosen and why), next to the
source line they are about.

The page is written when a graph is compiled and again at exit, with the
time shares of the calls made since.
"""

from __future__ import annotations

import atexit
import html
import linecache
import os
import re
import threading
from dataclasses import dataclass, field

from . import log

_log = log.get("report")
_lock = threading.Lock()
_pages: dict[str, list] = {}
_registered_exit = False
# Kernel colours: distinguishable, printable.
_PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]
_NOTE = re.compile(r"^(?P<place>.*?):(?P<line>\d+):\d+: (?:note|remark): \[(?P<pass>[\w-]+)\] (?P<message>.*)$")


@dataclass
class Operator:
    """One source operator: its name, `file:line`, and the operators it reads."""

    name: str
    source: str
    inputs: list[int] = field(default_factory=list)


@dataclass
class Graph:
    title: str
    operators: list[Operator]
    library_path: str
    kernels: list[dict]
    notes: list[tuple[str, str, str]]  # (file:line, pass, message)


def notes_of(text: str) -> list[tuple[str, str, str]]:
    """(file:line, pass, message) of each report line in engine output."""
    found = []
    for line in text.splitlines():
        match = _NOTE.match(line.strip())
        if match:
            found.append((f"{match['place']}:{match['line']}", match["pass"], match["message"]))
    return found


def add_graph(path: str, title: str, operators: list[Operator], library, notes: list[tuple[str, str, str]]) -> None:
    """Adds a compiled graph to the page at `path` and writes it."""
    global _registered_exit
    kernels = (library.manifest.get("profile") or {}).get("kernels", [])
    graph = Graph(title, operators, str(library.path.resolve()), kernels, notes)
    with _lock:
        _pages.setdefault(os.path.abspath(path), []).append(graph)
        if not _registered_exit:
            atexit.register(write_all)
            _registered_exit = True
    write(path)


def write_all() -> None:
    for path in list(_pages):
        write(path)


def _lines(chains: list[str]) -> list[str]:
    """The `file:line` of each chain (`op@file:line<caller:line`), innermost first."""
    lines = []
    for chain in chains:
        location = chain.partition("@")[2] if "@" in chain else chain
        for frame in location.split("<"):
            if frame and frame not in lines:
                lines.append(frame)
    return lines


def _names(chains: list[str]) -> list[str]:
    return list(dict.fromkeys(c.partition("@")[0] for c in chains if "@" in c and c.partition("@")[0]))


def _shares(graph: Graph) -> list[float | None]:
    """Each kernel's share of its function's time, if the program ran."""
    from . import profile

    with profile._lock:
        library = next((lib for lib in profile._libraries if str(lib.path) == graph.library_path), None)
    if library is None or len(library.kernels) != len(graph.kernels):
        return [None] * len(graph.kernels)
    counters = list(library.counters)
    totals = {}
    for position, function in enumerate(library.functions):
        totals[function] = counters[len(library.kernels) + 2 * position + 1]
    return [
        counters[i] / totals[k["function"]] if totals.get(k["function"]) else None for i, k in enumerate(graph.kernels)
    ]


def _label(source: str) -> str:
    path, _, line = source.rpartition(":")
    return f"{os.path.basename(path)}:{line}" if path else source


def _svg(graph: Graph, shares: list[float | None]) -> str:
    row, left_x, right_x, width = 22, 50, 470, 800
    ops, kernels = graph.operators, graph.kernels
    height = max(len(ops), len(kernels), 1) * row + 20
    kernel_lines = [set(_lines(k["sources"])) for k in kernels]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" font-size="11">']
    # Data edges between operators: arcs on the left.
    for i, op in enumerate(ops):
        for j in op.inputs:
            y1, y2 = 14 + j * row, 14 + i * row
            bend = left_x - 4 - min(40, 4 * (i - j))
            parts.append(f'<path d="M{left_x} {y1} C{bend} {y1} {bend} {y2} {left_x} {y2}" fill="none" stroke="#ccc"/>')
    # Operator -> kernels holding its source line.
    for i, op in enumerate(ops):
        for k, lines in enumerate(kernel_lines):
            if op.source and op.source in lines:
                colour = _PALETTE[k % len(_PALETTE)]
                parts.append(
                    f'<line x1="{left_x + 230}" y1="{14 + i * row}" x2="{right_x}" y2="{14 + k * row}" '
                    f'stroke="{colour}" stroke-opacity="0.6"/>'
                )
    for i, op in enumerate(ops):
        y = 4 + i * row
        text = html.escape(f"{op.name} {_label(op.source)}"[:36])
        parts.append(f'<rect x="{left_x}" y="{y}" width="230" height="{row - 4}" rx="3" fill="#f4f4f4" stroke="#999"/>')
        parts.append(f'<text x="{left_x + 5}" y="{y + 13}">{text}</text>')
    for k, kernel in enumerate(kernels):
        y = 4 + k * row
        colour = _PALETTE[k % len(_PALETTE)]
        share = shares[k]
        bar = 0 if share is None else max(2, int(300 * share))
        names = ",".join(_names(kernel["sources"])) or kernel["op"]
        text = html.escape(f"#{k} {names}"[:40] + ("" if share is None else f" {100 * share:.1f}%"))
        parts.append(f'<rect x="{right_x}" y="{y}" width="320" height="{row - 4}" rx="3" fill="white" stroke="{colour}"/>')
        if bar:
            parts.append(f'<rect x="{right_x}" y="{y}" width="{bar}" height="{row - 4}" rx="3" fill="{colour}" fill-opacity="0.35"/>')
        parts.append(f'<text x="{right_x + 5}" y="{y + 13}">{text}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _section(graph: Graph) -> str:
    shares = _shares(graph)
    out = [f"<h2>{html.escape(graph.title)}</h2>"]
    out.append(
        f"<p>{len(graph.operators)} source operators, {len(graph.kernels)} kernels. Left: the operators in program "
        "order (grey arcs: data edges); right: the kernels in execution order (bar: share of the run time once the "
        "program has run); a line joins an operator to each kernel with code from its source line.</p>"
    )
    out.append(_svg(graph, shares))
    out.append("<h3>Kernels</h3><table><tr><th>#</th><th>kernel</th><th>operators</th><th>source lines</th><th>time</th></tr>")
    for k, kernel in enumerate(graph.kernels):
        share = "" if shares[k] is None else f"{100 * shares[k]:.1f}%"
        lines = "<br>".join(html.escape(_label(s)) for s in _lines(kernel["sources"])[:4])
        out.append(
            f"<tr><td>{k}</td><td>{html.escape(kernel['op'])}</td><td>{html.escape(', '.join(_names(kernel['sources'])))}</td>"
            f"<td>{lines}</td><td>{share}</td></tr>"
        )
    out.append("</table><h3>Decisions</h3>")
    if not graph.notes:
        out.append("<p>No decisions reported (nothing to fuse or tile).</p>")
    by_line: dict[str, list] = {}
    for place, pass_name, message in graph.notes:
        by_line.setdefault(place, []).append((pass_name, message))
    for place, entries in by_line.items():
        path, _, line = place.rpartition(":")
        code = linecache.getline(path, int(line)).strip() if line.isdigit() else ""
        out.append(f"<h4>{html.escape(_label(place))} <code>{html.escape(code)}</code></h4><ul>")
        out.extend(f"<li><b>{html.escape(p)}</b>: {html.escape(m)}</li>" for p, m in entries)
        out.append("</ul>")
    return "\n".join(out)


def render(path: str) -> str:
    with _lock:
        graphs = list(_pages.get(os.path.abspath(path), []))
    style = (
        "body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;font-size:12px;text-align:left;vertical-align:top}"
        "code{background:#f4f4f4}"
    )
    body = "\n".join(_section(g) for g in graphs)
    return f"<!doctype html><html><head><meta charset='utf-8'><title>polyblocks report</title><style>{style}</style></head><body><h1>polyblocks compile report</h1>{body}</body></html>\n"


def write(path: str) -> None:
    text = render(path)
    partial = f"{path}.{os.getpid()}.tmp"
    try:
        with open(partial, "w") as f:
            f.write(text)
        os.replace(partial, path)
    except OSError as error:
        _log.warning("cannot write the report %s: %s", path, error)

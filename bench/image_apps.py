"""Five more image/stencil apps, written once in plain PyTorch (float32), the
peers of the Halide pipelines of the same names in bench/halide_peer.py
(which re-states the constants below and checks its results against these
functions: the torch functions are the reference).

- ``heat_3d``: PolyBench heat-3d on (N, N, N): ``HEAT_STEPS`` (10) time
  steps, each two 7-point sweeps (B from A, then A from B), written with
  slice assignment as bench/polyhedral_bench.py's jacobi_2d; the borders
  never change. Any N >= 3 (benchmark N = 128, odd size 67).
- ``interpolate``: a simplified pyramid app in the spirit of Halide's
  apps/interpolate: (C, H, W) -> (C, H, W); three 2x2 average-pool levels,
  each upsampled back to full size (nearest) and averaged with the input:
  ``(l0 + up(l1) + up(l2) + up(l3)) / 4``. H and W must be multiples of 8.
- ``camera_pipe``: a simplified camera pipeline on an RGGB Bayer mosaic
  (H, W) in [0, 1] -> (3, H/2, W/2): black level, 2x2 "demosaic" (R, mean
  of the two G, B of each 2x2 block), white balance, a 3x3 colour
  correction matrix (einsum), clamp to [0, 1], gamma 1/2.2. H, W even.
- ``bilateral_grid``: Halide's apps/bilateral_grid, simplified: single
  channel (H, W) -> (H, W); a grid of (BG_BINS + 1) intensity levels x
  ((H-1)//8 + 2) x ((W-1)//8 + 2) cells (cell (gy, gx) collects the pixels
  with (y + 4)//8 == gy, (x + 4)//8 == gx and round(v * BG_BINS) its
  level: sum of values and count, by index_add_), blurred by [1,4,6,4,1]/16
  along z, x, y (zero padding, conv3d), sliced by trilinear interpolation
  (gathers at data-dependent z), value / count. Any H, W.
- ``local_laplacian``: Halide's apps/local_laplacian, simplified: single
  channel (H, W) in [0, 1] -> (H, W), ``LL_LEVELS`` (8) intensity levels,
  ``LL_PYRAMID`` (3) pyramid levels; per level the remapped image
  ``beta (g - l) + l + alpha d exp(-d^2 / 2)`` with ``d = (g - l) (K - 1)``,
  its Gaussian pyramid (replicate padding, [1, 3, 3, 1] / 8 blur, stride 2)
  and Laplacian pyramid (upsampling: bilinear x2, align_corners=False,
  which is Halide's 0.25 / 0.75 upsample with clamped edges); per pixel of
  each level the Laplacian coefficient interpolated between the two
  intensity levels nearest the input pyramid's value (torch.gather);
  collapse. H and W must be multiples of 2**(LL_PYRAMID - 1) = 4.

``APPS = {name: (fn, bench_shape, odd_shape)}``; inputs are
``torch.rand(shape)`` (values in [0, 1), which camera_pipe, bilateral_grid
and local_laplacian assume).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

# ---------------------------------------------------------------------------
# heat_3d

HEAT_STEPS = 10


def _heat_sweep(a):
    """PolyBench heat-3d's update on the interior of a (..., N, N, N) array."""
    c = a[..., 1:-1, 1:-1, 1:-1]
    return (
        0.125 * (a[..., 2:, 1:-1, 1:-1] - 2.0 * c + a[..., :-2, 1:-1, 1:-1])
        + 0.125 * (a[..., 1:-1, 2:, 1:-1] - 2.0 * c + a[..., 1:-1, :-2, 1:-1])
        + 0.125 * (a[..., 1:-1, 1:-1, 2:] - 2.0 * c + a[..., 1:-1, 1:-1, :-2])
        + c
    )


def heat_3d(a, steps=HEAT_STEPS):
    """PolyBench heat-3d as a pure function of A: `steps` time steps, each
    B[1:-1]^3 from A then A[1:-1]^3 from B; borders are A's."""
    for _ in range(steps):
        b = a.clone()
        b[..., 1:-1, 1:-1, 1:-1] = _heat_sweep(a)
        a = b.clone()
        a[..., 1:-1, 1:-1, 1:-1] = _heat_sweep(b)
    return a


# ---------------------------------------------------------------------------
# interpolate

INTERP_LEVELS = 3  # downsampled levels


def interpolate(img):
    """(..., H, W) -> (..., H, W); H, W multiples of 2**INTERP_LEVELS."""
    height, width = img.shape[-2], img.shape[-1]
    x = img.reshape(-1, 1, height, width)
    levels = [x]
    for _ in range(INTERP_LEVELS):
        levels.append(F.avg_pool2d(levels[-1], 2))
    out = x
    for level in levels[1:]:
        out = out + F.interpolate(level, size=(height, width), mode="nearest")
    out = out / (INTERP_LEVELS + 1)
    return out.reshape(img.shape)


# ---------------------------------------------------------------------------
# camera_pipe

CAMERA_BLACK_LEVEL = 0.0625
CAMERA_WHITE_BALANCE = (2.0, 1.0, 1.5)  # R, G, B gains
CAMERA_CCM = (
    (1.625, -0.4375, -0.1875),
    (-0.3125, 1.5, -0.1875),
    (0.0625, -0.5625, 1.5),
)
CAMERA_GAMMA = 1 / 2.2


def camera_pipe(raw):
    """RGGB Bayer mosaic (..., H, W) in [0, 1] -> (..., 3, H/2, W/2)."""
    lin = (raw - CAMERA_BLACK_LEVEL) * (1.0 / (1.0 - CAMERA_BLACK_LEVEL))
    r = lin[..., 0::2, 0::2]
    g = 0.5 * (lin[..., 0::2, 1::2] + lin[..., 1::2, 0::2])
    b = lin[..., 1::2, 1::2]
    wr, wg, wb = CAMERA_WHITE_BALANCE
    rgb = torch.stack([r * wr, g * wg, b * wb], dim=-3)
    ccm = torch.tensor(CAMERA_CCM, dtype=raw.dtype, device=raw.device)
    corrected = torch.einsum("ij,...jhw->...ihw", ccm, rgb)
    return torch.pow(corrected.clamp(0.0, 1.0), CAMERA_GAMMA)


# ---------------------------------------------------------------------------
# bilateral_grid

BG_SPATIAL = 8  # pixels per grid cell along x and y
BG_BINS = 8  # intensity intervals: the grid has BG_BINS + 1 levels
BG_BLUR = (1.0, 4.0, 6.0, 4.0, 1.0)  # / 16


def _lerp(a, b, t):
    return a * (1 - t) + b * t


def bilateral_grid(img):
    """(H, W) -> (H, W)."""
    height, width = img.shape
    s, bins = BG_SPATIAL, BG_BINS
    grid_h, grid_w = (height - 1) // s + 2, (width - 1) // s + 2
    v = img.clamp(0.0, 1.0)
    zv = v * bins

    # Construction: scatter value and count into the nearest level of the
    # pixel's cell.
    ys = torch.arange(height, device=img.device)
    xs = torch.arange(width, device=img.device)
    zc = (zv + 0.5).to(torch.int64)
    cell = (zc * grid_h + ((ys + s // 2) // s)[:, None]) * grid_w + ((xs + s // 2) // s)[None, :]
    cell = cell.flatten()
    size = (bins + 1) * grid_h * grid_w
    values = img.new_zeros(size).index_add_(0, cell, v.flatten())
    counts = img.new_zeros(size).index_add_(0, cell, torch.ones_like(v).flatten())
    grid = torch.stack([values, counts]).view(2, 1, bins + 1, grid_h, grid_w)

    # Blur along z, x, y.
    k = torch.tensor(BG_BLUR, dtype=img.dtype, device=img.device) / 16
    grid = F.conv3d(grid, k.view(1, 1, 5, 1, 1), padding=(2, 0, 0))
    grid = F.conv3d(grid, k.view(1, 1, 1, 1, 5), padding=(0, 0, 2))
    grid = F.conv3d(grid, k.view(1, 1, 1, 5, 1), padding=(0, 2, 0))
    grid = grid[:, 0]  # (2, bins + 1, grid_h, grid_w)

    # Slicing: trilinear interpolation at every pixel.
    zi = zv.floor().clamp(max=bins - 1)
    zf = zv - zi
    zi = zi.to(torch.int64)
    yi = (ys // s)[:, None]
    yf = ((ys % s).to(img.dtype) / s)[:, None]
    xi = (xs // s)[None, :]
    xf = ((xs % s).to(img.dtype) / s)[None, :]

    def at(dz, dy, dx):
        return grid[:, zi + dz, yi + dy, xi + dx]  # (2, H, W)

    def plane(dz):
        return _lerp(_lerp(at(dz, 0, 0), at(dz, 0, 1), xf), _lerp(at(dz, 1, 0), at(dz, 1, 1), xf), yf)

    interpolated = _lerp(plane(0), plane(1), zf)
    return interpolated[0] / interpolated[1]


# ---------------------------------------------------------------------------
# local_laplacian

LL_LEVELS = 8  # intensity levels K
LL_PYRAMID = 3  # pyramid levels J
LL_ALPHA = 1.0 / (LL_LEVELS - 1)
LL_BETA = 1.0
LL_DOWN = (0.125, 0.375, 0.375, 0.125)


def _ll_down(f):
    """(B, 1, h, w) -> (B, 1, h/2, w/2): [1, 3, 3, 1] / 8 along x then y,
    stride 2, edges replicated."""
    k = torch.tensor(LL_DOWN, dtype=f.dtype, device=f.device)
    f = F.pad(f, (1, 1, 1, 1), mode="replicate")
    f = F.conv2d(f, k.view(1, 1, 1, 4), stride=(1, 2))
    return F.conv2d(f, k.view(1, 1, 4, 1), stride=(2, 1))


def _ll_up(f):
    return F.interpolate(f, scale_factor=2, mode="bilinear", align_corners=False)


def local_laplacian(img):
    """(H, W) in [0, 1] -> (H, W); H, W multiples of 2**(LL_PYRAMID - 1)."""
    levels_k = LL_LEVELS
    gray = img[None, None]  # (1, 1, H, W)
    level = (torch.arange(levels_k, dtype=img.dtype, device=img.device) * (1.0 / (levels_k - 1))).view(levels_k, 1, 1, 1)
    diff = gray - level  # (K, 1, H, W)
    d = diff * (levels_k - 1)
    g_pyramid = [LL_BETA * diff + level + LL_ALPHA * d * torch.exp(-d * d / 2)]
    in_pyramid = [gray]
    for _ in range(1, LL_PYRAMID):
        g_pyramid.append(_ll_down(g_pyramid[-1]))
        in_pyramid.append(_ll_down(in_pyramid[-1]))
    l_pyramid = [g_pyramid[j] - _ll_up(g_pyramid[j + 1]) for j in range(LL_PYRAMID - 1)] + [g_pyramid[-1]]

    out_l = []
    for j in range(LL_PYRAMID):
        position = in_pyramid[j] * (levels_k - 1)  # (1, 1, h, w)
        li = position.to(torch.int64).clamp(0, levels_k - 2)
        lf = position - li
        low = torch.gather(l_pyramid[j], 0, li)
        high = torch.gather(l_pyramid[j], 0, li + 1)
        out_l.append((1 - lf) * low + lf * high)
    out = out_l[-1]
    for j in range(LL_PYRAMID - 2, -1, -1):
        out = _ll_up(out) + out_l[j]
    return out[0, 0]


# ---------------------------------------------------------------------------

APPS = {
    "heat_3d": (heat_3d, (128, 128, 128), (67, 67, 67)),
    "interpolate": (interpolate, (3, 2048, 2048), (3, 1016, 1000)),
    "camera_pipe": (camera_pipe, (2048, 2048), (1018, 1022)),
    "bilateral_grid": (bilateral_grid, (2048, 2048), (1016, 1000)),
    "local_laplacian": (local_laplacian, (1024, 1024), (1016, 1000)),
}

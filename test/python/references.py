"""Reference implementations in numpy, written independently of the MLIR
workloads in examples/workloads/, to check what the engine computes."""

import numpy as np

TAPS = np.array([0.0625, 0.25, 0.375, 0.25, 0.0625], dtype=np.float32)


def elementwise(a, b, c):
    return np.maximum(a * b + c, 0)


def gamma(a):
    a = a.astype(np.float64)
    return np.clip(a, 0, 1) ** np.float64(np.float32(1 / 2.2)) + (np.abs(a) + 1) ** 3.5


def reductions(a):
    return a.sum(axis=1), a.max(axis=0)


def matmul(a, b):
    return a @ b


def batch_matmul(a, b):
    return np.einsum("bij,bjk->bik", a, b)


def conv2d_nchw(x, w, stride=1):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    out = np.zeros((n, f, oh, ow), dtype=np.float64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i : i + stride * oh : stride, j : j + stride * ow : stride]
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return out


def conv2d_nchw_bias_relu(x, w, bias):
    return np.maximum(conv2d_nchw(x, w) + bias[None, :, None, None], 0)


def conv2d_nhwc_bias_relu(x, w, bias):
    # NHWC/HWCF expressed through the NCHW/FCHW reference.
    y = conv2d_nchw(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), stride=2)
    return np.maximum(y.transpose(0, 2, 3, 1) + bias, 0)


def depthwise_conv(x, w):
    n, h, wd, c = x.shape
    kh, kw, _ = w.shape
    out = np.zeros((n, h - kh + 1, wd - kw + 1, c))
    for i in range(kh):
        for j in range(kw):
            out += x[:, i : i + h - kh + 1, j : j + wd - kw + 1, :] * w[i, j, :]
    return out


def pooling(x):
    n, c, h, w = x.shape
    oh, ow = 5, 6
    mx = np.full((n, c, oh, ow), -np.inf)
    sm = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            mx[:, :, i, j] = x[:, :, 2 * i : 2 * i + 2, 2 * j : 2 * j + 2].max(axis=(2, 3))
            sm[:, :, i, j] = x[:, :, 2 * i : 2 * i + 3, 2 * j : 2 * j + 3].sum(axis=(2, 3))
    return mx, sm * np.float32(0.111111112)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def layernorm(x, gamma, beta):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * gamma + beta


def data_movement(x):
    return x.T, x.reshape(-1), x[1:3, 1:5], np.concatenate([x, x], axis=0), np.pad(x, ((1, 2), (1, 2)), constant_values=7)


def _blur(img):
    w = img.shape[-1] - 4
    bx = sum(TAPS[k] * img[..., k : k + w] for k in range(5))
    h = img.shape[-2] - 4
    return sum(TAPS[k] * bx[..., k : k + h, :] for k in range(5))


def blur_x_blur_y(img):
    return _blur(img)


def unsharp_mask(img):
    blur = _blur(img)
    center = img[:, 2:-2, 2:-2]
    sharp = center * 4 - blur * 3
    return np.where(np.abs(center - blur) < 0.001, center, sharp)


def attention(q):
    scores = np.einsum("bhid,bhjd->bhij", q, q) / 8.0
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return np.einsum("bhij,bhjd->bhid", weights, q)


def relu_conv_padded(x, w):
    padded = np.pad(np.maximum(x, 0), ((0, 0), (0, 0), (1, 1), (1, 1)))
    return conv2d_nchw(padded, w)

"""Colour-vision helpers for the tests: simulate a deficiency and measure colour differences.

Simulation follows Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for
Simulation of Color Vision Deficiency", at severity 1.0 (dichromacy). The matrices act on
linear RGB: sRGB -> linear -> matrix -> clip -> sRGB. Differences are CIE76 Delta E in
CIE Lab under D65.
"""

from __future__ import annotations

import numpy as np

# Machado et al. 2009, severity 1.0, on linear RGB.
MACHADO_2009 = {
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
VISIONS = ("normal", *MACHADO_2009)

_SRGB_TO_XYZ = np.array(
    [
        [0.4124564, 0.3575761, 0.1804375],
        [0.2126729, 0.7151522, 0.0721750],
        [0.0193339, 0.1191920, 0.9503041],
    ]
)
_WHITE_D65 = np.array([0.95047, 1.0, 1.08883])


def rgb(colour) -> np.ndarray:
    """sRGB in 0..1 from '#rrggbb', '#rrggbbaa' (alpha ignored), 'rgb(r,g,b)' or a triple."""
    if isinstance(colour, str):
        text = colour.strip()
        if text.startswith("#"):
            return np.array([int(text[k : k + 2], 16) for k in (1, 3, 5)]) / 255.0
        if text.startswith("rgb"):
            parts = text[text.index("(") + 1 : text.index(")")].split(",")
            return np.array([float(p) for p in parts[:3]]) / 255.0
        raise ValueError(f"unknown colour {colour!r}")
    values = np.asarray(colour, dtype=float)[..., :3]
    return values / 255.0 if values.max() > 1 else values


def to_linear(srgb: np.ndarray) -> np.ndarray:
    srgb = np.asarray(srgb, dtype=float)
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(np.asarray(linear, dtype=float), 0.0, 1.0)
    return np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * linear ** (1 / 2.4) - 0.055)


def simulate(srgb, vision: str) -> np.ndarray:
    """sRGB (0..1, shape (..., 3)) as a reader with ``vision`` sees it."""
    srgb = np.asarray(srgb, dtype=float)
    if vision == "normal":
        return srgb
    return to_srgb(to_linear(srgb) @ MACHADO_2009[vision].T)


def lab(srgb) -> np.ndarray:
    """CIE Lab (D65) of sRGB in 0..1, shape (..., 3)."""
    xyz = to_linear(srgb) @ _SRGB_TO_XYZ.T / _WHITE_D65
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])],
        axis=-1,
    )


def delta_e(a, b, vision: str = "normal") -> float:
    """CIE76 Delta E between colours ``a`` and ``b`` as seen with ``vision``."""
    return float(np.linalg.norm(lab(simulate(rgb(a), vision)) - lab(simulate(rgb(b), vision))))


def delta_es(a, b) -> dict:
    """Delta E for each vision (normal and the three dichromacies)."""
    return {vision: delta_e(a, b, vision) for vision in VISIONS}


def simulate_image(pixels: np.ndarray, vision: str) -> np.ndarray:
    """An RGB(A) uint8 image as ``vision`` sees it (alpha dropped), uint8."""
    srgb = pixels[..., :3].astype(float) / 255.0
    return np.round(simulate(srgb, vision) * 255).astype(np.uint8)

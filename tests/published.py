"""Figures the reference documents publish, typed in once for every test that checks them.

They are written here by hand from the references, not read from the library, so a test
comparing the library's output with them is a real check.
"""

from __future__ import annotations

#: Jackpot: the reference README's calculated win percentages, four decimals.
JACKPOT_PERCENT = {
    "min": "1.3306",
    "max": "4.7706",
    "first": "1.3105",
    "last": "5.2248",
    "hilo": "7.9855",
    "hilo2": "7.9855",
}

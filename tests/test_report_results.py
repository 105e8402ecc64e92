"""Reports built from results computed once: the Jackpot report takes the results the
gallery has already computed (``jackpot_report(results=...)``) and computes nothing of
them again, and the gallery computes them once per build.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("matplotlib")
pytest.importorskip("graphviz")

import gamegraph.reports.jackpot as jackpot  # noqa: E402
from gamegraph import gallery  # noqa: E402

#: `make test-fast` leaves these out: whole Jackpot reports and galleries.
pytestmark = pytest.mark.heavy


def _timeless(report) -> str:
    return re.sub(r"in [0-9.]+ s", "in ... s", report.to_html())


def test_the_jackpot_report_reuses_given_results(monkeypatch):
    results = jackpot.jackpot_results()
    fresh = jackpot.jackpot_report(games=2_000, seed=5)

    def never(*_, **__):
        raise AssertionError("the report computed its results again")

    for name in ("build", "solve", "compare_policies", "compare", "policy_diff", "layer_summary"):
        monkeypatch.setattr(jackpot, name, never)
    given = jackpot.jackpot_report(games=2_000, seed=5, results=results)
    assert _timeless(given) == _timeless(fresh)


def test_the_gallery_computes_the_jackpot_results_once(monkeypatch):
    calls = []

    def counted():
        calls.append(1)
        return object()

    monkeypatch.setattr(jackpot, "jackpot_results", counted)
    gallery._jackpot_results.cache_clear()
    try:
        assert gallery._jackpot_results() is gallery._jackpot_results()
        assert len(calls) == 1
    finally:
        gallery._jackpot_results.cache_clear()

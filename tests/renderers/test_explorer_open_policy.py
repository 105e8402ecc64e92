"""The explorer page can open on a chosen policy (issue 26): its name travels as
``meta["openPolicy"]``; a name the data does not hold is refused at once."""

import pytest

pytest.importorskip("plotly")

from gamegraph import UnknownNameError, build  # noqa: E402
from gamegraph.analysis import explore_graph  # noqa: E402
from gamegraph.games.jackpot import Jackpot  # noqa: E402
from gamegraph.renderers.explorer import decode, explore_figure  # noqa: E402


@pytest.fixture(scope="module")
def data():
    return explore_graph(build(Jackpot(cells=3)), policies=["hilo", "max"])


def test_the_page_carries_the_policy_to_open_on(data):
    meta, _ = decode(explore_figure(data, policy="max").html())
    assert meta["openPolicy"] == "max" and meta["policies"] == ["optimal", "hilo", "max"]


def test_without_a_policy_the_page_says_nothing(data):
    meta, _ = decode(explore_figure(data).html())
    assert "openPolicy" not in meta


def test_an_unknown_policy_is_refused_before_any_drawing(data):
    with pytest.raises(UnknownNameError, match="accepted: optimal, hilo, max"):
        explore_figure(data, policy="min")

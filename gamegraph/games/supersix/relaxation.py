"""The blog's LP relaxation of Super Six: where it fails, and by how much.

Minimising the sum of the maxima without binaries (:func:`gamegraph.mathprog.lp_relaxation`)
is exact for one player but not for two: at some positions the least maxima overshoot the
true values. :func:`relaxation_errors` solves that LP for one game and spreads its relative
error onto the positions it decides (:func:`.crosscheck.by_position`), as the blog drew it;
``supersix lp`` prints its :meth:`~RelaxationErrors.to_text`.

HiGHS's time grows with about the square of the positions, so games past
:data:`LP_MAX_PEGS` are refused, saying roughly how long they would take.

Examples
--------
>>> from gamegraph.games.supersix import SuperSix
>>> relaxation_errors(SuperSix(pegs=6))  # doctest: +ELLIPSIS
<RelaxationErrors 6 pegs (free rules): largest relative error ...>
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...build import build
from ...errors import InvalidArgumentError
from ...mathprog import lp_relaxation
from .crosscheck import by_position
from .rules import SuperSix, count_states

#: The most pegs :func:`relaxation_errors` takes: 34 s at 40 pegs here
#: (benchmarks/bench_memory.py), so 100 pegs would take half an hour.
LP_MAX_PEGS = 40
#: Seconds HiGHS takes at :data:`LP_MAX_PEGS`.
LP_SECONDS_AT_MAX = 34
#: A relative error above this counts as a position the relaxation gets wrong.
WRONG = 1e-6


def check_lp_size(rules: SuperSix) -> None:
    """Refuse an LP past :data:`LP_MAX_PEGS`, saying roughly how long it would take.

    >>> check_lp_size(SuperSix(pegs=60))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamegraph.errors.InvalidArgumentError: supersix lp takes up to 40 pegs (about 34 s); ...
    """
    if rules.pegs <= LP_MAX_PEGS:
        return
    ratio = count_states(rules.pegs) / count_states(LP_MAX_PEGS)
    minutes = LP_SECONDS_AT_MAX * ratio**2 / 60
    raise InvalidArgumentError(
        f"supersix lp takes up to {LP_MAX_PEGS} pegs (about {LP_SECONDS_AT_MAX} s); "
        f"{rules.pegs} pegs would take roughly {minutes:,.0f} minutes"
    )


@dataclass(eq=False)
class RelaxationErrors:
    """The LP relaxation's relative error of P_choice at every normal-play position.

    Attributes
    ----------
    rules : SuperSix
    seconds : float
        Time HiGHS took.
    b, c, o : numpy.ndarray
        The positions: pegs on the lid, the mover's, the opponent's.
    error : numpy.ndarray
        The relative error at each position (0 where the relaxation is exact).
    """

    rules: SuperSix
    seconds: float
    b: np.ndarray
    c: np.ndarray
    o: np.ndarray
    error: np.ndarray

    @property
    def worst(self) -> int:
        """The index of the position with the largest error."""
        return int(self.error.argmax())

    @property
    def wrong(self) -> np.ndarray:
        """Whether each position is off by more than :data:`WRONG`."""
        return self.error > WRONG

    def wrong_by_lid(self) -> list[int]:
        """Positions off by more than :data:`WRONG`, by pegs on the lid (0 to 5)."""
        return [int((self.wrong & (self.b == lid)).sum()) for lid in range(6)]

    def to_text(self) -> str:
        rules, worst, error = self.rules, self.worst, self.error
        return (
            f"LP relaxation of Super Six, {rules.pegs} pegs ({rules.rules} rules), "
            f"solved in {self.seconds:.2f} s\n"
            f"largest relative error of P_choice: {error[worst]:.4%} at "
            f"{self.b[worst]}/{self.c[worst]}/{self.o[worst]}\n"
            f"positions off by more than 1e-6: {int(self.wrong.sum())} of {len(error)}; "
            f"by pegs on the lid: {self.wrong_by_lid()}\n"
        )

    def as_dict(self) -> dict:
        worst = self.worst
        return {
            "game": "supersix",
            "rules": self.rules.rules,
            "pegs": self.rules.pegs,
            "seconds": self.seconds,
            "largest_error": float(self.error[worst]),
            "largest_at": [int(self.b[worst]), int(self.c[worst]), int(self.o[worst])],
            "positions": len(self.error),
            "wrong": int(self.wrong.sum()),
            "wrong_by_lid": self.wrong_by_lid(),
        }

    def __repr__(self) -> str:
        return (
            f"<RelaxationErrors {self.rules.pegs} pegs ({self.rules.rules} rules): largest "
            f"relative error {self.error[self.worst]:.4%}, {int(self.wrong.sum())} of "
            f"{len(self.error)} positions off>"
        )


def relaxation_errors(rules: SuperSix, progress: bool | None = None) -> RelaxationErrors:
    """Solve the LP relaxation of ``rules`` (up to :data:`LP_MAX_PEGS` pegs) and measure
    its error at every normal-play position.
    """
    check_lp_size(rules)
    graph = build(rules, progress=progress)
    relaxation = lp_relaxation(graph)
    b, c, o, error = by_position(graph, relaxation.outcomes, relaxation.relative_error)
    return RelaxationErrors(rules, relaxation.seconds, b, c, o, error)

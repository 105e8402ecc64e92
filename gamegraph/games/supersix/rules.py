"""Super Six (also sold as Rio): two players race to get rid of their pegs.

A lid has five sockets and a pit. At the start of a turn the player must throw one die:

* a number whose socket is empty: put a peg in it (probability (5 - b)/6);
* a number whose socket is full: take that peg and the turn passes (b/6);
* a six: a peg goes down the pit, out of play for good (1/6).

After a throw that did not take a peg the player may throw again or stop (the turn
passes). Whoever has no pegs left wins.

A position is ``(b, c, o)`` (:class:`~.state.SixState`): pegs on the lid, pegs in the
hand of the player about to throw, pegs in the opponent's hand. The value of a position
is the probability that the player about to throw wins.

Pegs only ever leave play through the pit, so the graph is layered by the total
``b + c + o``, with cycles inside each layer. The graph holds every position with
``b + c + o <= pegs`` and ``c, o >= 1`` (the blog's 4,115 for 40 pegs), not only those
reachable from the start, so that tables and maps are complete.

Rule sets, by name (:data:`~.state.RULESETS`): ``free``, every turn starts with a throw
and may go on (the blog's rules); ``first-round``, in the first round each player throws
exactly once (the published analyses' rule).

Large games are built by the vectorised code of :mod:`.positions`; a size whose solve
would not fit in the memory available (:func:`estimate_bytes`,
:func:`gamegraph._memory.check_memory`) is refused up front.
"""

from __future__ import annotations

from fractions import Fraction

from ..._checks import check_int, is_whole
from ..._memory import MEMORY_LIMIT, check_memory
from ...batch import build_batch
from ...errors import InvalidArgumentError, UnknownNameError
from ...graph import StateGraph
from ...rules import Option, Outcome, Rules
from .positions import SuperSixBatch
from .state import (
    CONTINUE,
    FIRST_THROW,
    PLAY,
    RULESETS,
    SECOND_THROW,
    SOCKETS,
    STOP,
    TAKE,
    WIN,
    SixState,
)

__all__ = [
    "CONTINUE",
    "FIRST_THROW",
    "MEMORY_LIMIT",
    "PLAY",
    "RULESETS",
    "SECOND_THROW",
    "SOCKETS",
    "STOP",
    "TAKE",
    "WIN",
    "SixState",
    "SuperSix",
    "count_states",
    "estimate_bytes",
]

_BYTES_PER_STATE = 400  # peak of build + solve, measured at 1,000 pegs (docs/performance.md)
_BYTES_FIXED = 64 * 2**20  # scipy's and the solver's fixed costs (bench_memory.py)


def count_states(pegs: int) -> int:
    """Positions (b, c, o) with b <= 5, c, o >= 1 and b + c + o <= pegs.

    >>> count_states(40)
    4115
    """
    return sum((pegs - b) * (pegs - b - 1) // 2 for b in range(SOCKETS + 1) if pegs - b >= 2)


def estimate_bytes(pegs: int) -> int:
    """Rough peak memory of a float build and solve of ``pegs`` pegs (graph arrays and
    solver work), beyond the interpreter's own: 400 bytes per position and 64 MiB.

    Measured peak RSS above the interpreter (benchmarks/bench_memory.py): 89 MiB at 200
    pegs, 347 MiB at 500 and 1.11 GiB at 1,000 (estimates: 108 MiB, 347 MiB, 1.17 GiB).

    >>> round(estimate_bytes(1000) / 2**30, 2), round(estimate_bytes(3000) / 2**30, 1)
    (1.17, 10.1)
    """
    return _BYTES_PER_STATE * count_states(pegs) + _BYTES_FIXED


class SuperSix(Rules):
    """Super Six for a given number of pegs.

    Parameters
    ----------
    pegs : int
        Total pegs, split evenly between the players (must be even; default 40).
    hands : (int, int), optional
        Explicit pegs of the first and second player instead of ``pegs``.
    rules : {"free", "first-round"}

    Examples
    --------
    >>> from gamegraph import build, solve
    >>> solution = solve(build(SuperSix(pegs=4)), exact=True)
    >>> solution.value(SixState(0, 2, 2)), solution.value(SixState(1, 1, 2))
    (Fraction(36, 41), Fraction(35, 41))
    """

    name = "supersix"

    def __init__(self, *, pegs: int | None = None, hands=None, rules: str = "free"):
        if rules not in RULESETS:
            raise UnknownNameError("rule set", rules, RULESETS)
        if hands is None:
            pegs = check_int(40 if pegs is None else pegs, "pegs", low=2)
            if pegs % 2:
                raise InvalidArgumentError(
                    f"{pegs} pegs cannot be split evenly; give an even number or explicit hands"
                )
            hands = (pegs // 2, pegs // 2)
        elif pegs is not None:
            raise InvalidArgumentError("give pegs or hands, not both")
        try:
            hands = tuple(hands)
        except TypeError:
            raise InvalidArgumentError(
                f"hands must be two whole numbers of at least 1, got {hands!r}"
            ) from None
        if len(hands) != 2 or any(not is_whole(h) or h < 1 for h in hands):
            raise InvalidArgumentError(
                f"hands must be two whole numbers of at least 1, got {hands!r}"
            )
        self.hands = (int(hands[0]), int(hands[1]))
        self.pegs = sum(self.hands)
        self.rules = rules
        check_memory(
            estimate_bytes(self.pegs),
            f"Super Six with {self.pegs} pegs ({count_states(self.pegs):,} positions)",
            "give fewer pegs",
        )

    # -- rules ----------------------------------------------------------------
    def start(self) -> SixState:
        first, second = self.hands
        return SixState(0, first, second, FIRST_THROW if self.rules == "first-round" else PLAY)

    def roots(self):
        yield self.start()
        for b in range(SOCKETS + 1):
            for c in range(1, self.pegs - b):
                for o in range(1, self.pegs - b - c + 1):
                    yield SixState(b, c, o)

    def terminal_value(self, state):
        return Fraction(1) if state == WIN else None

    def outcomes(self, state: SixState) -> list[Outcome]:
        b, c, o, phase = state
        placed = self._after_shedding(b + 1, c - 1, o, phase)
        pitted = self._after_shedding(b, c - 1, o, phase)
        taken = (Option(self._handed_over(b - 1, o, c + 1, phase), TAKE, True),)
        result = []
        if b < SOCKETS:
            result.append(Outcome(Fraction(SOCKETS - b, 6), placed))
        if b > 0:
            result.append(Outcome(Fraction(b, 6), taken))
        result.append(Outcome(Fraction(1, 6), pitted))
        return result

    def _handed_over(self, b, c, o, phase):
        """The position the opponent throws from after the turn passes."""
        return SixState(b, c, o, SECOND_THROW if phase == FIRST_THROW else PLAY)

    def _after_shedding(self, b, c, o, phase):
        if c == 0:
            return (Option(WIN, CONTINUE),)
        stop = Option(self._handed_over(b, o, c, phase), STOP, True)
        if phase != PLAY:  # a first-round throw: the turn passes
            return (stop,)
        return (Option(SixState(b, c, o), CONTINUE), stop)

    def label(self, state) -> str:
        return str(state)

    def layer(self, state):
        return 0 if state == WIN else state.b + state.c + state.o

    def layer_name(self, layer: int) -> str:
        """How the explorer names a layer: the pegs still in play."""
        return f"{layer} pegs in play"

    def drawing(self) -> dict:
        """How the explorer draws a position: its label is ``lid/hand/opponent's hand``."""
        return {"kind": "lid", "sockets": 5}

    def move_label(self, move: int) -> str:
        return {CONTINUE: "roll", STOP: "stop", TAKE: "take"}[move]

    # -- the batch form, for large games ---------------------------------------
    def build_graph(self) -> StateGraph:
        """The same graph :func:`gamegraph.build` explores state by state, built from the
        batch form of the rules (:class:`~.positions.SuperSixBatch`): every position
        numbered in code order, ``WIN`` last; ``graph.states`` is a
        :class:`~.positions.SixPositions`.
        """
        graph = build_batch(
            SuperSixBatch(self), max_states=count_states(self.pegs) + 4, progress=False
        )
        graph.rules = self  # the game's own rules, as for a state-by-state build
        return graph

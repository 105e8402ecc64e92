"""Five dice as multisets: the 252 throws, the 462 keeps, and the chances between them.

Order does not matter in Yahtzee, so a throw of five dice is a multiset of faces, written
as a sorted tuple: there are C(10, 5) = 252 of them. What a player keeps before throwing
again is a multiset of 0 to 5 dice: C(11, 5) = 462 of them. Both are numbered in one
fixed order (by size, then lexicographically), and three small tables link them:

* :func:`throw_chances`: for every keep k and throw t, the chance that keeping k and
  throwing the other dice gives t, as integer weights over ``6 ** (5 - len(k))``;
* :func:`sub_keeps`: for every throw, the distinct keeps it allows (every sub-multiset,
  itself included: keeping all five dice ends the turn's throws);
* :func:`counts`: every throw as counts of each face.

The tables are plain numpy arrays in compressed sparse rows, read by the compact solver
(:mod:`gamegraph.games.yahtzee.solver`) and by the rules of the small versions
(:mod:`gamegraph.games.yahtzee.rules`).

Examples
--------
>>> len(THROWS), len(KEEPS)
(252, 462)
>>> THROWS[0], THROWS[-1], KEEPS[0]
((1, 1, 1, 1, 1), (6, 6, 6, 6, 6), ())
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement
from math import factorial

import numpy as np

FACES = 6


@cache
def multisets(dice: int, size: int | None = None) -> tuple:
    """Every multiset of ``dice`` faces when ``size`` is None; else of 0..``size`` faces, by
    size then lexicographically (sorted tuples).

    >>> multisets(2)[:8]
    ((1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3))
    >>> len(multisets(0, 2))
    28
    """
    sizes = [dice] if size is None else range(size + 1)
    return tuple(
        combo for n in sizes for combo in combinations_with_replacement(range(1, FACES + 1), n)
    )


THROWS = multisets(5)
KEEPS = multisets(0, 5)


def arrangements(faces) -> int:
    """How many ordered throws give the multiset ``faces``: n! / prod(count!).

    >>> arrangements((1, 1, 2)), arrangements((3, 4, 5, 6, 6))
    (3, 60)
    """
    ways = factorial(len(faces))
    for face in set(faces):
        ways //= factorial(faces.count(face))
    return ways


@cache
def throw_chances(dice: int = 5):
    """Keep -> throw chances for ``dice`` dice: ``(ptr, throw, weight)`` in CSR by keep
    (keeps of 0..dice dice, as :func:`multisets`), weights over ``6 ** (dice - kept)``.

    >>> ptr, throw, weight = throw_chances()
    >>> int(ptr[1]), int(weight[: ptr[1]].sum()), int(ptr[-1])   # keep nothing: 252 throws
    (252, 7776, 4368)
    """
    throws = multisets(dice)
    index = {t: i for i, t in enumerate(throws)}
    ptr, target, weight = [0], [], []
    for keep in multisets(0, dice):
        for rest in multisets(dice - len(keep)):
            target.append(index[tuple(sorted(keep + rest))])
            weight.append(arrangements(rest))
        ptr.append(len(target))
    return (
        np.array(ptr, dtype=np.int64),
        np.array(target, dtype=np.int64),
        np.array(weight, dtype=np.int64),
    )


@cache
def sub_keeps(dice: int = 5):
    """Throw -> keeps it allows, for ``dice`` dice: ``(ptr, keep)`` in CSR by throw.

    >>> ptr, keep = sub_keeps()
    >>> int(ptr[1] - ptr[0]), int(ptr[-1])   # 1,1,1,1,1 allows keeping 0 to 5 ones
    (6, 4368)
    """
    keeps = multisets(0, dice)
    index = {k: i for i, k in enumerate(keeps)}
    ptr, target = [0], []
    for faces in multisets(dice):
        subs = {
            tuple(sorted(faces[i] for i in range(dice) if mask >> i & 1))
            for mask in range(1 << dice)
        }
        target.extend(sorted(index[s] for s in subs))
        ptr.append(len(target))
    return np.array(ptr, dtype=np.int64), np.array(target, dtype=np.int64)


@cache
def counts(dice: int = 5) -> np.ndarray:
    """Every throw of ``dice`` dice as counts per face: shape (throws, 6), column f-1 for f.

    >>> counts()[-1].tolist()
    [0, 0, 0, 0, 0, 5]
    """
    throws = multisets(dice)
    out = np.zeros((len(throws), FACES), dtype=np.int64)
    for i, faces in enumerate(throws):
        for face in faces:
            out[i, face - 1] += 1
    return out

"""Values tables by rank: written whole or block by block, mapped, and every header checked."""

from __future__ import annotations

import os

import numpy as np
import pytest

from gamegraph import build, solve
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.ur import Ur, rule_set
from gamegraph.games.ur.code_table import table_from_solution
from gamegraph.games.ur.rank import Numbering
from gamegraph.games.ur.rank_table import (
    HEADER_BYTES,
    open_values,
    start_partial,
    write_values,
)


@pytest.fixture(scope="module")
def solved():
    """The explicit graph's table of finkel 2, and the same values by rank."""
    ruleset = rule_set("finkel", 2)
    table = table_from_solution(solve(build(Ur(ruleset))))
    numbering = Numbering(ruleset)
    values = np.array([table.value(numbering.position(i)) for i in range(len(numbering))])
    return table, numbering, values


@pytest.fixture
def written(tmp_path, solved):
    _, numbering, values = solved
    path = tmp_path / "finkel-2.npy"
    write_values(path, numbering, values)
    return path


def test_the_file_answers_as_the_explicit_table(written, solved):
    table, _, values = solved
    mapped = open_values(written, rules="finkel", pieces=2)
    assert len(mapped) == len(values)
    for position in ("-/-", "13+1/6", "14+1/14+1"):
        assert mapped.value(position) == table.value(position)
    assert mapped.move_values("4/6", 2) == table.move_values("4/6", 2)
    assert mapped.lookup("4/6", throw=2).best.move == table.lookup("4/6", throw=2).best.move
    mapped.verify()


def test_numpy_reads_it_as_it_is(written, solved):
    assert (np.load(written, mmap_mode="r") == solved[2]).all()
    assert (np.load(written) == solved[2]).all()


def damaged(path, offset, data):
    with open(path, "r+b") as stream:
        stream.seek(offset)
        stream.write(data)


def test_headers_are_checked(written, tmp_path):
    with pytest.raises(InvalidArgumentError, match="not finkel with 3"):
        open_values(written, rules="finkel", pieces=3)
    raw = written.read_bytes()
    text = raw[:HEADER_BYTES].decode("latin1")
    cases = {
        "truncated": (raw[:-8], "bytes where 12,869 positions need"),
        "not numpy": (b"x" + raw[1:], "no NumPy header"),
        "other rules": (text.replace('"finkel"', '"aseb"  ').encode("latin1") + raw[HEADER_BYTES:],
                        "variant of aseb"),
        "bad count": (text.replace('"positions":12869', '"positions":12868').encode("latin1")
                      + raw[HEADER_BYTES:], "says it holds 12868 positions"),
        "unfinished": (text.replace('"blocks_done":3', '"blocks_done":2').encode("latin1")
                       + raw[HEADER_BYTES:], "unfinished"),
        "plain npy": (None, "not a gamegraph Ur values table"),
    }  # fmt: skip
    for name, (data, message) in cases.items():
        path = tmp_path / f"{name.replace(' ', '-')}.npy"
        if data is None:
            np.save(path, np.zeros(12869))
        else:
            path.write_bytes(data)
        with pytest.raises(InvalidArgumentError, match=message):
            open_values(path)
    with pytest.raises(InvalidArgumentError, match="cannot read"):
        open_values(tmp_path / "missing.npy")
    with pytest.raises(InvalidArgumentError, match="not a regular file"):
        open_values(tmp_path)


def test_a_damaged_value_is_found_when_opened(written):
    damaged(written, HEADER_BYTES + 8 * 100, np.float64(0.25).tobytes())
    with pytest.raises(InvalidArgumentError, match="sha256"):
        open_values(written)


def test_a_partial_file_goes_on_where_it_stopped(tmp_path, solved):
    _, numbering, values = solved
    target = tmp_path / "t.npy"
    path = os.fspath(tmp_path / "t.npy.partial")
    partial = start_partial(target, numbering)
    assert partial.path == path
    partial.write_block(0, values)
    partial.close()
    again = start_partial(target, numbering)
    assert again.blocks_done == 1
    back = np.zeros_like(values)
    again.read_done(back)
    stop = numbering.blocks[0].stop
    assert (back[:stop] == values[:stop]).all() and not back[stop:].any()
    for block in numbering.blocks[1:]:
        again.write_block(block.index, values)
    again.finish(values)
    assert not os.path.exists(path)
    assert open_values(target).value("-/-") == values[numbering.index("-/-")]
    other = start_partial(target, Numbering(rule_set("aseb", 2)))  # other rules: afresh
    assert other.blocks_done == 0
    other.close()
    afresh = start_partial(target, numbering, resume=False)  # same rules, asked afresh
    assert afresh.blocks_done == 0
    afresh.close()


def test_the_quick_check_reads_only_a_sample(written):
    damaged(written, HEADER_BYTES + 8 * 100, np.float64(0.25).tobytes())
    assert open_values(written, check="quick").value("-/-") == open_values(
        written, check="quick"
    ).value("-/-")
    with pytest.raises(InvalidArgumentError, match="sha256"):
        open_values(written)

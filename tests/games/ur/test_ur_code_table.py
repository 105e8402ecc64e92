"""Tests for gamegraph.games.ur.code_table: solved Ur tables, their queries and their file.

The values are checked against the exact solver and the King of Ur endgames (4/7,
116/161, 74/161, derived by hand in test_ur.py); move values against the Bellman
equation (a position's value is the chance-weighted best of its move values) and
best moves against the solver's own optimal policy. The file tests damage a saved
table in every way the loader claims to notice (tests/hostile/test_table_reader.py
has the hostile files: FIFOs, devices, forged tables, random corruptions).
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from fractions import Fraction as F

import numpy as np
import pytest

from gamegraph import InvalidArgumentError, OutputError, _files, build, solve
from gamegraph.games.ur import (
    WIN,
    Ur,
    UrState,
    legal_moves,
    parse_position,
    play,
    rule_set,
    state_from_code,
)
from gamegraph.games.ur.analysis import solve_table
from gamegraph.games.ur.board import GEOMETRY
from gamegraph.games.ur.code_table import (
    MAGIC,
    SolvedTable,
    load_table,
    table_from_solution,
    table_positions,
)
from gamegraph.games.ur.counting import count_nonterminal


@pytest.fixture(scope="module")
def finkel1():
    return solve_table("finkel", pieces=1)


@pytest.fixture(scope="module")
def finkel2():
    graph = Ur("finkel", 2).build_graph()
    solution = solve(graph)
    return table_from_solution(solution), solution


@pytest.fixture(scope="module")
def masters1():
    return solve_table("masters", pieces=1)


@pytest.fixture
def saved(finkel1, tmp_path):
    path = tmp_path / "finkel-1.urtable"
    finkel1.save(path)
    return path


def header_size(data):
    return struct.unpack_from("<I", data, len(MAGIC))[0]


# ---------------------------------------------------------------------------
# Values and queries
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["finkel", "masters", "blitz", "aseb"])
def test_table_values_are_the_exact_solution(name):
    table = solve_table(name, pieces=1)
    exact = solve(Ur(name, 1).build_graph(), exact=True)
    positions = exact.graph.states
    assert len(table) == positions.win == exact.graph.n_states - 1
    assert np.array_equal(table.codes, positions.codes)
    assert np.all(np.diff(table.codes) > 0)
    assert np.max(np.abs(table.values - exact.values[:-1].astype(float))) <= 1e-12
    assert table.start_value == pytest.approx(float(exact.start_value), abs=1e-12)


def test_queries_by_text_and_by_state_agree(finkel1):
    assert len(finkel1) == 217
    assert finkel1.value("-/-") == finkel1.value(UrState((), 0, (), 0)) == finkel1.start_value
    assert finkel1.start_value == pytest.approx(0.5300498395248594, abs=1e-13)
    assert finkel1.value(WIN) == 1.0
    # The King of Ur endgames with one piece each: the same games as with 6 borne off.
    assert finkel1.value("14/14") == pytest.approx(4 / 7, abs=1e-13)
    assert finkel1.value("13/14") == pytest.approx(116 / 161, abs=1e-13)
    assert finkel1.value(UrState((14,), 0, (13,), 0)) == pytest.approx(74 / 161, abs=1e-13)


def test_move_values_in_the_king_of_ur_endgame(finkel1, finkel2):
    table, _ = finkel2
    for t, text in ((finkel1, "13/14"), (table, "13+1/14+1")):
        # From 13 a throw of 1 reaches the rosette (1,7): another throw in "14/14", 4/7.
        [(move, value)] = t.move_values(text, 1)
        assert move == (13, 14, False) and value == pytest.approx(4 / 7, abs=1e-13)
        assert t.move_values(text, 2) == [((13, 15, False), 1.0)]  # borne off: won
        for throw in (0, 3, 4):  # no move: pass
            [(move, value)] = t.move_values(text, throw)
            assert move is None and value == pytest.approx(1 - 74 / 161, abs=1e-13)
        assert t.best_move(text, 1) == (13, 14, False)
        assert t.best_move(text, 3) is None


def test_every_value_is_the_chance_weighted_best_of_its_move_values(finkel2):
    table, _ = finkel2
    ruleset = table.ruleset
    throws = [(t, F(w, ruleset.denominator)) for t, w in ruleset.throws]
    worst = 0.0
    for i in range(0, len(table), 7):  # every 7th of the 12,869 positions
        state = state_from_code(int(table.codes[i]), ruleset.length)
        backed_up = sum(
            float(p) * max(v for _, v in table.move_values(state, t)) for t, p in throws
        )
        worst = max(worst, abs(backed_up - table.values[i]))
    assert worst <= 1e-12


def test_best_move_is_the_solvers_choice(finkel2):
    table, solution = finkel2
    graph = solution.graph
    ruleset = table.ruleset
    throws = [t for t, _ in ruleset.throws]
    checked = 0
    for i in range(0, graph.n_states - 1, 3):
        state = graph.states[i]
        for k in graph.outcomes_of(i):
            options = graph.options_of(k)
            if len(options) < 2:
                continue
            throw = throws[k - graph.outcome_ptr[i]]
            values = [v for _, v in table.move_values(state, throw)]
            best = sorted(values)
            if best[-1] - best[-2] < 1e-9:  # a tie: either move is optimal
                continue
            chosen = graph.option_move[options.start + solution.policy.choice[k]]
            assert table.best_move(state, throw)[0] == chosen
            checked += 1
    assert checked > 2000


def test_move_values_follow_legal_moves_and_play(finkel2):
    table, _ = finkel2
    ruleset = table.ruleset
    for text, expected in (
        ("4/6", [(0, 2, False), (4, 6, True)]),
        ("4,9/6", [(4, 6, True), (9, 11, False)]),
    ):
        state = parse_position(text, ruleset)
        out = table.move_values(state, 2)
        assert [m for m, _ in out] == legal_moves(state, 2, ruleset) == expected
        for move, value in out:
            after, passes = play(state, move, ruleset)
            assert value == (1 - table.value(after) if passes else table.value(after))
        # Here the capture is worth a lot more than the other move (measured: 0.580 against
        # 0.475, and 0.721 against 0.613).
        assert table.best_move(state, 2) == (4, 6, True)
        assert out[1][1] - out[0][1] > 0.1 if text == "4/6" else out[0][1] - out[1][1] > 0.1


def test_refused_queries(finkel1, masters1):
    with pytest.raises(InvalidArgumentError, match="off the finkel path"):
        finkel1.value("15/-")
    with pytest.raises(InvalidArgumentError, match="write it as"):
        finkel1.value("13-14")
    with pytest.raises(InvalidArgumentError, match="same tile"):
        finkel1.value(UrState((7,), 0, (7,), 0))
    with pytest.raises(InvalidArgumentError, match="1 piece"):
        finkel1.value("1,2/-")
    with pytest.raises(
        InvalidArgumentError,
        match="throw 5 is not possible with these dice; accepted: 0, 1, 2, 3, 4",
    ):
        finkel1.move_values("-/-", 5)
    with pytest.raises(InvalidArgumentError, match="accepted: 1, 2, 3, 4"):
        masters1.move_values("-/-", 0)
    # Masters without a throw of 0: a lone piece off its rosettes, the opponent waiting,
    # cannot be the mover's (see test_ur.test_masters_reaches_fewer_positions_without_a_zero).
    with pytest.raises(InvalidArgumentError, match="cannot arise under masters rules with 1 piece"):
        masters1.value("5/-")
    assert masters1.value("4/-") > 0.5 and len(masters1) == 216


def test_a_table_needs_the_graph_of_every_position():
    solution = solve(build(Ur("finkel", start="14+6/14+6")))
    with pytest.raises(InvalidArgumentError, match="needs the graph of every position"):
        table_from_solution(solution)


# ---------------------------------------------------------------------------
# The file
# ---------------------------------------------------------------------------
def test_save_and_load_round_trip(finkel1, saved, finkel2, tmp_path):
    loaded = load_table(saved, rules="finkel", pieces=1)
    assert loaded.ruleset == finkel1.ruleset
    assert np.array_equal(loaded.codes, finkel1.codes)
    assert np.array_equal(loaded.values, finkel1.values)  # bit for bit
    assert load_table(str(saved)).value("13/14") == finkel1.value("13/14")
    data = saved.read_bytes()
    assert data.startswith(b"GAMEGRAPH-UR-TABLE\n")
    size = header_size(data)
    header = json.loads(data[len(MAGIC) + 4 : len(MAGIC) + 4 + size])
    assert header["positions"] == 217 and header["rules"]["name"] == "finkel"
    assert (header["format"], header["ruleset"], header["pieces"]) == (3, "finkel", 1)
    assert header["values"] == {"min": finkel1.values.min(), "max": finkel1.values.max()}
    assert 0 < header["values"]["min"] < header["values"]["max"] < 1
    assert len(data) == len(MAGIC) + 4 + size + 16 * 217
    # A bigger table, another rule set, and overwriting an existing file.
    table, _ = finkel2
    path = tmp_path / "t"
    table.save(path)
    assert load_table(path, "finkel", 2).value("4,9/6") == table.value("4,9/6")
    aseb = solve_table("aseb", pieces=1)
    aseb.save(path)
    assert load_table(path, "aseb", 1).start_value == aseb.start_value
    assert sorted(os.listdir(tmp_path)) == ["finkel-1.urtable", "t"]  # no temporary left


@pytest.mark.parametrize("name", ["finkel", "masters", "blitz", "aseb"])
def test_every_rule_set_round_trips_with_its_exact_position_count(name, tmp_path):
    table = solve_table(name, pieces=1)
    path = tmp_path / f"{name}.urtable"
    table.save(path)
    loaded = load_table(path, name, 1)
    assert np.array_equal(loaded.values, table.values)
    exact, bound = table_positions(table.ruleset)
    assert len(table) == exact == (216 if name == "masters" else bound)
    assert bound == 277 if name != "finkel" else bound == 217


def test_table_positions_matches_the_built_graphs():
    # Two pieces: every rule set with a throw of 0 holds every non-terminal position;
    # masters holds the 18,992 that arise (test_ur pins them by building the graph).
    for name in ("finkel", "blitz", "aseb", "masters"):
        exact, bound = table_positions(rule_set(name, 2))
        assert exact == Ur(name, 2).build_graph().n_states - 1
        assert bound == count_nonterminal(*GEOMETRY[name], 2)
    assert table_positions(rule_set("masters", 5)) == (
        None,
        count_nonterminal(*GEOMETRY["masters"], 5),
    )


def cut_points(data):
    start = len(MAGIC)
    size = header_size(data)
    arrays = start + 4 + size
    n = (len(data) - arrays) // 16
    return {
        "inside the size field": start + 2,
        "after the size field": start + 4,
        "inside the header": start + 4 + size // 2,
        "one byte short of the header": arrays - 1,
        "after the header": arrays,
        "inside the codes": arrays + 8 * n // 2 + 3,
        "after the codes": arrays + 8 * n,
        "inside the values": arrays + 8 * n + 8 * (n // 3),
        "one byte short": len(data) - 1,
    }


def test_truncated_files_are_refused(saved):
    data = saved.read_bytes()
    for where, cut in cut_points(data).items():
        saved.write_bytes(data[:cut])
        with pytest.raises(InvalidArgumentError, match="is truncated"):
            load_table(saved)
        assert cut < len(data), where
    saved.write_bytes(data[:10])  # cut inside the magic line
    with pytest.raises(InvalidArgumentError, match="is not a gamegraph Ur table"):
        load_table(saved)
    saved.write_bytes(b"")
    with pytest.raises(InvalidArgumentError, match="is not a gamegraph Ur table"):
        load_table(saved)
    saved.write_bytes(data + b"\0\0")
    with pytest.raises(InvalidArgumentError, match="has 2 stray bytes at the end"):
        load_table(saved)


def test_flipped_bytes_fail_the_digest(saved):
    data = saved.read_bytes()
    arrays = len(MAGIC) + 4 + header_size(data)
    n = (len(data) - arrays) // 16
    for offset in (arrays, arrays + 8 * n - 1, arrays + 8 * n + 5, len(data) - 1):
        damaged = bytearray(data)
        damaged[offset] ^= 0x10
        saved.write_bytes(bytes(damaged))
        with pytest.raises(InvalidArgumentError, match="is damaged: its sha256 digest"):
            load_table(saved)
    saved.write_bytes(data)
    assert load_table(saved).start_value > 0.5  # the undamaged file still loads


def rewrite_header(path, change, *, reseal=True):
    """Rewrite the JSON header of the table at ``path`` after ``change(header)``; with
    ``reseal`` the sha256 is computed again as the module docstring specifies (the header's
    other fields as sorted-key JSON, then the codes, then the values), as if another
    program had written the file on purpose."""
    data = path.read_bytes()
    start = len(MAGIC) + 4
    size = header_size(data)
    header = json.loads(data[start : start + size])
    arrays = data[start + size :]
    change(header)
    if reseal:
        fields = {k: v for k, v in header.items() if k != "sha256"}
        digest = hashlib.sha256(json.dumps(fields, sort_keys=True).encode())
        digest.update(arrays)  # codes then values: the bytes in order
        header["sha256"] = digest.hexdigest()
    text = json.dumps(header).encode()
    path.write_bytes(MAGIC + struct.pack("<I", len(text)) + text + arrays)


def test_the_digest_covers_the_header(saved):
    # One bit flipped in the header turns "pieces": 1 into "pieces": 3. The 217 codes of
    # the one-piece table are all valid three-piece codes too (with two pieces waiting),
    # so without a digest over the header this file would load as a three-piece table
    # and answer with one-piece values.
    data = saved.read_bytes()
    at = data.index(b'"pieces": 1') + len(b'"pieces": ')
    damaged = bytearray(data)
    damaged[at] ^= 0x02
    assert bytes(damaged[at : at + 1]) == b"3"
    saved.write_bytes(bytes(damaged))
    with pytest.raises(InvalidArgumentError, match="rules block that does not match"):
        load_table(saved, "finkel", 3)

    # The same change made on purpose in both places, with the digest computed again, is
    # refused too: a three-piece finkel table holds exactly 263,121 positions.
    def relabel(header):
        header["pieces"] = header["rules"]["pieces"] = 3

    saved.write_bytes(data)
    rewrite_header(saved, relabel)
    with pytest.raises(
        InvalidArgumentError, match="says it holds 217 positions; .* holds exactly 263,121"
    ):
        load_table(saved, "finkel", 3)
    # A file written before the digest is refused by its version number, with the remedy.
    saved.write_bytes(data)
    rewrite_header(saved, lambda h: h.update(format=2))
    with pytest.raises(
        InvalidArgumentError,
        match="is in table format 2; this version reads 3; re-run `gamegraph ur solve --save`",
    ):
        load_table(saved)


def test_damaged_or_foreign_headers_are_refused(saved):
    data = saved.read_bytes()
    saved.write_bytes(b"GAMEGRAPH-UR-TABLF\n" + data[len(MAGIC) :])
    with pytest.raises(InvalidArgumentError, match="is not a gamegraph Ur table"):
        load_table(saved)
    saved.write_bytes(b"\x89PNG\r\n\x1a\n" + data)
    with pytest.raises(InvalidArgumentError, match="is not a gamegraph Ur table"):
        load_table(saved)
    start = len(MAGIC) + 4
    damaged = bytearray(data)
    damaged[start] = ord("[")  # the JSON no longer parses
    saved.write_bytes(bytes(damaged))
    with pytest.raises(InvalidArgumentError, match="has an unreadable header"):
        load_table(saved)
    saved.write_bytes(MAGIC + struct.pack("<I", 1 << 30) + data[start:])
    with pytest.raises(InvalidArgumentError, match="a table header has at most 65,536"):
        load_table(saved)
    saved.write_bytes(MAGIC + struct.pack("<I", 1 << 15) + data[start:])  # past the end
    with pytest.raises(InvalidArgumentError, match="is truncated"):
        load_table(saved)
    saved.write_bytes(MAGIC + struct.pack("<I", 2000) + data[start:])  # into the codes
    with pytest.raises(InvalidArgumentError, match="has an unreadable header"):
        load_table(saved)

    cases = [  # change, message, digest computed again
        (lambda h: h.update(format=4), "is in table format 4; this version reads 3$", True),
        (lambda h: h.update(format="3"), "has no table format number", True),
        (lambda h: h.pop("positions"), "has an unreadable header: no field 'positions'", True),
        (lambda h: h.update(extra=1), "has an unreadable header: unknown field 'extra'", True),
        (lambda h: h.update(rules=[]), "rules block that does not match", True),
        # The header's fields are checked before the digest; the digest then catches a
        # change that leaves the header well formed.
        (lambda h: h["values"].update(max=0.9), "is damaged: its sha256", False),
        (lambda h: h.update(ruleset="bell"), "holds rules gamegraph does not know", True),
        (lambda h: h.update(ruleset=["finkel"]), "holds rules gamegraph does not know", True),
        (lambda h: h.update(pieces=9), "holds rules gamegraph does not know", True),
        (lambda h: h.update(pieces=True), "holds rules gamegraph does not know", True),
        (lambda h: h.update(pieces=1.0), "holds rules gamegraph does not know", True),
        (lambda h: h["rules"].update(name="aseb"), "rules block that does not match", True),
        (
            lambda h: h["rules"].update(safe_rosettes=False),
            "holds a variant of finkel that differs from gamegraph's finkel rules",
            True,
        ),
        (lambda h: h["rules"].update(safe_rosettes=1), "holds a variant of finkel", True),
        (lambda h: h["rules"]["rosettes"].pop(), "holds a variant of finkel", True),
        (
            lambda h: h["rules"].update(dice=[[1, "1/2"], [2, "1/2"]]),
            "holds a variant of finkel",
            True,
        ),
        (lambda h: h.update(positions=216), "says it holds 216 positions", True),
        (lambda h: h.update(positions=218), "says it holds 218 positions", True),
        (lambda h: h.update(positions=217.0), "says it holds 217.0 positions", True),
        (lambda h: h.update(values={"min": 0.0}), "'values' must give 'min' and 'max'", True),
        (lambda h: h["values"].update(max=1), "values must be within", True),
        (lambda h: h["values"].update(max=1.5), "values must be within", True),
        (lambda h: h["values"].update(max=0.5), "has values from .* but its header says", True),
        (lambda h: h.update(sha256=h["sha256"][:-1] + "x"), "64 lowercase hexadecimal", False),
        (
            lambda h: h.update(sha256=("0" if h["sha256"][0] != "0" else "1") + h["sha256"][1:]),
            "is damaged: its sha256 digest does not match",
            False,
        ),
    ]
    for change, message, reseal in cases:
        saved.write_bytes(data)
        rewrite_header(saved, change, reseal=reseal)
        with pytest.raises(InvalidArgumentError, match=message):
            load_table(saved)
    # Resealing an unchanged header gives back the file as saved: the docstring's
    # description of the digest is the one the code uses.
    saved.write_bytes(data)
    rewrite_header(saved, lambda h: None)
    assert saved.read_bytes() == data


def test_tables_for_other_rules_or_piece_counts_are_refused(saved):
    with pytest.raises(
        InvalidArgumentError,
        match="holds a table for finkel with 1 piece\\(s\\), not aseb with 1 piece",
    ):
        load_table(saved, rules="aseb", pieces=1)
    with pytest.raises(InvalidArgumentError, match="not finkel with 2 piece"):
        load_table(saved, rules="finkel", pieces=2)
    with pytest.raises(InvalidArgumentError, match="not finkel with 7 piece"):
        load_table(saved, rules="finkel")  # the rule set's own count, 7
    assert load_table(saved, rules=rule_set("finkel", 1)).ruleset == rule_set("finkel", 1)


def test_missing_files_and_folders(finkel1, tmp_path):
    with pytest.raises(InvalidArgumentError, match="cannot read .*nowhere.urtable"):
        load_table(tmp_path / "nowhere.urtable")
    with pytest.raises(OutputError, match="does not exist"):
        finkel1.save(tmp_path / "no" / "such" / "folder.urtable")
    assert os.listdir(tmp_path) == []


def test_a_failed_save_leaves_the_existing_file_untouched(finkel1, saved, monkeypatch):
    before = saved.read_bytes()
    other = SolvedTable(finkel1.ruleset, finkel1.codes, np.zeros(len(finkel1)))

    def broken_replace(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_files.os, "replace", broken_replace)  # the write of every file
    with pytest.raises(OSError, match="No space left"):
        other.save(saved)
    monkeypatch.undo()
    assert saved.read_bytes() == before
    assert os.listdir(saved.parent) == [saved.name]  # the temporary file is gone

    # Interrupted between writing the temporary file and renaming it into place.
    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(_files.os, "fsync", interrupted)  # just before the rename
    with pytest.raises(KeyboardInterrupt):
        other.save(saved)
    monkeypatch.undo()
    assert saved.read_bytes() == before
    assert os.listdir(saved.parent) == [saved.name]
    assert load_table(saved).value("14/14") == finkel1.value("14/14")


# ---------------------------------------------------------------------------
# lookup: a position and its moves as one result that displays itself
# ---------------------------------------------------------------------------
def test_lookup_gives_the_value_and_every_move(finkel2):
    finkel2, _ = finkel2
    ruleset = finkel2.ruleset
    state = parse_position("4/6", ruleset)
    plain = finkel2.lookup("4/6")
    assert plain.value == finkel2.value(state) and plain.moves == () and plain.best is None
    assert repr(plain) == f"<Ur finkel 4/6: value {finkel2.value(state):.6f}>"
    for throw, _ in ruleset.throws:
        result = finkel2.lookup(state, throw)
        pairs = finkel2.move_values(state, throw)
        assert [m.value for m in result.moves] == [v for _, v in pairs]
        assert result.best.value == max(v for _, v in pairs)
        assert finkel2.best_move(state, throw) == pairs[result.moves.index(result.best)][0]
        assert sum(m.best for m in result.moves) >= 1


def test_lookup_displays_as_a_table(finkel2):
    finkel2, _ = finkel2
    result = finkel2.lookup("4/6", 2)
    assert repr(result).startswith("<Ur finkel 4/6: value ")
    assert f"best {result.best.move} {result.best.value:.6f}>" in repr(result)
    table = result.table()
    assert table.columns == ("move", "value", "board", "captures", "throws again", "best")
    assert table.column("move") == [m.move for m in result.moves]
    html = result._repr_html_()
    assert "<caption>Ur (finkel, 2 piece(s)): 4/6, value " in html
    assert html.count("<tr>") == 1 + len(result.moves)
    pytest.importorskip("pandas")
    assert list(result.to_pandas()["value"]) == [m.value for m in result.moves]


def test_lookup_of_a_pass(finkel2):
    """Throw 0 moves nothing: one row, ``pass``, worth 1 - the opponent's value."""
    finkel2, _ = finkel2
    state = parse_position("4/6", finkel2.ruleset)
    result = finkel2.lookup(state, 0)
    assert [m.move for m in result.moves] == ["pass"]
    assert result.moves[0].value == pytest.approx(1 - finkel2.value(state.flipped()))
    assert result.moves[0].as_dict() == {
        "move": "pass",
        "board": "4/6",
        "value": result.moves[0].value,
        "best": True,
    }

"""Issue 11, case 9 (and the "18 GiB more than 18 GiB" message of case 13): every path that
can outgrow memory is estimated and refused before the work, in one line.

The refusals are tested with :func:`gamegraph._memory.available_memory` patched to a small
value, so they do not depend on this machine; the estimates are checked for growth with
size and, for the exact path, against a measured peak (benchmarks/bench_memory.py
calibrates the others).
"""

from __future__ import annotations

import time

import pytest
from cli_run import run

from gamegraph import _memory, build, solve
from gamegraph.errors import InvalidArgumentError
from gamegraph.games.supersix import SuperSix, estimate_bytes
from gamegraph.games.ur import Ur, rule_set
from gamegraph.mathprog import estimate_bytes as program_bytes
from gamegraph.mathprog import lp_relaxation, milp
from gamegraph.solve import _exact_bytes

GiB = 2**30

#: Seconds a refusal may take: the work it prevents takes minutes to hours. Generous,
#: because the suite runs on two busy cores.
REFUSED_WITHIN = 5


@pytest.fixture
def small_machine(monkeypatch):
    """A machine with 8 GiB available."""
    monkeypatch.setattr(_memory, "available_memory", lambda: 8 * GiB)


@pytest.fixture(scope="module")
def ur2_graph():
    return build(Ur(rule_set("finkel", 2)), progress=False)


def _one_error_line(status, out, err):
    assert status == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("gamegraph: error: ")
    assert "Traceback" not in err
    return lines[0]


# -- the message --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "needed, available",
    [(int(18.2 * GiB) + 1, int(18.2 * GiB)), (GiB + 1, GiB), (23 * GiB, 18 * GiB), (3000, 2000)],
)
def test_message_never_says_x_more_than_x(needed, available):
    with pytest.raises(InvalidArgumentError) as caught:
        _memory.check_memory(needed, "the job", "do less", available=available)
    message = str(caught.value)
    assert "\n" not in message and "more than" not in message
    need_text = message.split("needs about ")[1].split(";")[0]
    free_text = message.split("; ")[1].split(" is available")[0]
    assert need_text != free_text
    assert message.endswith("is available (do less)")


def test_check_memory_passes_what_fits():
    assert _memory.check_memory(GiB, "the job", available=GiB) is None


def test_available_memory_is_meminfo_or_less():
    with open("/proc/meminfo") as file:
        meminfo = {line.split(":")[0]: int(line.split()[1]) * 1024 for line in file}
    assert 0 < _memory.available_memory() <= meminfo["MemAvailable"] + 64 * 2**20


# -- case 9: each path refused before its work ----------------------------------------------
def test_supersix_solve_3000_pegs_is_refused_within_a_second(small_machine, capsys):
    started = time.perf_counter()
    line = _one_error_line(*run(["supersix", "solve", "--pegs", "3000"], capsys))
    assert time.perf_counter() - started < REFUSED_WITHIN
    assert "Super Six with 3000 pegs (26,946,035 positions) needs about 10.1 GiB" in line
    assert line.endswith("8.0 GiB is available (give fewer pegs)")


@pytest.mark.parametrize("command", ["solve", "map", "lp", "report"])
def test_every_supersix_command_refuses_a_size_beyond_memory(command, capsys):
    argv = ["supersix", command, "--pegs", "100000"]
    if command in ("map", "report"):
        argv += ["-o", "never.png" if command == "map" else "never.html"]
    started = time.perf_counter()
    line = _one_error_line(*run(argv, capsys))
    assert time.perf_counter() - started < REFUSED_WITHIN
    assert "needs about" in line or "supersix lp takes up to 40 pegs" in line


def test_supersix_lp_100_pegs_is_refused_fast(capsys):
    started = time.perf_counter()
    line = _one_error_line(*run(["supersix", "lp", "--pegs", "100"], capsys))
    assert time.perf_counter() - started < REFUSED_WITHIN
    assert "supersix lp takes up to 40 pegs" in line
    minutes = int(line.split("roughly ")[1].split(" minutes")[0])
    assert 10 <= minutes <= 100  # 28,235 positions against 4,115: about 47 times 34 s


def test_ur_finkel_2_exact_is_refused_on_a_small_machine(ur2_graph, monkeypatch):
    monkeypatch.setattr(_memory, "available_memory", lambda: 2 * GiB)
    started = time.perf_counter()
    with pytest.raises(InvalidArgumentError, match=r"^an exact solve of ur-finkel-2 \(12,870"):
        solve(ur2_graph, exact=True, progress=False)
    assert time.perf_counter() - started < 2


def test_ur_finkel_2_exact_estimate_covers_what_was_seen(ur2_graph):
    # Measured: 5.6 GiB after 300 s and still growing (benchmarks/bench_memory.py).
    assert 6 * GiB < _exact_bytes(ur2_graph) < 32 * GiB


def test_ur_solve_is_refused_past_memory(monkeypatch, capsys):
    monkeypatch.setattr(_memory, "available_memory", lambda: 2 * GiB)
    line = _one_error_line(*run(["ur", "solve", "--pieces", "4"], capsys))
    assert "solving finkel with 4 pieces (2,602,822 positions) needs about 3.2 GiB" in line
    assert line.endswith("2.0 GiB is available (try fewer --pieces)")


def test_the_programs_are_refused_past_memory(monkeypatch):
    graph = build(SuperSix(pegs=20), progress=False)
    monkeypatch.setattr(_memory, "available_memory", lambda: 2**20)
    with pytest.raises(InvalidArgumentError, match=r"^the LP of supersix \(876 states\)"):
        lp_relaxation(graph)
    with pytest.raises(InvalidArgumentError, match=r"^the MILP of supersix"):
        milp(graph)


def test_the_rules_refuse_at_construction(small_machine):
    with pytest.raises(InvalidArgumentError, match="give fewer pegs"):
        SuperSix(pegs=3000)
    assert SuperSix(pegs=1000).pegs == 1000  # 1.2 GiB fits in 8


# -- the estimates --------------------------------------------------------------------------
def test_estimates_grow_with_size():
    sizes = [10, 20, 30, 40]
    graphs = [build(SuperSix(pegs=p), progress=False) for p in sizes]
    for estimate in (
        [estimate_bytes(p) for p in sizes],
        [_exact_bytes(g) for g in graphs],
        [program_bytes(g) for g in graphs],
        [program_bytes(g, kind="milp") for g in graphs],
    ):
        assert estimate == sorted(estimate) and len(set(estimate)) == len(estimate)


def test_float_estimate_order_of_magnitude():
    # Measured peak RSS above the interpreter: 347 MiB at 500 pegs, 1.11 GiB at 1,000.
    assert 347 * 2**20 / 2 < estimate_bytes(500) < 2 * 347 * 2**20
    assert 1.11 * GiB / 2 < estimate_bytes(1000) < 2 * 1.11 * GiB


def test_running_out_of_memory_anyway_is_one_line(capsys, monkeypatch):
    # The estimate can be beaten (other programs take memory after the check): numpy's
    # allocation error still ends in one line and status 1, not a traceback.
    import numpy as np

    import gamegraph.cli.supersix as supersix_cli

    def exhausted(args, out):
        np.empty(2**62, dtype=np.uint8)

    monkeypatch.setattr(supersix_cli, "_solve", exhausted)
    from gamegraph.cli.main import main

    parser_run = main(["supersix", "solve", "--pegs", "6"])
    err = capsys.readouterr().err
    assert parser_run == 1 and err == (
        "gamegraph: error: ran out of memory; try a smaller game or free some memory\n"
    )

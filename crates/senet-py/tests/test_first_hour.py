"""Game.afterstates and the first-hour example (examples/first_hour.py) that learns with it."""

import importlib.util
import math
import pathlib
import sys

import numpy as np
import pytest

import senet

EXAMPLE = pathlib.Path(__file__).resolve().parents[1] / "examples" / "first_hour.py"


def load_example():
    spec = importlib.util.spec_from_file_location("first_hour", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    # dataclasses look their module up while the class is made.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("rules", [r["id"] for r in senet.rulesets()] + ["kendall(throw_timing=immediate)"])
def test_afterstates_are_the_positions_each_move_leaves(rules):
    rng = senet.Rng(11, 0)
    game = senet.Game(rules)
    checked = endings = 0
    for _ in range(50_000):
        if game.phase == "over":
            break
        if game.phase == "throw":
            game.throw(rng=rng)
            continue
        before = game.record()
        moves, observations, results = game.afterstates()
        assert game.record() == before, "afterstates changed the game"
        assert moves == game.legal_moves()
        assert observations.dtype == np.float32 and results.dtype == np.float32
        assert observations.shape == (len(moves), game.rules.observation_size)
        for i, move in enumerate(moves):
            after = game.copy()
            after.play(move)
            assert np.array_equal(observations[i], after.observation())
            outcome = after.outcome
            if outcome is None:
                assert math.isnan(results[i])
            else:
                expected = {"black": 1.0, "white": 0.0, None: 0.5}[outcome["winner"]]
                assert results[i] == expected
                endings += 1
            checked += 1
        game.play(int(rng.next_u64() % len(moves)))
    assert checked > 50
    assert game.phase == "over", "the random game did not end"
    assert endings > 0, "no move that ends the game was scored by its result"


def test_afterstates_of_a_game_waiting_for_a_throw_are_empty():
    game = senet.Game("regency")
    moves, observations, results = game.afterstates()
    assert moves == [] and observations.shape == (0, game.rules.observation_size)
    assert results.shape == (0,)


def test_the_first_hour_example_learns_and_repeats():
    example = load_example()
    quiet = lambda *_: None  # noqa: E731
    net, curve = example.train("regency", games=300, every=300, match_games=200,
                               opponents=("random",), log=quiet)
    start, end = curve.points[0][2], curve.points[-1][2]
    assert curve.points[-1][0] == 300
    # An untrained network plays about as well as random; 300 games of self-play teach it
    # to win most games against random (measured: see docs/python.md).
    assert end >= 0.65 and end >= start + 0.1, curve.points
    again, _ = example.train("regency", games=20, every=20, match_games=2,
                             opponents=("random",), log=quiet)
    twice, _ = example.train("regency", games=20, every=20, match_games=2,
                             opponents=("random",), log=quiet)
    assert all(np.array_equal(a, b) for a, b in zip(again.parameters(), twice.parameters()))


def test_the_example_refuses_bad_arguments(capsys):
    example = load_example()
    with pytest.raises(SystemExit):
        example.main(["--games", "0"])
    assert "--games" in capsys.readouterr().err
    assert example.main(["--rules", "chess", "--games", "1"]) == 2
    assert "rules" in capsys.readouterr().err

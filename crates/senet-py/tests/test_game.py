import copy
import json
import pickle

import numpy as np
import pytest

import senet


def test_rulesets_list_every_ruleset_with_options_and_fields():
    ids = [r["id"] for r in senet.rulesets()]
    assert ids and len(set(ids)) == len(ids)
    for info in senet.rulesets():
        rules = senet.Ruleset(info["id"])
        assert rules.id == info["id"] and rules.spec == info["id"]
        assert [o["name"] for o in info["options"]] == [o["name"] for o in rules.info()["options"]]
    kendall = next(r for r in senet.rulesets() if r["id"] == "kendall")
    assert any(o["name"] == "trap" for o in kendall["options"])
    assert all(o["default"] == o["values"][0] for o in kendall["options"])
    assert {f["name"] for f in kendall["fields"]} >= {"throws", "phase"}


def test_a_ruleset_knows_its_spec_pieces_and_exact_device():
    rules = senet.Ruleset("kendall(trap=true)")
    assert rules.id == "kendall"
    assert rules.spec == "kendall(trap=true)"
    assert senet.Ruleset("regency").throw_outcomes() == [(1, 4), (2, 6), (3, 4), (4, 1), (6, 1)]
    assert senet.Ruleset("regency").pieces_per_side == 5
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert rules.observation_size == len(senet.Game(rules).observation())


def test_a_ruleset_gives_its_rules_in_prose_with_their_ids():
    for info in senet.rulesets():
        text = senet.Ruleset(info["id"]).rules_text
        assert len(text) > 500, info["id"]
    assert "K-1" in senet.Ruleset("kendall").rules_text
    assert "R-1" in senet.Ruleset("regency(house_of_water=true)").rules_text


def test_a_game_goes_through_throw_and_move_phases_and_undoes():
    game = senet.Game("regency")
    assert (game.phase, game.side) == ("throw", "black")
    assert game.legal_moves() == []
    assert game.throw(3) == 3
    assert game.phase == "move"
    moves = game.legal_moves()
    assert moves
    game.play(moves[0])
    assert game.history == ["throw 3", f"move {moves[0]}"]
    assert game.undo() == f"move {moves[0]}"
    assert game.legal_moves() == moves
    game.play(len(moves) - 1)
    assert game.history[-1] == f"move {moves[-1]}"


def test_seeded_games_repeat_and_records_replay():
    def play(seed):
        game = senet.Game("piccione")
        game.play_random(senet.Rng(seed))
        return game

    a, b = play(4), play(4)
    assert a == b and a.record() == b.record()
    assert a.phase == "over" and a.outcome["winner"] in ("black", "white")
    assert senet.Game.from_record(a.record()) == a
    assert senet.Game.from_json(a.record_json()) == a
    assert json.loads(a.record_json())
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a
    assert play(5) != a


def test_throws_from_an_rng_follow_the_device():
    game = senet.Game("regency")
    values = {v for v, _ in game.throw_outcomes()}
    rng = senet.Rng(7)
    for _ in range(50):
        game = senet.Game("regency")
        assert game.throw(rng=rng) in values


@pytest.mark.parametrize(
    "action, error",
    [
        (lambda g: g.throw(6), senet.MoveError),
        (lambda g: g.play("1-30"), senet.MoveError),
        (lambda g: g.play("nonsense"), senet.MoveError),
        (lambda g: g.play(99), senet.MoveError),
        (lambda g: g.play(-1), senet.MoveError),
    ],
)
def test_bad_input_raises_and_leaves_the_game_unchanged(action, error):
    game = senet.Game("regency")
    game.throw(2)
    before = game.copy()
    with pytest.raises(error) as raised:
        action(game)
    assert isinstance(raised.value, senet.SenetError)
    assert isinstance(raised.value, ValueError)
    assert str(raised.value)
    assert game == before


def test_a_finished_game_refuses_moves_and_throws():
    game = senet.Game("bell")
    game.play_random(senet.Rng(1))
    finished = game.copy()
    with pytest.raises(senet.MoveError):
        game.throw(1)
    with pytest.raises(senet.MoveError):
        game.play("pass")
    assert game == finished


def test_bad_rulesets_positions_and_records_raise_typed_errors():
    with pytest.raises(senet.RulesetError, match="chess"):
        senet.Game("chess")
    with pytest.raises(senet.RulesetError):
        senet.Ruleset("regency(house_of_water=maybe)")
    with pytest.raises(senet.PositionError):
        senet.Game("regency", position="nonsense")
    with pytest.raises(senet.RecordError):
        senet.Game.from_record("rules regency\nthrow 9\n")
    with pytest.raises(senet.RecordError):
        senet.Game.from_json("{}")
    with pytest.raises(senet.RulesetError, match="^rules: "):
        senet.Game(42)


def test_a_game_from_a_position():
    start = "." * 27 + "WB. b"
    game = senet.Game("regency", position=start)
    assert game.position == start == game.start_position


def test_observation_and_mask_have_fixed_shapes():
    for info in senet.rulesets():
        rules = senet.Ruleset(info["id"])
        game = senet.Game(rules)
        rng = senet.Rng(3)
        for _ in range(200):
            obs, mask = game.observation(), game.action_mask()
            assert obs.dtype == np.float32 and obs.shape == (rules.observation_size,)
            assert mask.dtype == np.int8 and mask.shape == (senet.MOVE_LIST_CAPACITY,)
            assert mask.sum() == len(game.legal_moves())
            assert obs[:60].sum() + obs[60:64].sum() + obs[64:66].sum() == 2 * rules.pieces_per_side
            if game.phase == "over":
                break
            if game.phase == "throw":
                game.throw(rng=rng)
            else:
                game.play(0)
        names = [name for name, _ in rules.observation_fields()]
        assert names == [f["name"] for f in info["fields"]]

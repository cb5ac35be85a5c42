"""The OpenSpiel game (senet.openspiel): OpenSpiel's own checks and serialisation for every
registered ruleset. Skipped with one line without open_spiel, unless
SENET_REQUIRE_OPENSPIEL=1."""

import os
import pickle
import random

import pytest

if os.environ.get("SENET_REQUIRE_OPENSPIEL") == "1":
    import pyspiel
else:
    pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")

import senet  # noqa: E402
import senet.openspiel  # noqa: E402,F401 (registers python_senet)

RULESETS = [info["id"] for info in senet.rulesets()]
SPECS = RULESETS + ["kendall(throw_timing=immediate)", "regency(collect_throws=true)"]


def play(state, steps, seed):
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            values, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(values, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("spec", SPECS)
def test_random_sim_test_passes(spec):
    game = pyspiel.load_game("python_senet", {"rules": spec, "turn_cap": 300})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("spec", SPECS)
def test_the_game_serialises_and_deserialises(spec):
    game = pyspiel.load_game("python_senet", {"rules": spec})
    rules = senet.Ruleset(spec)
    assert game.num_distinct_actions() == rules.action_count
    assert game.get_type().short_name == "python_senet"
    for seed in range(4):
        state = play(game.new_initial_state(), 150 + 37 * seed, seed)
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert game2.num_distinct_actions() == rules.action_count
        assert state2.history() == state.history()
        assert str(state2) == str(state)
        # The game string loads the same configuration.
        assert str(pyspiel.load_game(str(game))) == str(game)
        again = pickle.loads(pickle.dumps(state))
        assert str(again) == str(state)


def test_chance_nodes_carry_the_devices_probabilities():
    for spec in RULESETS:
        game = pyspiel.load_game("python_senet", {"rules": spec})
        state = game.new_initial_state()
        assert state.is_chance_node()
        outcomes = senet.Ruleset(spec).throw_outcomes()
        total = sum(w for _, w in outcomes)
        assert state.chance_outcomes() == [(v, w / total) for v, w in outcomes]
        assert game.max_chance_outcomes() > max(v for v, _ in outcomes)


def test_split_moves_are_several_actions_of_one_player_and_observed():
    game = pyspiel.load_game("python_senet", {"rules": "piccione"})
    rules = senet.Ruleset("piccione")
    for seed in range(30):
        state = play(game.new_initial_state(), 40 + seed, seed)
        if state.is_terminal() or state.is_chance_node():
            continue
        split = [m for m in state.game.legal_moves() if "," in m]
        if not split:
            continue
        player = state.current_player()
        codes = rules.encode_move(split[0])
        state.apply_action(codes[0])
        assert state.current_player() == player
        tensor = state.observation_tensor(player)
        assert len(tensor) == rules.observation_size + senet.MAX_STEPS
        assert tensor[rules.observation_size] == codes[0]
        return
    pytest.fail("no split move found")


def test_bad_parameters_are_refused():
    with pytest.raises(Exception, match="rules"):
        pyspiel.load_game("python_senet", {"rules": "nonsense"})
    with pytest.raises(Exception, match="turn_cap"):
        pyspiel.load_game("python_senet", {"rules": "regency", "turn_cap": 0})

"""Fixed action codes (docs/action-codes.md): the same code means the same move in every
position of a configuration; masks, split moves, and the environments' default encoding."""

import numpy as np
import pytest

import senet

RULESETS = [info["id"] for info in senet.rulesets()]
COUNTS = {"kendall": 1 + 5 + 5 * 961 + 1}


def random_games(rules, games=3, seed=0):
    """Yields every game of a few random games at each of its move decisions."""
    rng = senet.Rng(seed)
    for g in range(games):
        game = senet.Game(rules)
        for _ in range(3000):
            if game.phase == "over":
                break
            if game.phase == "throw":
                game.throw(rng=rng)
                continue
            yield game
            moves = game.legal_moves()
            game.play(moves[rng.next_u64() % len(moves)])


@pytest.mark.parametrize("rules", RULESETS)
def test_codes_are_fixed_distinct_and_decode_back(rules):
    ruleset = senet.Ruleset(rules)
    assert ruleset.action_count == COUNTS.get(rules, 1 + 961 + 1)
    meaning = {}
    for game in random_games(rules):
        moves = game.legal_moves()
        encoded = [tuple(ruleset.encode_move(m)) for m in moves]
        assert len(set(encoded)) == len(moves)
        for mv, codes in zip(moves, encoded):
            assert ruleset.decode_action(list(codes)) == mv
            # A code stands for the same move (step) wherever it appears.
            assert meaning.setdefault(codes, mv) == mv
        assert sorted(set(c[0] for c in encoded)) == game.legal_action_codes()
        mask = game.action_masks()
        assert mask.shape == (ruleset.action_count,) and mask.dtype == np.int8
        assert np.flatnonzero(mask).tolist() == game.legal_action_codes()


@pytest.mark.parametrize("rules", RULESETS)
def test_play_code_plays_the_move_of_its_codes(rules):
    ruleset = senet.Ruleset(rules)
    splits = 0
    for position in random_games(rules, games=2, seed=5):
        for mv in position.legal_moves():
            game = position.copy()
            codes = ruleset.encode_move(mv)
            for code in codes[:-1]:
                assert code in game.legal_action_codes()
                assert game.play_code(code) is None
                splits += 1
            assert codes[-1] in game.legal_action_codes()
            assert game.play_code(codes[-1]) == mv
            assert game.partial_codes() == []
            expected = position.copy()
            expected.play(mv)
            assert game == expected
    if rules == "piccione":
        assert splits > 0


def test_split_moves_go_code_by_code():
    ruleset = senet.Ruleset("piccione")
    for game in random_games("piccione", games=3, seed=2):
        split = [m for m in game.legal_moves() if "," in m]
        if not split:
            continue
        codes = ruleset.encode_move(split[0])
        assert len(codes) > 1
        game.play_code(codes[0])
        assert game.partial_codes() == codes[:1]
        assert codes[1] in game.legal_action_codes()
        # Any other action drops the partial move.
        game.undo()
        assert game.partial_codes() == []
        return
    pytest.fail("no split move found")


def test_bad_codes_are_refused_naming_the_argument():
    game = senet.Game("regency")
    game.throw(3)
    before = game.copy()
    for bad in (True, 1.9, "3", None):
        with pytest.raises(senet.SenetError, match="code"):
            game.play_code(bad)
    with pytest.raises(senet.MoveError, match="out of range"):
        game.play_code(963)
    with pytest.raises(senet.MoveError, match="code"):
        game.play_code(-1)
    with pytest.raises(senet.MoveError, match="not legal|no legal"):
        game.play_code(0)  # a pass, not legal with moves available
    for bad in (True, 1.9):
        with pytest.raises(senet.SenetError, match="mv"):
            game.play(bad)
    assert game == before
    with pytest.raises(senet.MoveError, match="mv"):
        senet.Ruleset("regency").encode_move("9-12/3")
    with pytest.raises(senet.MoveError, match="codes"):
        senet.Ruleset("regency").decode_action(5000)
    fresh = senet.Game("regency")
    assert fresh.legal_action_codes() == []
    with pytest.raises(senet.MoveError, match="no move is due"):
        fresh.play_code(300)


gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from senet.envs import SenetAECEnv, SenetEnv, SenetVectorEnv  # noqa: E402


@pytest.mark.parametrize("rules", ["regency", "kendall", "piccione"])
def test_the_envs_default_to_fixed_codes(rules):
    ruleset = senet.Ruleset(rules)
    env = SenetEnv(rules)
    assert env.action_space.n == ruleset.action_count
    obs, _ = env.reset(seed=3)
    assert obs["action_mask"].shape == (ruleset.action_count,)
    assert np.array_equal(env.action_masks(), obs["action_mask"])
    rng = np.random.default_rng(1)
    steps = 0
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) >= 1
        game = env.game()
        if (obs["partial_move"] == -1).all():
            assert legal.tolist() == game.legal_action_codes()
        obs, _, terminated, truncated, info = env.step(rng.choice(legal))
        assert "illegal_action" not in info
        done = terminated or truncated
        steps += 1
    assert steps > 5
    check_env(SenetEnv(rules, action_encoding="index"), skip_render_check=True)


def test_non_integral_actions_are_refused():
    env = SenetEnv("regency")
    obs, _ = env.reset(seed=0)
    for bad in (1.9, True, np.float64(2.0), np.bool_(True), "3"):
        with pytest.raises(senet.SenetError, match="action"):
            env.step(bad)
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    vec = SenetVectorEnv(2, "regency")
    vec.reset(seed=0)
    with pytest.raises(senet.SenetError, match="integers"):
        vec.step(np.array([1.5, 2.0]))
    aec = SenetAECEnv("regency")
    aec.reset(seed=0)
    with pytest.raises(senet.SenetError, match="action"):
        aec.step(1.9)
    with pytest.raises(senet.SenetError, match="action_encoding"):
        SenetEnv("regency", action_encoding="onehot")


def test_the_vector_env_with_fixed_codes_matches_its_games():
    env = SenetVectorEnv(4, "piccione", opponent="random")
    obs, _ = env.reset(seed=0)
    assert obs["action_mask"].shape == (4, senet.Ruleset("piccione").action_count)
    rng = np.random.default_rng(0)
    partial_seen = False
    for _ in range(200):
        actions = []
        for i in range(4):
            game = env.game(i)
            assert (game.phase, game.side) == ("move", "black")
            if (obs["partial_move"][i] == -1).all():
                assert np.array_equal(obs["action_mask"][i], game.action_masks())
            else:
                partial_seen = True
            actions.append(rng.choice(np.flatnonzero(obs["action_mask"][i])))
        obs, rewards, terminated, truncated, _ = env.step(np.array(actions))
    assert partial_seen
    assert np.array_equal(env.action_masks(), obs["action_mask"])


@pytest.mark.parametrize("rules", ["kendall", "piccione"])
def test_the_pettingzoo_env_with_fixed_codes_passes_api_test(rules):
    env = SenetAECEnv(rules)
    assert env.action_space("black").n == senet.Ruleset(rules).action_count
    api_test(env, num_cycles=300)
    env.reset(seed=1)
    assert np.array_equal(env.action_masks(), env.observe(env.agent_selection)["action_mask"])

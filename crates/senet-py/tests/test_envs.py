import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pettingzoo = pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import senet  # noqa: E402
from senet.envs import SenetAECEnv, SenetEnv, SenetVectorEnv, aec_env  # noqa: E402

RULESETS = [info["id"] for info in senet.rulesets()]


def first_legal(obs):
    return int(np.flatnonzero(obs["action_mask"])[0])


def episode(env, seed, pick=first_legal):
    obs, info = env.reset(seed=seed)
    trace = [obs["observation"].tolist()]
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(pick(obs))
        trace.append((obs["observation"].tolist(), reward, terminated, truncated))
        done = terminated or truncated
    return trace


@pytest.mark.parametrize("rules", RULESETS)
def test_the_gymnasium_env_passes_check_env(rules):
    check_env(SenetEnv(rules), skip_render_check=True)


@pytest.mark.parametrize("opponent", ["random", "greedy", "mcts:10"])
def test_seeds_reproduce_episodes(opponent):
    env = SenetEnv("kendall", opponent=opponent, agent="white")
    assert episode(env, 12) == episode(env, 12)
    assert episode(env, 12) != episode(env, 13)
    # A run of episodes after one seed repeats too.
    env.reset(seed=5)
    first = [episode(env, None) for _ in range(3)]
    env.reset(seed=5)
    assert [episode(env, None) for _ in range(3)] == first


def test_episodes_end_with_the_game_and_the_agent_always_moves():
    env = SenetEnv("regency", opponent="greedy")
    obs, _ = env.reset(seed=1)
    rewards = []
    for _ in range(20):
        done = False
        while not done:
            game = env.game()
            assert (game.phase, game.side) == ("move", "black")
            assert obs["action_mask"].sum() == len(game.legal_moves())
            obs, reward, terminated, truncated, _ = env.step(first_legal(obs))
            done = terminated or truncated
        rewards.append(reward)
        assert env.game().phase == "over" or truncated
        obs, _ = env.reset()
    assert set(rewards) <= {-1.0, 1.0}


def test_illegal_actions_lose_or_raise():
    env = SenetEnv("regency", action_encoding="index")
    obs, _ = env.reset(seed=2)
    illegal = int(obs["action_mask"].sum())
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})
    with pytest.raises(senet.MoveError):
        env.step(0)
    strict = SenetEnv("regency", illegal="raise", action_encoding="index")
    obs, _ = strict.reset(seed=2)
    before = strict.game()
    with pytest.raises(senet.MoveError):
        strict.step(illegal)
    assert strict.game() == before
    with pytest.raises(senet.SenetError):
        SenetEnv("regency", illegal="maybe")
    with pytest.raises(senet.PlayerError):
        SenetEnv("regency", opponent="robot")


def test_the_vector_env_steps_every_game_and_repeats_from_its_seed():
    def run(seed):
        env = SenetVectorEnv(8, "piccione", opponent="random", action_encoding="index")
        obs, _ = env.reset(seed=seed)
        assert obs["observation"].shape == (8, env.rules.observation_size)
        rng = np.random.default_rng(0)
        trace, ends = [], 0
        for _ in range(300):
            legal = obs["action_mask"].sum(axis=1)
            assert (legal >= 1).all()
            actions = (rng.random(8) * legal).astype(np.int64)
            obs, rewards, terminated, truncated, _ = env.step(actions)
            ends += int(terminated.sum() + truncated.sum())
            assert set(rewards[~terminated].tolist()) <= {0.0}
            trace.append((obs["observation"].sum(), rewards.tolist()))
        return trace, ends

    a, ends = run(3)
    assert ends > 0
    assert run(3)[0] == a
    assert run(4)[0] != a


def test_the_vector_env_matches_the_observations_of_its_games():
    env = SenetVectorEnv(4, "kendall", opponent="greedy", action_encoding="index")
    obs, _ = env.reset(seed=0)
    for _ in range(50):
        for i in range(4):
            game = env.game(i)
            assert (game.phase, game.side) == ("move", "black")
            assert np.array_equal(obs["observation"][i], game.observation())
            assert np.array_equal(obs["action_mask"][i], game.action_mask())
        obs, *_ = env.step(np.zeros(4, dtype=np.int64))


def test_the_vector_env_refuses_bad_actions_whole():
    env = SenetVectorEnv(3, "regency", illegal="raise", action_encoding="index")
    obs, _ = env.reset(seed=1)
    before = [env.game(i) for i in range(3)]
    actions = np.array([0, 0, 255])
    with pytest.raises(senet.MoveError, match=r"^actions\[2\]: "):
        env.step(actions)
    assert [env.game(i) for i in range(3)] == before
    with pytest.raises(senet.SenetError):
        env.step(np.zeros(2, dtype=np.int64))


@pytest.mark.parametrize("rules", RULESETS)
def test_the_pettingzoo_env_passes_api_test(rules):
    api_test(SenetAECEnv(rules), num_cycles=300)


def test_the_pettingzoo_env_repeats_from_its_seed():
    seed_test(lambda: aec_env(rules="kendall"), num_cycles=200)


def test_the_pettingzoo_env_plays_whole_games():
    env = aec_env(rules="cemea")
    env.reset(seed=8)
    positions, final = [], {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        assert agent == env.unwrapped.game.side
        positions.append(env.unwrapped.game.position)
        env.step(first_legal(obs))
    game = env.unwrapped.game
    assert game.phase == "over"
    winner = game.outcome["winner"]
    assert final == {a: 1.0 if a == winner else -1.0 for a in ("black", "white")}
    assert len(positions) == game.decisions
    replay = senet.Game.from_record(game.record())
    assert replay == game and replay.seed == env.unwrapped.episode_seed


def test_a_vector_env_refuses_more_games_than_its_cap():
    with pytest.raises(senet.SenetError, match="num_envs"):
        SenetVectorEnv(1 << 30, "regency")

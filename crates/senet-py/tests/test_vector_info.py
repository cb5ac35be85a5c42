"""SenetVectorEnv's same-step autoreset keeps the finished games' last observations and
infos, in Gymnasium's convention (``final_obs``/``final_info`` with ``_``-prefixed masks)."""

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import senet  # noqa: E402
from senet.envs import SenetEnv, SenetVectorEnv  # noqa: E402


def test_the_autoreset_mode_is_gymnasiums_same_step():
    env = SenetVectorEnv(2, "regency")
    assert env.metadata["autoreset_mode"] == gym.vector.AutoresetMode.SAME_STEP


@pytest.mark.parametrize("action_encoding", ["fixed", "index"])
def test_an_illegal_action_keeps_the_finished_games_last_observation(action_encoding):
    env = SenetVectorEnv(3, "regency", action_encoding=action_encoding)
    obs, info = env.reset(seed=4)
    assert info == {}
    before = obs["observation"][1].copy()
    actions = env.action_masks().argmax(axis=1)
    actions[1] = env.single_action_space.n - 1 if action_encoding == "index" else 0
    assert env.action_masks()[1][actions[1]] == 0
    obs, rewards, terminated, truncated, info = env.step(actions)
    assert terminated[1] and rewards[1] == -1.0
    ended = terminated | truncated
    assert info["_final_obs"].tolist() == ended.tolist()
    assert info["_final_info"].tolist() == ended.tolist()
    final = info["final_obs"][1]
    np.testing.assert_array_equal(final["observation"], before)
    assert not final["action_mask"].any()
    assert env.single_observation_space.contains(final)
    assert info["final_info"]["illegal_action"][1]
    assert info["final_info"]["_illegal_action"].tolist() == [False, True, False]
    for i in np.flatnonzero(~ended):
        assert info["final_obs"][i] is None
    # The new game's first observation is in obs, not the old one's.
    assert obs["action_mask"][1].any()


def test_the_info_has_the_keys_of_gymnasiums_sync_vector_env():
    """The same illegal action through Gymnasium's own SyncVectorEnv gives the same keys."""
    ours = SenetVectorEnv(2, "regency")
    theirs = gym.vector.SyncVectorEnv(
        [lambda: SenetEnv("regency")] * 2,
        autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
    )
    results = []
    for env in (ours, theirs):
        env.reset(seed=1)
        actions = np.array([env.action_masks()[0].argmax(), 0]) if env is ours else None
        if env is theirs:
            masks = np.stack([e.action_masks() for e in env.envs])
            actions = np.array([masks[0].argmax(), 0])
            assert masks[1][0] == 0
        _, _, terminated, _, info = env.step(actions)
        assert terminated[1]
        results.append(info)
    ours_info, theirs_info = results
    for key in ("final_obs", "_final_obs", "final_info", "_final_info"):
        assert key in ours_info and key in theirs_info, key
    assert set(ours_info["final_info"]) == set(theirs_info["final_info"])
    assert ours_info["_final_obs"].tolist() == theirs_info["_final_obs"].tolist()
    assert set(ours_info["final_obs"][1]) == set(theirs_info["final_obs"][1])


def test_games_that_end_by_play_report_finished_positions():
    env = SenetVectorEnv(16, "regency", opponent="random")
    env.reset(seed=9)
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(3000):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, terminated, truncated, info = env.step(actions)
        ended = terminated | truncated
        if not ended.any():
            assert info == {}
            continue
        assert info["_final_obs"].tolist() == ended.tolist()
        for i in np.flatnonzero(terminated):
            final = info["final_obs"][i]["observation"]
            # A finished Regency game: the winner has borne every piece off.
            pieces = env.rules.pieces_per_side
            assert final[60] == pieces or final[61] == pieces
            assert (final[60] == pieces) == (rewards[i] == 1.0)
            assert "illegal_action" not in info["final_info"]
            seen += 1
        if seen >= 20:
            break
    assert seen >= 20


def test_step_into_writes_the_final_buffers():
    env = SenetVectorEnv(2, "regency")
    env.reset(seed=3)
    before = env.buffers()[0][0].copy()
    env.step_into(np.array([0, env.action_masks()[1].argmax()], dtype=np.int64))
    final_obs, illegal = env.final_buffers()
    assert illegal.tolist() == [True, False]
    np.testing.assert_array_equal(final_obs[0], before)


def test_the_number_of_games_is_capped_by_the_masks_memory():
    assert senet.MAX_ENVS == 65_536
    regency = senet.Ruleset("regency").action_count
    kendall = senet.Ruleset("kendall").action_count
    assert min(senet.MAX_ENVS, senet.MAX_MASK_VALUES // regency) == 65_536
    cap = senet.MAX_MASK_VALUES // kendall
    with pytest.raises(senet.SenetError, match=f"^num_envs: .* 1 to {cap} "):
        SenetVectorEnv(cap + 1, "kendall")
    with pytest.raises(senet.SenetError, match="^num_envs: .* 1 to 65536 "):
        SenetVectorEnv(65_537, "regency")
    with pytest.raises(senet.SenetError, match="^num_envs: "):
        SenetVectorEnv(1 << 20, "regency", action_encoding="index")

"""Gymnasium ids and picklable exceptions."""

import multiprocessing
import pickle
import warnings

import pytest

import senet

ERRORS = [
    senet.SenetError,
    senet.RulesetError,
    senet.PositionError,
    senet.MoveError,
    senet.RecordError,
    senet.PlayerError,
    senet.TablesError,
]


@pytest.mark.parametrize("error", ERRORS)
def test_exceptions_are_importable_from_senet_and_pickle(error):
    assert error.__module__ == "senet"
    assert getattr(senet, error.__name__) is error
    assert issubclass(error, ValueError)
    again = pickle.loads(pickle.dumps(error("a message")))
    assert type(again) is error and str(again) == "a message"


def test_an_exception_comes_back_from_a_process_pool():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        with pytest.raises(senet.RulesetError, match="nonsense"):
            pool.map(senet.Ruleset, ["regency", "nonsense"])


gym = pytest.importorskip("gymnasium")


def test_gymnasium_ids_make_envs_and_vector_envs():
    env = gym.make("senet/Senet-v0", rules="kendall", opponent="greedy")
    assert env.spec.id == "senet/Senet-v0"
    assert env.action_space.n == senet.Ruleset("kendall").action_count
    obs, _ = env.reset(seed=1)
    assert obs["action_mask"].any()
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped, skip_render_check=True)
    assert [str(w.message) for w in caught] == []
    vec = gym.make_vec("senet/Senet-v0", num_envs=3, rules="piccione")
    obs, _ = vec.reset(seed=0)
    assert obs["action_mask"].shape == (3, senet.Ruleset("piccione").action_count)
    index = gym.make("senet/Senet-v0", rules="regency", action_encoding="index")
    assert index.action_space.n == senet.MOVE_LIST_CAPACITY

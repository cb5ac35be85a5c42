"""Environment steps per second with random legal Regency actions, on one core.

    python crates/senet-py/bench/bench_envs.py [--seconds S] [--num-envs N]

A benchmark, not a test: the figures depend on the machine (docs/python.md gives them).
Rates are per second of the process's CPU time, so that other work on a shared machine
does not count; pin the process to one core (`taskset -c 0`) to measure one core.
The single environment is stepped through its Gymnasium `step`; the vector environment
through `step_into`, which writes into its own arrays (`step` adds a copy of each), once with
actions as indices into the legal moves and once with the fixed action codes (the default,
whose mask has a column per code). A step is one action of the agent, with the opponent's
reply and every throw in between; the time includes drawing the random legal actions.
"""

import argparse
import time

import numpy as np

from senet.envs import SenetEnv, SenetVectorEnv


def single(rules, seconds):
    env = SenetEnv(rules, action_encoding="index")
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    draws = iter(rng.random(1 << 24).tolist())
    steps, episodes = 0, 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            legal = np.count_nonzero(obs["action_mask"])
            obs, _, terminated, truncated, _ = env.step(int(next(draws) * legal))
            if terminated or truncated:
                obs, _ = env.reset()
                episodes += 1
        steps += 1000
        now = time.process_time()
        if now >= deadline:
            return steps / (now - start), episodes


def random_indices(mask, rng, actions):
    """A random legal index per row of an index-encoded mask (its ones come first)."""
    legal = np.count_nonzero(mask, axis=1)
    actions[:] = rng.random(len(actions)) * legal


def random_codes(mask, rng, actions):
    """A random legal code per row of a fixed-code mask, from its few nonzero entries."""
    found = np.flatnonzero(mask.view(np.bool_))
    rows, codes = np.divmod(found, mask.shape[1])
    counts = np.bincount(rows, minlength=len(actions))
    first = np.cumsum(counts) - counts
    actions[:] = codes[first + (rng.random(len(actions)) * counts).astype(np.int64)]


def vector(rules, num_envs, seconds, encoding):
    env = SenetVectorEnv(num_envs, rules, action_encoding=encoding)
    env.reset(seed=0)
    obs, mask, _, terminated, truncated = env.buffers()
    pick = random_indices if encoding == "index" else random_codes
    rng = np.random.default_rng(0)
    steps, episodes = 0, 0
    actions = np.zeros(num_envs, dtype=np.int64)
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(100):
            pick(mask, rng, actions)
            env.step_into(actions)
            episodes += int(terminated.sum() + truncated.sum())
        steps += 100 * num_envs
        now = time.process_time()
        if now >= deadline:
            return steps / (now - start), episodes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="regency")
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--num-envs", type=int, default=256)
    args = parser.parse_args()
    rate, episodes = single(args.rules, args.seconds)
    print(f"SenetEnv ({args.rules}): {rate:,.0f} steps/s ({episodes} episodes)")
    for encoding in ("index", "fixed"):
        rate, episodes = vector(args.rules, args.num_envs, args.seconds, encoding)
        print(
            f"SenetVectorEnv x{args.num_envs} ({args.rules}, {encoding}): "
            f"{rate:,.0f} steps/s ({episodes} episodes)"
        )


if __name__ == "__main__":
    main()

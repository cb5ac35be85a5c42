"""Environment steps per second with random legal Regency actions, on one core.

    python crates/senet-py/bench/bench_envs.py [--seconds S] [--num-envs N]

A benchmark, not a test: the figures depend on the machine (docs/python.md gives them).
Rates are per second of the process's CPU time, so that other work on a shared machine
does not count; pin the process to one core (`taskset -c 0`) to measure one core.
The single environment is stepped through its Gymnasium `step`; the vector environment
through `step_into`, which writes into its own arrays (`step` adds a copy of each). A step
is one action of the agent, with the opponent's reply and every throw in between.
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


def vector(rules, num_envs, seconds):
    env = SenetVectorEnv(num_envs, rules, action_encoding="index")
    env.reset(seed=0)
    obs, mask, _, terminated, truncated = env.buffers()
    rng = np.random.default_rng(0)
    steps, episodes = 0, 0
    actions = np.zeros(num_envs, dtype=np.int64)
    start = time.process_time()
    deadline = start + seconds
    while True:
        for _ in range(100):
            legal = mask.sum(axis=1)
            actions[:] = rng.random(num_envs) * legal
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
    rate, episodes = vector(args.rules, args.num_envs, args.seconds)
    print(
        f"SenetVectorEnv x{args.num_envs} ({args.rules}): {rate:,.0f} steps/s "
        f"({episodes} episodes)"
    )


if __name__ == "__main__":
    main()

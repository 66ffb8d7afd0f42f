"""Where RLlib runs: a Ray cluster joined by address, or a local Ray started here.

Without ``--address`` (or ``RAY_ADDRESS``) a private local Ray is started with the
machine's cores; ``ray.init()`` with no address would instead join whatever cluster this
machine started last. It listens on the loopback interface only if
``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` was set before Ray was imported, which
``tabletop train`` does (``train.py``). Every worker gets
``OMP_NUM_THREADS=1`` unless the caller's environment sets it: PPO's small matrices gain
nothing from more threads, and idle OpenMP threads only compete for the cores.
"""

from __future__ import annotations

import os

import ray


def connect(address: str | None) -> None:
    """Join the cluster at ``address``, or start a local Ray if it is None."""
    threads = os.environ.get("OMP_NUM_THREADS", "1")
    os.environ["OMP_NUM_THREADS"] = threads
    runtime_env = {"env_vars": {"OMP_NUM_THREADS": threads}}
    if address:
        ray.init(address=address, runtime_env=runtime_env, log_to_driver=True)
        return
    ray.init(
        address="local",
        num_cpus=os.cpu_count(),
        include_dashboard=False,
        runtime_env=runtime_env,
    )


def check_cpus(env_runners: int) -> None:
    """Each env runner takes a CPU: more runners than the cluster has would wait forever."""
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if env_runners > cpus:
        raise ValueError(
            f"{env_runners} env runners need {env_runners} CPUs; the Ray cluster has {cpus}"
        )

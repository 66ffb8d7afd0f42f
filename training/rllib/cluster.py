"""Where RLlib runs: a Ray cluster joined by address, or a local Ray started here.

Without ``--address`` (or ``RAY_ADDRESS``) a private local Ray is started with the
machine's cores; ``ray.init()`` with no address would instead join whatever cluster this
machine started last. It listens on the loopback interface only if
``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` was set before Ray was imported, which
``tabletop train`` does (``address.py``). Every worker gets
``OMP_NUM_THREADS=1`` unless the caller's environment sets it: PPO's small matrices gain
nothing from more threads, and idle OpenMP threads only compete for the cores.

Joining a cluster fails within seconds, with what to fix, where Ray alone would retry
silently: a port nothing answers on (Ray waits minutes), and a missing or wrong token
(Ray retries 20 s, then reports only "Failed to connect").
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager

import ray
from ray.exceptions import AuthenticationError

from tabletop.training.rllib.address import split_address

PORT_TIMEOUT_S = 5.0
"""How long the head's port may take to accept a connection."""
GCS_ATTEMPTS = 3
"""Ray's tries (a second apart) to reach the head once its port answers; its default, 20,
makes a refused token take 20 s to report."""
GCS_ATTEMPTS_VARIABLE = "RAY_gcs_server_port_wait_time_s"
"""Ray's setting of those tries (one a second) for a process that joins a cluster."""
TOKEN_REFUSED = "InvalidAuthToken"
"""What Ray's connection error carries when the head refused the token, or got none."""


def connect(address: str | None) -> None:
    """Join the cluster at ``address``, or start a local Ray if it is None."""
    threads = os.environ.get("OMP_NUM_THREADS", "1")
    os.environ["OMP_NUM_THREADS"] = threads
    runtime_env = {"env_vars": {"OMP_NUM_THREADS": threads}}
    if address:
        join(address, runtime_env)
        return
    ray.init(
        address="local",
        num_cpus=os.cpu_count(),
        include_dashboard=False,
        runtime_env=runtime_env,
    )


def join(address: str, runtime_env: dict) -> None:
    """Join the cluster whose head is at ``address``; a ``ConnectionError`` says what to
    fix when nothing answers there or the head refuses this process's token."""
    host, port = split_address(address)
    check_port(host, port)
    try:
        with gcs_attempts(GCS_ATTEMPTS):
            ray.init(address=address, runtime_env=runtime_env, log_to_driver=True)
    except AuthenticationError as error:  # RAY_AUTH_MODE=token and no token at all
        raise ConnectionError(
            f"cannot join the Ray cluster at {address}: RAY_AUTH_MODE=token, but this "
            "process has no token. Put the cluster's token (`ray get-auth-token` on the head "
            "prints it) in RAY_AUTH_TOKEN or ~/.ray/auth_token (docs/distributed.md)"
        ) from error
    except ConnectionError as error:
        if TOKEN_REFUSED in _chain_text(error):
            raise ConnectionError(token_refused(address)) from error
        raise ConnectionError(f"cannot join the Ray cluster at {address}: {error}") from error


def check_port(host: str, port: int) -> None:
    """Refuse at once a head that does not answer; Ray itself would retry for minutes."""
    try:
        socket.create_connection((host, port), timeout=PORT_TIMEOUT_S).close()
    except OSError as error:
        raise ConnectionError(
            f"no Ray cluster answers at {host}:{port} ({error.strerror or error}): start its "
            f"head (`ray start --head --port={port}`, docs/distributed.md) or correct "
            "--address (or RAY_ADDRESS)"
        ) from error


def token_refused(address: str) -> str:
    """What to fix when the head at ``address`` refused this process's token."""
    if os.environ.get("RAY_AUTH_MODE", "").lower() != "token":
        return (
            f"the Ray cluster at {address} wants its authentication token, and this process "
            "sent none: RAY_AUTH_MODE is not 'token' here. Run with RAY_AUTH_MODE=token and "
            "the cluster's token in RAY_AUTH_TOKEN or ~/.ray/auth_token (docs/distributed.md)"
        )
    if os.environ.get("RAY_AUTH_TOKEN"):
        source = "RAY_AUTH_TOKEN"
    else:
        source = os.environ.get("RAY_AUTH_TOKEN_PATH") or "~/.ray/auth_token"
    return (
        f"the Ray cluster at {address} refused this process's authentication token: the "
        f"token in {source} is not the cluster's (`ray get-auth-token` on the head prints it)"
    )


@contextmanager
def gcs_attempts(attempts: int) -> Iterator[None]:
    """Ray's tries to reach the head, for the calls inside; a value the caller's
    environment sets stays."""
    if GCS_ATTEMPTS_VARIABLE in os.environ:
        yield
        return
    os.environ[GCS_ATTEMPTS_VARIABLE] = str(attempts)
    try:
        yield
    finally:
        del os.environ[GCS_ATTEMPTS_VARIABLE]


def _chain_text(error: BaseException) -> str:
    """The messages of ``error`` and of the errors it was raised from."""
    texts: list[str] = []
    seen: set[int] = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        texts.append(str(error))
        error = error.__cause__ or error.__context__
    return "\n".join(texts)


def check_cpus(env_runners: int) -> None:
    """Each env runner takes a CPU: more runners than the cluster has would wait forever."""
    cpus = int(ray.cluster_resources().get("CPU", 0))
    if env_runners > cpus:
        raise ValueError(
            f"{env_runners} env runners need {env_runners} CPUs; the Ray cluster has {cpus}"
        )

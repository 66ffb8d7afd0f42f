"""The address of the Ray cluster to join, read before Ray is imported.

Ray decides when it is imported (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER``) whether a node may
be reached on the loopback interface. Unless that variable is 0, a driver told to join
``127.0.0.1`` rewrites it to the machine's own address, where a head started with
``--node-ip-address=127.0.0.1`` does not listen, and retries for minutes without saying
so. ``tabletop train`` therefore sets it for a local Ray and for a loopback ``--address``
before Ray is imported (a value the caller set stays). This module imports no Ray.
"""

from __future__ import annotations

import os

LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Set to 0 before Ray is imported, Ray uses 127.0.0.1 as this machine's node address."""
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost"})
"""Hosts that name this machine's loopback interface."""


def split_address(address: str) -> tuple[str, int]:
    """``"HOST:PORT"`` -> ``(HOST, PORT)``; anything else is refused, naming the value."""
    host, colon, port = address.rpartition(":")
    digits = port.isascii() and port.isdigit() and len(port) <= 5
    if colon and host and digits and 0 < int(port) < 65536:
        return host, int(port)
    raise ValueError(
        f"--address (or RAY_ADDRESS) must be the Ray head's HOST:PORT, e.g. "
        f"127.0.0.1:6379; got {address!r}"
    )


def is_loopback(address: str) -> bool:
    """Whether ``address`` (``HOST:PORT``) names this machine's loopback interface."""
    host, _ = split_address(address)
    return host.lower() in LOOPBACK_HOSTS


def use_loopback_if_local(address: str | None) -> None:
    """Set ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` for a local Ray (``address`` None) or
    a loopback address, unless the environment already sets it; checks the address."""
    if address is None or is_loopback(address):
        os.environ.setdefault(LOOPBACK_ONLY, "0")

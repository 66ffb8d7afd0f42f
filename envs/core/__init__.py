"""Game-independent core: the engine, encoder and agent protocols and the shared AEC adapter.

The generic test checks live in ``tabletop.envs.core.checks`` and are not re-exported:
they are test tooling, not part of the runtime API.
"""

from tabletop.envs.core.aec import TabletopAEC, env_constructors, resolve_encoder, wrap
from tabletop.envs.core.protocol import (
    TERMINAL,
    Agent,
    Encoder,
    Event,
    Game,
    IllegalActionError,
    State,
    UnknownOptionError,
    check_options,
)

__all__ = [
    "TERMINAL",
    "Agent",
    "Encoder",
    "Event",
    "Game",
    "IllegalActionError",
    "State",
    "TabletopAEC",
    "UnknownOptionError",
    "check_options",
    "env_constructors",
    "resolve_encoder",
    "wrap",
]

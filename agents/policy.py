"""Saved policies: a trained network plus the metadata that says where it can play.

A policy file is a ``torch.save`` of plain data (metadata, network shape, ``state_dict``),
loadable with ``weights_only=True``, so opening a file never runs code from it. Loading
checks the metadata against the env it is meant for and names every difference: a policy
fed another game's or another encoder version's observations would play nonsense silently.

``load_agent(path)`` turns a file (or a training run directory) into an ``Agent`` that
plays any seat on the engine state, like the baselines.
"""

from __future__ import annotations

import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, FlattenExtractor

from tabletop import envs
from tabletop.agents.legal_actions import LegalActionsPolicy
from tabletop.agents.pointer import PointerPolicy, dense_layers
from tabletop.agents.shipped import PRETRAINED, pretrained_policy
from tabletop.envs.core.aec import TabletopAEC
from tabletop.envs.core.protocol import Encoder, Game, State
from tabletop.envs.core.structure import ActionStructure

FILE_FORMAT = "tabletop-policy"
FORMAT_VERSION = 1
RUN_DIR_POLICIES = ("best_policy.pt", "last_policy.pt")
"""The files ``load_agent`` looks for, in this order, when given a training run directory."""
SB3_MODEL_MEMBERS = {"data", "policy.pth"}
"""Files inside a zip that stable-baselines3's ``save`` writes (a run's ``checkpoint.zip``)."""


class PolicyMismatchError(ValueError):
    """A policy was loaded for an env it was not trained for."""


@dataclass(frozen=True)
class PolicyMetadata:
    """Where a policy can play and how it came to be."""

    game: str
    """Registered game name, e.g. ``"regicide"``."""
    env: str
    """Versioned env name, e.g. ``"regicide_v0"``."""
    encoder: str
    encoder_version: int
    observation_shape: tuple[int, ...]
    num_actions: int
    training_steps: int
    seed: int | None
    game_options: dict[str, Any] = field(default_factory=dict)
    """Options of the training env (informative: e.g. another player count is allowed
    when the observation shape and action count agree)."""

    def differences(self, other: PolicyMetadata) -> list[str]:
        """What makes ``other`` (an env's description) unplayable for this policy."""
        checked = ("env", "encoder", "encoder_version", "observation_shape", "num_actions")
        return [
            f"{name}: policy {getattr(self, name)!r}, env {getattr(other, name)!r}"
            for name in checked
            if getattr(self, name) != getattr(other, name)
        ]


@dataclass(frozen=True)
class NetworkSpec:
    """What rebuilds the network: hidden layers and activation (a ``torch.nn`` name)."""

    net_arch: list[int] | dict[str, list[int]]
    """The actor's and the critic's own hidden layers (after the shared trunk)."""
    activation: str
    shared: list[int] = field(default_factory=list)
    """Hidden layers of a trunk that the actor and the critic share, before their own
    layers. With a large observation the first layer is most of the arithmetic, and a
    shared one is computed once instead of twice. Empty: no trunk (sb3's default)."""
    rows: list[int] = field(default_factory=list)
    """Layers of a card-row embedding. Non-empty: the actor scores each legal action from
    the rows it names (``agents.pointer``), which needs the game's action structure for the
    encoder; ``shared`` are then the context's layers and ``net_arch`` the scorer's and the
    critic's. Empty: one output per action id."""

    def policy_class(self) -> type[LegalActionsPolicy]:
        return PointerPolicy if self.rows else LegalActionsPolicy

    def policy_kwargs(self, structure: ActionStructure | None = None) -> dict[str, Any]:
        """Keyword arguments of ``policy_class()``; a pointer network needs ``structure``."""
        activation = getattr(torch.nn, self.activation)
        kwargs: dict[str, Any] = {"net_arch": self.net_arch, "activation_fn": activation}
        if self.rows:
            if structure is None:
                raise ValueError("a network with row layers needs the game's action structure")
            return {**kwargs, "structure": structure, "row_layers": self.rows,
                    "shared_layers": self.shared}  # fmt: skip
        if self.shared:
            kwargs["features_extractor_class"] = SharedTrunk
            kwargs["features_extractor_kwargs"] = {"layers": self.shared, "activation": activation}
        return kwargs


class SharedTrunk(BaseFeaturesExtractor):
    """The hidden layers the actor and the critic share (``NetworkSpec.shared``)."""

    def __init__(
        self, observation_space: spaces.Box, layers: list[int], activation: type[torch.nn.Module]
    ) -> None:
        super().__init__(observation_space, layers[-1])
        hidden = dense_layers(int(np.prod(observation_space.shape)), layers, activation)
        self.net = torch.nn.Sequential(torch.nn.Flatten(), *hidden)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations)


def env_metadata(
    env: Any, *, training_steps: int = 0, seed: int | None = None, game_options: dict | None = None
) -> PolicyMetadata:
    """The metadata a policy trained in (or loaded into) the AEC ``env`` must carry."""
    raw = env.unwrapped
    if not isinstance(raw, TabletopAEC):
        raise TypeError(f"expected a tabletop AEC env, got {type(raw).__name__}")
    name = raw.metadata["name"]
    return _metadata_for(name, raw.game, raw.encoder, training_steps, seed, game_options)


def _metadata_for(
    env_name: str,
    game: Game,
    encoder: Encoder,
    training_steps: int,
    seed: int | None,
    game_options: dict | None,
) -> PolicyMetadata:
    return PolicyMetadata(
        game=game.name,
        env=env_name,
        encoder=encoder.name,
        encoder_version=encoder.version,
        observation_shape=tuple(int(n) for n in encoder.shape(game)),
        num_actions=game.num_actions,
        training_steps=training_steps,
        seed=seed,
        game_options=dict(game_options or {}),
    )


def new_policy(metadata: PolicyMetadata, network: NetworkSpec) -> MaskableActorCriticPolicy:
    """An untrained network of ``network``'s shape for ``metadata``'s spaces."""
    observation_space = spaces.Box(-np.inf, np.inf, metadata.observation_shape, np.float32)
    structure = None
    if network.rows:
        game = envs.spec(metadata.game).new_game(**metadata.game_options)
        structure = action_structure(game, metadata.encoder)
    return network.policy_class()(
        observation_space,
        spaces.Discrete(metadata.num_actions),
        lr_schedule=lambda _progress: 0.0,
        **network.policy_kwargs(structure),
    )


def action_structure(game: Game, encoder: str) -> ActionStructure:
    """The rows each action of ``game`` names in encoder ``encoder``'s observation."""
    offered = envs.spec(game.name).action_structures
    if encoder not in offered:
        raise ValueError(
            f"{game.name} offers no action structure for encoder {encoder!r} (a network "
            f"with row layers needs one): it offers one for {sorted(offered) or 'none'}; "
            "a network with an output per action id needs none (--set network.rows=[])"
        )
    return offered[encoder](game)


def training_policy(
    network: NetworkSpec, game: Game, encoder: str
) -> tuple[type[LegalActionsPolicy], dict[str, Any]]:
    """The policy class and its keyword arguments for training ``network`` on ``game``."""
    structure = action_structure(game, encoder) if network.rows else None
    return network.policy_class(), network.policy_kwargs(structure)


def save_policy(
    path: str | Path,
    policy: MaskableActorCriticPolicy,
    metadata: PolicyMetadata,
    network: NetworkSpec,
) -> Path:
    """Write ``policy``'s weights with its metadata; written whole or not at all."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    state_dict = {key: tensor.detach().cpu() for key, tensor in policy.state_dict().items()}
    payload = {
        "format": FILE_FORMAT,
        "format_version": FORMAT_VERSION,
        "metadata": {**asdict(metadata), "observation_shape": list(metadata.observation_shape)},
        "network": asdict(network),
        "state_dict": state_dict,
    }
    partial = path.with_name(path.name + ".partial")
    torch.save(payload, partial)
    partial.replace(path)
    return path


def read_policy_file(
    path: str | Path,
) -> tuple[PolicyMetadata, NetworkSpec, dict[str, torch.Tensor]]:
    """Metadata, network spec and weights of a policy file, with clear errors for non-policies."""
    path = resolve_policy_path(path)
    _refuse_other_files(path)
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:
        # torch's own message advises weights_only=False, which would run code from the
        # file: not advice to pass on about a file that is not a policy
        raise ValueError(
            f"{path} is not a tabletop policy file: torch cannot read it as one "
            f"({type(error).__name__}); a policy file is the best_policy.pt or "
            "last_policy.pt that `tabletop train` writes"
        ) from None
    if not isinstance(payload, dict) or payload.get("format") != FILE_FORMAT:
        raise ValueError(
            f"{path} is not a tabletop policy file: torch reads it, but it lacks the "
            f"'format': {FILE_FORMAT!r} entry that policy files carry"
        )
    if payload["format_version"] != FORMAT_VERSION:
        raise ValueError(
            f"{path} has policy file format {payload['format_version']}, "
            f"this tabletop reads format {FORMAT_VERSION}"
        )
    fields = dict(payload["metadata"])
    fields["observation_shape"] = tuple(fields["observation_shape"])
    return PolicyMetadata(**fields), NetworkSpec(**payload["network"]), payload["state_dict"]


def _refuse_other_files(path: Path) -> None:
    """Name the files people pass by mistake, where torch's own error would not say why."""
    if path.stat().st_size == 0:
        raise ValueError(f"{path} is empty, not a policy file")
    if _zip_members(path) >= SB3_MODEL_MEMBERS:
        raise ValueError(
            f"{path} is a training checkpoint (the whole PPO model, to resume training), not a "
            f"policy: pass its run directory ({path.parent}) or the {RUN_DIR_POLICIES[0]} in it"
        )


def _zip_members(path: Path) -> set[str]:
    """The names inside ``path`` if it is a zip archive (torch files are too), else none."""
    if not zipfile.is_zipfile(path):
        return set()
    with zipfile.ZipFile(path) as archive:
        return set(archive.namelist())


def locate_policy(path: str | Path, game: str | None) -> str | Path:
    """``path``, or for ``"pretrained"`` the policy shipped for ``game`` (a registered name):
    every place that reads a policy a user names understands the shipped one."""
    if str(path) != PRETRAINED:
        return path
    if game is None:
        raise ValueError("the pretrained policy is the game's: name the game")
    return pretrained_policy(game)


def resolve_policy_path(path: str | Path) -> Path:
    """``path`` itself if it is a file; in a training run directory, its best policy, else
    its last one."""
    path = Path(path)
    if path.is_dir():
        for name in RUN_DIR_POLICIES:
            if (path / name).is_file():
                return path / name
        raise FileNotFoundError(f"{path} holds no policy ({' or '.join(RUN_DIR_POLICIES)})")
    if not path.is_file():
        raise FileNotFoundError(f"no policy file or run directory at {path}")
    return path


def _relu(x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0.0, out=x)


NUMPY_ACTIVATIONS: dict[type[torch.nn.Module], Callable[[np.ndarray], np.ndarray]] = {
    torch.nn.ReLU: _relu,
    torch.nn.Tanh: np.tanh,
}
"""Activations the numpy forward pass knows; a network with another falls back to torch."""

Layer = tuple[np.ndarray, np.ndarray, Callable[[np.ndarray], np.ndarray] | None]


def _numpy(parameter: torch.Tensor) -> np.ndarray:
    return parameter.detach().cpu().numpy().copy()


class NumpyActor:
    """The policy head's forward pass (trunk, actor layers, action logits) in numpy.

    Opponents and evaluation ask for one move at a time, where torch spends most of its
    time in per-call overhead: the same float32 arithmetic in numpy is several times faster.
    Only the asked actions' rows of the output layer are multiplied out: a game may have
    thousands of action ids and a few legal ones.
    """

    def __init__(self, hidden: list[Layer], output: tuple[np.ndarray, np.ndarray]) -> None:
        self.hidden = hidden
        """(weight as inputs x outputs, bias, activation after it or None) per hidden layer."""
        self.output = output
        """The output layer's weight (a row per action) and bias."""

    @classmethod
    def of(cls, policy: MaskableActorCriticPolicy) -> NumpyActor | None:
        """The numpy twin of ``policy``'s actor, or None if it has a layer numpy lacks or
        is not one output per action."""
        if not isinstance(policy.action_net, torch.nn.Linear):
            return None
        trunk = _trunk_modules(policy.pi_features_extractor)
        if trunk is None:
            return None
        layers = _numpy_layers([*trunk, *policy.mlp_extractor.policy_net])
        if layers is None:
            return None
        head = policy.action_net
        return cls(layers, (_numpy(head.weight), _numpy(head.bias)))

    def logits(self, observation: np.ndarray, actions: np.ndarray | None = None) -> np.ndarray:
        """The logits of ``actions`` (ids, in their order), or of every action."""
        x = _forward_row(self.hidden, observation)
        weight, bias = self.output
        if actions is None:
            return weight @ x + bias
        return weight[actions] @ x + bias[actions]

    def latent(self, observations: np.ndarray) -> np.ndarray:
        """The hidden layers' output for a batch of observations, (rows, last hidden
        width): one matrix product a layer for the whole batch, as search wants."""
        return _forward(self.hidden, observations)


class NumpyCritic:
    """The value head's forward pass (trunk, critic layers, value) in numpy, for a batch of
    observations: search asks for the values of many positions a network call."""

    def __init__(self, hidden: list[Layer], output: tuple[np.ndarray, np.ndarray]) -> None:
        self.hidden = hidden
        """(weight as inputs x outputs, bias, activation after it or None) per hidden layer."""
        self.output = output
        """The value layer's weight (one row) and bias."""

    @classmethod
    def of(cls, policy: MaskableActorCriticPolicy) -> NumpyCritic | None:
        """The numpy twin of ``policy``'s critic, or None if it has a layer numpy lacks (a
        pointer network's critic reads the row embeddings: torch only)."""
        critic_layers = getattr(policy.mlp_extractor, "value_net", None)
        trunk = _trunk_modules(policy.vf_features_extractor)
        if not isinstance(critic_layers, torch.nn.Sequential) or trunk is None:
            return None
        layers = _numpy_layers([*trunk, *critic_layers])
        if layers is None or not isinstance(policy.value_net, torch.nn.Linear):
            return None
        return cls(layers, (_numpy(policy.value_net.weight), _numpy(policy.value_net.bias)))

    def values(self, observations: np.ndarray) -> np.ndarray:
        """The value of each observation of a batch, shape (rows,)."""
        weight, bias = self.output
        return _forward(self.hidden, observations) @ weight[0] + bias[0]


def _trunk_modules(extractor: torch.nn.Module) -> list[torch.nn.Module] | None:
    """The layers of a features extractor numpy can run (none for a bare flatten), or None."""
    if isinstance(extractor, SharedTrunk):
        return [module for module in extractor.net if not isinstance(module, torch.nn.Flatten)]
    return [] if isinstance(extractor, FlattenExtractor) else None


def _numpy_layers(modules: list[torch.nn.Module]) -> list[Layer] | None:
    """Linear layers each with its activation, as numpy arrays; None for another module."""
    layers: list[list[Any]] = []
    for module in modules:
        if isinstance(module, torch.nn.Linear):
            layers.append([_numpy(module.weight).T.copy(), _numpy(module.bias), None])
        elif type(module) in NUMPY_ACTIVATIONS and layers and layers[-1][2] is None:
            layers[-1][2] = NUMPY_ACTIVATIONS[type(module)]
        else:
            return None
    return [(weight, bias, activation) for weight, bias, activation in layers]


def _forward(hidden: list[Layer], observations: np.ndarray) -> np.ndarray:
    """``hidden`` applied to a batch of observations, (rows, last hidden width): one
    product a layer for the batch.

    The products are numpy's own single-threaded loops (``einsum``), not BLAS: OpenBLAS
    runs products of this size on several threads, and between the network calls of a
    search its threads fall asleep; on cores that other jobs keep busy each call then waits
    for them to be scheduled again. Guided search in four-player Kult (observations of
    3,534 numbers, layers of 128) made 14 iterations/s with BLAS matrix products, 92-120
    with BLAS matrix-vector products row by row, and 565 so (2 cores shared with other
    jobs, load about 4, 2026-12-05); in Kaleva, whose first layer is ten times smaller,
    about the same either way."""
    x = np.asarray(observations, np.float32).reshape(len(observations), -1)
    for weight, bias, activation in hidden:
        x = np.einsum("bi,ih->bh", x, weight) + bias
        if activation is not None:
            x = activation(x)
    return x


def _forward_row(hidden: list[Layer], observation: np.ndarray) -> np.ndarray:
    """``hidden`` applied to one observation, flattened."""
    x = np.asarray(observation, np.float32).reshape(-1)
    for weight, bias, activation in hidden:
        x = x @ weight + bias
        if activation is not None:
            x = activation(x)
    return x


class PolicyAgent:
    """A trained policy as an ``Agent``: it encodes the state for the seat it plays with
    its own encoder and picks among ``state.legal_actions()`` only.

    ``deterministic`` picks the most likely legal action (evaluation); otherwise it samples
    (self-play opponents, for variety), from its own seeded generator.
    """

    def __init__(
        self,
        policy: MaskableActorCriticPolicy,
        metadata: PolicyMetadata,
        network: NetworkSpec,
        encoder: Encoder,
        *,
        deterministic: bool = True,
        seed: int | None = None,
    ) -> None:
        self.policy = policy.eval()
        self._actor = NumpyActor.of(self.policy)
        self.metadata = metadata
        self.network = network
        self.encoder = encoder
        self.deterministic = deterministic
        self._rng = np.random.default_rng(seed)
        self._checked_games: set[int] = set()

    def reset(self) -> None:
        """Stateless between games (the network has no memory)."""

    def act(self, state: State, player: int) -> int:
        self._check_game(state.game)
        legal = np.asarray(state.legal_actions())
        legal_logits = self.action_logits(self.encoder.encode(state, player), legal)
        if self.deterministic:
            return int(legal[int(np.argmax(legal_logits))])
        # Sampled by inverse CDF: Generator.choice(p=...) checks p at a cost of a whole move.
        cumulative = np.cumsum(np.exp(legal_logits - legal_logits.max()))
        index = np.searchsorted(cumulative, self._rng.random() * cumulative[-1], side="right")
        return int(legal[min(int(index), len(legal) - 1)])

    def action_logits(
        self, observation: np.ndarray, actions: np.ndarray | None = None
    ) -> np.ndarray:
        """The policy head's unmasked logits for one observation, of ``actions`` (ids) or of
        every action (numpy when it can)."""
        if self._actor is not None:
            return self._actor.logits(observation, actions)
        with torch.no_grad():
            obs = torch.as_tensor(observation, dtype=torch.float32).unsqueeze(0)
            features = self.policy.extract_features(obs, self.policy.pi_features_extractor)
            latent = self.policy.mlp_extractor.forward_actor(features)
            asked = None if actions is None else torch.as_tensor(actions).reshape(1, -1)
            return self.policy.action_scores(latent, asked)[0].numpy()

    def _check_game(self, game: Game) -> None:
        """Refuse a game whose observations or actions differ from the training env's."""
        if id(game) in self._checked_games:
            return
        here = _metadata_for(self.metadata.env, game, self.encoder, 0, None, None)
        differences = self.metadata.differences(here)
        if game.name != self.metadata.game:
            differences.insert(0, f"game: policy {self.metadata.game!r}, env {game.name!r}")
        if differences:
            raise PolicyMismatchError("policy cannot play this game: " + "; ".join(differences))
        self._checked_games.add(id(game))

    def __getstate__(self) -> dict[str, Any]:
        """Pickled as weights and metadata (the network is rebuilt), for subprocess envs."""
        state = dict(self.__dict__)
        state["policy"] = {k: v.detach().cpu() for k, v in self.policy.state_dict().items()}
        del state["_actor"]  # rebuilt from the weights
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        weights = state.pop("policy")
        self.__dict__.update(state)
        self.policy = new_policy(self.metadata, self.network).eval()
        self.policy.load_state_dict(weights)
        self._actor = NumpyActor.of(self.policy)
        self._checked_games = set()


def load_agent(
    path: str | Path,
    *,
    env: Any = None,
    game: str | None = None,
    deterministic: bool = True,
    seed: int | None = None,
) -> PolicyAgent:
    """The policy at ``path`` (a policy file or a training run directory) as an agent.

    With ``env`` (an AEC env) or ``game`` (a registered game name), it is first checked to
    fit that env or game's default env; a ``PolicyMismatchError`` says what differs.
    ``path`` ``"pretrained"`` is the policy shipped for ``game`` (``pretrained_policy``).
    """
    path = locate_policy(path, game)
    metadata, network, weights = read_policy_file(path)
    if env is not None:
        _raise_on_mismatch(path, metadata, env_metadata(env))
    game_spec = envs.spec(game if game is not None else metadata.game)
    expected_env = game_spec.env_name
    if metadata.env != expected_env:
        raise PolicyMismatchError(
            f"policy {path} was trained for {metadata.env}, not for {expected_env}"
        )
    encoder = game_spec.encoders.get(metadata.encoder)
    if encoder is None:
        raise PolicyMismatchError(
            f"policy {path} uses encoder {metadata.encoder!r}, which {expected_env} does not "
            f"have (encoders: {sorted(game_spec.encoders)})"
        )
    here = _metadata_for(
        expected_env, game_spec.new_game(**metadata.game_options), encoder, 0, None, None
    )
    _raise_on_mismatch(path, metadata, here)
    policy = new_policy(metadata, network)
    policy.load_state_dict(weights)
    return PolicyAgent(policy, metadata, network, encoder, deterministic=deterministic, seed=seed)


def _raise_on_mismatch(path: str | Path, metadata: PolicyMetadata, here: PolicyMetadata) -> None:
    differences = metadata.differences(here)
    if differences:
        raise PolicyMismatchError(f"policy {path} does not fit this env: " + "; ".join(differences))

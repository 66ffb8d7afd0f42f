"""The shared AEC adapter, driven by the toy game through a real-looking env module."""

from __future__ import annotations

import copy
import itertools
import pickle
import warnings

import numpy as np
import pytest
import toy_v0
from gymnasium.error import ResetNeeded
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger
from toy_game import ToyFlatEncoder, ToyGame, ToyState

from tabletop.envs.core import IllegalActionError, TabletopAEC, resolve_encoder
from tabletop.envs.core.checks import check_env_random_play

ENV_CONFIGS = [
    {"num_players": 2},
    {"num_players": 3},
    {"num_players": 3, "max_plies": 4},
    {"num_players": 2, "illegal_action": "raise"},
]

CLASSIC_CONVENTION_WARNINGS = [
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",
]


@pytest.mark.parametrize("options", ENV_CONFIGS)
def test_pettingzoo_api(options: dict) -> None:
    with warnings.catch_warnings():
        # api_test warns about the PettingZoo classic convention itself: dict observations
        # and the all-zero masks that every off-turn agent sees.
        for expected in CLASSIC_CONVENTION_WARNINGS:
            warnings.filterwarnings("ignore", message=expected)
        api_test(toy_v0.env(**options), num_cycles=200)


@pytest.mark.parametrize("options", ENV_CONFIGS)
def test_pettingzoo_seed(options: dict) -> None:
    seed_test(lambda: toy_v0.env(**options), num_cycles=100)


@pytest.mark.parametrize("options", ENV_CONFIGS)
def test_masks_and_rewards_follow_the_engine(options: dict) -> None:
    summary = check_env_random_play(toy_v0.env(**options), games=30, seed=1)
    assert summary.episodes == 30


def test_spaces_are_cached_and_shaped_by_game_and_encoder() -> None:
    env = toy_v0.env(num_players=3, deck_size=12)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        assert env.action_space(agent).n == 13
        space = env.observation_space(agent)
        assert space["observation"].shape == ToyFlatEncoder().shape(
            ToyGame(num_players=3, deck_size=12)
        )
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].dtype == np.int8
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


def test_the_state_is_reachable_through_the_wrappers() -> None:
    env = toy_v0.env()
    env.reset(seed=5)
    assert env.unwrapped.game_state.render() == ToyGame().new_state(seed=5).render()
    assert str(env) == "toy_v0"


def test_same_seed_same_game_and_unseeded_resets_continue_the_seeded_stream() -> None:
    env = toy_v0.raw_env(deck_size=40, hand_size=6)
    games = []
    for _ in range(2):
        env.reset(seed=11)
        first = env.game_state.render()
        env.reset()
        games.append((first, env.game_state.render()))
    assert games[0] == games[1]
    assert games[0][0] != games[0][1]


def test_never_seeded_envs_play_different_games() -> None:
    renders = set()
    for _ in range(3):
        env = toy_v0.raw_env(deck_size=40, hand_size=6)
        env.reset()
        renders.add(env.game_state.render())
    assert len(renders) == 3


def test_seeded_reset_seeds_the_action_spaces() -> None:
    env = toy_v0.env()
    samples = []
    for _ in range(2):
        env.reset(seed=3)
        space = env.action_space(env.agent_selection)
        samples.append([int(space.sample()) for _ in range(10)])
    assert samples[0] == samples[1]


def test_agent_selection_follows_the_engine_with_repeated_turns() -> None:
    env = toy_v0.env(num_players=3)
    env.reset(seed=0)
    movers = []
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        movers.append(agent)
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert any(a == b for a, b in itertools.pairwise(movers))


def test_the_mask_is_a_copy_that_callers_may_modify() -> None:
    env = toy_v0.env()
    env.reset(seed=2)
    mask = env.last()[0]["action_mask"]
    expected = mask.copy()
    mask[:] = 1
    assert np.array_equal(env.last()[0]["action_mask"], expected)


def _last_rewards_per_agent(env, seed: int) -> tuple[dict[str, float], str]:
    """Plays a game choosing the first legal action; sums what ``last()`` reports to each
    agent at each of its turns (the AEC reward convention) and names the final mover."""
    env.reset(seed=seed)
    seen = dict.fromkeys(env.possible_agents, 0.0)
    final_mover = ""
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        seen[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        final_mover = agent
        env.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    return seen, final_mover


def test_every_agent_receives_its_rewards_even_for_moves_of_others() -> None:
    env = toy_v0.env(num_players=3)
    penalised_bystanders = 0
    for seed in range(20):
        seen, final_mover = _last_rewards_per_agent(env, seed)
        returns = env.unwrapped.game_state.returns()
        assert list(seen.values()) == pytest.approx(returns)
        final_rewards = env.unwrapped.game_state.rewards()
        penalised_bystanders += sum(
            reward != 0
            for agent, reward in zip(env.possible_agents, final_rewards, strict=True)
            if agent != final_mover
        )
    assert penalised_bystanders > 0


def test_illegal_action_raises_naming_it_and_the_legal_ones() -> None:
    env = toy_v0.env(illegal_action="raise")
    env.reset(seed=4)
    state = env.unwrapped.game_state
    legal = state.legal_actions()
    illegal = next(a for a in range(state.game.deck_size) if a not in legal)
    before = state.render()
    with pytest.raises(IllegalActionError) as raised:
        env.step(illegal)
    message = str(raised.value)
    assert f"action {illegal} ('play {illegal}')" in message
    assert all(f"'play {a}'" in message for a in legal)
    assert state.render() == before
    env.step(legal[0])  # still usable


@pytest.mark.parametrize("action", [-1, 10, 10**9])
def test_out_of_range_action_raises(action: int) -> None:
    env = toy_v0.env(illegal_action="raise")
    env.reset(seed=4)
    with pytest.raises(IllegalActionError, match=f"action {action} is out of range"):
        env.step(action)


@pytest.mark.parametrize("action", [None, 1.0, "play 1"])
def test_non_integer_action_raises_in_every_mode(action: object) -> None:
    for mode in ("raise", "terminate"):
        env = toy_v0.env(illegal_action=mode)
        env.reset(seed=4)
        with pytest.raises(IllegalActionError, match="is not an action id"):
            env.step(action)


@pytest.mark.parametrize("action", [True, False, np.True_, np.False_])
def test_boolean_actions_raise_like_any_non_integer(action: object) -> None:
    """``True`` is an int to Python; as an action it is a bug, as much as ``np.True_``."""
    for mode in ("raise", "terminate"):
        env = toy_v0.env(illegal_action=mode)
        env.reset(seed=4)
        with pytest.raises(
            IllegalActionError, match=r"action (np\.)?(True|False)_? is not an action id"
        ):
            env.step(action)


def test_numpy_integer_actions_are_accepted() -> None:
    env = toy_v0.env()
    env.reset(seed=4)
    env.step(np.int32(env.unwrapped.game_state.legal_actions()[0]))


@pytest.mark.parametrize("illegal", ["in range", "out of range"])
def test_terminate_mode_ends_the_game_with_the_offender_losing(illegal: str) -> None:
    env = toy_v0.env(num_players=3, illegal_action="terminate")
    env.reset(seed=4)
    state = env.unwrapped.game_state
    offender = env.agent_selection
    action = (
        state.game.num_actions
        if illegal == "out of range"
        else next(a for a in range(state.game.deck_size) if a not in state.legal_actions())
    )
    env.step(action)
    assert all(env.terminations.values())
    assert not any(env.truncations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    finished = {}
    for agent in env.agent_iter():
        observation, reward, termination, _, _ = env.last()
        assert termination and not observation["action_mask"].any()
        finished[agent] = reward
        env.step(None)
    assert finished == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}


def test_by_default_an_illegal_action_ends_the_game_as_in_pettingzoo_classic() -> None:
    """Clients that step unmasked samples (RLlib's pre-check, SuperSuit, PettingZoo's
    ``average_total_reward``) rely on it: -1 to the offender, 0 to the others, a warning."""
    env = toy_v0.env(num_players=3)
    env.reset(seed=4)
    offender = env.agent_selection
    legal = env.unwrapped.game_state.legal_actions()
    EnvLogger.flush()
    env.step(next(a for a in range(env.action_space(offender).n) if a not in legal))
    assert any("Illegal move made" in message for message in EnvLogger.mqueue)
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}


def test_max_plies_truncates_everyone() -> None:
    env = toy_v0.env(num_players=3, max_plies=3)
    env.reset(seed=1)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert all(env.truncations.values())
    assert not any(env.terminations.values())
    assert not env.unwrapped.game_state.is_terminal()
    for agent in env.agent_iter():
        assert not env.last()[0]["action_mask"].any(), agent
        env.step(None)
    assert env.agents == []


def test_render_modes() -> None:
    ansi = toy_v0.env(render_mode="ansi")
    ansi.reset(seed=1)
    assert ansi.render() == ansi.unwrapped.game_state.render()
    silent = toy_v0.env()
    silent.reset(seed=1)
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert silent.render() is None


def test_human_mode_prints_every_position(capsys: pytest.CaptureFixture[str]) -> None:
    env = toy_v0.env(render_mode="human")
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    printed = capsys.readouterr().out
    assert printed.count("pile:") == 2
    assert env.render() is None


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("render_mode", "rgb_array", "['ansi', 'human']"),
        ("illegal_action", "ignore", "['terminate', 'raise']"),
    ],
)
def test_bad_env_options_name_the_value_and_the_allowed_ones(
    option: str, value: str, allowed: str
) -> None:
    with pytest.raises(ValueError, match=rf"{option}='{value}'.*{allowed[1:-1]}"):
        toy_v0.env(**{option: value})


@pytest.mark.parametrize("max_plies", [0, -3, 2.5])
def test_bad_max_plies(max_plies: object) -> None:
    with pytest.raises(ValueError, match="max_plies"):
        toy_v0.env(max_plies=max_plies)


def test_unknown_game_option_and_unknown_encoder() -> None:
    with pytest.raises(TypeError, match=r"unknown option\(s\) \['colour'\]"):
        toy_v0.env(colour="red")
    with pytest.raises(ValueError, match=r"unknown encoder 'pixels'.*\['flat'\]"):
        toy_v0.env(encoder="pixels")


def test_unknown_option_lists_every_option_the_env_accepts() -> None:
    with pytest.raises(TypeError) as raised:
        toy_v0.env(colour="red", num_players=3)
    message = str(raised.value)
    assert message.startswith("toy_v0: unknown option(s) ['colour']")
    for option in ("num_players", "deck_size", "hand_size"):
        assert repr(option) in message
    for option in ("render_mode", "max_plies", "illegal_action", "encoder"):
        assert repr(option) in message


def test_resolve_encoder_returns_the_named_encoder() -> None:
    encoder = ToyFlatEncoder()
    assert resolve_encoder({"flat": encoder}, "flat") is encoder


def test_raw_env_is_the_unwrapped_adapter() -> None:
    env = toy_v0.env()
    assert isinstance(env.unwrapped, TabletopAEC)
    assert env.unwrapped.metadata["name"] == "toy_v0"


def test_the_wrapper_enforces_reset_before_use() -> None:
    env = toy_v0.env()
    with pytest.raises(AttributeError, match="before reset"):
        env.last()
    with pytest.raises(AttributeError, match="before reset"):
        _ = env.agent_selection
    env.reset(seed=0)
    assert env.last(observe=False)[0] is None


@pytest.mark.parametrize("duplicate", [lambda env: pickle.loads(pickle.dumps(env)), copy.deepcopy])
def test_a_running_env_pickles_for_subprocess_vector_envs(duplicate) -> None:
    env = toy_v0.env(num_players=3)
    env.reset(seed=6)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    twin = duplicate(env)
    assert twin.agent_selection == env.agent_selection
    assert twin.unwrapped.game_state.render() == env.unwrapped.game_state.render()
    assert np.array_equal(twin.last()[0]["observation"], env.last()[0]["observation"])


@pytest.mark.parametrize("make", [toy_v0.env, toy_v0.raw_env])
def test_state_is_pettingzoos_global_state_method_which_this_env_lacks(make) -> None:
    """PettingZoo's ``state()``: these games declare no global state, so it raises
    ``NotImplementedError`` (as Connect Four does), also through the parallel conversion,
    and there is no ``state_space`` for that conversion to copy."""
    env = make()
    env.reset(seed=1)
    with pytest.raises(NotImplementedError, match=r"no global state.*game_state"):
        env.state()
    assert not hasattr(env, "state_space")
    parallel = turn_based_aec_to_parallel(make())
    parallel.reset(seed=1)
    with pytest.raises(NotImplementedError, match="no global state"):
        parallel.state()
    assert not hasattr(parallel, "state_space")


def test_the_engine_state_is_game_state_and_the_old_name_still_reads_it_with_a_warning() -> None:
    env = toy_v0.env()
    env.reset(seed=5)
    engine = env.unwrapped.game_state
    with pytest.warns(DeprecationWarning, match=r"env\.unwrapped\.game_state"):
        player = env.unwrapped.state.current_player
    assert player == engine.current_player
    with pytest.warns(DeprecationWarning):
        assert env.unwrapped.state.render() == engine.render()
    with pytest.raises(AttributeError, match="game_state"):
        env.unwrapped.state = engine
    with pytest.raises(NotImplementedError):
        env.unwrapped.state()


@pytest.mark.parametrize("make", [toy_v0.env, toy_v0.raw_env])
@pytest.mark.parametrize("action", [None, 0])
def test_a_step_after_every_agent_left_is_an_error(make, action: int | None) -> None:
    """The episode is over and the action would be lost: ``ResetNeeded`` says so (PettingZoo's
    order enforcing only logs a line; the raw env used to fail with a ``KeyError``)."""
    env = make()
    env.reset(seed=2)
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        done = termination or truncation
        env.step(None if done else int(np.flatnonzero(observation["action_mask"])[0]))
    assert env.agents == []
    with pytest.raises(ResetNeeded, match=rf"step\({action}\) after the episode ended.*reset\(\)"):
        env.step(action)
    env.reset(seed=2)  # reset starts the next game as usual
    assert env.agents == env.possible_agents


def _position(seed: int = 3, plies: int = 3, **options: int) -> ToyState:
    """A live toy position a few random plies into a game."""
    state = ToyGame(**options).new_state(seed=seed)
    for _ in range(plies):
        state.apply(state.legal_actions()[-1])
    assert not state.is_terminal()
    return state


def test_reset_from_a_given_state_plays_on_from_it_with_matching_masks() -> None:
    given = _position(num_players=3)
    before = given.render()
    reference = given.clone()
    env = toy_v0.env(num_players=3)
    env.reset(seed=9, options={"state": given})
    played = 0
    for agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        assert agent == f"player_{reference.current_player}"
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal == reference.legal_actions()
        assert env.unwrapped.game_state.render() == reference.render()
        env.step(legal[0])
        reference.apply(legal[0])
        played += 1
    assert played > 0
    # chance comes from the state's own rng
    assert env.unwrapped.game_state.render() == reference.render()
    assert given.render() == before  # the caller's state is untouched


def test_reset_clones_the_given_state() -> None:
    given = _position()
    env = toy_v0.raw_env()
    env.reset(options={"state": given})
    assert env.game_state is not given
    given.apply(given.legal_actions()[0])
    assert env.game_state.render() != given.render()


def test_reset_accepts_a_state_of_an_equally_configured_game_object() -> None:
    given = _position(deck_size=12)
    env = toy_v0.raw_env(deck_size=12)
    assert given.game is not env.game
    env.reset(options={"state": given})
    assert env.game_state.render() == given.render()


def test_a_seed_with_a_given_state_seeds_the_env_not_the_state() -> None:
    """The state's chance comes from the generator it carries; the seed restarts the env's
    stream (action-space sampling, later unseeded resets)."""
    env = toy_v0.raw_env(deck_size=40, hand_size=6)
    given = _position(deck_size=40, hand_size=6)
    runs = []
    for seed in (1, 1, 2):
        env.reset(seed=seed, options={"state": given})
        samples = [int(env.action_space("player_0").sample()) for _ in range(5)]
        env.step(env.game_state.legal_actions()[0])
        after_move = env.game_state.render()
        env.reset()
        runs.append((samples, after_move, env.game_state.render()))
    assert runs[0] == runs[1]
    assert runs[0][1] == runs[2][1]  # the same draws, whatever the seed
    assert runs[0][0] != runs[2][0] and runs[0][2] != runs[2][2]


def test_max_plies_counts_from_the_given_state() -> None:
    env = toy_v0.raw_env(max_plies=2, deck_size=20, hand_size=4)
    env.reset(options={"state": _position(plies=4, deck_size=20, hand_size=4)})
    env.step(env.game_state.legal_actions()[0])
    assert not any(env.truncations.values())
    env.step(env.game_state.legal_actions()[0])
    assert all(env.truncations.values())


class _OtherGame(ToyGame):
    name = "other"


@pytest.mark.parametrize(
    ("options", "error", "complaint"),
    [
        ({"state": 42}, TypeError, r"options\['state'\] must be a toy State, got int"),
        ({"state": ToyGame()}, TypeError, "must be a toy State, got ToyGame"),
        (
            {"state": _OtherGame().new_state(seed=1)},
            ValueError,
            "is a state of 'other', this env plays 'toy'",
        ),
        (
            {"state": ToyGame(num_players=3).new_state(seed=1)},
            ValueError,
            "has 3 players, this env 2",
        ),
        (
            {"state": ToyGame(deck_size=12).new_state(seed=1)},
            ValueError,
            r"is of ToyGame\(num_players=2, deck_size=12.*this env plays ToyGame\(num_players=2, "
            r"deck_size=9",
        ),
        (
            {"sate": 1},
            TypeError,
            r"reset: unknown option\(s\) \['sate'\]; known options: \['state'\]",
        ),
        ([("state", 1)], TypeError, "reset: options must be a dict, got list"),
    ],
)
def test_reset_rejects_what_is_not_a_live_state_of_this_game(
    options: object, error: type[Exception], complaint: str
) -> None:
    env = toy_v0.env()
    with pytest.raises(error, match=complaint):
        env.reset(options=options)


def test_reset_refuses_a_finished_game() -> None:
    state = ToyGame().new_state(seed=0)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    with pytest.raises(ValueError, match="finished game"):
        toy_v0.env().reset(options={"state": state})


def test_reset_ignores_only_the_probe_of_pettingzoos_api_test() -> None:
    env = toy_v0.raw_env()
    env.reset(seed=5, options={"options": 1})
    assert env.game_state.render() == ToyGame().new_state(seed=5).render()

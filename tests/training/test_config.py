"""configs.toml read as typed tables: each layer (``[default]``, a game's table, a run's
overrides) laid over the one below key by key, and a typo or a wrong type refused naming
the file, the table and the key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop import envs
from tabletop.training.config import (
    CONFIG_PATH,
    DEFAULT_TABLE,
    check_env_table,
    game_settings,
    is_cooperative,
    read_configs,
    run_network,
)
from tabletop.training.runs import TrainSettings, write_json

FIXTURES = Path(__file__).with_name("fixtures")

PACKAGED = CONFIG_PATH.read_text(encoding="utf-8")


def configs_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "configs.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_game_table_of_configs_toml_names_a_game_and_known_settings() -> None:
    """Reading the file checks every table's keys and types; a game's ``env`` and
    ``network_by_encoder`` tables name its options and encoders, checked against its spec."""
    configs = read_configs(CONFIG_PATH)
    for name, config in configs.items():
        if name == DEFAULT_TABLE:
            continue
        assert name in envs.names(), f"configs.toml: [{name}] is no registered game"
        check_env_table(name, config.env)
        run_network(name, config, {}, {})  # its encoders' networks, checked


def test_a_games_table_lays_over_default_key_by_key_and_overrides_over_both(
    tmp_path: Path,
) -> None:
    kult = game_settings("kult")
    default = read_configs(CONFIG_PATH)[DEFAULT_TABLE]
    assert kult.ppo.learning_rate == 1e-4 and kult.ppo.gamma == default.ppo.gamma
    assert game_settings("kaleva").ppo.ent_coef == 0.03
    assert game_settings("kaleva").network == default.network  # no [kaleva.network]
    gold_and_dust = game_settings("gold_and_dust")
    assert gold_and_dust.network.rows == [64, 64]
    assert gold_and_dust.network.activation == default.network.activation
    imitation = gold_and_dust.imitation
    assert imitation.games == 1500 and imitation.batch_size == default.imitation.batch_size
    settings = TrainSettings.from_config(
        "kult", out=str(tmp_path), quick=True, overrides={"ppo": {"n_steps": 64}, "seat": 1}
    )
    assert settings.ppo == kult.ppo.model_copy(update={"n_steps": 64})
    assert settings.seat == 1  # a fixed seat
    assert settings.run == kult.run.model_copy(update=kult.quick.model_dump())  # --quick
    assert settings.steps == kult.quick_steps
    assert is_cooperative("regicide") and not is_cooperative("kult")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param(PACKAGED.replace("ent_coef = 0.03", "ent_coeff = 0.03"),
                     "configs.toml [kaleva]: unknown setting 'ppo.ent_coeff'; known: batch_size, "
                     "clip_range", id="typo in a game's table"),
        pytest.param(PACKAGED.replace("eval_games = 200", 'eval_games = "200"', 1),
                     "configs.toml [gold_and_dust]: setting 'run.eval_games': Input should be a "
                     "valid integer, got '200'", id="wrong type"),
        pytest.param(PACKAGED.replace("window = 200", "windows = 200"),
                     "configs.toml [default]: unknown setting 'run.windows'; known: "
                     "checkpoint_every,", id="typo in default"),
        pytest.param(PACKAGED.replace("quick_steps = 300_000", ""),
                     "configs.toml [default]: setting 'quick_steps' is missing", id="missing"),
        pytest.param(f"steps = 1\n{PACKAGED}", "configs.toml: 'steps' must be a table",
                     id="no table"),
    ],
)  # fmt: skip
def test_a_mistake_in_a_configs_file_names_the_file_table_and_key(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(ValueError) as error:
        read_configs(configs_file(tmp_path, text))
    assert str(error.value).startswith(message)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"ppo": {"n_step": 64}}, "unknown setting 'ppo.n_step'; known: batch_size, "),
        ({"quick": {"window": 5}}, "unknown setting 'quick.window'; known: checkpoint_every, "),
        ({"ppo": {"n_steps": "64"}}, "setting 'ppo.n_steps': Input should be a valid integer"),
        ({"seat": "left"}, "setting 'seat': Input should be 'alternate' or 'random'"),
        ({"env": {"colour": "red"}}, "unknown setting 'env.colour'; known: encoder, "),
    ],
)
def test_a_mistaken_override_is_refused_naming_the_key(
    tmp_path: Path, overrides: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError) as error:
        TrainSettings.from_config("regicide", out=str(tmp_path), overrides=overrides)
    assert str(error.value).startswith(message)


def test_an_env_table_takes_any_option_of_the_game_or_its_env(tmp_path: Path) -> None:
    """``[env]`` keys are checked against the game's options, not the table's own keys."""
    settings = TrainSettings.from_config(
        "regicide", out=str(tmp_path), overrides={"env": {"encoder": "entity", "solo_yield": 1}}
    )
    assert settings.env_options == {
        "num_players": 2, "shaped_reward": True, "encoder": "entity", "solo_yield": 1
    }  # fmt: skip


def test_a_network_by_encoder_table_is_checked_against_network(tmp_path: Path) -> None:
    text = PACKAGED.replace(
        "[hkk.network_by_encoder.entity]", "[hkk.network_by_encoder.entity]\nrowz = []"
    )
    configs = read_configs(configs_file(tmp_path, text))
    with pytest.raises(ValueError, match=r"unknown setting 'network_by_encoder\.entity\.rowz'"):
        run_network("hkk", configs["hkk"], {}, {})


@pytest.mark.parametrize(
    ("fixture", "game", "arguments"),
    [
        ("settings_kaleva_rllib.json", "kaleva",
         {"backend": "rllib", "overrides": {"rllib": {"env_runners": 2},
          "ppo": {"n_steps": 1024}}}),  # [kaleva]'s n_steps when the fixture was saved
        ("settings_regicide_tiny.json", "regicide",
         {"steps": 192, "overrides": {"envs": 1, "ppo": {"n_steps": 64, "batch_size": 64,
          "n_epochs": 1}, "network": {"net_arch": [16]}, "selfplay": {"snapshot_every": 64},
          "run": {"checkpoint_every": 128, "eval_every": 128, "eval_games": 4},
          "imitation": {"games": 2, "epochs": 1}}}),
    ],
)  # fmt: skip
def test_a_saved_settings_json_reads_as_typed_tables_and_is_written_back_the_same(
    tmp_path: Path, fixture: str, game: str, arguments: dict
) -> None:
    """The fixtures are ``settings.json`` files written before the tables were typed models:
    a run saved then resumes with the same settings, and a run now saves the same file."""
    saved = FIXTURES / fixture
    settings = TrainSettings.from_json(json.loads(saved.read_text(encoding="utf-8")))
    assert settings == TrainSettings.from_config(game, out=f"runs/{game}", **arguments)
    assert settings.selfplay.baselines == ["random", "heuristic"]
    write_json(tmp_path / "settings.json", settings.to_json())
    assert (tmp_path / "settings.json").read_text("utf-8") == saved.read_text("utf-8")


def test_settings_saved_before_a_setting_existed_get_what_it_meant_then() -> None:
    """A run saved before the warm start, the rllib backend or in-process envs existed:
    no warm start, sb3, SubprocVecEnv workers only when asked for; a table key added since
    (``network.rows``) takes ``[default]``'s."""
    data = json.loads((FIXTURES / "settings_regicide_tiny.json").read_text(encoding="utf-8"))
    for key in ("imitation", "rllib", "backend", "subprocesses"):
        del data[key]
    del data["network"]["rows"]
    settings = TrainSettings.from_json(data)
    assert settings.imitation.games == 0 and settings.backend == "sb3"
    assert not settings.subprocesses and settings.network.rows == []
    assert settings.network.net_arch == [16]


def test_a_mistaken_saved_setting_is_refused_naming_the_file_and_key() -> None:
    data = json.loads((FIXTURES / "settings_regicide_tiny.json").read_text(encoding="utf-8"))
    data["ppo"]["n_step"] = 64
    with pytest.raises(ValueError, match=r"settings\.json: unknown setting 'ppo\.n_step'"):
        TrainSettings.from_json(data)

"""HKK's action space (``envs/hkk/actions.py``): the ranges of its docstring table are the
module's, every id decodes, and the builders invert the decoding."""

from __future__ import annotations

import re

from tabletop.envs.hkk import actions
from tabletop.envs.hkk.actions import (
    MAX_ABILITIES,
    MAX_BREATH,
    MAX_HAND,
    MAX_TABLE,
    NUM_ACTIONS,
    REFS,
    STRIKE_TARGETS,
    activate_action,
    attack_action,
    breath_action,
    decode,
    decode_ref,
    discard_ref,
    enemy_ref,
    own_ref,
    play_action,
)

ROW = re.compile(r"^``(?P<name>[A-Z_]+)``\s+(?P<size>\d+)\s", re.MULTILINE)


def test_the_docstring_table_gives_each_range_its_size() -> None:
    rows = {m["name"]: int(m["size"]) for m in ROW.finditer(actions.__doc__ or "")}
    names = list(rows)
    bases = [getattr(actions, name) for name in names]
    assert bases == sorted(bases) and bases[0] == 0, "the table lists the ranges in id order"
    ends = [*bases[1:], NUM_ACTIONS]
    assert {name: end - base for name, base, end in zip(names, bases, ends, strict=True)} == rows


def test_every_id_decodes_and_the_builders_invert_it() -> None:
    kinds = {decode(action)[0] for action in range(NUM_ACTIONS)}
    assert len(kinds) == 12
    for slot in range(MAX_HAND):
        for ref in range(REFS):
            assert decode(play_action(slot, ref)) == ("play", (slot, ref))
    for position in range(MAX_TABLE):
        for ability in range(MAX_ABILITIES):
            assert decode(activate_action(position, ability, 7)) == (
                "activate",
                (position, ability, 7),
            )
        for target in range(STRIKE_TARGETS):
            assert decode(attack_action(position, target)) == ("attack", (position, target))
            for amount in range(1, MAX_BREATH + 1):
                assert decode(breath_action(position, amount, target)) == (
                    "breath", (position, amount, target))  # fmt: skip
        assert decode_ref(own_ref(position)) == ("own", position)
        assert decode_ref(enemy_ref(position)) == ("enemy", position)
        assert decode_ref(discard_ref(position)) == ("discard", position)

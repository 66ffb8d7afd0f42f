"""The card kit's action layout (``envs/core/cards/actions.py``): blocks laid end to end,
mixed-radix ids that decode back to their fields, and refusals naming the game."""

from __future__ import annotations

import itertools

import pytest

from tabletop.envs.core.cards.actions import ActionBlock, ActionLayout

LAYOUT = ActionLayout(
    "toy",
    [("pass", ()), ("play", (3, 4)), ("move", (2, 3, 5)), ("aim", (2, 2, 2, 2))],
    meanings={"move": lambda a, b, c: (a, b, c + 1)},
)


def test_blocks_follow_each_other_and_the_total_is_their_sum() -> None:
    assert LAYOUT.sizes() == [("pass", 0, 1), ("play", 1, 12), ("move", 13, 30), ("aim", 43, 16)]
    assert LAYOUT.total == 59


def test_encode_is_a_mixed_radix_number_most_significant_field_first() -> None:
    assert LAYOUT["pass"].encode() == 0
    assert LAYOUT["play"].encode(2, 1) == 1 + 2 * 4 + 1
    assert LAYOUT["move"].encode(1, 2, 4) == 13 + (1 * 3 + 2) * 5 + 4
    assert LAYOUT["aim"].encode(1, 0, 1, 1) == 43 + 0b1011


def test_every_id_decodes_to_the_fields_that_encode_it() -> None:
    seen = []
    for name, block in LAYOUT.blocks.items():
        for digits in itertools.product(*(range(radix) for radix in block.radices)):
            action = block.encode(*digits)
            assert block.digits(action) == digits
            fields = (digits[0], digits[1], digits[2] + 1) if name == "move" else digits
            assert LAYOUT.decode(action) == (name, fields)
            seen.append(action)
    assert sorted(seen) == list(range(LAYOUT.total))


def test_ids_outside_the_space_or_a_block_are_refused() -> None:
    with pytest.raises(ValueError, match=r"^toy: action 59 is outside 0..58$"):
        LAYOUT.decode(59)
    with pytest.raises(ValueError, match="outside"):
        LAYOUT.decode(-1)
    with pytest.raises(ValueError, match="not in block 'play'"):
        LAYOUT["play"].digits(13)


def test_a_bad_declaration_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        ActionLayout("toy", [("a", (2,)), ("a", (3,))])
    with pytest.raises(ValueError, match="no action block"):
        ActionLayout("toy", [("a", (2,))], meanings={"b": lambda x: (x,)})
    with pytest.raises(ValueError, match="range of 1 or more"):
        ActionBlock("a", (2, 0), 0)

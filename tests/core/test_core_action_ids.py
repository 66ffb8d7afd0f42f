"""The action ids of Kult, HKK and Gold & Dust as their hand-written ``*_BASE`` sums gave
them, before the kit's ``ActionLayout`` computed them: goldens, recorded games and saved
policies address actions by id, so every builder must give the same id for the same
fields, and ``decode`` the same fields for every id. The old sums are written out here as
numbers and formulas; the full old decoding tables are held as digests."""

from __future__ import annotations

import hashlib
import itertools
import json

import pytest

from tabletop.envs.gold_and_dust import actions as gd
from tabletop.envs.hkk import actions as hkk
from tabletop.envs.kult import actions as kult

OLD_BASES = {
    kult: {
        "DONE": 0, "ATTRACT_BASE": 1, "RECRUIT_BASE": 41, "PUSH_BASE": 45, "PLAY_BASE": 531,
        "ATTACH_BASE": 851, "COMMAND_BASE": 1221, "TURN_BASE": 1231, "INVOKE_BASE": 1239,
        "ATTACK_BASE": 1247, "DISCARD_BASE": 1311, "NUM_ACTIONS": 1321,
    },
    hkk: {
        "PASS": 0, "PAY": 1, "PLAY_BASE": 2, "ACTIVATE_BASE": 1170, "SACRIFICE_BASE": 6426,
        "GUARD_BASE": 6450, "RESERVE_BASE": 6474, "CHOOSE_BASE": 6498, "ATTACK_BASE": 6571,
        "BREATH_BASE": 7171, "DIRECT_BASE": 13171, "REGEN_BASE": 13195, "NUM_ACTIONS": 13219,
        "OWN_BASE": 1, "ENEMY_BASE": 25, "DISCARD_REF_BASE": 49,
    },
    gd: {
        "DONE": 0, "PLAY_BASE": 1, "MOVE_BASE": 51, "SHOOT_BASE": 59, "ATTACK_BASE": 131,
        "BLOCK_BASE": 139, "STRIKE_BASE": 203, "NUM_ACTIONS": 212,
    },
}  # fmt: skip
OLD_DECODING_DIGESTS = {
    kult: "f347efc64f621c90130f87ff7eddbc1b5a485d75616ff6c0043496585894172e",
    hkk: "c4163384d99a59fa0ea33506edce9b339bcb42a39d054bf750b4734f2e458c8c",
}
"""sha256 of ``json.dumps([decode(a) for a in range(NUM_ACTIONS)])`` under the old code."""


@pytest.mark.parametrize("module", list(OLD_BASES), ids=lambda module: module.__name__)
def test_every_base_and_the_total_are_the_old_ones(module) -> None:
    assert {name: getattr(module, name) for name in OLD_BASES[module]} == OLD_BASES[module]


@pytest.mark.parametrize("module", list(OLD_DECODING_DIGESTS), ids=lambda module: module.__name__)
def test_every_id_decodes_as_before(module) -> None:
    table = json.dumps([module.decode(action) for action in range(module.NUM_ACTIONS)])
    assert hashlib.sha256(table.encode()).hexdigest() == OLD_DECODING_DIGESTS[module]


def test_kult_builders_give_the_old_ids() -> None:
    k = kult
    for source, target in itertools.product(range(8), [k.HUB, 0, 1, 2, 3]):
        old = 1 + source * 5 + (0 if target == k.HUB else 1 + target)
        assert k.attract_action(source, target) == old
        assert k.decode(old) == ("attract", (source, target))
    for station in k.CAST:
        assert k.recruit_action(station) == 41 + station - 4
    for source, target, colour in itertools.product([k.HUB, *range(8)], range(9), range(6)):
        old = 45 + ((source + 1) * 9 + target) * 6 + colour
        assert k.push_action(source, target, colour) == old
        assert k.decode(old) == ("push", (source, target, colour))
    for slot, offset, station in itertools.product(range(10), range(4), range(8)):
        assert k.play_action(slot, offset, station) == 531 + (slot * 4 + offset) * 8 + station
    for slot, target in itertools.product(range(10), range(37)):
        assert k.attach_action(slot, target) == 851 + slot * 37 + target
    for slot, offset, station in itertools.product(range(10), range(4), [k.HUB, *range(8)]):
        action = k.attach_action(slot, k.attach_target(offset, station))
        assert k.decode(action) == ("attach", (slot, offset, station))
    assert k.decode(k.attach_action(3, k.POOL_TARGET)) == ("attach", (3, -1, k.POOL))
    for attacker, offset, target in itertools.product(k.CAST, range(4), k.CAST):
        old = 1247 + ((attacker - 4) * 4 + offset) * 4 + target - 4
        assert k.attack_action(attacker, offset, target) == old
        assert k.decode(old) == ("attack", (attacker, offset, target))


def test_hkk_builders_give_the_old_ids() -> None:
    h = hkk
    for slot, ref in itertools.product(range(16), range(73)):
        assert h.play_action(slot, ref) == 2 + slot * 73 + ref
    assert h.play_action(5) == 2 + 5 * 73
    for position, ability, ref in itertools.product(range(24), range(3), range(73)):
        assert (
            h.activate_action(position, ability, ref) == 1170 + (position * 3 + ability) * 73 + ref
        )
    for attacker, target in itertools.product(range(24), range(25)):
        assert h.attack_action(attacker, target) == 6571 + attacker * 25 + target
    for creature, amount, target in itertools.product(range(24), range(1, 11), range(25)):
        old = 7171 + (creature * 10 + amount - 1) * 25 + target
        assert h.breath_action(creature, amount, target) == old
        assert h.decode(old) == ("breath", (creature, amount, target))
    assert [h.own_ref(0), h.enemy_ref(0), h.discard_ref(0)] == [1, 25, 49]


def test_gold_and_dust_builders_give_the_old_ids() -> None:
    for slot, target in itertools.product(range(5), range(10)):
        assert gd.play_action(slot, target) == 1 + slot * 10 + target
        assert gd.decode(1 + slot * 10 + target) == ("play", (slot, target))
    for slot, target in itertools.product(range(8), range(9)):
        assert gd.shoot_action(slot, target) == 59 + slot * 9 + target
    for attacker, blocker in itertools.product(range(8), range(8)):
        assert gd.block_action(attacker, blocker) == 139 + attacker * 8 + blocker
    assert [gd.decode(51 + 2), gd.decode(131 + 7), gd.decode(203 + 4)] == [
        ("move", (2,)), ("attack", (7,)), ("strike", (4,))
    ]  # fmt: skip

"""The attack (KU-7.5): one per turn, a face-up Being of the attacker's Cast against a
face-up Being of any player's Cast (the attacker's own too); the combat values with every
modifier are compared once the Commands window has closed (KU-7's decision).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tabletop.envs.kult import crosses
from tabletop.envs.kult.actions import CAST, attack_action
from tabletop.envs.kult.cards import BEING

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState


@dataclass
class Fight:
    """An attack being decided: the two Beings as (seat, station), the Commands'
    modifiers (``bonus[0]`` the attacker's, ``bonus[1]`` the defender's), whether a
    Command ended it without a result, and once decided the compared ``values`` and the
    ``result`` (``attacker``, ``defender``, ``tie``, ``cancelled``); a decided fight stays
    public as ``KultState.last_fight`` until the next one."""

    attacker: tuple[int, int]
    defender: tuple[int, int]
    bonus: list[int] = field(default_factory=lambda: [0, 0])
    cancelled: bool = False
    values: tuple[int, int] | None = None
    result: str | None = None

    def copy(self) -> Fight:
        return Fight(
            self.attacker, self.defender, self.bonus[:], self.cancelled, self.values, self.result
        )


def fighters(state: KultState, seat: int) -> list[int]:
    """Stations of ``seat``'s Cast holding a face-up Being."""
    return [
        s for s in CAST if (card := crosses.face_up_card(state, seat, s)) and card.kind == BEING
    ]


def attacks(state: KultState, seat: int) -> list[int]:
    """Every legal attack of ``seat`` (none once it has attacked this turn)."""
    if state.attacked:
        return []
    players = state.game.num_players
    own = fighters(state, seat)
    actions = []
    for offset in range(players):
        target_seat = (seat + offset) % players
        for target in fighters(state, target_seat) if own else ():
            actions += [
                attack_action(attacker, offset, target) for attacker in own
                if (target_seat, target) != (seat, attacker)
            ]  # fmt: skip
    return sorted(actions)


def declare(state: KultState, seat: int, attacker: int, offset: int, target: int) -> None:
    target_seat = (seat + offset) % state.game.num_players
    state.fight = Fight((seat, attacker), (target_seat, target))
    state.attacked = True
    state.counters["attacks"] += 1
    state._record(
        "attack_declared", player=seat, attacker=attacker, seat=target_seat, target=target
    )


def values(state: KultState, fight: Fight) -> tuple[int, int]:
    """The attacker's and the defender's combat values with every modifier."""
    attack = crosses.combat_value(state, *fight.attacker) + fight.bonus[0]
    defence = crosses.combat_value(state, *fight.defender) + fight.bonus[1]
    return attack, defence


def resolve_fight(state: KultState) -> None:
    """Higher wins, a tie (or a cancelled fight) has no result; the loser is discarded
    with its Influences and its token goes to the winner if it can hold it, else to the
    Pool (KU-7.5). Attacking turns nothing (KU-7.5's decision)."""
    fight, state.fight, state.last_fight = state.fight, None, state.fight
    attack, defence = fight.values = values(state, fight)
    if fight.cancelled or attack == defence:
        fight.result = "cancelled" if fight.cancelled else "tie"
    else:
        fight.result = "attacker" if attack > defence else "defender"
    state._record("fight_resolved", attack=attack, defence=defence, result=fight.result)
    if fight.result == "attacker":
        crosses.discard_from_cross(state, *fight.defender, tokens_to=fight.attacker)
    elif fight.result == "defender":
        crosses.discard_from_cross(state, *fight.attacker, tokens_to=fight.defender)

"""The effect primitives cards compose in data, and the few named specials written in code.

Each primitive is a function ``(state, owner, effect, source_slot, target)``: ``owner`` plays
the card, ``source_slot`` is the unit's board slot for unit abilities (else -1), ``target``
is the chosen ``(side, slot)`` (slot -1 is that side's Hero) or None. Damage goes through
the engine's rules (armour, GD-3.2; death, GD-3.3; a Hero at 0 loses, GD-2.4), so cards
never bypass them. A card that needs more than the vocabulary registers a function in
``SPECIALS`` by name and says ``{ do = "special", name = "..." }``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # cards.py checks special names against SPECIALS: no import back
    from tabletop.envs.gold_and_dust.cards import Effect
    from tabletop.envs.gold_and_dust.engine import GoldDustState

HERO = -1
"""The slot that stands for a side's Hero in a ``(side, slot)`` target."""
FRONT, BACK = 0, 1
IGNORE_ARMOUR = 1_000
"""Pierce large enough to ignore any armour (``pierce = true`` on a damage effect)."""

Target = tuple[int, int]
Primitive = Callable[["GoldDustState", int, "Effect", int, "Target | None"], None]


def affected(state: GoldDustState, owner: int, selector: str, source_slot: int,
             target: Target | None) -> list[Target]:  # fmt: skip
    """The ``(side, slot)`` pairs an effect with ``to = selector`` reaches, living units only."""
    if selector == "target":
        return [target] if target is not None and state.is_alive(*target) else []
    if selector == "self":
        return [(owner, source_slot)] if state.is_alive(owner, source_slot) else []
    if selector == "own_hero":
        return [(owner, HERO)]
    if selector == "enemy_hero":
        return [(1 - owner, HERO)]
    _, side_word, row_word = selector.split("_")
    side = owner if side_word == "ally" else 1 - owner
    row = {"unit": None, "front": FRONT, "back": BACK}[row_word]
    return [
        (side, slot)
        for slot, unit in enumerate(state.boards[side])
        if unit is not None and not unit.dead and (row is None or unit.row == row)
    ]


def _damage(state: GoldDustState, owner: int, effect: Effect, source: int,
            target: Target | None) -> None:  # fmt: skip
    """``amount`` + a roll of ``die`` (GD-3.1), rolled for each one hit, minus armour unless
    ``pierce`` (GD-3.2)."""
    pierce = IGNORE_ARMOUR if effect.pierce else 0
    for side, slot in affected(state, owner, effect.to, source, target):
        amount = effect.amount + state.roll(effect.dice)
        if slot == HERO:
            state.hit_hero(side, amount)
            if state.is_terminal():
                return
        else:
            state.hit_unit(side, slot, amount, pierce)


def _heal(state: GoldDustState, owner: int, effect: Effect, source: int,
          target: Target | None) -> None:  # fmt: skip
    """Up to the maximum hit points, never above."""
    for side, slot in affected(state, owner, effect.to, source, target):
        if slot == HERO:
            before = state.hp[side]
            state.hp[side] = min(state.heroes[side].hp, before + effect.amount)
            after, label = state.hp[side], "Hero"
        else:
            unit = state.boards[side][slot]
            before = unit.hp
            unit.hp = after = min(unit.max_hp, before + effect.amount)
            label = state.unit_label(side, slot)
        if after > before:
            state._record("healed", player=side, target=label, amount=after - before, hp=after)


def _buff(state: GoldDustState, owner: int, effect: Effect, source: int,
          target: Target | None) -> None:  # fmt: skip
    """Lasting changes of base attack, armour and (maximum and current) hit points."""
    for side, slot in affected(state, owner, effect.to, source, target):
        unit = state.boards[side][slot]
        unit.attack_bonus += effect.attack
        unit.armour_bonus += effect.armour
        unit.max_hp += effect.hp
        unit.hp += effect.hp
        state._record(
            "unit_buffed", player=side, unit=state.unit_label(side, slot), attack=effect.attack,
            armour=effect.armour, hp=effect.hp,
        )  # fmt: skip


def _draw(state: GoldDustState, owner: int, effect: Effect, source: int,
          target: Target | None) -> None:  # fmt: skip
    """Each card is a draw under GD-1.3 (overflow) and GD-9.1 (fatigue)."""
    for _ in range(effect.cards):
        state.draw(owner)
        if state.is_terminal():
            return


def _gain(state: GoldDustState, owner: int, effect: Effect, source: int,
          target: Target | None) -> None:  # fmt: skip
    state.gain(owner, effect.gold, effect.dust, "effect")


def _destroy(state: GoldDustState, owner: int, effect: Effect, source: int,
             target: Target | None) -> None:  # fmt: skip
    for side, slot in affected(state, owner, effect.to, source, target):
        state.kill_unit(side, slot)


def _move_up(state: GoldDustState, owner: int, effect: Effect, source: int,
             target: Target | None) -> None:  # fmt: skip
    """To the first row; unlike a unit's own move (GD-5.2) it does not use the unit's turn.
    An ``immobile`` unit stays where it is."""
    for side, slot in affected(state, owner, effect.to, source, target):
        unit = state.boards[side][slot]
        if not unit.card.immobile and unit.row != FRONT:
            unit.row = FRONT
            state.record_row(side, slot)


def _push_back(state: GoldDustState, owner: int, effect: Effect, source: int,
               target: Target | None) -> None:  # fmt: skip
    for side, slot in affected(state, owner, effect.to, source, target):
        if state.boards[side][slot].row != BACK:
            state.boards[side][slot].row = BACK
            state.record_row(side, slot)


def _ready(state: GoldDustState, owner: int, effect: Effect, source: int,
           target: Target | None) -> None:  # fmt: skip
    """Untapped, not resting, and free to attack this turn even if it moved."""
    for side, slot in affected(state, owner, effect.to, source, target):
        unit = state.boards[side][slot]
        unit.tapped = unit.resting = unit.moved = False
        state._record("unit_readied", player=side, unit=state.unit_label(side, slot))


def _special(state: GoldDustState, owner: int, effect: Effect, source: int,
             target: Target | None) -> None:  # fmt: skip
    SPECIALS[effect.name](state, owner, effect, source, target)


PRIMITIVE_FUNCTIONS: dict[str, Primitive] = {
    "damage": _damage,
    "heal": _heal,
    "buff": _buff,
    "draw": _draw,
    "gain": _gain,
    "destroy": _destroy,
    "move_up": _move_up,
    "push_back": _push_back,
    "ready": _ready,
    "special": _special,
}


def run_effects(state: GoldDustState, owner: int, effects: tuple[Effect, ...],
                source_slot: int = -1, target: Target | None = None) -> None:  # fmt: skip
    """Resolve ``effects`` in order; stop as soon as a Hero falls (GD-9.1)."""
    for effect in effects:
        if state.is_terminal():
            return
        PRIMITIVE_FUNCTIONS[effect.do](state, owner, effect, source_slot, target)


# ----- specials: card abilities the vocabulary cannot say -----------------------------------

WAGER_DIE = (1, 6)
WAGER_WINS_FROM = 4
WAGER_CARDS = 2
WAGER_LOSS = 2


def _wager(state: GoldDustState, owner: int, effect: Effect, source: int,
           target: Target | None) -> None:  # fmt: skip
    """Fortune's Die: roll k6; on 4+ draw 2 cards, otherwise your Hero takes 2 damage.
    Code because the vocabulary has no condition on a roll."""
    if state.roll(WAGER_DIE) >= WAGER_WINS_FROM:
        for _ in range(WAGER_CARDS):
            state.draw(owner)
            if state.is_terminal():
                return
    else:
        state.hit_hero(owner, WAGER_LOSS)


SPECIALS: dict[str, Primitive] = {"wager": _wager}
"""Named code for cards that truly need it; card files refer to these names."""

"""Determinization from the zone model: re-deal everything an observer cannot identify.

``redeal`` works on a ``Table`` (a copy: it changes it in place). What an observer sees
stays as it is: zones they see keep their order, and every card instance they know keeps
its definition. What they cannot see is drawn again, consistently with what they know:

1. the order of every zone they do not see is shuffled (nobody's deck order, another
   player's hand);
2. the instances they cannot identify exchange definitions at random among the instances
   of the same owner (each owner's unseen cards are a known multiset: the deck list less
   the cards seen), so no card leaves its owner's cards and every count stays.

Both steps start from an order that depends only on what the observer knows (instance
ids, whose moves are public, and definitions sorted by their ``index``), so a search that
resamples cannot base its decisions on the hidden order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TypeVar

from tabletop.envs.core.cards.zones import Table, iid_of

StateT = TypeVar("StateT")

MAX_RESAMPLE_TRIES = 1_000
"""Deals ``resample_consistent`` draws before it reports that none fits what is known."""


def redeal(table: Table, observer: int, rng: random.Random) -> list[int]:
    """Re-deal what ``observer`` cannot identify (see the module docstring); returns the
    iids whose definitions were re-drawn. Cards in play (``Permanent``) get their new
    definition too. Definitions must have an ``index`` (their place in the game's pool)."""
    mask = 1 << observer
    for name, owned in table.zones.items():
        if table.specs[name].in_play or table.specs[name].slots is not None:
            continue  # positions on a board are public even where faces are not
        for owner, zone in enumerate(owned):
            if not table.sees(name, owner) & mask and len(zone) > 1:
                zone.sort()
                rng.shuffle(zone)
    groups: dict[int, list[int]] = {}
    for _, _, _, entry in table.entries():
        iid = iid_of(entry)
        if not table.seen[iid] & mask:
            groups.setdefault(table.owners[iid], []).append(iid)
    redrawn: list[int] = []
    for owner in sorted(groups):
        iids = groups[owner]
        cards = sorted((table.cards[iid] for iid in iids), key=_index)
        rng.shuffle(cards)
        for iid, card in zip(iids, cards, strict=True):
            table.cards[iid] = card
        redrawn += iids
    _update_permanents(table, set(redrawn))
    return redrawn


def _index(card: object) -> int:
    return card.index  # type: ignore[attr-defined]


def _update_permanents(table: Table, redrawn: set[int]) -> None:
    if not redrawn:
        return
    for name, owned in table.zones.items():
        if table.specs[name].in_play:
            for zone in owned:
                for entry in zone:
                    if entry is not None and entry.iid in redrawn:
                        entry.card = table.cards[entry.iid]


def resample_consistent(
    deal: Callable[[], StateT], consistent: Callable[[StateT], bool], game: str,
    tries: int = MAX_RESAMPLE_TRIES,
) -> StateT:  # fmt: skip
    """The first of up to ``tries`` deals (``deal()``, each a fresh determinization) that
    fits what the observer knows beyond the cards (``consistent``, e.g. that the player to
    move has a real choice, or the engine would have moved). Raises ``RuntimeError``
    naming ``game`` when none does."""
    for _ in range(tries):
        candidate = deal()
        if consistent(candidate):
            return candidate
    raise RuntimeError(f"{game}: no consistent deal in {tries} tries")

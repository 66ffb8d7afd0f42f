"""Determinization from the zone model: re-deal everything an observer cannot identify.

``redeal`` works on a ``Table`` (a copy: it changes it in place). What an observer sees
stays as it is: zones they see keep their order, and every card instance they know keeps
its definition. What they cannot see is drawn again, consistently with what they know:

1. the order of every zone they do not see is shuffled (nobody's deck order, another
   player's hand);
2. the instances they cannot identify exchange definitions at random within the multisets
   the observer knows, so no card leaves its owner's cards or such a multiset and every
   count stays. Per owner these are the cards the observer never knew (the deck list less
   the cards seen and the ones below) and, per shuffle, the cards the observer saw
   shuffled out of its sight (``Table.lost``): a public discard pile shuffled into a deck
   is still that deck's cards, in an unknown order, and a card drawn from it since is
   still one of them to a player who does not see the hand it went to.

Both steps start from an order that depends only on what the observer knows (instance
ids, whose moves are public, and definitions sorted by their ``index``), so a search that
resamples cannot base its decisions on the hidden order.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable

from tabletop.envs.core.cards.zones import Table, iid_of


def redeal(table: Table, observer: int, rng: random.Random) -> list[int]:
    """Re-deal what ``observer`` cannot identify (see the module docstring); returns the
    iids whose definitions were re-drawn. Cards in play (``Permanent``) get their new
    definition too. Definitions must have an ``index`` (their place in the game's pool).

    Only the zones the observer does not see and the concealed cards of zones they do see
    (``Table.concealed``) are looked at; a hidden zone's order is drawn again only when it
    holds a card the observer knows or cards of different multisets (else re-drawing every
    card's identity already deals it at random)."""
    mask = 1 << observer
    seen = table.seen
    multiset = _multisets(table, observer)
    unknown: list[int] = []
    for name, owned in table.zones.items():
        sees = table._sees[name]
        listed = table.specs[name].slots is None and not table.specs[name].in_play
        for owner, zone in enumerate(owned):
            if sees[owner] & mask:
                continue
            iids = [iid_of(e) for e in zone if e is not None] if not listed else zone
            hidden = [iid for iid in iids if not seen[iid] & mask]
            # a known card whose place is unknown, or unknown ones of different multisets
            if listed and (len(hidden) < len(zone) or len(set(map(multiset, hidden))) > 1):
                zone.sort()
                rng.shuffle(zone)
                hidden = [iid for iid in zone if not seen[iid] & mask]
            unknown += hidden
    unknown += sorted(iid for iid in table.concealed if not seen[iid] & mask)
    groups: dict[tuple[int, int], list[int]] = {}
    for iid in unknown:
        groups.setdefault(multiset(iid), []).append(iid)
    cards = table.cards = table.cards[:]  # shared with the table it was copied from
    for key in sorted(groups):
        iids = groups[key]
        dealt = sorted((cards[iid] for iid in iids), key=_index)
        rng.shuffle(dealt)
        for iid, card in zip(iids, dealt, strict=True):
            cards[iid] = card
    if unknown:
        table.touch()  # definitions changed: figures cached from them are stale
        _update_permanents(table, set(unknown))
    return unknown


_index = operator.attrgetter("index")


def _multisets(table: Table, observer: int) -> Callable[[int], tuple[int, int]]:
    """The multiset ``observer`` knows an unseen instance to be one of, as a key: its owner
    (a common supply's cards have owner ``num_players``) and the shuffle that took it out
    of the observer's sight (``Table.lost``; 0: the observer never knew it)."""
    owners, lost = table.owners, table.lost
    if not lost:
        return lambda iid: (owners[iid], 0)

    def multiset(iid: int) -> tuple[int, int]:
        numbers = lost.get(iid)
        return owners[iid], numbers[observer] if numbers else 0

    return multiset


def _update_permanents(table: Table, redrawn: set[int]) -> None:
    for name, owned in table.zones.items():
        if table.specs[name].in_play:
            for zone in owned:
                for entry in zone:
                    if entry is not None and entry.iid in redrawn:
                        entry.card = table.cards[entry.iid]

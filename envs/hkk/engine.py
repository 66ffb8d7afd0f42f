"""HKK's rules engine (docs/rules/hkk.md, HK-1 … HK-11): the match (``HkkGame``) and the
position (``HkkState``); pure Python on the card-game kit.

A turn is the seven phases of HK-3 (``turns``); each decision is a masked choice of one
fixed action space (``actions``), and a decision with a single option is taken by the
engine (HK-8.5). The cards are instances on a kit ``Table`` (``zones.ZONES``); what they
do is the vocabulary's primitives (``effects``), run through this state's methods
below; the determinization is the kit's ``redeal``. The rules live in role modules of
functions taking the state: ``figures`` (abilities, damage and life, limits), ``plays``
(cards, abilities, targets, the chain), ``combat`` (HK-6), ``turns`` (phases, the turn's
start and end), ``notation``, ``rendering``.

Reading a position (all public unless said):

- ``life``, ``vp``, ``components``: per seat (HK-2.1, HK-5.3); ``turns_taken`` per seat
  (the magic point income of HK-3.1);
- ``tables[seat]``: ``zones.InPlay`` cards; ``hands[seat]`` (its owner's), ``decks[seat]``
  (nobody's: read only its size), ``discards[seat]``, ``voids[seat]``: instance ids,
  ``table.cards[iid]`` their ``cards.Card``;
- ``phase`` (``PHASE_NAMES``), ``active``, ``player`` (who decides), ``priority``
  and ``passes`` in a window (read from ``priority_round``, the kit's ``PriorityRound``),
  ``stack`` (the chain, HK-8.4: ``plays.Play`` items),
  ``shields`` (chain item, galetki iid) pairs a body part absorbed (HK-9.4),
  ``saving`` (a life-saving window is open, HK-4.2), ``wounds`` (creatures that may
  regenerate now, HK-7.9), ``choice`` (a pending ``plays.Choice``) and ``queued`` (those
  waiting behind it; both read from ``pending``, the kit's ``PendingDecisions``), ``fight``
  (``combat.Fight``, the swap's moves and the combat in progress);
- ``quiet_turns``: turns in a row with both decks empty and no life changed (HK-2.3);
  ``winner`` once over (``DRAW`` for a draw).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tabletop.envs.core.cards.chain import Chain
from tabletop.envs.core.cards.copies import bare_copy, copy_last_move, redealt_copy
from tabletop.envs.core.cards.pending import PendingDecisions, PendingPhasedState
from tabletop.envs.core.cards.phases import DRAW
from tabletop.envs.core.cards.priority import PriorityRound
from tabletop.envs.core.cards.zones import MarkWrites, Table
from tabletop.envs.core.engine import action_text, copy_generator
from tabletop.envs.core.protocol import Event, check_options
from tabletop.envs.hkk import figures, galetki, notation, plays, public, rendering, turns
from tabletop.envs.hkk import view as view_module
from tabletop.envs.hkk.actions import MAX_TABLE, NUM_ACTIONS, PASS
from tabletop.envs.hkk.cards import (
    PACKAGED_DECKS,
    Building,
    Card,
    Creature,
    Deck,
    Pool,
    load_deck,
    load_pool,
)
from tabletop.envs.hkk.combat import Fight
from tabletop.envs.hkk.steps import COMBAT, PHASE_NAMES, PREPARATION, SWAP, UPKEEP
from tabletop.envs.hkk.zones import ZONES, InPlay

HAND_SIZE = 5  # HK-2.2
START_LIFE = 20  # HK-2.1
DEFAULT_PLY_LIMIT = 20_000
"""A safety net on decisions far above any real game (HK-2.3: no turn limit)."""
HAND_EVENTS = ("cards_drawn",)
"""The events whose cards go into a hand: another player's are unseen in a determinization."""


class HkkGame:
    """A configured match: the pool, a deck per seat and the safety net on decisions."""

    name = "hkk"
    num_players = 2
    num_actions = NUM_ACTIONS

    def __init__(
        self,
        pool: str | Path | Pool | None = None,
        decks: Sequence[str | Path | Deck] | None = None,
        ply_limit: int = DEFAULT_PLY_LIMIT,
    ) -> None:
        if isinstance(ply_limit, bool) or not isinstance(ply_limit, int) or ply_limit < 1:
            raise ValueError(f"hkk: ply_limit must be a positive int, got {ply_limit!r}")
        self.pool = pool if isinstance(pool, Pool) else load_pool(pool)
        specs = PACKAGED_DECKS[:2] if decks is None else decks
        if isinstance(specs, str | Path) or not isinstance(specs, Sequence) or len(specs) != 2:
            raise ValueError(f"hkk: decks must name two decks, got {specs!r}")
        self.decks = tuple(d if isinstance(d, Deck) else load_deck(d, self.pool) for d in specs)
        self.ply_limit = ply_limit
        self.cards = self.pool.cards
        self.facts = figures.pool_facts(self.cards)
        """What the pool's cards can ever do (``figures.PoolFacts``)."""
        self.derived: dict[str, Any] = {}
        """What other modules work out once from this match and keep with it (the encoders'
        rows of the pool's cards): it lives and dies with the game and never changes it."""

    def help_text(self) -> str:
        return notation.HELP

    def card_descriptions(self) -> dict[str, str]:
        """Each pool card's name -> its type, cost, figures and text (for the terminal)."""
        return rendering.card_descriptions(self.cards)

    def __repr__(self) -> str:
        decks = tuple(d.name for d in self.decks)
        return (f"HkkGame(pool={self.pool.data_version!r}, decks={decks}, "
                f"ply_limit={self.ply_limit})")  # fmt: skip

    def new_state(self, seed: int | None = None) -> HkkState:
        """HK-2.2: shuffled decks, five cards each, the first player by the seed."""
        rng = random.Random(seed)
        state = HkkState(self, rng)
        for seat, deck in enumerate(self.decks):
            state.table.create_many([self.cards[i] for i in deck.cards], seat, "deck")
            state.table.shuffle(("deck", seat), rng)
            state.draw(seat, HAND_SIZE)
        turns.begin_turn(state, rng.randrange(2))
        state.settle()
        state._events = []
        return state

    def stacked_state(
        self, setups: Sequence[Mapping[str, Any]], *, active: int = 0, phase: str = "main",
        turns_taken: Sequence[int] = (3, 3), seed: int = 0, settle: bool = True,
    ) -> HkkState:  # fmt: skip
        """A position for tests, cards named as in the pool. ``setups[seat]`` may give
        ``hand``, ``deck`` (top first), ``discard``, ``life``, ``vp``, ``components``,
        ``guard`` and ``reserve`` (creature names, or ``{"card": name, "active": bool,
        "damage": n, "poison": n, "counters": n, "levels": n, "attached": [names],
        "wounded": bool}``, wounded: its damage is fresh, HK-7.9) and
        ``beside`` (other cards, names or such tables). The position opens in
        ``active``'s ``phase`` (a name of ``PHASE_NAMES``) with priority to
        ``active``."""
        state = HkkState(self, random.Random(seed))
        for seat, setup in enumerate(setups):
            _place_stacked(state, seat, setup)
        state.active = active
        state.priority_round.restart(active)
        state.turns_taken = list(turns_taken)
        state.phase = PHASE_NAMES.index(phase)
        if PHASE_NAMES.index(phase) in (SWAP, *COMBAT):
            state.fight = Fight()
        if settle:
            state.settle()
        state._events = []
        return state

    def public_fact_variants(self, state: HkkState) -> Iterator[tuple[str, HkkState]]:
        """The protocol's optional hook: ``state`` changed in one public fact (``public``)."""
        return public.variants(state)

    def card_named(self, name: str) -> Card:
        card = self.pool.card_named(name)
        if card is None:
            raise ValueError(f"hkk: no card {name!r} in {self.pool.name!r}")
        return card


def _place_stacked(state: HkkState, seat: int, setup: Mapping[str, Any]) -> None:
    known = {"hand", "deck", "discard", "life", "vp", "components", "guard", "reserve",
             "beside"}  # fmt: skip
    check_options(f"hkk stacked setup {seat}", dict(setup), known)
    game = state.game
    deck = list(setup.get("deck", ()))[::-1]  # top first in the setup, last in the zone
    for zone, names in (("hand", setup.get("hand", ())), ("deck", deck),
                        ("discard", setup.get("discard", ()))):  # fmt: skip
        for name in names:
            state.table.create(game.card_named(name), seat, zone)
    state.life[seat] = setup.get("life", START_LIFE)
    state.vp[seat] = setup.get("vp", 0)
    state.components[seat] = setup.get("components", 0)
    for area in ("guard", "reserve", "beside"):
        for entry in setup.get(area, ()):
            entry = {"card": entry} if isinstance(entry, str) else dict(entry)
            placed = state.place(seat, game.card_named(entry.pop("card")), area, seat)
            for name in entry.pop("attached", ()):
                state.place(seat, game.card_named(name), "attached", seat, host=placed)
            if entry.pop("wounded", False):
                state.wounds.add(placed.iid)
            for mark, value in entry.items():
                setattr(placed, mark, value)
            if isinstance(placed.card, Building) and "active" not in entry:
                placed.active = True


class HkkState(PendingPhasedState):
    """One HKK position; see the module docstring for what it holds."""

    __slots__ = (
        "game", "rng", "table", "tables", "hands", "decks", "discards", "voids", "chain_cards",
        "life", "vp", "components", "turns_taken", "turn", "plies", "active", "phase",
        "priority_round", "stack", "shields", "saving", "wounds", "pending",
        "fight", "quiet_turns", "memo", "memo_key",
        "life_at_start", "winner", "counters", "last_plays", "_rewards", "_returns", "_legal",
    )  # fmt: skip

    PHASES = turns.PHASES
    PHASE_NAMES = PHASE_NAMES  # the steps' numbering, checked against PHASES by the kit

    def __init__(self, game: HkkGame, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        self.table = Table(2, ZONES)
        self._bind_zones()
        self.life = [START_LIFE, START_LIFE]
        self.vp = [0, 0]
        self.components = [0, 0]
        self.turns_taken = [0, 0]
        self.turn = 0
        self.plies = 0
        self.active = 0
        self.phase = UPKEEP
        self.priority_round = PriorityRound((0, 1))
        """Priority in a window: who holds it, passes in a row (HK-8.4)."""
        self.stack = Chain()
        self.shields: set[tuple[plays.Play, int]] = set()
        self.memo: dict[Any, Any] = {}
        """Figures remembered while the position they were worked out for holds
        (``figures.remembered``, for the position ``memo_key`` names)."""
        self.memo_key: int | None = None
        self.saving = False
        self.wounds: set[int] = set()
        """Creatures (iids) whose damage is fresh: taken since both players last passed in
        a row, so they may regenerate now (HK-7.9)."""
        self.pending = PendingDecisions()
        """Decisions (``plays.Choice``) owed outside the phase order, the first one due."""
        self.fight: Fight | None = None
        self.quiet_turns = 0
        self.life_at_start = (START_LIFE, START_LIFE)
        self.winner: int | None = None
        self.counters = {"cards_played": 0, "abilities_used": 0, "creatures_died": 0,
                         "attacks": 0}  # fmt: skip
        self.last_plays: tuple[view_module.Played | None, ...] = (None, None)
        """Each seat's last decision but a pass, as the view shows it (``view.played``)."""
        self._rewards = [0.0, 0.0]
        self._returns = [0.0, 0.0]
        self._legal: list[int] = []
        self._events = []

    def _bind_zones(self) -> None:
        zones = self.table.zones
        self.tables: list[list[InPlay]] = zones["table"]
        self.hands: list[list[int]] = zones["hand"]
        self.decks: list[list[int]] = zones["deck"]
        self.discards: list[list[int]] = zones["discard"]
        self.voids: list[list[int]] = zones["void"]
        self.chain_cards: list[list[int]] = zones["chain"]

    @property
    def mark_writes(self) -> MarkWrites:
        """The changes of the figure marks of this position's cards in play, as the kit
        counts them (``zones.FIGURE_MARKS``; they move ``Table.version`` too)."""
        return self.table.mark_writes

    # ----- the protocol ---------------------------------------------------------------------

    player = PendingPhasedState.current_player
    """Who decides: a pending choice's chooser, else the phase's decider."""

    @property
    def choice(self) -> plays.Choice | None:
        """The decision due now outside the phase order, if any."""
        return self.pending.due  # type: ignore[return-value]

    @property
    def queued(self) -> list[plays.Choice]:
        """The decisions owed after ``choice``, in order."""
        return self.pending.waiting  # type: ignore[return-value]

    @property
    def priority(self) -> int:
        """Who has priority in a window (HK-8.4)."""
        return self.priority_round.holder

    @property
    def passes(self) -> int:
        """How many players passed in a row in a window (HK-8.4)."""
        return self.priority_round.passes

    def apply(self, action: int) -> None:
        """One decision (``EngineState.apply``); the mover's last play is kept for the
        view (``view.played``) unless it is a pass, which leaves the table as it is."""
        if action != PASS and action in self._legal:
            kept = list(self.last_plays)
            kept[self.player] = view_module.played(self, action)
            self.last_plays = tuple(kept)
        PendingPhasedState.apply(self, action)

    def _do(self, action: int) -> None:
        self.plies += 1
        PendingPhasedState._do(self, action)  # (no super(): the cost of a lookup per move)
        if self.winner is None and self.plies >= self.game.ply_limit:
            self.finish(DRAW)

    def finish(self, winner: int) -> None:
        """HK-2.4: +1 to the winner, -1 to the loser; 0 to both on a draw (``DRAW``, HK-2.3),
        by the kit's ``end_game``."""
        self.end_game(winner)
        self.pending.clear()
        self._record("game_over", winner=None if winner == DRAW else winner)

    def stats(self) -> dict[str, float]:
        figures_ = {key: float(value) for key, value in self.counters.items()}
        figures_["turns"] = float(self.turn)
        figures_["plies"] = float(self.plies)
        figures_["draw"] = float(self.winner == DRAW)
        for seat in range(2):
            figures_[f"life_p{seat}"] = float(self.life[seat])
        return figures_

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        return notation.describe_event(self, kind, facts, observer)

    action_to_string = notation.action_to_string
    render = rendering.render
    view = view_module.view

    def string_to_action(self, text: str) -> int:
        return notation.string_to_action(self, action_text("hkk", text))

    @property
    def combat(self) -> Fight:
        """The combat in progress (``fight``), for the steps that only run during one."""
        assert self.fight is not None, "hkk: no combat in progress"
        return self.fight

    # ----- moving cards (HK-1.2) --------------------------------------------------------------

    def card(self, iid: int) -> Card:
        return self.table.cards[iid]

    def owner(self, iid: int) -> int:
        return self.table.owners[iid]

    def draw(self, seat: int, count: int = 1) -> None:
        """Draw ``count`` cards; an empty deck gives nothing (HK-3.2)."""
        drawn: list[int] = []
        for _ in range(count):
            if not self.decks[seat]:
                break
            drawn.append(self.card(self.table.take(("deck", seat), -1, ("hand", seat))).index)
        if drawn:
            self._record("cards_drawn", player=seat, count=len(drawn), cards=drawn)

    def place(
        self, seat: int, card: Card, area: str, owner: int, *, host: InPlay | None = None
    ) -> InPlay:
        """A new instance of ``card`` owned by ``owner`` on ``seat``'s table (tests and
        stacked positions)."""
        iid = self.table.create(card, owner, "table", seat)
        host_iid = None if host is None else host.iid
        entry = InPlay(iid, card, area, host=host_iid)  # type: ignore[arg-type]
        self.table.put(entry, ("table", seat))
        return entry

    def enter(self, seat: int, iid: int, source: tuple[str, int], area: str,
              *, active: bool, host: int | None = None) -> InPlay | None:  # fmt: skip
        """Bring card ``iid`` from zone ``source`` onto ``seat``'s table; ``None`` (the card
        stays where it is) when that table is full (``actions.MAX_TABLE``)."""
        if len(self.tables[seat]) >= MAX_TABLE:
            return None
        card = self.card(iid)
        entry = InPlay(iid, card, area, active=active, host=host)  # type: ignore[arg-type]
        self.table.remove(iid, source)
        self.table.put(entry, ("table", seat))
        return entry

    def leave(self, entry: InPlay, to: str, *, gives: bool = True) -> None:
        """``entry`` leaves the table for its owner's ``to`` (discard, void or hand), and
        the cards attached to it go to their owners' discard piles (HK-8.1, HK-4.4). A
        creature of a player that goes to a discard pile or the Void outside a preparation
        phase gives the other player its components (HK-5.1) unless ``gives`` is off (a
        sacrifice as a cost or for a drawback, poison)."""
        seat = figures.controller(self, entry)
        position = self.tables[seat].index(entry)  # where everyone saw it
        for other in [e for e in self.tables[seat] if e.host == entry.iid]:
            self.leave(other, "discard")
        self.table.remove(entry, ("table", seat))
        self.table.put(entry.iid, (to, self.owner(entry.iid)))
        card = entry.card
        if isinstance(card, Creature):
            self._record("creature_left", player=seat, card=card.index, position=position, to=to)
            if to != "hand":
                self.counters["creatures_died"] += 1
            if gives and to != "hand" and self.phase not in PREPARATION:
                galetki.gain_from(self, 1 - seat, card)

    def gain_components(self, seat: int, amount: int) -> None:
        """HK-5.1 (a player never declines components: **Project decision**, having more
        never hurts; a galetki may eat a mutant's instead, ``galetki.gain_from``)."""
        if amount:
            self.components[seat] += amount

    def gain_vp(self, seat: int, amount: int) -> None:
        """Magic points up to the limit; the excess is lost (HK-2.1)."""
        total = self.vp[seat] + amount
        if total > figures.LIMIT:  # the limit is never below that (cards only add to it)
            total = min(figures.vp_limit(self, seat), total)
        self.vp[seat] = total

    def gain_life(self, seat: int, amount: int) -> None:
        """Life up to 20; the excess is lost (HK-2.1)."""
        self.life[seat] = min(figures.LIMIT, self.life[seat] + amount)

    def lose_vp(self, seat: int, amount: int) -> None:
        self.vp[seat] = max(0, self.vp[seat] - amount)

    def hurt_player(self, seat: int, amount: int) -> None:
        self.life[seat] -= amount

    def take_control(self, entry: InPlay, seat: int) -> None:
        """HK-1.2: ``entry`` and the cards on it move to ``seat``'s reserve (nothing
        happens when that table has no room)."""
        side = figures.controller(self, entry)
        riders = [e for e in self.tables[side] if e.host == entry.iid]
        if side == seat or len(self.tables[seat]) + 1 + len(riders) > MAX_TABLE:
            return
        for moving in (entry, *riders):
            self.table.move(moving, ("table", side), ("table", seat))
        entry.area = "reserve"

    def cancel(self, item: Any) -> None:
        """HK-8.4: the answered chain item does nothing; its card, if one was played,
        goes to its owner's discard pile (the rules' decision)."""
        self.stack.items.remove(item)
        play = item.what
        if play.ability < 0:
            self.table.move(play.iid, ("chain", item.controller), ("discard", self.owner(play.iid)))
        self._record("cancelled", player=item.controller, card=self.card(play.iid).index)

    # what the vocabulary's run functions and conditions use (effects)
    reached = plays.reached
    affects = plays.affects
    hurt = plays.hurt
    poison_creature = plays.poison
    passivate = plays.passivate
    skill_count = plays.skill_count

    # ----- copies and determinization ------------------------------------------------------

    def clone(self) -> HkkState:
        return self._copy(copy_generator(self.rng))

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Pickled and deep-copied without the remembered figures: a cache, keyed by
        functions that pickle cannot name; the copy works them out again."""
        _, slots = super().__getstate__()
        return None, {**slots, "memo": {}, "memo_key": None}

    def _copy(self, rng: random.Random) -> HkkState:
        other = bare_copy(HkkState, self, rng)
        for name in ("life", "vp", "components", "turns_taken"):
            setattr(other, name, getattr(self, name)[:])
        for name in ("turn", "plies", "active", "phase", "saving", "quiet_turns",
                     "life_at_start", "winner"):  # fmt: skip
            setattr(other, name, getattr(self, name))
        other.priority_round = self.priority_round.copy()
        other.pending = self.pending.copy()
        other.stack = self.stack.copy()
        other.shields = set(self.shields)
        other.wounds = set(self.wounds)
        other.memo = {}
        other.memo_key = None
        other.fight = None if self.fight is None else self.fight.copy()
        other.counters = dict(self.counters)
        other.last_plays = self.last_plays
        copy_last_move(self, other)
        return other

    def resample_hidden(self, observer: int, rng: random.Random) -> HkkState:
        """Re-deal what ``observer`` cannot see (HK-11.1) with the kit's ``redeal``: the
        other player's hand and both decks' order. Deals in which the player to move would
        have no real choice are drawn again (HK-8.5: being asked shows a usable answer);
        which cards the other player drew is unknown in its events."""
        return redealt_copy(self, observer, rng, HAND_EVENTS)

"""Gold & Dust rules engine (docs/rules/gold_and_dust.md, GD-1 … GD-9); pure Python.

A turn is a sequence of masked decisions of the player whose turn it is, each step ending
with ``done``: (B) play cards and move units up, (C) archers shoot, (D) declare attackers;
then (E) the defender decides blocks inside the attacker's turn; after the blocked fights
(dice rolled by the seeded generator) the attacker picks (F) the target of each unblocked
attacker. The draw (A), untapping and regeneration happen automatically at the start of a
turn. A decision with a single legal action is taken by the engine, so players are only
asked when they have a real choice.

Decisions made where the rules are silent (docs/games/gold_and_dust.md lists them): tapped
units (those that shot or attacked in their owner's last turn) cannot block; units may act
on the turn they are summoned (a summoned melee unit may move up at once, a summoned archer
may shoot); a ranged unit attacks only by shooting; each attacker is blocked by at most one
blocker; blocking does not tap; the first player is drawn by the seeded generator.

The engine is built on the card-game kit (``tabletop.envs.core.cards``): the cards are
instances on a kit ``Table`` (``ZONES``), the turn is the kit's phase objects, effects are
the kit vocabulary's primitives, triggers and auras, and the determinization is the kit's
``redeal``. This module holds the match (``GoldDustGame``) and the position
(``GoldDustState``): the state's data, the figures the rules derive from it, copies and
determinization. The rules live in role modules of module-level functions taking the
state: ``turns`` (the phase objects, a turn's start and end, drawing), ``plays`` (cards
and moving up), ``combat`` (damage, death, shots, attacks, blocks), ``effects`` (the
vocabulary: what cards can say and do), ``legal`` (each move's legality), ``notation``
(labels, action text) and ``rendering`` (the text picture); ``phases`` (step numbers) and
``units`` are the leaves they share.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from tabletop.envs.core.cards.continuous import Continuous, statics_in
from tabletop.envs.core.cards.copies import bare_copy, copy_last_move, redealt_copy
from tabletop.envs.core.cards.phases import PhasedState
from tabletop.envs.core.cards.zones import Table, Visibility, ZoneSpec
from tabletop.envs.core.engine import copy_generator
from tabletop.envs.core.protocol import Event, check_options
from tabletop.envs.gold_and_dust import combat, legal, notation, plays, public, rendering, turns
from tabletop.envs.gold_and_dust import view as view_module
from tabletop.envs.gold_and_dust.actions import ARTIFACT_SLOTS, BOARD_SLOTS, MAX_HAND, NUM_ACTIONS
from tabletop.envs.gold_and_dust.cards import (
    HEROES,
    Card,
    Deck,
    Hero,
    Pool,
    load_deck,
    load_pool,
)
from tabletop.envs.gold_and_dust.effects import BACK, FRONT, HERO
from tabletop.envs.gold_and_dust.narration import HAND_EVENTS, HELP, describe_event
from tabletop.envs.gold_and_dust.phases import ATTACK, BLOCK, DRAW, MAIN, OVER, SHOOT, STRIKE
from tabletop.envs.gold_and_dust.units import Unit

__all__ = [
    "ATTACK",
    "BLOCK",
    "DRAW",
    "MAIN",
    "OVER",
    "SHOOT",
    "STRIKE",
    "GoldDustGame",
    "GoldDustState",
    "Unit",
]
"""The names other modules and tests import from the engine; the step constants and ``Unit``
are defined in ``phases`` and ``units`` (the role modules' shared leaves) and re-exported."""

DEFAULT_DECKS = ("warrior", "mage")
DEFAULT_MAX_TURNS = 200
"""GD-9.1's safety net, counted in player turns (a ply of the rules = one player's turn)."""

ZONES = (
    ZoneSpec("hero", Visibility.PUBLIC, lasting=True),
    ZoneSpec("deck", Visibility.NOBODY),
    ZoneSpec("hand", Visibility.OWNER),
    ZoneSpec("graveyard", Visibility.PUBLIC),
    ZoneSpec("artifacts", Visibility.PUBLIC, lasting=True),
    ZoneSpec("board", Visibility.PUBLIC, slots=BOARD_SLOTS, in_play=True),
)
"""Where a player's cards can be (GD-9.3): the Hero, the deck (its order unknown to all),
the hand (its owner's), and the public graveyard, lasting artifacts and board of units."""


class GoldDustGame:
    """A configured match: the pool, the two decks (seat 0, seat 1) and the turn limit."""

    name = "gold_and_dust"
    num_players = 2
    num_actions = NUM_ACTIONS

    def __init__(
        self,
        decks: Sequence[str | Path | Deck] = DEFAULT_DECKS,
        pool: str | Path | Pool | None = None,
        max_turns: int = DEFAULT_MAX_TURNS,
    ) -> None:
        _check_decks(decks)
        if not isinstance(pool, str | Path | Pool | None):
            raise ValueError(
                f"gold_and_dust: pool must be a path to a pool file, got {type(pool).__name__} "
                f"{pool!r}"
            )
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise ValueError(f"gold_and_dust: max_turns must be a positive int, got {max_turns!r}")
        self.pool = pool if isinstance(pool, Pool) else load_pool(pool)
        self.decks = tuple(d if isinstance(d, Deck) else load_deck(d, self.pool) for d in decks)
        self.cards = self.pool.cards
        self.max_turns = max_turns

    def help_text(self) -> str:
        """The move notation, the text picture's codes and the dice, for a newcomer."""
        return HELP

    def public_fact_variants(self, state: GoldDustState) -> Iterator[tuple[str, GoldDustState]]:
        """The protocol's optional hook: ``state`` changed in one public fact (``public``)."""
        return public.variants(state)

    def player_name(self, seat: int) -> str:
        """The hero leading ``seat``'s deck (public from the start, GD-2), for tables."""
        if seat not in (0, 1):
            raise ValueError(f"gold_and_dust: seat must be 0 or 1, got {seat!r}")
        return self.decks[seat].hero.name

    def __repr__(self) -> str:
        decks = tuple(f"{d.name} ({d.hero.name})" for d in self.decks)
        return (
            f"GoldDustGame(decks={decks}, pool={self.pool.data_version!r}, "
            f"max_turns={self.max_turns})"
        )

    def new_state(self, seed: int | None = None) -> GoldDustState:
        """Shuffled decks, five cards each (GD-4.1), the first player drawn by the seed."""
        rng = random.Random(seed)
        decks = [list(deck.cards) for deck in self.decks]
        state = GoldDustState(self, rng, [d.hero for d in self.decks], decks)
        for deck in state.deck_cards:
            rng.shuffle(deck)
        for player in (0, 1):
            for _ in range(MAX_HAND):
                state.draw(player)
        state.begin_turn(rng.randrange(2))
        state.settle()
        state._events = []  # the deal is not an apply: nothing to narrate yet
        return state

    def stacked_state(
        self,
        setups: Sequence[Mapping[str, Any]] = ({}, {}),
        *,
        first_player: int = 0,
        seed: int = 0,
        start_turn: bool = False,
        first_turns: bool = False,
    ) -> GoldDustState:
        """A position for tests and puzzles, cards named as in the pool.

        ``setups[p]`` may give ``hero`` (name; default the deck's), ``hand``, ``deck`` (top
        first), ``front``, ``back``, ``artifacts``, ``graveyard``, ``hp``, ``gold``, ``dust``.
        Nothing is filled in: a stacked side owns exactly the cards it names. The position
        opens in ``first_player``'s main step; with ``start_turn`` the turn's start is
        played first (untap, regeneration, triggers, draw). ``first_turns`` makes it both
        players' first turn (no regeneration, first-turn passives).
        """
        heroes = []
        for player, setup in enumerate(setups):
            name = setup.get("hero")
            hero = self.decks[player].hero if name is None else self.pool.hero_named(name)
            if hero is None:
                raise ValueError(f"gold_and_dust: no hero {name!r} in the pool")
            heroes.append(hero)
        decks = [self._card_ids(setup.get("deck", ()))[::-1] for setup in setups]
        state = GoldDustState(self, random.Random(seed), heroes, decks)
        for player, setup in enumerate(setups):
            state.place_stacked(player, setup, self._card_ids)
        for player in (0, 1):
            state.turns_started[player] = 0 if first_turns else 1
        if start_turn:
            state.begin_turn(first_player)
        else:
            state.active = first_player
        state.settle()
        state._events = []
        return state

    def _card_ids(self, names: Iterable[str]) -> list[int]:
        ids = []
        for name in names:
            card = self.pool.card_named(name)
            if card is None:
                raise ValueError(f"gold_and_dust: no card {name!r} in {self.pool.name!r}")
            ids.append(card.index)
        return ids


def _check_decks(decks: object) -> None:
    """Two deck specs, seat 0's then seat 1's: packaged names, paths or loaded ``Deck``s,
    mixed freely (the command line's ``decks=warrior,my/deck.toml`` arrives as a tuple of
    two strings). A single spec is an error, not a mirror match: say both."""
    if isinstance(decks, str | Path) or not isinstance(decks, Sequence) or len(decks) != 2:
        raise ValueError(
            f"gold_and_dust: decks must be a pair (seat 0, seat 1), e.g. ('warrior', 'mage') "
            f"or on the command line decks=warrior,mage; got {decks!r}"
        )
    for seat, spec in enumerate(decks):
        if not isinstance(spec, str | Path | Deck):
            raise ValueError(
                f"gold_and_dust: option decks: decks[{seat}] (seat {seat}'s deck) must be a "
                f"packaged deck's name ({', '.join(HEROES)}) or a path to a .toml file, "
                f"got {type(spec).__name__} {spec!r}"
            )


class GoldDustState(PhasedState):
    """One Gold & Dust position: the cards on a kit ``Table`` (``ZONES``), resources, the
    step of the turn (``phase``, run by the phase objects of ``turns.PHASES``) and the
    attack in progress. Decks keep their top card last."""

    __slots__ = (
        "game", "rng", "table", "heroes", "hp", "gold", "dust", "boards", "hand_cards",
        "deck_cards", "grave_cards", "artifact_cards", "fatigue", "turns_started", "turn",
        "active", "phase", "attackers", "blocks", "strikes", "dying", "winner", "continuous",
        "counters", "last_plays", "_rewards", "_returns", "_legal",
    )  # fmt: skip

    PHASES = turns.PHASES

    def __init__(
        self, game: GoldDustGame, rng: random.Random, heroes: list[Hero], decks: list[list[int]]
    ) -> None:
        self.game = game
        self.rng = rng
        self.table = Table(2, ZONES)
        self._bind_zones()
        self.heroes = heroes
        for player, hero in enumerate(heroes):
            self.table.create(hero, player, "hero")
        for player, deck in enumerate(decks):
            self.table.create_many([game.cards[index] for index in deck], player, "deck")
        self.hp = [hero.hp for hero in heroes]
        self.gold = [hero.gold for hero in heroes]
        self.dust = [hero.dust for hero in heroes]
        self.fatigue = [1, 1]  # next empty-deck damage (GD-9.1)
        self.turns_started = [0, 0]
        self.turn = 0
        self.active = 0
        self.phase = MAIN
        self.attackers: list[int] = []  # declared, in order
        self.blocks: dict[int, int] = {}  # attacker slot -> blocker slot
        self.strikes: list[int] = []  # unblocked attackers still to pick a target
        self.dying = False  # a unit died and waits for its burial (GD-7.5)
        self.winner: int | None = None
        self.continuous = Continuous()
        self.counters = {"cards_played": 0, "units_died": 0, "fatigue_damage": 0}
        self.last_plays: tuple[view_module.Played | None, ...] = (None, None)
        """Each seat's last decision but ``done``, for the view (``view.played``)."""
        self._rewards = [0.0, 0.0]
        self._returns = [0.0, 0.0]
        self._legal: list[int] = []
        self._events = []

    def _bind_zones(self) -> None:
        """The zone lists by player, as attributes: the rules read them on every step."""
        zones = self.table.zones
        self.boards: list[list[Unit | None]] = zones["board"]
        self.hand_cards: list[list[int]] = zones["hand"]
        self.deck_cards: list[list[int]] = zones["deck"]
        self.grave_cards: list[list[int]] = zones["graveyard"]
        self.artifact_cards: list[list[int]] = zones["artifacts"]

    def place_stacked(self, player: int, setup: Mapping[str, Any], ids: Any) -> None:
        """Put a stacked setup's cards in place (see ``GoldDustGame.stacked_state``)."""
        known = {"hero", "hand", "deck", "front", "back", "artifacts", "graveyard", "hp", "gold",
                 "dust"}  # fmt: skip
        check_options(f"gold_and_dust stacked setup {player}", dict(setup), known)
        hand = ids(setup.get("hand", ()))
        if len(hand) > MAX_HAND:
            raise ValueError(f"gold_and_dust: a hand holds at most {MAX_HAND} cards (GD-1.3)")
        artifacts = ids(setup.get("artifacts", ()))
        units = [(i, FRONT) for i in ids(setup.get("front", ()))]
        units += [(i, BACK) for i in ids(setup.get("back", ()))]
        if len(units) > BOARD_SLOTS or len(artifacts) > ARTIFACT_SLOTS:
            raise ValueError("gold_and_dust: too many units or artifacts for the table")
        cards = self.game.cards
        for zone, indices in (("hand", hand), ("graveyard", ids(setup.get("graveyard", ()))),
                              ("artifacts", artifacts)):  # fmt: skip
            for index in indices:
                self.table.create(cards[index], player, zone)
        for slot, (index, row) in enumerate(units):
            card = cards[index]
            if not card.is_unit:
                raise ValueError(f"gold_and_dust: {card.name} is not a unit")
            iid = self.table.create(card, player, "board")
            self.table.put(Unit(iid, card, row), ("board", player), slot)
        for key in ("hp", "gold", "dust"):
            if key in setup:
                getattr(self, key)[player] = setup[key]

    # ----- the cards of a zone by their pool index (how tests and people read them) -------

    @property
    def hands(self) -> list[list[int]]:
        """Each player's hand as pool card indices, in hand order."""
        return self._indices(self.hand_cards)

    @property
    def decks(self) -> list[list[int]]:
        """Each player's deck as pool card indices, top card last."""
        return self._indices(self.deck_cards)

    @property
    def graveyards(self) -> list[list[int]]:
        return self._indices(self.grave_cards)

    @property
    def artifacts(self) -> list[list[int]]:
        """Each player's lasting artifacts on the table, as pool card indices."""
        return self._indices(self.artifact_cards)

    def _indices(self, zones: list[list[int]]) -> list[list[int]]:
        cards = self.table.cards
        return [[cards[iid].index for iid in zone] for zone in zones]

    def card(self, iid: int) -> Card:
        """The card instance ``iid`` is."""
        return self.table.cards[iid]

    # ----- the protocol's read side -------------------------------------------------------

    def stats(self) -> dict[str, float]:
        figures = {key: float(value) for key, value in self.counters.items()}
        figures["turns"] = float(self.turn)
        figures["draw"] = float(self.winner == DRAW)
        return figures

    def cards_owned(self, player: int) -> int:
        """Every card of ``player``'s in any zone, the Hero included: 41 in a game (GD-1.1)."""
        owners = self.table.owners
        return sum(owners[iid] == player for iid in self.table.where())

    def is_alive(self, side: int, slot: int) -> bool:
        if slot == HERO:
            return True
        unit = self.boards[side][slot]
        return unit is not None and not unit.dead

    # ----- figures the rules derive: continuous effects of the cards in play ---------------

    def auras(self, player: int) -> list[int]:
        """The sums of ``player``'s auras (the Hero's passive and lasting artifacts'):
        ``[attack front, attack back, armour front, armour back, spell dust, artifact
        gold, first-turn draws, Hero damage]``, computed from the table when it changed.
        The cache is read here first, without a call: this runs for every card in hand
        and every fight."""
        cache = self.continuous
        if cache.version == self.table.version:
            sums = cache.values.get(player)
            if sums is not None:
                return sums
        return cache.get(self.table, player, self._sum_auras, player)

    def _sum_auras(self, player: int) -> list[int]:
        totals = [0] * 8
        for _, aura in statics_in(self.table, (("hero", player), ("artifacts", player))):
            rows = {"ally_front": (FRONT,), "ally_back": (BACK,)}.get(aura.group, (FRONT, BACK))
            if aura.group in ("ally_front", "ally_back", "ally_unit"):
                for row in rows:
                    totals[row] += aura.attack
                    totals[2 + row] += aura.armour
                totals[7] += aura.hero_damage
            totals[4] += aura.dust
            totals[5] += aura.gold
            totals[6] += aura.first_turn_draws
        return totals

    def attack_of(self, player: int, unit: Unit) -> int:
        """Base attack with buffs and auras (GD-2.4's Warrior), never below 0."""
        return max(0, unit.card.attack + unit.attack_bonus + self.auras(player)[unit.row])

    def armour_of(self, player: int, unit: Unit) -> int:
        return max(0, unit.card.armour + unit.armour_bonus + self.auras(player)[2 + unit.row])

    def cost_of(self, player: int, card: Card) -> tuple[int, int]:
        """(gold, dust) to pay (GD-2.3) after the auras' cost changes (GD-2.4)."""
        return legal.cost_with(card, self.auras(player))

    def first_turn_draws(self, player: int) -> int:
        """Extra cards drawn on the player's first turn (the Thief, GD-2.4)."""
        return self.auras(player)[6]

    def hero_damage_bonus(self, player: int) -> int:
        """Damage added to the player's units' hits on a Hero (the Assassin, GD-2.4)."""
        return self.auras(player)[7]

    def may_shoot_hero(self, player: int, unit: Unit) -> bool:
        """GD-6.2: from the first row, when a row of the defender is empty, or by ability."""
        if unit.row == FRONT or unit.card.sniper:
            return True
        rows = {u.row for u in self.boards[1 - player] if u is not None and not u.dead}
        return len(rows) < 2

    def roll(self, dice: tuple[int, int]) -> int:
        """GD-3.1: k6 is a die, k3 a die halved rounded up; ``2k6`` sums two dice."""
        count, sides = dice
        if not count:
            return 0
        faces = [self.rng.randrange(6) + 1 for _ in range(count)]
        total = sum(faces) if sides == 6 else sum((face + 1) // 2 for face in faces)
        self._record("dice_rolled", count=count, sides=sides, faces=faces, total=total)
        return total

    # ----- the rules, by role: module-level functions taking the state, bound here --------

    begin_turn = turns.begin_turn
    draw = turns.draw
    gain = turns.gain
    record_row = plays.record_row
    hit_unit = combat.hit_unit
    hit_hero = combat.hit_hero
    kill_unit = combat.kill_unit
    bury_dead = combat.bury_dead
    play_targets = legal.play_targets
    unit_labels = notation.unit_labels
    unit_label = notation.unit_label
    hand_labels = notation.hand_labels
    action_to_string = notation.action_to_string
    string_to_action = notation.string_to_action
    render = rendering.render
    view = view_module.view

    def apply(self, action: int) -> None:
        """One decision (``EngineState.apply``); the mover's last decision but ``done`` is
        kept for the view's last moves (``view.played``): ``done`` changes no piece."""
        seat = self.current_player
        ends = view_module.played_ends(self, action) if action in self._legal else None
        super().apply(action)
        if ends is not None:
            kept = list(self.last_plays)
            kept[seat] = view_module.Played(self._events[0], ends)
            self.last_plays = tuple(kept)

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        return describe_event(self.game.cards, kind, facts, observer)

    # ----- copies and determinization -----------------------------------------------------

    def clone(self) -> GoldDustState:
        return self._copy(copy_generator(self.rng))

    def _copy(self, rng: random.Random) -> GoldDustState:
        """A copy of the table and every counter, drawing its dice from ``rng``."""
        other = bare_copy(GoldDustState, self, rng)
        other.heroes = self.heroes
        other.hp = self.hp[:]
        other.gold = self.gold[:]
        other.dust = self.dust[:]
        other.fatigue = self.fatigue[:]
        other.turns_started = self.turns_started[:]
        other.turn = self.turn
        other.active = self.active
        other.phase = self.phase
        other.attackers = self.attackers[:]
        other.blocks = dict(self.blocks)
        other.strikes = self.strikes[:]
        other.dying = self.dying
        other.winner = self.winner
        other.continuous = self.continuous.copy()
        other.counters = dict(self.counters)
        other.last_plays = self.last_plays  # a tuple of records never changed again
        copy_last_move(self, other)
        return other

    def resample_hidden(self, observer: int, rng: random.Random) -> GoldDustState:
        """Re-deal what ``observer`` cannot see (GD-9.3) with the kit's ``redeal``: the
        opponent's hand and deck exchange their unseen cards, and the order of both decks
        is drawn again. The observer knows the player to move has a real choice (else the
        engine would have moved), so deals that contradict it are drawn again. The new
        state draws its future dice from a fresh generator; the cards the opponent drew or
        shuffled back are unknown in its events."""
        return redealt_copy(self, observer, rng, HAND_EVENTS)

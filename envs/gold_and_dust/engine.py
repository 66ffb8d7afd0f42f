"""Gold & Dust rules engine (docs/rules/gold_and_dust.md, GD-1 … GD-9); pure Python.

A turn is a sequence of masked decisions of the player whose turn it is, each step ending
with ``done``: (B) play cards and move units up, (C) archers shoot, (D) declare attackers;
then (E) the defender decides blocks inside the attacker's turn; after the blocked fights
(dice rolled by the seeded generator) the attacker picks (F) the target of each unblocked
attacker. The draw (A), untapping and regeneration happen automatically at the start of a
turn. A decision with a single legal action is taken by the engine, so players are only
asked when they have a real choice.

Decisions made where the rules are silent (the README lists them): tapped units (those that
shot or attacked in their owner's last turn) cannot block; units may act on the turn they
are summoned (a summoned melee unit may move up at once, a summoned archer may shoot); a
ranged unit attacks only by shooting; each attacker is blocked by at most one blocker;
blocking does not tap; the first player is drawn by the seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tabletop.envs.core.engine import EngineState, EventRecord, copy_generator
from tabletop.envs.core.protocol import TERMINAL, Event, IllegalActionError, check_options
from tabletop.envs.gold_and_dust.actions import (
    ARTIFACT_SLOTS,
    ATTACK_BASE,
    BLOCK_BASE,
    BOARD_SLOTS,
    DONE,
    HERO_TARGET,
    MAX_HAND,
    MOVE_BASE,
    NO_TARGET,
    NUM_ACTIONS,
    PLAY_BASE,
    PLAY_TARGETS,
    SHOOT_BASE,
    SHOT_TARGETS,
    STRIKE_BASE,
    block_action,
    play_action,
    shoot_action,
)
from tabletop.envs.gold_and_dust.cards import (
    ARTIFACT,
    KEYWORDS,
    SPELL,
    UNIT,
    Card,
    Deck,
    Hero,
    Pool,
    load_deck,
    load_pool,
)
from tabletop.envs.gold_and_dust.effects import BACK, FRONT, HERO, run_effects
from tabletop.envs.gold_and_dust.narration import (
    HAND_EVENTS,
    HELP,
    describe_event,
    dice_text,
    roll_text,
)

DEFAULT_DECKS = ("warrior", "mage")
DEFAULT_MAX_TURNS = 200
"""GD-9.1's safety net, counted in player turns (a ply of the rules = one player's turn)."""
DRAW = -1
"""``winner`` of a game ended by the turn limit."""
MAX_RESAMPLE_TRIES = 1_000

DECISIONS = frozenset(
    {"card_played", "unit_moved", "unit_shot", "attack_declared", "block_declared", "unit_struck"}
)
"""Event kinds that record a player's choice; each is the first record of its ``apply``."""

# Steps of a turn.
MAIN, SHOOT, ATTACK, BLOCK, STRIKE, OVER = range(6)
PHASE_NAMES = ("main", "shoot", "attack", "block", "strike", "over")


class GoldDustGame:
    """A configured match: the pool, the two decks (seat 0, seat 1) and the turn limit."""

    name = "gold_and_dust"
    num_players = 2
    num_actions = NUM_ACTIONS
    OPTIONS = frozenset({"decks", "pool", "max_turns"})

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

    @classmethod
    def from_options(cls, **options: Any) -> GoldDustGame:
        """Build from keyword options, rejecting unknown ones by name."""
        check_options("gold_and_dust", options, set(cls.OPTIONS))
        return cls(**options)

    def help_text(self) -> str:
        """The move notation, the text picture's codes and the dice, for a newcomer."""
        return HELP

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
        for deck in decks:
            rng.shuffle(deck)
        state = GoldDustState(self, rng, [d.hero for d in self.decks], decks)
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
                f"gold_and_dust: seat {seat}'s deck must be a packaged deck name or a path to "
                f"a deck file, got {type(spec).__name__} {spec!r}"
            )


class Unit:
    """A unit on the table: its card and what happened to it."""

    __slots__ = (
        "card", "hp", "max_hp", "row", "tapped", "resting", "moved", "dead", "attack_bonus",
        "armour_bonus",
    )  # fmt: skip

    def __init__(self, card: Card, row: int) -> None:
        self.card = card
        self.hp = self.max_hp = card.hp
        self.row = row
        self.tapped = False  # shot or attacked: cannot block until its owner's turn (GD-4.2)
        self.resting = False  # blocked: may not attack in its owner's next turn (GD-7.3)
        self.moved = False  # moved up this turn: may not attack (GD-5.2)
        self.dead = False  # at 0 HP, to the graveyard after the step (GD-3.3, GD-7.5)
        self.attack_bonus = 0
        self.armour_bonus = 0

    def copy(self) -> Unit:
        other = Unit.__new__(Unit)
        for name in Unit.__slots__:
            setattr(other, name, getattr(self, name))
        return other

    def may_attack(self) -> bool:
        """Neither tapped nor resting (GD-7.3), nor moved up this turn without charge."""
        return not (
            self.dead or self.tapped or self.resting or (self.moved and not self.card.charge)
        )


class GoldDustState(EngineState):
    """One Gold & Dust position. Decks keep their top card last."""

    __slots__ = (
        "game", "rng", "heroes", "hp", "gold", "dust", "hands", "decks", "graveyards",
        "artifacts", "boards", "fatigue", "turns_started", "turn", "active", "phase",
        "attackers", "blocks", "strikes", "winner", "auras", "card_totals", "counters",
        "_rewards", "_returns", "_legal",
    )  # fmt: skip

    def __init__(
        self, game: GoldDustGame, rng: random.Random, heroes: list[Hero], decks: list[list[int]]
    ) -> None:
        self.game = game
        self.rng = rng
        self.heroes = heroes
        self.hp = [hero.hp for hero in heroes]
        self.gold = [hero.gold for hero in heroes]
        self.dust = [hero.dust for hero in heroes]
        self.hands: list[list[int]] = [[], []]
        self.decks = decks
        self.graveyards: list[list[int]] = [[], []]
        self.artifacts: list[list[int]] = [[], []]
        self.boards: list[list[Unit | None]] = [[None] * BOARD_SLOTS for _ in range(2)]
        self.fatigue = [1, 1]  # next empty-deck damage (GD-9.1)
        self.turns_started = [0, 0]
        self.turn = 0
        self.active = 0
        self.phase = MAIN
        self.attackers: list[int] = []  # declared, in order
        self.blocks: dict[int, int] = {}  # attacker slot -> blocker slot
        self.strikes: list[int] = []  # unblocked attackers still to pick a target
        self.winner: int | None = None
        self.auras = [[0, 0, 0, 0], [0, 0, 0, 0]]  # attack front/back, armour front/back
        self.card_totals = [len(deck) + 1 for deck in decks]
        self.counters = {"cards_played": 0, "units_died": 0, "fatigue_damage": 0}
        self._rewards = [0.0, 0.0]
        self._returns = [0.0, 0.0]
        self._legal: list[int] = []
        self._events = []
        for player in (0, 1):
            self.refresh_auras(player)

    def place_stacked(self, player: int, setup: Mapping[str, Any], ids: Any) -> None:
        """Put a stacked setup's cards in place (see ``GoldDustGame.stacked_state``)."""
        known = {"hero", "hand", "deck", "front", "back", "artifacts", "graveyard", "hp", "gold",
                 "dust"}  # fmt: skip
        check_options(f"gold_and_dust stacked setup {player}", dict(setup), known)
        self.hands[player] = ids(setup.get("hand", ()))
        if len(self.hands[player]) > MAX_HAND:
            raise ValueError(f"gold_and_dust: a hand holds at most {MAX_HAND} cards (GD-1.3)")
        self.graveyards[player] = ids(setup.get("graveyard", ()))
        self.artifacts[player] = ids(setup.get("artifacts", ()))
        units = [(i, FRONT) for i in ids(setup.get("front", ()))]
        units += [(i, BACK) for i in ids(setup.get("back", ()))]
        if len(units) > BOARD_SLOTS or len(self.artifacts[player]) > ARTIFACT_SLOTS:
            raise ValueError("gold_and_dust: too many units or artifacts for the table")
        for slot, (index, row) in enumerate(units):
            card = self.game.cards[index]
            if not card.is_unit:
                raise ValueError(f"gold_and_dust: {card.name} is not a unit")
            self.boards[player][slot] = Unit(card, row)
        for key in ("hp", "gold", "dust"):
            if key in setup:
                getattr(self, key)[player] = setup[key]
        self.card_totals[player] = self.cards_owned(player)
        self.refresh_auras(player)

    # ----- the protocol's read side -------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        return 1 - self.active if self.phase == BLOCK else self.active

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def stats(self) -> dict[str, float]:
        figures = {key: float(value) for key, value in self.counters.items()}
        figures["turns"] = float(self.turn)
        figures["draw"] = float(self.winner == DRAW)
        return figures

    def cards_owned(self, player: int) -> int:
        """Every card of ``player``'s in any zone, the Hero included: 41 in a game (GD-1.1)."""
        units = sum(unit is not None for unit in self.boards[player])
        zones = (self.hands, self.decks, self.graveyards, self.artifacts)
        return 1 + units + sum(len(zone[player]) for zone in zones)

    def is_alive(self, side: int, slot: int) -> bool:
        if slot == HERO:
            return True
        unit = self.boards[side][slot]
        return unit is not None and not unit.dead

    # ----- figures the rules derive -------------------------------------------------------

    def refresh_auras(self, player: int) -> None:
        """Sum the Hero's passive aura and lasting artifacts' auras by row."""
        auras = [0, 0, 0, 0]
        sources = [self.heroes[player].passive.aura]
        sources += [self.game.cards[i].aura for i in self.artifacts[player]]
        for source in sources:
            for aura in source:
                rows = {"ally_front": (FRONT,), "ally_back": (BACK,)}.get(aura.group, (FRONT, BACK))
                for row in rows:
                    auras[row] += aura.attack
                    auras[2 + row] += aura.armour
        self.auras[player] = auras

    def attack_of(self, player: int, unit: Unit) -> int:
        """Base attack with buffs and auras (GD-2.4's Warrior), never below 0."""
        return max(0, unit.card.attack + unit.attack_bonus + self.auras[player][unit.row])

    def armour_of(self, player: int, unit: Unit) -> int:
        return max(0, unit.card.armour + unit.armour_bonus + self.auras[player][2 + unit.row])

    def cost_of(self, player: int, card: Card) -> tuple[int, int]:
        """(gold, dust) to pay (GD-2.3) after the Hero's discounts (GD-2.4)."""
        passive = self.heroes[player].passive
        gold, dust = card.gold, card.dust
        if card.kind == SPELL:
            dust = max(0, dust - passive.spell_dust_discount)
        elif card.kind == ARTIFACT:
            gold = max(0, gold - passive.artifact_gold_discount)
        return gold, dust

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

    # ----- damage, death and drawing (used by the engine and by effects) -----------------

    def hit_unit(self, side: int, slot: int, amount: int, pierce: int = 0) -> int:
        """GD-3.2: armour (less ``pierce``) absorbs that much of the hit; returns the damage
        taken. A unit at 0 HP or less dies (GD-3.3); it leaves with the step (GD-7.5)."""
        unit = self.boards[side][slot]
        armour = max(0, self.armour_of(side, unit) - pierce)
        taken = max(0, amount - armour)
        unit.hp -= taken
        if unit.hp <= 0:
            unit.hp = 0
            unit.dead = True
        self._record(
            "damage_dealt", player=side, target=self.unit_label(side, slot), amount=amount,
            armour=min(armour, amount), taken=taken, hp=unit.hp,
        )  # fmt: skip
        return taken

    def kill_unit(self, side: int, slot: int) -> None:
        unit = self.boards[side][slot]
        unit.hp = 0
        unit.dead = True
        self._record("unit_destroyed", player=side, unit=self.unit_label(side, slot))

    def hit_hero(self, side: int, amount: int) -> None:
        """A Hero at 0 HP loses (GD-2.4, GD-9.1)."""
        self.hp[side] -= amount
        self._record(
            "damage_dealt", player=side, target="Hero", amount=amount, armour=0, taken=amount,
            hp=self.hp[side],
        )  # fmt: skip
        if self.hp[side] <= 0 and self.phase != OVER:
            self._finish(winner=1 - side)

    def draw(self, player: int) -> None:
        """GD-1.3 overflow, then a draw, or GD-9.1 fatigue from an empty deck."""
        hand, deck = self.hands[player], self.decks[player]
        if len(hand) >= MAX_HAND:
            card = hand.pop(self.rng.randrange(len(hand)))
            deck.append(card)
            self.rng.shuffle(deck)
            self._record("hand_overflow", player=player, card=card)
        if deck:
            card = deck.pop()
            hand.append(card)
            self._record_draw(player, card)
            return
        damage = self.fatigue[player]
        self.fatigue[player] += 1
        self.counters["fatigue_damage"] += damage
        self._record("fatigue", player=player, damage=damage)
        self.hit_hero(player, damage)

    def _record_draw(self, player: int, card: int) -> None:
        """One ``cards_drawn`` record for a run of draws by one player (a turn's draws, a
        card's "draw 2"). The record is replaced, not edited: clones share the old one."""
        events = self._events
        if events and events[-1][0] == "cards_drawn" and events[-1][1]["player"] == player:
            events[-1] = (
                "cards_drawn",
                {"player": player, "cards": [*events[-1][1]["cards"], card]},
            )
        else:
            self._record("cards_drawn", player=player, cards=[card])

    def bury_dead(self) -> None:
        """GD-3.3 / GD-7.5: dead units go to the graveyard, then their on_death effects
        resolve (which may kill more)."""
        while self.phase != OVER:
            dead = [
                (side, slot, unit)
                for side in (self.active, 1 - self.active)
                for slot, unit in enumerate(self.boards[side])
                if unit is not None and unit.dead
            ]
            if not dead:
                return
            labels = [self.unit_label(side, slot) for side, slot, _ in dead]
            for (side, slot, unit), label in zip(dead, labels, strict=True):
                self.boards[side][slot] = None
                self.graveyards[side].append(unit.card.index)
                self.counters["units_died"] += 1
                self._record("unit_died", player=side, unit=label)
            for side, _, unit in dead:
                run_effects(self, side, unit.card.on_death)

    # ----- applying actions -----------------------------------------------------------------

    def _do(self, action: int) -> None:
        if action == DONE:
            self._done()
        elif action < MOVE_BASE:
            hand_slot, target = divmod(action - PLAY_BASE, PLAY_TARGETS)
            self._play(hand_slot, target)
        elif action < SHOOT_BASE:
            self._move(action - MOVE_BASE)
        elif action < ATTACK_BASE:
            self._shoot(*divmod(action - SHOOT_BASE, SHOT_TARGETS))
        elif action < BLOCK_BASE:
            self._declare_attacker(action - ATTACK_BASE)
        elif action < STRIKE_BASE:
            self._block(*divmod(action - BLOCK_BASE, BOARD_SLOTS))
        else:
            self._strike(action - STRIKE_BASE)

    def _done(self) -> None:
        """End the current step (GD-4.2's order B, C, D, E, F)."""
        if self.phase == MAIN:
            self.phase = SHOOT
        elif self.phase == SHOOT:
            self.bury_dead()  # on_death effects may end the game
            if self.phase != OVER:
                self.phase = ATTACK
        elif self.phase == ATTACK:
            if self.attackers:
                self.phase = BLOCK
            else:
                self._end_turn()
        elif self.phase == BLOCK:
            self._resolve_blocks()

    # ----- legal actions ------------------------------------------------------------------

    def _compute_legal(self) -> list[int]:
        if self.phase == MAIN:
            return [DONE, *self._legal_plays(), *self._legal_moves()]
        if self.phase == SHOOT:
            return [DONE, *self._legal_shots()]
        if self.phase == ATTACK:
            return [DONE, *self._legal_attacks()]
        if self.phase == BLOCK:
            return [DONE, *self._legal_blocks()]
        return self._legal_strikes()

    def _legal_plays(self) -> list[int]:
        """Affordable cards with room on the table and a target if they need one; of two
        copies in hand only the first slot is offered (the plays are the same)."""
        player = self.active
        actions: list[int] = []
        seen: set[int] = set()
        free_slot = None in self.boards[player]
        for hand_slot, index in enumerate(self.hands[player]):
            if index in seen:
                continue
            seen.add(index)
            card = self.game.cards[index]
            gold, dust = self.cost_of(player, card)
            if gold > self.gold[player] or dust > self.dust[player]:
                continue
            if card.kind == UNIT and not free_slot:
                continue
            if card.persistent and len(self.artifacts[player]) >= ARTIFACT_SLOTS:
                continue
            if card.target == "none":
                actions.append(play_action(hand_slot, NO_TARGET))
            else:
                actions += [play_action(hand_slot, t) for t in self.play_targets(card.target)]
        return actions

    def play_targets(self, spec: str) -> list[int]:
        """PLAY target codes a card's ``target`` allows now (HERO_TARGET, 2 + slot)."""
        side = self.active if spec.startswith("ally") else 1 - self.active
        codes = [HERO_TARGET] if spec in ("enemy", "ally") else []
        row = {"front": FRONT, "back": BACK}.get(spec.rpartition("_")[2])
        for slot, unit in enumerate(self.boards[side]):
            if unit is not None and not unit.dead and (row is None or unit.row == row):
                codes.append(2 + slot)
        return codes

    def _legal_moves(self) -> list[int]:
        return [
            MOVE_BASE + slot
            for slot, unit in enumerate(self.boards[self.active])
            if unit is not None
            and unit.row == BACK
            and not (unit.dead or unit.moved or unit.card.immobile)
        ]

    def _legal_shots(self) -> list[int]:
        """GD-6.1: any enemy unit; GD-6.2: the Hero only under its conditions."""
        player = self.active
        enemies = [s for s, u in enumerate(self.boards[1 - player]) if u is not None and not u.dead]
        actions = []
        for slot, unit in enumerate(self.boards[player]):
            if unit is None or not unit.card.ranged or not unit.may_attack():
                continue
            if self.may_shoot_hero(player, unit):
                actions.append(shoot_action(slot, 0))
            actions += [shoot_action(slot, 1 + s) for s in enemies]
        return actions

    def _legal_attacks(self) -> list[int]:
        """GD-7.1: attackers come from the first row; ranged units attack by shooting."""
        return [
            ATTACK_BASE + slot
            for slot, unit in enumerate(self.boards[self.active])
            if unit is not None
            and unit.row == FRONT
            and not unit.card.ranged
            and slot not in self.attackers
            and unit.may_attack()
        ]

    def _legal_blocks(self) -> list[int]:
        """GD-7.1: each untapped first-row unit of the defender may block one attacker."""
        defender = 1 - self.active
        busy = set(self.blocks.values())
        blockers = [
            slot
            for slot, unit in enumerate(self.boards[defender])
            if unit is not None
            and unit.row == FRONT
            and not (unit.dead or unit.tapped)
            and slot not in busy
        ]
        return [
            block_action(attacker, blocker)
            for attacker in sorted(self.attackers)
            if attacker not in self.blocks
            for blocker in blockers
        ]

    def _legal_strikes(self) -> list[int]:
        """GD-7.4: the enemy Hero or any living unit of the enemy's second row."""
        actions = [STRIKE_BASE]
        for slot, unit in enumerate(self.boards[1 - self.active]):
            if unit is not None and not unit.dead and unit.row == BACK:
                actions.append(STRIKE_BASE + 1 + slot)
        return actions

    # ----- the steps of a turn ------------------------------------------------------------

    def begin_turn(self, player: int) -> None:
        """Turn limit (GD-9.1), untap (GD-4.2), regeneration except on the first turn
        (GD-2.2), start-of-turn abilities, then the draw (GD-4.1, GD-1.3, GD-9.1)."""
        if self.turn >= self.game.max_turns:
            self._finish(winner=DRAW)
            return
        self.turn += 1
        self.active = player
        self.phase = MAIN
        self._record("turn_started", player=player, turn=self.turn)
        first = self.turns_started[player] == 0
        self.turns_started[player] += 1
        hero = self.heroes[player]
        for unit in self.boards[player]:
            if unit is not None:
                unit.tapped = unit.moved = False
        if not first:
            self.gain(player, hero.gold_regen, hero.dust_regen, "regeneration")
        self._turn_start_abilities(player)
        draws = 1 + (hero.passive.first_turn_extra_draws if first else 0)
        for _ in range(draws):
            if self.phase == OVER:
                return
            self.draw(player)

    def _turn_start_abilities(self, player: int) -> None:
        for slot, unit in enumerate(self.boards[player]):
            if unit is not None and unit.card.on_turn_start:
                run_effects(self, player, unit.card.on_turn_start, slot)
        for index in list(self.artifacts[player]):
            run_effects(self, player, self.game.cards[index].on_turn_start)
        self.bury_dead()

    def _play(self, hand_slot: int, target_code: int) -> None:
        """GD-2.3: pay, then the card takes effect: a unit enters the second row (GD-5.2)
        unless it has vanguard; spells and one-shot artifacts go to the graveyard after use
        (GD-3.3); lasting artifacts stay on the table."""
        player = self.active
        index = self.hands[player].pop(hand_slot)
        card = self.game.cards[index]
        gold, dust = self.cost_of(player, card)
        self.gold[player] -= gold
        self.dust[player] -= dust
        self.counters["cards_played"] += 1
        target = self._target_of(card, target_code)
        self._record(
            "card_played", player=player, card=index, gold=gold, dust=dust,
            target=self._target_facts(target),
        )  # fmt: skip
        source = -1
        if card.kind == UNIT:
            source = self.boards[player].index(None)
            self.boards[player][source] = Unit(card, FRONT if card.vanguard else BACK)
        elif card.persistent:
            self.artifacts[player].append(index)
            self.refresh_auras(player)
        run_effects(self, player, card.on_play, source, target)
        if card.kind != UNIT and not card.persistent:
            self.graveyards[player].append(index)
        self.bury_dead()

    def _target_of(self, card: Card, code: int) -> tuple[int, int] | None:
        if code == NO_TARGET:
            return None
        side = self.active if card.target.startswith("ally") else 1 - self.active
        return (side, HERO if code == HERO_TARGET else code - 2)

    def _target_facts(self, target: tuple[int, int] | None) -> tuple[int, str] | None:
        """``(side, label)`` of a chosen target, ``label`` "Hero" for a Hero."""
        if target is None:
            return None
        side, slot = target
        return (side, "Hero" if slot == HERO else self.unit_label(side, slot))

    def _move(self, slot: int) -> None:
        """GD-5.2: moving up takes the unit's turn."""
        unit = self.boards[self.active][slot]
        unit.row = FRONT
        unit.moved = True
        self.record_row(self.active, slot)

    def record_row(self, side: int, slot: int) -> None:
        """Note that the unit in ``slot`` changed rows (a move, or an effect's)."""
        row = "first" if self.boards[side][slot].row == FRONT else "second"
        self._record("unit_moved", player=side, unit=self.unit_label(side, slot), row=row)

    def gain(self, player: int, gold: int, dust: int, source: str) -> None:
        """Resources come in (GD-2.2 regeneration, or a card); none are lost or capped."""
        self.gold[player] += gold
        self.dust[player] += dust
        if gold or dust:
            self._record("resources_gained", player=player, gold=gold, dust=dust, source=source)

    def _shoot(self, slot: int, target: int) -> None:
        """GD-6: base attack + die, armour absorbs; no return damage (GD-6.3)."""
        player = self.active
        unit = self.boards[player][slot]
        unit.tapped = True
        self._record(
            "unit_shot", player=player, unit=self.unit_label(player, slot),
            target=self._strike_target(target),
        )  # fmt: skip
        damage = self.attack_of(player, unit) + self.roll(unit.card.dice)
        if target == 0:
            self.hit_hero(1 - player, damage + self.heroes[player].passive.hero_damage_bonus)
        else:
            self.hit_unit(1 - player, target - 1, damage, unit.card.pierce)

    def _declare_attacker(self, slot: int) -> None:
        """GD-7.1; the attacker is tapped (GD-4.2 F) and cannot block until its owner's turn."""
        self.attackers.append(slot)
        self.boards[self.active][slot].tapped = True
        self._record("attack_declared", player=self.active, unit=self.unit_label(self.active, slot))

    def _block(self, attacker: int, blocker: int) -> None:
        """GD-7.1: the defender assigns one blocker to one attacker."""
        self.blocks[attacker] = blocker
        defender = 1 - self.active
        self._record(
            "block_declared", player=defender, unit=self.unit_label(defender, blocker),
            attacker=self.unit_label(self.active, attacker),
        )  # fmt: skip

    def _strike_target(self, target: int) -> tuple[int, str]:
        """Facts of a shot's or strike's target code (0 the enemy Hero, 1 + enemy slot)."""
        enemy = 1 - self.active
        return (enemy, "Hero" if target == 0 else self.unit_label(enemy, target - 1))

    def _resolve_blocks(self) -> None:
        """GD-7.2 for each blocked attacker, in declaration order; then the attacker picks
        targets for the unblocked ones (GD-7.4)."""
        player, defender = self.active, 1 - self.active
        for attacker_slot in self.attackers:
            blocker_slot = self.blocks.get(attacker_slot)
            if blocker_slot is None:
                continue
            attacker = self.boards[player][attacker_slot]
            blocker = self.boards[defender][blocker_slot]
            self._record(
                "fight", player=player, unit=self.unit_label(player, attacker_slot),
                blocker=self.unit_label(defender, blocker_slot),
            )  # fmt: skip
            taken = self.hit_unit(
                defender, blocker_slot, self.attack_of(player, attacker), attacker.card.pierce
            )
            if taken > 0 and (not blocker.dead or blocker.card.death_strike):
                self.hit_unit(
                    player, attacker_slot, self.roll(blocker.card.dice), blocker.card.pierce
                )
            if not blocker.card.tireless:
                blocker.resting = True
        self.strikes = [slot for slot in self.attackers if slot not in self.blocks]
        self.phase = STRIKE
        if not self.strikes:
            self._end_turn()

    def _strike(self, target: int) -> None:
        """GD-7.4: base attack + die minus armour; the Assassin adds to Hero hits (GD-2.4)."""
        player = self.active
        slot = self.strikes.pop(0)
        unit = self.boards[player][slot]
        self._record(
            "unit_struck", player=player, unit=self.unit_label(player, slot),
            target=self._strike_target(target),
        )  # fmt: skip
        damage = self.attack_of(player, unit) + self.roll(unit.card.dice)
        if target == 0:
            self.hit_hero(1 - player, damage + self.heroes[player].passive.hero_damage_bonus)
        else:
            self.hit_unit(1 - player, target - 1, damage, unit.card.pierce)
        if not self.strikes and self.phase != OVER:
            self._end_turn()

    def _end_turn(self) -> None:
        """GD-7.5 burial; units that rested this turn may attack again next turn."""
        self.bury_dead()
        if self.phase == OVER:
            return
        for unit in self.boards[self.active]:
            if unit is not None:
                unit.resting = unit.moved = False
        self.attackers = []
        self.blocks = {}
        self.strikes = []
        self.begin_turn(1 - self.active)

    def _finish(self, *, winner: int) -> None:
        """GD-9.2: +1 win, -1 loss, 0 each for a draw."""
        self.winner = winner
        self.phase = OVER
        if winner == DRAW:
            self._record("game_drawn", turns=self.turn)
        else:
            self._reward(winner, 1.0)
            self._reward(1 - winner, -1.0)
            self._record("game_won", player=winner, loser=1 - winner)

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        return describe_event(self.game.cards, kind, facts, observer)

    # ----- copies and determinization -----------------------------------------------------

    def clone(self) -> GoldDustState:
        return self._copy(copy_generator(self.rng))

    def _copy(self, rng: random.Random) -> GoldDustState:
        """A copy of every zone and counter that draws its dice from ``rng``."""
        other = GoldDustState.__new__(GoldDustState)
        other.game = self.game
        other.rng = rng
        other.heroes = self.heroes
        other.hp = self.hp[:]
        other.gold = self.gold[:]
        other.dust = self.dust[:]
        other.hands = [h[:] for h in self.hands]
        other.decks = [d[:] for d in self.decks]
        other.graveyards = [g[:] for g in self.graveyards]
        other.artifacts = [a[:] for a in self.artifacts]
        other.boards = [[u.copy() if u is not None else None for u in b] for b in self.boards]
        other.fatigue = self.fatigue[:]
        other.turns_started = self.turns_started[:]
        other.turn = self.turn
        other.active = self.active
        other.phase = self.phase
        other.attackers = self.attackers[:]
        other.blocks = dict(self.blocks)
        other.strikes = self.strikes[:]
        other.winner = self.winner
        other.auras = [a[:] for a in self.auras]
        other.card_totals = self.card_totals[:]
        other.counters = dict(self.counters)
        other._rewards = self._rewards[:]
        other._returns = self._returns[:]
        other._legal = self._legal[:]
        other._events = list(self._events)
        return other

    def resample_hidden(self, observer: int, rng: random.Random) -> GoldDustState:
        """Re-deal what ``observer`` cannot see (GD-9.3): the opponent's hand together with
        the opponent's deck (cards shuffled back by overflow included), and the order of the
        observer's own deck. The observer knows the player to move has a real choice (else
        the engine would have moved), so deals that contradict it are re-drawn. The new
        state draws its future dice from a fresh generator. Hidden cards are sorted before
        each shuffle, so that the deal depends on what the observer knows only: a search
        that resamples cannot base its decisions on the hidden order."""
        opponent = 1 - observer
        for _ in range(MAX_RESAMPLE_TRIES):
            other = self._copy(self.rng)  # shares the generator until it gets its own below
            unseen = sorted(other.hands[opponent] + other.decks[opponent])
            rng.shuffle(unseen)
            size = len(other.hands[opponent])
            other.hands[opponent] = unseen[:size]
            other.decks[opponent] = unseen[size:]
            other.decks[observer].sort()
            rng.shuffle(other.decks[observer])
            if self.phase == OVER:
                break
            legal = other._compute_legal()
            if len(legal) > 1:
                other._legal = legal
                break
        else:
            raise RuntimeError(f"gold_and_dust: no consistent deal in {MAX_RESAMPLE_TRIES} tries")
        other.rng = random.Random(rng.getrandbits(64))
        other._events = [_unseen_cards(record, opponent) for record in self._events]
        return other

    # ----- notation and rendering ---------------------------------------------------------

    def unit_labels(self, side: int) -> dict[int, str]:
        """Board slot -> the name notation uses; same-named units of a side are told apart
        by their order on the table: ``Pikeman#1``, ``Pikeman#2``."""
        return _labels(
            (slot, unit.card.name) for slot, unit in enumerate(self.boards[side]) if unit
        )

    def unit_label(self, side: int, slot: int) -> str:
        """``unit_labels(side)[slot]`` for one unit, cheaply: events name units as they are
        named on the table at that moment."""
        indices = [-1 if unit is None else unit.card.index for unit in self.boards[side]]
        index = indices[slot]
        name = self.game.cards[index].name
        if indices.count(index) == 1:
            return name
        return f"{name}#{indices[:slot].count(index) + 1}"

    def hand_labels(self, player: int) -> dict[int, str]:
        """Hand slot -> name; only the first copy is ever legal to play, so it keeps the
        plain name and later copies read ``Pikeman#2``."""
        names = self.game.cards
        named = ((slot, names[i].name) for slot, i in enumerate(self.hands[player]))
        return _labels(named, first_plain=True)

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        """``done``, ``play Pikeman``, ``play Firebolt>Hero``, ``move Pikeman up``,
        ``shoot Archer>Wall``, ``attack Pikeman``, ``block Pikeman with Wall``,
        ``strike Pikeman>Hero``; empty slots read ``slot N``.

        For an ``observer`` other than the player to move, the move in words:
        ``Player 1 plays Firebolt on player 0's Hero``. Every card is played face up
        (GD-9.3), so these words name only what the move shows everyone; the hand slot a
        card comes from is never said, and a play that is not legal names no card (its
        card stays hidden in the hand)."""
        if not 0 <= action < NUM_ACTIONS:
            raise IllegalActionError(
                f"gold_and_dust: action id {action!r} is not in 0..{NUM_ACTIONS - 1}"
            )
        mover = self.current_player
        if observer is None or observer == mover or mover == TERMINAL:
            return self._notation(action)
        return self._observed(action, mover)

    def _notation(self, action: int) -> str:
        own, foe = self.unit_labels(self.active), self.unit_labels(1 - self.active)
        if action == DONE:
            return "done"
        if action < MOVE_BASE:
            hand_slot, target = divmod(action - PLAY_BASE, PLAY_TARGETS)
            name, aimed = self._play_parts(hand_slot, target)
            return f"play {name}" + (f">{aimed[1]}" if aimed else "")
        if action < SHOOT_BASE:
            return f"move {_slot_name(own, action - MOVE_BASE)} up"
        if action < ATTACK_BASE:
            slot, target = divmod(action - SHOOT_BASE, SHOT_TARGETS)
            return f"shoot {_slot_name(own, slot)}>{_target_name(foe, target)}"
        if action < BLOCK_BASE:
            return f"attack {_slot_name(own, action - ATTACK_BASE)}"
        if action < STRIKE_BASE:
            attacker, blocker = divmod(action - BLOCK_BASE, BOARD_SLOTS)
            return f"block {_slot_name(own, attacker)} with {_slot_name(foe, blocker)}"
        striker = _slot_name(own, self.strikes[0]) if self.strikes else "nobody"
        return f"strike {striker}>{_target_name(foe, action - STRIKE_BASE)}"

    def _observed(self, action: int, mover: int) -> str:
        """The move in words for the player who does not make it (``action_to_string``)."""
        active, enemy = self.active, 1 - self.active
        own, foe = self.unit_labels(active), self.unit_labels(enemy)
        who = f"Player {mover}"
        if action == DONE:
            return f"{who} ends the {PHASE_NAMES[self.phase]} step"
        if action < MOVE_BASE:
            if action not in self._legal:
                return f"{who} plays a card from their hand"
            name, aimed = self._play_parts(*divmod(action - PLAY_BASE, PLAY_TARGETS))
            return f"{who} plays {name}" + (f" on player {aimed[0]}'s {aimed[1]}" if aimed else "")
        if action < SHOOT_BASE:
            return f"{who} moves {_slot_name(own, action - MOVE_BASE)} up to the first row"
        if action < ATTACK_BASE:
            slot, target = divmod(action - SHOOT_BASE, SHOT_TARGETS)
            shot = f"player {enemy}'s {_target_name(foe, target)}"
            return f"{who}'s {_slot_name(own, slot)} shoots {shot}"
        if action < BLOCK_BASE:
            return f"{who} attacks with {_slot_name(own, action - ATTACK_BASE)}"
        if action < STRIKE_BASE:
            attacker, blocker = divmod(action - BLOCK_BASE, BOARD_SLOTS)
            blocked = f"player {active}'s {_slot_name(own, attacker)}"
            return f"{who} blocks {blocked} with {_slot_name(foe, blocker)}"
        striker = _slot_name(own, self.strikes[0]) if self.strikes else "nobody"
        hit = f"player {enemy}'s {_target_name(foe, action - STRIKE_BASE)}"
        return f"{who}'s {striker} strikes {hit}"

    def _play_parts(self, hand_slot: int, target: int) -> tuple[str, tuple[int, str] | None]:
        """A play's card label and its target as ``(side, "Hero" or unit label)``."""
        hand = self.hands[self.active]
        if hand_slot >= len(hand):
            name, spec = f"hand slot {hand_slot + 1}", "enemy"
        else:
            name = self.hand_labels(self.active)[hand_slot]
            spec = self.game.cards[hand[hand_slot]].target
        if target == NO_TARGET:
            return name, None
        side = self.active if spec.startswith("ally") else 1 - self.active
        labels = self.unit_labels(side)
        return name, (side, "Hero" if target == HERO_TARGET else _slot_name(labels, target - 2))

    def string_to_action(self, text: str) -> int:
        """The action whose ``action_to_string`` is ``text`` (case and spacing free); legal
        actions are matched first."""
        wanted = " ".join(text.replace(">", " > ").split()).lower()
        for candidates in (self._legal, range(NUM_ACTIONS)):
            for action in candidates:
                shown = self.action_to_string(action).replace(">", " > ")
                if " ".join(shown.split()).lower() == wanted:
                    return action
        raise IllegalActionError(
            f"gold_and_dust: cannot read action {text!r}; legal now: "
            + ", ".join(self.action_to_string(a) for a in self._legal)
        )

    def render(self, observer: int | None = None) -> str:
        """Both sides, the step and the dice the last move rolled; ``observer`` sees the
        opponent's hand size only. Deck order is never shown (GD-9.3). Hand cards show
        their cost, what they are and their text; ``x`` marks those the player cannot
        afford now. ``GoldDustGame.help_text`` explains every abbreviation."""
        lines = [self._status_line()]
        for player in (0, 1):
            lines += self._side_lines(player, show_hand=observer in (None, player))
        if self.attackers and self.phase != OVER:  # a finished game's last attack is history
            lines.append("Attack: " + self._attack_text())
        lines += self._last_move_lines(observer)
        return "\n".join(lines)

    def _last_move_lines(self, observer: int | None) -> list[str]:
        """What the last move chose (``done`` leaves no line) and the dice it rolled: all
        of it public, and shown so that the picture holds every fact the events state
        (a heal at full health or a hit that armour absorbs changes nothing else)."""
        lines = []
        if self._events and self._events[0][0] in DECISIONS:
            kind, facts = self._events[0]
            lines.append("Last move: " + self._describe_event(kind, facts, observer).text)
        rolls = [facts for kind, facts in self._events if kind == "dice_rolled"]
        if rolls:  # the dice lie on the table until the next move (GD-3.4)
            lines.append("Dice: " + "; ".join(_roll_text(facts) for facts in rolls))
        return lines

    def _status_line(self) -> str:
        if self.phase == OVER:
            result = "draw (turn limit)" if self.winner == DRAW else f"player {self.winner} won"
            return f"Game over after {self.turn} turns: {result}"
        return (
            f"Turn {self.turn}, player {self.active}'s turn; {PHASE_NAMES[self.phase]} step, "
            f"player {self.current_player} decides"
        )

    def _side_lines(self, player: int, *, show_hand: bool) -> list[str]:
        cards = self.game.cards
        grave = ", ".join(cards[i].name for i in self.graveyards[player]) or "-"
        labels = self.unit_labels(player)
        rows = []
        for row, word in ((FRONT, "first row"), (BACK, "second row")):
            units = [
                self._unit_text(player, slot, labels[slot])
                for slot, unit in enumerate(self.boards[player])
                if unit is not None and unit.row == row
            ]
            rows.append(f"  {word}: {'; '.join(units) or '-'}")
        artifacts = ", ".join(cards[i].name for i in self.artifacts[player]) or "-"
        hero = self.heroes[player]
        return [
            f"Player {player} ({hero.name}): HP {self.hp[player]}/{hero.hp}, "
            f"gold {self.gold[player]}, dust {self.dust[player]}, deck {len(self.decks[player])}, "
            f"next fatigue {self.fatigue[player]}",
            f"  passive: {hero.passive.text}",
            *self._hand_lines(player, show_hand),
            *rows,
            f"  artifacts: {artifacts}",
            f"  graveyard: {grave}",
        ]

    def _hand_lines(self, player: int, shown: bool) -> list[str]:
        """The hand, a card a line, or only its size for an opponent."""
        hand = self.hands[player]
        if not shown or not hand:
            return [f"  hand: {len(hand)} cards" if hand else "  hand: -"]
        return [f"  hand ({len(hand)} cards):"] + [
            self._hand_card_text(player, self.game.cards[index]) for index in hand
        ]

    def _hand_card_text(self, player: int, card: Card) -> str:
        """``    - Pikeman (2 gold): melee unit 1+k3 arm 0 HP 5. <text>``; ``x`` instead of
        ``-`` and "cannot afford" when the cost exceeds the player's gold or dust."""
        gold, dust = self.cost_of(player, card)
        cost = _amounts(gold, dust)
        discount = (card.gold - gold) + (card.dust - dust)
        notes = [cost] + ([f"{discount} off"] if discount else [])
        affordable = gold <= self.gold[player] and dust <= self.dust[player]
        if not affordable:
            notes.append("cannot afford")
        if card.is_unit:
            what = f"{card.role} unit {_attack_text(card.attack, card)} arm {card.armour} "
            what += f"HP {card.hp}" + "".join(f", {trait}" for trait in _traits(card))
        else:
            what = "lasting artifact" if card.persistent else card.kind
        marker = "-" if affordable else "x"
        return f"    {marker} {card.name} ({', '.join(notes)}): {what}. {card.text}"

    def _unit_text(self, player: int, slot: int, label: str) -> str:
        unit = self.boards[player][slot]
        card = unit.card
        flags = _traits(card) + [
            word
            for word, on in (
                ("tapped", unit.tapped), ("resting", unit.resting), ("moved", unit.moved),
                ("dead", unit.dead),
            )
            if on
        ]  # fmt: skip
        return (
            f"{label} {_attack_text(self.attack_of(player, unit), card)} "
            f"arm {self.armour_of(player, unit)} HP {unit.hp}/{unit.max_hp}"
            + (f" ({', '.join(flags)})" if flags else "")
        )

    def _attack_text(self) -> str:
        own, foe = self.unit_labels(self.active), self.unit_labels(1 - self.active)
        parts = []
        for slot in self.attackers:
            blocker = self.blocks.get(slot)
            text = _slot_name(own, slot)
            parts.append(
                text + (f" blocked by {_slot_name(foe, blocker)}" if blocker is not None else "")
            )
        return ", ".join(parts)


def _unseen_cards(record: EventRecord, opponent: int) -> EventRecord:
    """A record for a determinization: the cards ``opponent`` drew or shuffled back are
    unknown there (``None``), as the re-deal put other cards in that hand."""
    kind, facts = record
    if kind not in HAND_EVENTS or facts["player"] != opponent:
        return record
    if kind == "cards_drawn":
        return kind, {**facts, "cards": [None] * len(facts["cards"])}
    return kind, {**facts, "card": None}


def _attack_text(attack: int, card: Card) -> str:
    """``2+k6``: base attack plus the card's die; ``2`` for a unit without a die."""
    return f"{attack}+{card.die_text()}" if card.dice[0] else str(attack)


def _traits(card: Card) -> list[str]:
    """What a unit card can do beyond the rules: ranged, pierce, its keywords."""
    traits = ["ranged"] if card.ranged else []
    traits += [f"pierce {card.pierce}"] if card.pierce else []
    return traits + [word for word in KEYWORDS if getattr(card, word)]


def _amounts(gold: int, dust: int) -> str:
    """A cost: ``2 gold``, ``3 dust``, ``2 gold 1 dust``, ``free``."""
    parts = [f"{gold} gold" if gold else "", f"{dust} dust" if dust else ""]
    return " ".join(part for part in parts if part) or "free"


def _roll_text(facts: Mapping[str, Any]) -> str:
    """A ``dice_rolled`` record as the picture shows it: ``k6 4``, ``2k6 3+5=8``."""
    dice = dice_text(facts["count"], facts["sides"])
    return f"{dice} {roll_text(facts['sides'], facts['faces'], facts['total'])}"


def _labels(named: Iterable[tuple[int, str]], *, first_plain: bool = False) -> dict[int, str]:
    """Names numbered ``#1``, ``#2`` … in slot order where a name occurs more than once;
    with ``first_plain`` the first keeps its plain name."""
    named = list(named)
    totals: dict[str, int] = {}
    for _, name in named:
        totals[name] = totals.get(name, 0) + 1
    seen: dict[str, int] = {}
    labels = {}
    for slot, name in named:
        seen[name] = seen.get(name, 0) + 1
        plain = totals[name] == 1 or (first_plain and seen[name] == 1)
        labels[slot] = name if plain else f"{name}#{seen[name]}"
    return labels


def _slot_name(labels: dict[int, str], slot: int) -> str:
    return labels.get(slot, f"slot {slot + 1}")


def _target_name(labels: dict[int, str], target: int) -> str:
    """Shot and strike targets: 0 the Hero, 1 + unit slot."""
    return "Hero" if target == 0 else _slot_name(labels, target - 1)

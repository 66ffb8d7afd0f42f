"""Kult's rules engine (docs/rules/kult.md, KU-1 … KU-11): the match (``KultGame``) and
the position (``KultState``); pure Python on the card-game kit.

A turn is the seven phases of KU-7 (``turns``); each decision is a masked choice of one
fixed action space (``actions``), and a decision with a single option is taken by the
engine. The cards are instances on a kit ``Table`` (``zones.ZONES``); effects are the kit
vocabulary's primitives (``effects``); the determinization is the kit's ``redeal``. The
rules live in role modules of functions taking the state: ``crosses`` (keys, limits,
combat values, token moves), ``plays`` (cards and abilities), ``combat`` (the attack),
``turns`` (phases, the turn's start and end), ``notation``, ``narration``, ``rendering``.

Reading a position (what encoders and heuristics use; all public unless said):

- ``arcana[seat]``: each seat's ``cards.Arcanum``; ``hub_tokens[seat]``; ``pool_tokens``;
- ``crosses[seat][station]``: a ``zones.Base`` (``card``, ``face_up``, ``tokens``) or
  ``None``, stations 0-7 being stations 1-8 (Scene 0-3, Cast 4-7);
- ``influences[seat]``: ``zones.Attachment`` (``card``, ``station``) on that cross;
  ``pool_influences``: those on the Pool;
- ``hands[seat]``, ``decks[seat]`` (top last), ``discards[seat]``, ``hub_cards[seat]``:
  lists of instance ids, ``table.cards[iid]`` their ``cards.Card`` (hands are their
  owner's, decks and Hub cards nobody's: read only sizes of what you may not see);
- ``temp_keys[seat]``: temporary keys per colour this turn; ``keys(seat)`` all keys;
- ``phase`` (``turns.ATTRACT`` …), ``active``, ``player`` (who decides), ``window`` (a
  Commands window, the kit's ``PriorityRound``: ``seats``, ``responder``), ``fight``
  (``combat.Fight``), ``pending_push``, ``pending`` (the kit's decisions owed outside the
  phases: ``crosses.StepOut``), ``pending_token`` (``(seat, station)`` of a Scene card
  leaving play whose token's Cast card its controller chooses, KU-8.1, read from
  ``pending``), ``recruited``, ``invoked``, ``attacked``, ``embargo``;
  ``last_fight``: the last decided fight (public, with its ``values`` and ``result``);
- figures: ``holding_limit(seat, station)``, ``can_take``, ``combat_value``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from tabletop.envs.core.cards.copies import bare_copy, copy_last_move, redealt_copy
from tabletop.envs.core.cards.hidden import redeal
from tabletop.envs.core.cards.pending import PendingDecisions, PendingPhasedState
from tabletop.envs.core.cards.phases import DRAW
from tabletop.envs.core.cards.zones import Table
from tabletop.envs.core.engine import EngineState, action_text, copy_generator
from tabletop.envs.core.protocol import Event, check_options
from tabletop.envs.kult import crosses, notation, public, rendering, turns
from tabletop.envs.kult import view as view_module
from tabletop.envs.kult.actions import (
    DISCARD_BASE,
    DONE,
    MAX_HAND,
    MAX_PLAYERS,
    NUM_ACTIONS,
    PLAY_BASE,
    TURN_BASE,
)
from tabletop.envs.kult.cards import (
    HAND_SIZE,
    PACKAGED_DECKS,
    Arcanum,
    Card,
    Deck,
    Pool,
    load_deck,
    load_pool,
)
from tabletop.envs.kult.combat import Fight
from tabletop.envs.kult.effects import COLOURS
from tabletop.envs.kult.narration import HAND_EVENTS, HELP, describe_event
from tabletop.envs.kult.turns import OVER, PHASE_NAMES, Window
from tabletop.envs.kult.zones import (
    ATTACKING,
    DEFENDING,
    INVOKED,
    RECRUITED,
    ZONES,
    Attachment,
    Base,
)

GAME_TYPES = {"continent": 5, "world": 10}
"""KU-2.4: tokens per player in the game (less one) and the Hub target to win."""
DEFAULT_PLY_LIMIT = 400
"""KU-9.1's safety net: decisions (``apply`` calls) before the game is a draw."""
STALL_ROUNDS = 2
"""KU-9.3: rounds of turns (every seat one turn) without a decision that end the game as a
draw. After the first such round every hand is as full as it will get and every card face
up, so each later round repeats the second: if that one has no decision, none ever will."""
_NO_MARKS: dict[tuple[int, int], int] = {}
"""No station marked (never modified)."""
SHAPING_SCALE = 0.5
"""With ``shaped_reward``, what a whole Hub target of progress is worth, beside the ±1 of a
win: small enough that winning still dominates, large enough to be felt before the first win."""
STATION_PROGRESS = (0.5,) * 4 + (0.25,) * 4
"""With ``shaped_reward``, a token's progress on each station (Scene 0-3, Cast 4-7) as a
share of a token in the Hub: a Scene token is one attraction from the Hub, a Cast token two."""


class Move(NamedTuple):
    """A move of the last ``apply`` (the decision and the forced moves after it), as the
    picture shows it: who, the action id, the hand card it played (pool index, or None)
    and whether it was made in a Commands window."""

    seat: int
    action: int
    card: int | None
    window: bool


_new_move = functools.partial(tuple.__new__, Move)
"""``Move`` from a tuple of its fields without running its Python ``__new__``: every
action makes one."""


class KultGame:
    """A configured match: players, game type, the pool and a deck per seat (seat order),
    the same-Arcanum swap of KU-2.1 and the ply limit."""

    name = "kult"
    num_actions = NUM_ACTIONS

    def __init__(
        self,
        num_players: int = 2,
        game_type: str = "continent",
        same_arcanum_swap: bool = True,
        ply_limit: int = DEFAULT_PLY_LIMIT,
        pool: str | Path | Pool | None = None,
        decks: Sequence[str | Path | Deck] | None = None,
        shaped_reward: bool = False,
    ) -> None:
        if isinstance(num_players, bool) or num_players not in range(2, MAX_PLAYERS + 1):
            raise ValueError(f"kult: num_players must be 2, 3 or 4, got {num_players!r}")
        if game_type not in GAME_TYPES:
            raise ValueError(
                f"kult: game_type must be one of {sorted(GAME_TYPES)}, got {game_type!r}"
            )
        if not isinstance(same_arcanum_swap, bool):
            raise ValueError(f"kult: same_arcanum_swap must be a bool, got {same_arcanum_swap!r}")
        if isinstance(ply_limit, bool) or not isinstance(ply_limit, int) or ply_limit < 1:
            raise ValueError(f"kult: ply_limit must be a positive int, got {ply_limit!r}")
        if not isinstance(shaped_reward, bool):
            raise ValueError(f"kult: shaped_reward must be a bool, got {shaped_reward!r}")
        if not isinstance(pool, str | Path | Pool | None):
            raise ValueError(f"kult: pool must be a path to a pool file, got {pool!r}")
        self.num_players = num_players
        self.game_type = game_type
        self.target = GAME_TYPES[game_type]
        self.tokens = self.target * num_players - 1  # KU-2.4
        self.same_arcanum_swap = same_arcanum_swap
        self.ply_limit = ply_limit
        self.shaped_reward = shaped_reward
        self.pool = pool if isinstance(pool, Pool) else load_pool(pool)
        self.decks = self._decks(PACKAGED_DECKS[:num_players] if decks is None else decks)
        self.cards = self.pool.cards

    def _decks(self, specs: Sequence[str | Path | Deck]) -> tuple[Deck, ...]:
        if isinstance(specs, str | Path) or not isinstance(specs, Sequence):
            raise ValueError(f"kult: decks must be a sequence of deck specs, got {specs!r}")
        if len(specs) != self.num_players:
            raise ValueError(
                f"kult: decks must name one deck per player ({self.num_players}), got {len(specs)}"
            )
        return tuple(d if isinstance(d, Deck) else load_deck(d, self.pool) for d in specs)

    def help_text(self) -> str:
        return HELP

    def card_descriptions(self) -> dict[str, str]:
        """Each pool card's and Arcanum's name -> its cost, figures and text (for the
        terminal)."""
        return rendering.card_descriptions(self.cards, self.pool.arcana)

    def public_fact_variants(self, state: KultState) -> Iterator[tuple[str, KultState]]:
        """The protocol's optional hook: ``state`` changed in one public fact (``public``)."""
        return public.variants(state)

    def player_name(self, seat: int) -> str:
        """The seat's Arcanum (public from the start, KU-2.1)."""
        if seat not in range(self.num_players):
            raise ValueError(f"kult: seat must be 0..{self.num_players - 1}, got {seat!r}")
        return self.decks[seat].arcanum.name

    def __repr__(self) -> str:
        decks = tuple(f"{d.name} ({d.arcanum.name})" for d in self.decks)
        return (
            f"KultGame(num_players={self.num_players}, game_type={self.game_type!r}, "
            f"same_arcanum_swap={self.same_arcanum_swap}, ply_limit={self.ply_limit}, "
            f"pool={self.pool.data_version!r}, decks={decks}, "
            f"shaped_reward={self.shaped_reward})"
        )

    def deck_cards(self) -> list[list[int]]:
        """Each seat's deck as card indices, after KU-2.1's swap: seats that chose the same
        Arcanum pass their decks round (two swap) when ``same_arcanum_swap`` is on."""
        cards = [list(deck.cards) for deck in self.decks]
        if not self.same_arcanum_swap:
            return cards
        by_arcanum: dict[str, list[int]] = {}
        for seat, deck in enumerate(self.decks):
            by_arcanum.setdefault(deck.arcanum.name, []).append(seat)
        swapped = cards[:]
        for seats in by_arcanum.values():
            for seat, giver in zip(seats, seats[1:] + seats[:1], strict=True):
                swapped[seat] = cards[giver]
        return swapped

    def new_state(self, seed: int | None = None) -> KultState:
        """KU-2: shuffled decks, a Hub card each (out of play), 2 tokens from the Pool in
        each Hub, 7 cards each (KU-2.6, whatever the Arcanum's hand size: that one is the
        draw phase's, KU-7.1); the lowest Hierarchy starts, a tie drawn by the seed."""
        rng = random.Random(seed)
        state = KultState(self, rng, [d.arcanum for d in self.decks])
        for seat, cards in enumerate(self.deck_cards()):
            state.table.create_many([self.cards[i] for i in cards], seat, "deck")
            state.table.shuffle(("deck", seat), rng)
            state.table.take(("deck", seat), -1, ("hub_card", seat))  # KU-2.3
        for seat in range(self.num_players):
            state.hub_tokens[seat] = 2  # KU-2.5
            state.draw(seat, HAND_SIZE)  # KU-2.6: 7 cards each (a smaller hand is KU-7.1's)
        state.pool_tokens = self.tokens - 2 * self.num_players
        lowest = min(a.hierarchy for a in state.arcana)
        state.begin_turn(
            rng.choice([s for s, a in enumerate(state.arcana) if a.hierarchy == lowest])
        )
        state.settle()
        state._events = []  # the deal is not an apply: nothing to narrate yet
        return state

    def stacked_state(
        self, setups: Sequence[Mapping[str, Any]], *, active: int = 0, phase: str = "actions",
        pool_influences: Sequence[str] = (), seed: int = 0, settle: bool = True,
    ) -> KultState:  # fmt: skip
        """A position for tests and puzzles, cards named as in the pool; the Pool holds
        the tokens the setups leave (an error if they place more than the game has).

        ``setups[seat]`` may give ``hand``, ``deck`` (top first), ``discard``,
        ``hub_card``, ``hub`` (tokens), ``hub_influences``, ``temp_keys`` (colour names),
        ``cross`` (station number 1-8 -> a card name or ``{"card": name, "tokens": n,
        "face_up": bool, "influences": [names]}``) and ``stations`` (station number ->
        Influence names attached to the station). The position opens in ``active``'s
        ``phase`` (a name of ``turns.PHASE_NAMES``: attract, recruit, actions, attack,
        discard) with nothing done yet this turn; ``settle`` takes forced moves.
        """
        if len(setups) != self.num_players:
            raise ValueError(f"kult: stacked_state needs {self.num_players} setups")
        state = KultState(self, random.Random(seed), [d.arcanum for d in self.decks])
        for seat, setup in enumerate(setups):
            _place_stacked(state, seat, setup, self._card)
        for name in pool_influences:
            card = self._card(name)
            iid = state.table.create(card, 0, "pool_influences")
            state.table.put(Attachment(iid, card, -1), ("pool_influences", 0))
        state.pool_tokens = self.tokens - state.tokens_placed()
        if state.pool_tokens < 0:
            raise ValueError(f"kult: the setups place more than the game's {self.tokens} tokens")
        state.active = active
        state.turn = 1
        state.phase = PHASE_NAMES.index(phase)
        if settle:
            state.settle()
        state._events = []
        return state

    def _card(self, name: str) -> Card:
        card = self.pool.card_named(name)
        if card is None:
            raise ValueError(f"kult: no card {name!r} in {self.pool.name!r}")
        return card


def _place_stacked(state: KultState, seat: int, setup: Mapping[str, Any], card_named: Any) -> None:
    known = {"hand", "deck", "discard", "hub_card", "hub", "hub_influences", "temp_keys", "cross",
             "stations"}  # fmt: skip
    check_options(f"kult stacked setup {seat}", dict(setup), known)
    table = state.table
    hub_card = [setup["hub_card"]] if "hub_card" in setup else []
    zones = {"hand": setup.get("hand", ()), "deck": list(setup.get("deck", ()))[::-1],
             "discard": setup.get("discard", ()), "hub_card": hub_card}  # fmt: skip
    for zone, names in zones.items():
        for name in names:
            table.create(card_named(name), seat, zone)
    if len(state.hands[seat]) > MAX_HAND:
        raise ValueError(f"kult: a hand holds at most {MAX_HAND} cards")
    state.hub_tokens[seat] = setup.get("hub", 0)
    for colour in setup.get("temp_keys", ()):
        state.temp_keys[seat][COLOURS.index(colour)] += 1
    for number, entry in setup.get("cross", {}).items():
        entry = {"card": entry} if isinstance(entry, str) else dict(entry)
        card = card_named(entry["card"])
        if not card.is_base:
            raise ValueError(f"kult: {card.name} is not a base card")
        iid = table.create(card, seat, "cross")
        base = Base(iid, card, entry.get("face_up", True), entry.get("tokens", 0))
        table.put(base, ("cross", seat), int(number) - 1)
        for name in entry.get("influences", ()):
            _attach_stacked(state, seat, card_named(name), int(number) - 1)
    for number, names in setup.get("stations", {}).items():
        for name in names:
            _attach_stacked(state, seat, card_named(name), int(number) - 1)
    for name in setup.get("hub_influences", ()):
        _attach_stacked(state, seat, card_named(name), -1)


def _attach_stacked(state: KultState, seat: int, card: Card, station: int) -> None:
    iid = state.table.create(card, seat, "influences")
    state.table.put(Attachment(iid, card, station), ("influences", seat))


class KultState(PendingPhasedState):
    """One Kult position: the cards on a kit ``Table``, tokens, keys, the phase and the
    business in progress (a Commands window, a fight, an owed push). See the module
    docstring for the fields an encoder or a heuristic reads."""

    __slots__ = (
        "game", "rng", "table", "arcana", "hub_tokens", "pool_tokens", "temp_keys", "crosses",
        "influences", "pool_influences", "hands", "decks", "discards", "hub_cards", "turn",
        "plies", "active", "phase", "window", "fight", "last_fight", "pending_push",
        "pending", "recruited", "invoked", "attacked", "embargo", "moves", "last_plays", "winner",
        "decided_turn", "counters", "encodings", "_rewards", "_returns", "_legal",
    )  # fmt: skip

    PHASES = turns.PHASES

    def __init__(self, game: KultGame, rng: random.Random, arcana: list[Arcanum]) -> None:
        players = game.num_players
        self.game = game
        self.rng = rng
        self.table = Table(players, ZONES)
        self._bind_zones()
        self.arcana = arcana
        for seat, arcanum in enumerate(arcana):
            self.table.create(arcanum, seat, "arcanum")
        self.hub_tokens = [0] * players
        self.pool_tokens = 0
        self.temp_keys = [[0] * len(COLOURS) for _ in range(players)]
        self.turn = 0
        self.plies = 0
        self.active = 0
        self.phase = turns.ATTRACT
        self.window: Window | None = None
        self.fight: Fight | None = None
        self.last_fight: Fight | None = None
        self.attacked = False
        self.pending_push: int | None = None
        self.pending = PendingDecisions()
        self.recruited: set[int] = set()
        self.invoked: set[int] = set()
        self.embargo = False
        self.winner: int | None = None
        self.decided_turn = 0
        """The turn of the last decision (``apply``), for KU-9.3."""
        self.moves: list[Move] = []
        self.last_plays: list[Move | None] = [None] * players
        """Each seat's last move but ``done``/``pass`` since the deal, for the view."""
        self.counters = {"cards_played": 0, "pushes": 0, "attacks": 0, "cards_drawn": 0}
        self.encodings: dict[tuple[str, int], Any] = {}
        """The encoders' working copies of this position's views (never copied)."""
        self._rewards = [0.0] * players
        self._returns = [0.0] * players
        self._legal: list[int] = []
        self._events = []

    def _bind_zones(self) -> None:
        """The zone lists by seat, as attributes: the rules read them on every step."""
        zones = self.table.zones
        self.crosses: list[list[Base | None]] = zones["cross"]
        self.influences: list[list[Attachment]] = zones["influences"]
        self.pool_influences: list[Attachment] = zones["pool_influences"][0]
        self.hands: list[list[int]] = zones["hand"]
        self.decks: list[list[int]] = zones["deck"]
        self.discards: list[list[int]] = zones["discard"]
        self.hub_cards: list[list[int]] = zones["hub_card"]

    # ----- the protocol ---------------------------------------------------------------------

    player = PendingPhasedState.current_player
    """Who decides now: the controller of a card whose token steps out (KU-8.1), a
    window's responder, else the active player."""

    @property
    def pending_token(self) -> tuple[int, int] | None:
        """``(seat, station)`` of the Scene card whose token's Cast card ``seat`` chooses
        now (KU-8.1), or ``None``."""
        due = self.pending.due
        return None if due is None else (due.seat, due.station)

    def apply(self, action: int) -> None:
        """One decision; a ply of KU-9.1's limit."""
        if action not in self._legal:
            raise self._illegal(action)
        self.plies += 1
        self.decided_turn = self.turn
        self.moves = []
        self._rewards = [0.0] * len(self._returns)
        self._events = []
        before = self.progress() if self.game.shaped_reward else None
        self._do(action)
        EngineState.settle(self)
        if before is not None:
            self._shape(before)

    def progress(self) -> list[float]:
        """Each seat's tokens on the way to its Hub, in Hub tokens (``STATION_PROGRESS``)
        over the Hub target: the potential of ``shaped_reward``; 1.0 or more is a win."""
        target = self.game.target
        return [
            (hub + sum(share * base.tokens
                       for share, base in zip(STATION_PROGRESS, cross, strict=True)
                       if base is not None))
            / target
            for hub, cross in zip(self.hub_tokens, self.crosses, strict=True)
        ]  # fmt: skip

    def _shape(self, before: list[float]) -> None:
        """Potential-based shaping (Ng et al., 1999), zero-sum between seats: each seat
        gains its own progress of this apply less the mean of the others', scaled by
        ``SHAPING_SCALE``; over a game it adds only the final difference in progress."""
        gains = [now - then for now, then in zip(self.progress(), before, strict=True)]
        others = len(gains) - 1
        total = sum(gains)
        for seat, gain in enumerate(gains):
            self._reward(seat, SHAPING_SCALE * (gain - (total - gain) / others))

    def _do(self, action: int) -> None:
        """Play the action, then check the win (KU-9.1: after every action) and the limit.
        The move is kept in ``moves`` (public: every move is, KU-11.1)."""
        seat = self.player
        card = (
            notation.slot_card(self, seat, action)
            if PLAY_BASE <= action < TURN_BASE or action >= DISCARD_BASE
            else None
        )  # only these actions name a hand card
        move = _new_move((seat, action, card, self.window is not None))
        self.moves.append(move)
        if action != DONE and self.plies:  # the deal's forced moves are nobody's moves
            self.last_plays[seat] = move
        PendingPhasedState._do(self, action)  # (no super(): the cost of a lookup per move)
        if self.phase == OVER:
            return
        target = self.game.target
        tokens = self.hub_tokens
        best = max(tokens)
        if best >= target:
            self._finish(tokens.index(best))  # the first seat of the most, as before
        elif self.plies >= self.game.ply_limit:
            self._finish(DRAW)

    def _finish(self, winner: int) -> None:
        """KU-9.2: +1 to the winner and -1 to every other player; 0 to all on a draw (the
        kit's ``end_game``)."""
        self.end_game(winner)
        self.window = self.fight = self.pending_push = None
        self._record(
            "game_over", winner=None if winner == DRAW else winner, plies=self.plies,
            tokens=None if winner == DRAW else self.hub_tokens[winner], stalled=self.stalled(),
        )  # fmt: skip

    def stalled(self) -> bool:
        """KU-9.3: ``STALL_ROUNDS`` rounds of turns have passed without a decision, so
        nobody will ever have one again."""
        return self.turn - self.decided_turn >= STALL_ROUNDS * self.game.num_players

    def end_if_stalled(self) -> bool:
        """At a turn's end, end the game as a draw if it has stalled (KU-9.3); whether it did."""
        if self.stalled():
            self._finish(DRAW)
        return self.phase == OVER

    def stats(self) -> dict[str, float]:
        figures = {key: float(value) for key, value in self.counters.items()}
        figures["turns"] = float(self.turn)
        figures["plies"] = float(self.plies)
        figures["draw"] = float(self.winner == DRAW)
        figures["pool_tokens"] = float(self.pool_tokens)
        for seat, tokens in enumerate(self.hub_tokens):
            figures[f"hub_tokens_p{seat}"] = float(tokens)
        return figures

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        return describe_event(self.game.cards, kind, facts, observer)

    action_to_string = notation.action_to_string
    render = rendering.render
    view = view_module.view

    def string_to_action(self, text: str) -> int:
        return notation.string_to_action(self, action_text("kult", text))

    # ----- what the encoders' caches are keyed by --------------------------------------------
    #
    # What a station's row in a view shows is read from the kit's stamp of the station
    # (``Table.slot_stamps``, renewed with each change of its card, the card's marks and the
    # Influences on it, on its station, its Hub or the Pool: zones.ZONES) and the marks of
    # the turn on it, read from the position as it is: no rule says what it changed.

    def station_marks(self) -> dict[tuple[int, int], int]:
        """(seat, station) -> the marks of the turn its row shows, as bits: ``RECRUITED``
        and ``INVOKED`` (the active seat's stations recruited onto, whose push ability was
        used), ``ATTACKING`` and ``DEFENDING`` (the fight's Beings); empty when none."""
        fight, recruited, invoked = self.fight, self.recruited, self.invoked
        if fight is None and not recruited and not invoked:
            return _NO_MARKS
        active = self.active
        marks = dict.fromkeys([(active, station) for station in recruited], RECRUITED)
        for station in invoked:
            marks[active, station] = marks.get((active, station), 0) | INVOKED
        if fight is not None:
            marks[fight.attacker] = marks.get(fight.attacker, 0) | ATTACKING
            marks[fight.defender] = marks.get(fight.defender, 0) | DEFENDING
        return marks

    @property
    def station_stamps(self) -> list[list[Any]]:
        """Per seat and station, what its row shows is read from, as a key never another
        position's: the kit's stamp of the station, with its marks of the turn if any."""
        stamps, marks = self.table.slot_stamps["cross"], self.station_marks()
        return [
            [(stamp, marks[seat, station]) if (seat, station) in marks else stamp
             for station, stamp in enumerate(stations)]
            for seat, stations in enumerate(stamps)
        ]  # fmt: skip

    @property
    def seat_stamps(self) -> list[Any]:
        """Per seat, as ``station_stamps`` for its whole cross (and its Hub Influences)."""
        stamps, marks = self.table.stamps["cross"], self.station_marks()
        return [
            (stamp, tuple(sorted((s, bits) for (at, s), bits in marks.items() if at == seat)))
            if any(at == seat for at, _ in marks) else stamp
            for seat, stamp in enumerate(stamps)
        ]  # fmt: skip

    def settle(self) -> None:
        """``EngineState.settle`` for a position built or edited by hand: such an edit may
        have gone round the table (a zone's list changed in place), so every stamp is
        renewed first (``Table.touch``)."""
        self.table.touch()
        EngineState.settle(self)

    # ----- figures and moves the effects and role modules share -----------------------------

    keys = crosses.keys
    holding_limit = crosses.holding_limit
    can_take = crosses.can_take
    combat_value = crosses.combat_value
    recruit_extra = crosses.recruit_extra
    refresh_cross = crosses.refresh_cross
    discard_from_cross = crosses.discard_from_cross
    begin_turn = turns.begin_turn

    def gain_keys(self, seat: int, colours: Sequence[str], source: str) -> None:
        """Temporary keys until the end of the turn (KU-4.3)."""
        for colour in colours:
            self.temp_keys[seat][COLOURS.index(colour)] += 1
        self._record("keys_gained", player=seat, colours=[COLOURS.index(c) for c in colours],
                     source=source)  # fmt: skip

    def draw(self, seat: int, count: int) -> None:
        """Draw ``count`` cards (KU-7.1), shuffling the discard pile into a new deck when
        the deck runs out; a hand stops at ``MAX_HAND``, and with deck and pile empty the
        draw stops."""
        drawn: list[int] = []
        table = self.table
        for _ in range(count):
            if len(self.hands[seat]) >= MAX_HAND:
                break
            if not self.decks[seat]:
                if not self.discards[seat]:
                    break
                self._reshuffle(seat)
            drawn.append(table.cards[table.take(("deck", seat), -1, ("hand", seat))].index)
        if drawn:
            self.counters["cards_drawn"] += len(drawn)
            self._record("cards_drawn", player=seat, cards=drawn)

    def _reshuffle(self, seat: int) -> None:
        count = len(self.discards[seat])
        self.table.take_all(("discard", seat), ("deck", seat))
        self.table.shuffle(("deck", seat), self.rng)
        self._record("deck_reshuffled", player=seat, count=count)

    def tokens_placed(self) -> int:
        """Tokens in Hubs and on cards (the rest are in the Pool)."""
        on_cards = sum(b.tokens for cross in self.crosses for b in cross if b is not None)
        return sum(self.hub_tokens) + on_cards

    def card(self, iid: int) -> Card:
        return self.table.cards[iid]

    # ----- copies and determinization ------------------------------------------------------

    def clone(self) -> KultState:
        return self._copy(copy_generator(self.rng))

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """Pickled and deep-copied without ``encodings``: a cache of encoder buffers
        (memoryviews), which the copy builds again at its first observation."""
        _, slots = super().__getstate__()
        return None, {**slots, "encodings": {}}

    def _copy(self, rng: random.Random) -> KultState:
        other = bare_copy(KultState, self, rng)
        other.arcana = self.arcana
        other.hub_tokens = self.hub_tokens[:]
        other.pool_tokens = self.pool_tokens
        other.temp_keys = [keys[:] for keys in self.temp_keys]
        other.turn = self.turn
        other.plies = self.plies
        other.active = self.active
        other.phase = self.phase
        other.window = None if self.window is None else self.window.copy()
        other.fight = None if self.fight is None else self.fight.copy()
        other.last_fight = self.last_fight  # decided: never changed again
        other.attacked = self.attacked
        other.pending_push = self.pending_push
        other.pending = self.pending.copy()
        other.recruited = set(self.recruited)
        other.invoked = set(self.invoked)
        other.embargo = self.embargo
        other.winner = self.winner
        other.decided_turn = self.decided_turn
        other.moves = list(self.moves)
        other.last_plays = self.last_plays[:]
        other.counters = dict(self.counters)
        other.encodings = {}
        copy_last_move(self, other)
        return other

    def resample_hidden(self, observer: int, rng: random.Random) -> KultState:
        """Re-deal what ``observer`` cannot see (KU-11.1) with the kit's ``redeal``: the
        other players' hands, every deck's order and every Hub card exchange their unseen
        cards within each owner's; a face-down card in a cross stays known. Deals in which
        the player to move would have no real choice are drawn again; the cards another
        player drew are unknown in its events."""
        # ``redeal`` as this module names it: a test swaps in a faulty one to see it caught
        other = redealt_copy(self, observer, rng, HAND_EVENTS, redeal)
        other.table.touch()  # its views are computed afresh, never taken from self's
        return other

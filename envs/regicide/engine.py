"""Regicide rules engine (docs/rules/regicide.md, RG-1 … RG-8); pure Python.

A turn is a short sequence of decisions for one player: step 1 plays cards, yields or (solo)
flips a jester power; step 4 pays the enemy's attack one discarded card at a time and then
says "done" (or goes on discarding); after a jester its player chooses who goes next.
Decisions with a single legal action are taken automatically, so an agent is only asked
when it has a real choice.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations
from typing import Any

from tabletop.envs.core.engine import (
    EngineState,
    copy_generator,
    resample_consistent,
    shows_real_choice,
)
from tabletop.envs.core.protocol import Event, IllegalActionError
from tabletop.envs.regicide import view as view_module
from tabletop.envs.regicide.cards import (
    CLUBS,
    DIAMONDS,
    DISCARD_BASE,
    DONE,
    ENEMY_ATTACK,
    ENEMY_HEALTH,
    FLIP,
    HEARTS,
    IS_ACE,
    JACK,
    JESTER,
    KIND,
    KING,
    MAX_PLAYERS,
    NEXT_BASE,
    NUM_ACTIONS,
    NUM_CARDS,
    PLAY_ACTION,
    PLAY_BASE,
    PLAYS,
    QUEEN,
    RANK,
    SPADES,
    SUIT,
    VALUE,
    YIELD,
    card_id,
    card_name,
    kinds_mask,
    parse_card,
)
from tabletop.envs.regicide.narration import HELP, describe_event

MAX_HAND = {1: 8, 2: 7, 3: 6, 4: 5}  # RG-1.3
JESTERS_IN_TAVERN = {1: 0, 2: 0, 3: 1, 4: 2}  # RG-1.3
SOLO_JESTER_POWERS = 2  # RG-7.1

# Phases of a turn.
PLAY, DISCARD, CHOOSE_NEXT, OVER = range(4)
PHASE_NAMES = ("play", "discard", "choose next", "over")

GRADES = ("gold", "silver", "bronze")  # RG-7.3, by jester powers used
MAX_RESAMPLE_TRIES = 10_000


class RegicideGame:
    """Configured Regicide: player count and the [decision] options of the rules file."""

    name = "regicide"
    num_actions = NUM_ACTIONS

    def __init__(
        self, num_players: int = 2, solo_yield: bool = False, shaped_reward: bool = False
    ) -> None:
        if num_players not in MAX_HAND:
            raise ValueError(f"regicide: num_players must be 1-4, got {num_players!r}")
        self.num_players = num_players
        self.max_hand = MAX_HAND[num_players]
        self.solo_yield = bool(solo_yield)
        self.shaped_reward = bool(shaped_reward)

    def help_text(self) -> str:
        """The notation, the text picture's codes and the events, for a newcomer."""
        return HELP

    def public_fact_variants(self, state: RegicideState) -> Iterator[tuple[str, RegicideState]]:
        """The protocol's optional hook: the discard pile (public, RG-8.2) with its top card
        another (the next non-jester card)."""
        if state.discard:
            variant = state.clone()
            top = variant.discard[-1]
            variant.discard[-1] = (top + 1) % JESTER if top < JESTER else 0
            yield "discard pile contents", variant

    def __repr__(self) -> str:
        return (
            f"RegicideGame(num_players={self.num_players}, solo_yield={self.solo_yield}, "
            f"shaped_reward={self.shaped_reward})"
        )

    def new_state(self, seed: int | None = None) -> RegicideState:
        """A shuffled, dealt game (RG-1.2 - RG-1.4)."""
        rng = random.Random(seed)
        castle = [
            card_id(rank, suit) for rank in (KING, QUEEN, JACK) for suit in rng.sample(range(4), 4)
        ]
        tavern = [card_id(rank, suit) for suit in range(4) for rank in range(1, 11)]
        tavern += [JESTER, JESTER + 1][: JESTERS_IN_TAVERN[self.num_players]]
        rng.shuffle(tavern)
        first_player = rng.randrange(self.num_players)
        return RegicideState(self, rng, castle=castle, tavern=tavern, first_player=first_player)

    def stacked_state(
        self,
        *,
        castle: Sequence[str] = (),
        tavern: Sequence[str] = (),
        hands: Sequence[Sequence[str]] | None = None,
        first_player: int = 0,
        seed: int = 0,
    ) -> RegicideState:
        """A game from a stacked deck, for tests and puzzles; cards are named like ``"5H"``.

        ``castle`` and ``tavern`` list their top cards first; the first castle card is the
        enemy. Cards named nowhere fill up in a fixed order: J, Q, K below the named castle
        cards, number cards and Aces below the named tavern cards; unnamed jesters are set
        aside. Hands not given are dealt from the tavern's top as in a real game.
        """
        hand_ids = [_parse_distinct(hand) for hand in hands] if hands is not None else []
        named = _parse_distinct([*castle, *tavern, *(c for hand in hands or () for c in hand)])
        if len(set(named)) != len(named):
            raise ValueError("regicide: a stacked deck names a card twice")
        rest = [card for card in range(JESTER) if card not in named]
        castle_ids = _parse_distinct(castle)
        castle_ids += sorted((c for c in rest if RANK[c] >= JACK), key=lambda c: (RANK[c], c))
        tavern_ids = _parse_distinct(tavern) + [c for c in rest if RANK[c] < JACK]
        return RegicideState(
            self,
            random.Random(seed),
            castle=castle_ids[::-1],
            tavern=tavern_ids[::-1],
            first_player=first_player,
            hands=hand_ids if hands is not None else None,
        )


def _parse_distinct(names: Iterable[str]) -> list[int]:
    """Card names to ids; a second ``jester`` is the second jester card."""
    ids: list[int] = []
    for name in names:
        card = parse_card(name)
        ids.append(JESTER + 1 if card == JESTER and JESTER in ids else card)
    return ids


class RegicideState(EngineState):
    """One Regicide position. Lists keep their top card last (castle, tavern)."""

    __slots__ = (
        "game",
        "rng",
        "hands",
        "tavern",
        "tavern_known_top",
        "known_held",
        "heal_sizes",
        "heal_cards",
        "tavern_healed",
        "castle",
        "enemy",
        "enemy_damage",
        "shields",
        "held_spade_shields",
        "immunity_cancelled",
        "in_play",
        "discard",
        "set_aside",
        "jester_powers",
        "player",
        "phase",
        "to_cover",
        "paid_any",
        "yielded",
        "consecutive_yields",
        "turn_log",
        "enemies_defeated",
        "won",
        "_rewards",
        "_returns",
        "_legal",
    )

    def __init__(
        self,
        game: RegicideGame,
        rng: random.Random,
        *,
        castle: list[int],
        tavern: list[int],
        first_player: int,
        hands: list[list[int]] | None = None,
    ) -> None:
        n = game.num_players
        self.game = game
        self.rng = rng
        self.tavern = tavern
        self.tavern_known_top = 0
        self.known_held: list[list[int]] = [[] for _ in range(n)]
        # Heal batches (RG-4.1), bottom of the tavern first: each batch's cards left in the
        # tavern, and the cards it was made of that are not yet seen again (in the tavern or
        # in the hands of those who drew from it). Who drew how many from which batch is public.
        self.heal_sizes: list[int] = []
        self.heal_cards: list[list[int]] = []
        self.tavern_healed = 0  # sum of heal_sizes: the tavern's bottom part
        self.castle = castle
        self.enemy = castle.pop()
        self.enemy_damage = 0
        self.shields = 0
        self.held_spade_shields = 0
        self.immunity_cancelled = False
        self.in_play: list[int] = []
        self.discard: list[int] = []
        self.jester_powers = SOLO_JESTER_POWERS if n == 1 else 0
        self.player = first_player
        self.phase = PLAY
        self.to_cover = 0
        self.paid_any = False
        self.yielded = [False] * n
        self.consecutive_yields = 0
        # Each player's moves (action ids) in their current or latest turn, all seen by
        # everyone: the picture shows them, since forced moves can chain past a heal that
        # reshuffles the discard pile, and the end position alone would not tell them.
        self.turn_log: list[list[int]] = [[] for _ in range(n)]
        self.enemies_defeated = 0
        self.won: bool | None = None
        self._rewards = [0.0] * n
        self._returns = [0.0] * n
        self._events = []
        if hands is None:
            self.hands = [[] for _ in range(n)]
            for player in range(n):
                self._draw_up_to(player, game.max_hand)
        else:
            self.hands = [list(hand) for hand in hands]
        placed = set(self.tavern) | set(self.castle) | {self.enemy}
        placed.update(card for hand in self.hands for card in hand)
        self.set_aside = [card for card in (JESTER, JESTER + 1) if card not in placed]
        self._check_cards()
        self.settle()
        self._events = []  # the deal (and any forced opening move) is not an apply

    def _check_cards(self) -> None:
        zones = self.cards_by_zone().values()
        cards = sorted(card for zone in zones for card in zone)
        if cards != list(range(NUM_CARDS)):
            raise ValueError("regicide: a stacked deck must use each of the 54 cards once")

    # ----- the protocol's read side -------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def stats(self) -> dict[str, float]:
        figures = {"won": float(bool(self.won)), "enemies_defeated": float(self.enemies_defeated)}
        if self.game.num_players == 1 and self.won:
            figures["grade"] = float(SOLO_JESTER_POWERS - self.jester_powers)  # 0 gold .. 2 bronze
        return figures

    @property
    def enemy_attack(self) -> int:
        """The current enemy's attack after shields (RG-2.4), never below 0."""
        return max(0, ENEMY_ATTACK[RANK[self.enemy]] - self.shields)

    @property
    def enemy_health(self) -> int:
        return ENEMY_HEALTH[RANK[self.enemy]]

    @property
    def immune_suit(self) -> int:
        """The suit whose power the enemy ignores (RG-5.1), or -1 once a jester cancelled it."""
        return -1 if self.immunity_cancelled else SUIT[self.enemy]

    def can_yield(self) -> bool:
        """RG-2.1: not when every other player yielded on their last turns in a row; in solo
        only with ``solo_yield``, and then not on two turns in a row (else an empty hand
        facing a fully shielded enemy would yield forever instead of losing by RG-2.6)."""
        n = self.game.num_players
        if n == 1 and not self.game.solo_yield:
            return False
        return self.consecutive_yields < max(n - 1, 1)

    def grade(self) -> str | None:
        """Solo victory grade (RG-7.3), None unless a solo game was won."""
        if self.game.num_players != 1 or not self.won:
            return None
        return GRADES[SOLO_JESTER_POWERS - self.jester_powers]

    def enemy_cards(self) -> list[int]:
        """The enemy facing the players, as a zone: empty once the last King fell (RG-2.5
        moved it to the discard pile or the tavern; ``enemy`` still names it for the record)."""
        return [] if self.won else [self.enemy]

    def cards_by_zone(self) -> dict[str, list[int]]:
        """Every card's zone; the 54 cards are always all here exactly once."""
        zones = {f"hand {p}": hand for p, hand in enumerate(self.hands)}
        zones.update(
            tavern=self.tavern,
            castle=[*self.castle, *self.enemy_cards()],
            in_play=self.in_play,
            discard=self.discard,
            set_aside=self.set_aside,
        )
        return zones

    # ----- applying actions -----------------------------------------------------------------

    def _do(self, action: int) -> None:
        self.turn_log[self.player].append(action)
        if action == YIELD:
            self._yield()
        elif action < DISCARD_BASE:
            self._play(PLAYS[action - PLAY_BASE])
        elif action < DONE:
            self._discard_kind(action - DISCARD_BASE)
        elif action == DONE:
            self._end_turn((self.player + 1) % self.game.num_players)
        elif action == FLIP:
            self._flip_jester()
        else:
            self._end_turn(action - NEXT_BASE, chosen=True)

    def _no_legal_action(self) -> None:
        """RG-2.4 (cannot pay the damage) or RG-2.6 (can neither play nor yield)."""
        reason = "cannot_pay" if self.phase == DISCARD else "cannot_play"
        self._record("game_lost", player=self.player, reason=reason, to_cover=self.to_cover)
        self._finish(won=False)

    def _compute_legal(self) -> list[int]:
        hand = self.hands[self.player]
        if self.phase == PLAY:
            actions = self._legal_plays(hand)
            if self.can_yield():
                actions.append(YIELD)
            if self.jester_powers:  # RG-7.2: at the start of step 1
                actions.append(FLIP)
        elif self.phase == DISCARD:
            actions = []
            if sum(VALUE[c] for c in hand) >= self.to_cover:
                actions = sorted({DISCARD_BASE + KIND[c] for c in hand})
                if self.to_cover <= 0:
                    actions.append(DONE)
            if self.jester_powers and not self.paid_any:  # RG-7.2: at the start of step 4
                actions.append(FLIP)
        elif self.phase == CHOOSE_NEXT:
            actions = [NEXT_BASE + p for p in range(self.game.num_players)]
        else:
            actions = []
        actions.sort()
        return actions

    @staticmethod
    def _legal_plays(hand: list[int]) -> list[int]:
        """Action ids of every single card and RG-3 combination in ``hand``."""
        kinds = sorted({KIND[c] for c in hand})
        actions = [PLAY_BASE + kind for kind in kinds]
        for i, first in enumerate(kinds):
            for second in kinds[i + 1 :]:
                if second == JESTER:
                    break
                if IS_ACE[first] or IS_ACE[second] or RANK[first] == RANK[second]:
                    pair = PLAY_ACTION.get((1 << first) | (1 << second))
                    if pair is not None:
                        actions.append(pair)
        by_rank: dict[int, list[int]] = {}
        for kind in kinds:
            if 2 <= RANK[kind] <= 3:  # only ranks 2 and 3 make sets of three or four (RG-3.2)
                by_rank.setdefault(RANK[kind], []).append(kind)
        for rank, same in by_rank.items():
            for size in range(3, min(len(same), 10 // rank) + 1):
                actions.extend(_sets_of_size(same, size))
        return actions

    # ----- step 1 ----------------------------------------------------------------------------

    def _yield(self) -> None:
        self._record("yielded", player=self.player)
        self.yielded[self.player] = True
        self.consecutive_yields += 1
        self._begin_suffer()

    def _play(self, kinds: tuple[int, ...]) -> None:
        cards = self._take_from_hand(self.player, kinds)
        self.in_play.extend(cards)
        self.yielded[self.player] = False
        self.consecutive_yields = 0
        self._record("cards_played", player=self.player, cards=cards)
        if cards[0] >= JESTER:
            self._play_jester()
            return
        attack = sum(VALUE[c] for c in cards)
        suits = {SUIT[c] for c in cards} - {self.immune_suit}  # RG-2.2, RG-5.1
        if HEARTS in suits:  # RG-3.5: hearts before diamonds
            self._heal(attack)
        if DIAMONDS in suits:
            self._draw_round(attack)
        if SPADES in suits:
            self.shields += attack
            self._record(
                "shields_raised", amount=attack, enemy=self.enemy, attack=self.enemy_attack
            )
        elif SUIT[self.enemy] == SPADES and any(SUIT[c] == SPADES for c in cards):
            self.held_spade_shields += attack  # RG-5.2: may count later, after a jester
        damage = 2 * attack if CLUBS in suits else attack
        self.enemy_damage += damage
        self._record(
            "enemy_damaged",
            enemy=self.enemy,
            damage=damage,
            total=self.enemy_damage,
            health=self.enemy_health,
        )
        if self.enemy_damage >= self.enemy_health:
            self._defeat_enemy()
        else:
            self._begin_suffer()

    def _take_from_hand(self, player: int, kinds: tuple[int, ...]) -> list[int]:
        """Take the cards of ``kinds`` from ``player``'s hand, face up: a publicly known card
        among them is no longer known to be held."""
        hand, known = self.hands[player], self.known_held[player]
        cards = []
        for kind in kinds:
            card = kind if kind in hand else kind + 1  # the second jester
            hand.remove(card)
            if card in known:
                known.remove(card)
            cards.append(card)
        if self.heal_cards:
            self._reveal_healed(cards)
        return cards

    def _play_jester(self) -> None:
        """RG-6.1 / RG-5.2: cancel immunity; no damage, no attack; choose who goes next."""
        self.immunity_cancelled = True
        self.shields += self.held_spade_shields
        self._record(
            "immunity_cancelled",
            enemy=self.enemy,
            shields_added=self.held_spade_shields,
            attack=self.enemy_attack,
        )
        self.held_spade_shields = 0
        self.phase = CHOOSE_NEXT

    def _heal(self, amount: int) -> None:
        """RG-4.1: shuffle the discard pile, move ``amount`` cards (all, if fewer) under the
        tavern deck."""
        self.rng.shuffle(self.discard)
        kept = max(len(self.discard) - amount, 0)
        moved = self.discard[kept:]
        del self.discard[kept:]
        self.tavern[:0] = moved
        if moved:
            self.heal_sizes.insert(0, len(moved))
            self.heal_cards.insert(0, moved[:])
            self.tavern_healed += len(moved)
        self._record("heal", amount=amount, moved=len(moved))

    def _draw_round(self, amount: int) -> None:
        """RG-4.2: one card at a time round the table from the current player, skipping full
        hands, until ``amount`` cards are drawn, every hand is full or the tavern is empty."""
        n, max_hand = self.game.num_players, self.game.max_hand
        player, drawn = self.player, 0
        drawn_by: dict[int, list[int]] = {}
        while drawn < amount and self.tavern:
            if all(len(hand) >= max_hand for hand in self.hands):
                break
            if len(self.hands[player]) < max_hand:
                drawn_by.setdefault(player, []).append(self._draw(player))
                drawn += 1
            player = (player + 1) % n
        for drawer, cards in drawn_by.items():
            self._record_draw(drawer, cards)
        if not drawn_by:
            self._record("no_draw", amount=amount, tavern_empty=not self.tavern)

    def _draw(self, player: int) -> int:
        """``player`` draws the tavern's top card; everyone saw a known top card go to them,
        and knows which heal batch a card drawn from the healed bottom came from."""
        card = self.tavern.pop()
        self.hands[player].append(card)
        if self.tavern_known_top:
            self.tavern_known_top -= 1
            self.known_held[player].append(card)
        elif len(self.tavern) < self.tavern_healed:
            self._draw_from_heal_batch()
        return card

    def _draw_from_heal_batch(self) -> None:
        """The top card came from the highest heal batch with cards left in the tavern."""
        sizes = self.heal_sizes
        batch = max(i for i, size in enumerate(sizes) if size)
        sizes[batch] -= 1
        self.tavern_healed -= 1
        if not sizes[batch]:
            self._settle_heal_batches()

    def _reveal_healed(self, cards: list[int]) -> None:
        """Cards shown face up are no longer hidden members of their heal batch."""
        shown = False
        for batch in self.heal_cards:
            for card in cards:
                if card in batch:
                    batch.remove(card)
                    shown = True
        if shown:
            self._settle_heal_batches()

    def _settle_heal_batches(self) -> None:
        """A batch drawn out of the tavern whose unseen cards are all in one hand is known to
        be held there (e.g. the last card of a batch drawn when the others were shown); a batch
        with no unseen card left is forgotten."""
        for batch in range(len(self.heal_sizes) - 1, -1, -1):
            if self.heal_sizes[batch]:
                continue
            cards = self.heal_cards[batch]
            holders = {p for p, hand in enumerate(self.hands) for card in cards if card in hand}
            if len(holders) == 1:
                self.known_held[holders.pop()].extend(cards)
            if len(holders) <= 1:
                del self.heal_sizes[batch], self.heal_cards[batch]

    def _draw_up_to(self, player: int, size: int) -> None:
        cards = []
        while len(self.hands[player]) < size and self.tavern:
            cards.append(self._draw(player))
        self._record_draw(player, cards)

    def _record_draw(self, player: int, cards: list[int]) -> None:
        known = [card for card in cards if card in self.known_held[player]]
        self._record("cards_drawn", player=player, cards=cards, known=known)

    def _defeat_enemy(self) -> None:
        """RG-2.5: discard the plays; exact kill puts the enemy on top of the tavern."""
        self.discard.extend(self.in_play)
        self.in_play.clear()
        exact = self.enemy_damage == self.enemy_health
        if exact:
            self.tavern.append(self.enemy)
            self.tavern_known_top += 1
        else:
            self.discard.append(self.enemy)
        self.enemies_defeated += 1
        self._record("enemy_defeated", enemy=self.enemy, exact=exact, player=self.player)
        if self.game.shaped_reward:
            self._reward_all(1.0 / 12)
        if not self.castle:
            self._finish(won=True)
            self._record("game_won", enemies=self.enemies_defeated, grade=self.grade())
            return
        self.enemy = self.castle.pop()
        self.enemy_damage = self.shields = self.held_spade_shields = 0
        self.immunity_cancelled = False
        self.phase = PLAY  # RG-2.3: the same player goes again from step 1
        self._record("new_enemy", enemy=self.enemy, player=self.player)

    # ----- step 4 and the end of a turn ------------------------------------------------------

    def _begin_suffer(self) -> None:
        """RG-2.4: the enemy attacks; pay by discarding, or pass on if fully shielded."""
        self._record(
            "damage_suffered", player=self.player, enemy=self.enemy, attack=self.enemy_attack
        )
        if self.enemy_attack == 0:
            self._end_turn((self.player + 1) % self.game.num_players)
            return
        self.phase = DISCARD
        self.to_cover = self.enemy_attack
        self.paid_any = False

    def _discard_kind(self, kind: int) -> None:
        (card,) = self._take_from_hand(self.player, (kind,))
        self.discard.append(card)
        self.to_cover -= VALUE[card]
        self._record("card_discarded", player=self.player, card=card, left=max(self.to_cover, 0))
        self.paid_any = True
        if self.to_cover <= 0 and not self.hands[self.player]:
            self._end_turn((self.player + 1) % self.game.num_players)

    def _flip_jester(self) -> None:
        """RG-7.2: discard the whole hand and draw back up to 8; not a diamond draw."""
        self.jester_powers -= 1
        hand = self.hands[self.player]
        self._record(
            "jester_flipped", player=self.player, discarded=len(hand), left=self.jester_powers
        )
        self.discard.extend(hand)
        if self.heal_cards:
            self._reveal_healed(hand)
        hand.clear()
        self.known_held[self.player].clear()
        self._draw_up_to(self.player, self.game.max_hand)

    def _end_turn(self, next_player: int, chosen: bool = False) -> None:
        self._record("turn_passed", player=next_player, by=self.player, chosen=chosen)
        self.turn_log[next_player] = []
        self.player = next_player
        self.phase = PLAY
        self.to_cover = 0

    def _finish(self, *, won: bool) -> None:
        """RG-8.1: everyone shares the outcome."""
        self.won = won
        self.phase = OVER
        self._reward_all(1.0 if won else -1.0)

    def _reward_all(self, amount: float) -> None:
        for player in range(self.game.num_players):
            self._reward(player, amount)

    # ----- copies and determinization -----------------------------------------------------

    def clone(self) -> RegicideState:
        return self._copy(copy_generator(self.rng))

    def _copy(self, rng: random.Random) -> RegicideState:
        """A copy of every zone and counter that draws its chance events from ``rng``."""
        other = RegicideState.__new__(RegicideState)
        other.game = self.game
        other.rng = rng
        other.hands = [hand[:] for hand in self.hands]
        other.tavern = self.tavern[:]
        other.tavern_known_top = self.tavern_known_top
        other.known_held = [known[:] for known in self.known_held]
        other.heal_sizes = self.heal_sizes[:]
        other.heal_cards = [batch[:] for batch in self.heal_cards]
        other.tavern_healed = self.tavern_healed
        other.castle = self.castle[:]
        other.enemy = self.enemy
        other.enemy_damage = self.enemy_damage
        other.shields = self.shields
        other.held_spade_shields = self.held_spade_shields
        other.immunity_cancelled = self.immunity_cancelled
        other.in_play = self.in_play[:]
        other.discard = self.discard[:]
        other.set_aside = self.set_aside[:]
        other.jester_powers = self.jester_powers
        other.player = self.player
        other.phase = self.phase
        other.to_cover = self.to_cover
        other.paid_any = self.paid_any
        other.yielded = self.yielded[:]
        other.consecutive_yields = self.consecutive_yields
        other.turn_log = [log[:] for log in self.turn_log]
        other.enemies_defeated = self.enemies_defeated
        other.won = self.won
        other._rewards = self._rewards[:]
        other._returns = self._returns[:]
        other._legal = self._legal[:]
        other._events = list(self._events)
        return other

    def resample_hidden(self, observer: int, rng: random.Random) -> RegicideState:
        """Re-deal what ``observer`` cannot see (RG-8.2): the other players' hands and the
        tavern between its publicly known top and its healed bottom, together; each heal
        batch's unseen cards among that batch's places in the tavern and in the hands of those
        who drew from it (RG-4.1: the discard pile is public, so which cards a heal moved is
        known, their order is not); the castle's order within each rank. Cards publicly known
        to be held (``known_held``) stay in their holders' hands.

        The observer also knows the player to move has a real choice (else the engine would
        have moved for them or ended the game), so deals that contradict it are re-drawn.
        The new state draws its future chance events from a fresh generator.
        """

        def deal() -> RegicideState:
            other = self._copy(self.rng)  # shares the generator until it gets its own below
            other._redeal_hidden(observer, rng)
            return other

        other = resample_consistent(deal, shows_real_choice(self), "regicide", MAX_RESAMPLE_TRIES)
        _shuffle_within_ranks(other.castle, rng)
        other.rng = random.Random(rng.getrandbits(64))
        return other

    def _redeal_hidden(self, observer: int, rng: random.Random) -> None:
        hidden_hands = [p for p in range(self.game.num_players) if p != observer]
        batch_of = {card: b for b, cards in enumerate(self.heal_cards) for card in cards}
        unseen: dict[int | None, list[int]] = {None: []}  # None: not from a heal batch
        for p in hidden_hands:
            for card in self.hands[p]:
                if card not in self.known_held[p]:
                    unseen.setdefault(batch_of.get(card), []).append(card)
        low, high = self.tavern_healed, len(self.tavern) - self.tavern_known_top
        deals = {None: _dealt(self.tavern[low:high] + unseen[None], rng)}
        self.tavern[low:high] = deals[None][: high - low]
        del deals[None][: high - low]
        start = 0
        for b, size in enumerate(self.heal_sizes):
            deals[b] = _dealt(self.tavern[start : start + size] + unseen.get(b, []), rng)
            self.tavern[start : start + size] = deals[b][:size]
            del deals[b][:size]
            start += size
        for p in hidden_hands:
            hand = self.hands[p]
            self.hands[p] = [
                card if card in self.known_held[p] else deals[batch_of.get(card)].pop()
                for card in hand
            ]

    # ----- notation and rendering ----------------------------------------------------------------

    def action_to_string(self, action: int, observer: int | None = None) -> str:
        """Every Regicide move is public once made (cards are played and discarded face up,
        yields, flips and choices are announced), so each observer reads the full text."""
        self.check_observer(observer)
        return action_to_string(action)

    def last_events(self, observer: int | None = None) -> list[Event]:
        self.check_observer(observer)
        return super().last_events(observer)

    def _describe_event(self, kind: str, facts: dict[str, Any], observer: int | None) -> Event:
        return describe_event(kind, facts, observer)

    def check_observer(self, observer: int | None) -> None:
        if observer is not None and not 0 <= observer < self.game.num_players:
            raise ValueError(
                f"regicide: observer must be None or a seat 0-{self.game.num_players - 1}, "
                f"got {observer!r}"
            )

    def string_to_action(self, text: str) -> int:
        return string_to_action(text)

    def render(self, observer: int | None = None) -> str:
        self.check_observer(observer)
        lines = [
            self.enemy_line(),
            f"Castle: {len(self.castle)} left; tavern: {len(self.tavern)} cards"
            + (
                f" (top known: {_names(self.tavern[-self.tavern_known_top :])})"
                if self.tavern_known_top
                else ""
            )
            + self._healed_text(observer),
            f"In play: {_names(self.in_play)}",
            f"Discard ({len(self.discard)}): {_names(self.discard)}",
        ]
        if self.game.num_players == 1:
            lines.append(f"Jester powers left: {self.jester_powers}")
        for p, hand in enumerate(self.hands):
            shown = _names(sorted(hand)) if observer in (None, p) else self._hidden_hand(p)
            marks = (" (yielded)" if self.yielded[p] else "") + (
                " <- to move" if p == self.current_player else ""
            )
            if self.turn_log[p]:
                marks += "; moves: " + ", ".join(map(action_to_string, self.turn_log[p]))
            lines.append(f"Player {p}: {shown}{marks}")
        lines.append(self.status_line())
        return "\n".join(lines)

    def view(self, observer: int | None = None) -> dict[str, Any]:
        """The position as page data (``regicide.view``): the same information as ``render``."""
        return view_module.view(self, observer)

    def enemy_line(self) -> str:
        if self.won:
            return "Enemy: none left, the last King fell"
        return (
            f"Enemy {card_name(self.enemy)}: damage {self.enemy_damage}/{self.enemy_health}, "
            f"attack {self.enemy_attack} (shields {self.shields}), "
            f"immune to {_suit_word(self.immune_suit)}"
        )

    def _healed_text(self, observer: int | None) -> str:
        """The heal batches (RG-4.1), the next to be drawn first: how many of each are left in
        the tavern and which cards they are among, less those ``observer`` holds (the rest
        may be in the tavern or with whoever drew from the batch)."""
        if not self.heal_cards:
            return ""
        hand = self.hands[observer] if observer is not None else ()
        batches = [
            f"{size} of {_names(sorted(c for c in cards if c not in hand))}"
            for size, cards in zip(self.heal_sizes, self.heal_cards, strict=True)
        ]
        return "; healed, next first: " + " | ".join(reversed(batches))

    def _hidden_hand(self, player: int) -> str:
        """Another player's hand as an observer sees it: its size and the cards everyone
        saw them draw from the known top of the tavern."""
        known = self.known_held[player]
        shown = f"{len(self.hands[player])} cards"
        return shown + (f" (known: {_names(sorted(known))})" if known else "")

    def status_line(self) -> str:
        if self.phase == OVER:
            outcome = "won" if self.won else "lost"
            return f"Game over: {outcome}, enemies defeated {self.enemies_defeated}"
        if self.phase == DISCARD and self.to_cover > 0:
            return f"Player {self.player} must discard {self.to_cover} more"
        if self.phase == DISCARD:
            return f"Player {self.player}: damage covered; discard more or done"
        return f"Player {self.player}: {PHASE_NAMES[self.phase]}"


def _sets_of_size(kinds: list[int], size: int) -> list[int]:
    return [PLAY_ACTION[kinds_mask(combo)] for combo in combinations(kinds, size)]


def _dealt(cards: list[int], rng: random.Random) -> list[int]:
    """``cards`` in a random order that depends on the set and ``rng`` only (sorted first),
    so the same unseen cards give the same deal for the same generator."""
    cards.sort()
    rng.shuffle(cards)
    return cards


def _shuffle_within_ranks(castle: list[int], rng: random.Random) -> None:
    for rank in (JACK, QUEEN, KING):
        positions = [i for i, card in enumerate(castle) if RANK[card] == rank]
        cards = sorted(castle[i] for i in positions)
        rng.shuffle(cards)
        for i, card in zip(positions, cards, strict=True):
            castle[i] = card


def _names(cards: Iterable[int]) -> str:
    return " ".join(card_name(c) for c in cards) or "-"


def _suit_word(suit: int) -> str:
    return "nothing (jester played)" if suit < 0 else "♠♥♦♣"[suit]


# ----- notation (module level: it depends on the action id only) ----------------------------


def action_to_string(action: int) -> str:
    """``yield``, ``play 5H+AC``, ``play jester``, ``discard 7S``, ``done``, ``flip jester``,
    ``next 2``."""
    if not 0 <= action < NUM_ACTIONS:
        raise IllegalActionError(f"regicide: action id {action!r} is outside 0..{NUM_ACTIONS - 1}")
    if action == YIELD:
        return "yield"
    if action < DISCARD_BASE:
        return "play " + "+".join(card_name(k) for k in PLAYS[action - PLAY_BASE])
    if action < DONE:
        return "discard " + card_name(action - DISCARD_BASE)
    if action == DONE:
        return "done"
    if action == FLIP:
        return "flip jester"
    return f"next {action - NEXT_BASE}"


def string_to_action(text: str) -> int:
    """Parse the notation of ``action_to_string``; card order and case do not matter."""
    words = text.strip().lower().split()
    try:
        return _parse_words(words)
    except (ValueError, IndexError):
        pass
    raise IllegalActionError(
        f"regicide: cannot read action {text!r}; write e.g. 'play 5H+AC', 'play jester', "
        "'yield', 'discard 7S', 'done', 'flip jester', 'next 1'"
    )


def _parse_words(words: list[str]) -> int:
    if words == ["yield"]:
        return YIELD
    if words == ["done"]:
        return DONE
    if words == ["flip", "jester"]:
        return FLIP
    verb, argument = words
    if verb == "play":
        kinds = [parse_card(name) for name in argument.split("+")]
        if len(set(kinds)) == len(kinds) and kinds_mask(kinds) in PLAY_ACTION:
            return PLAY_ACTION[kinds_mask(kinds)]
    elif verb == "discard":
        return DISCARD_BASE + parse_card(argument)
    elif verb == "next" and 0 <= int(argument) < MAX_PLAYERS:
        return NEXT_BASE + int(argument)
    raise ValueError(words)

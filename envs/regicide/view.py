"""Regicide's ``State.view`` (format: ``core.view``): what ``render`` shows, as areas a page
can draw: the enemy as a card with its health, attack and shield; the castle, tavern and
discard pile as piles; the cards played against the enemy; each hand.

Cards a seat may not see are face-down pieces with positional ids (``hand1/3``), so a seat's
view names no hidden card, not even in an id (RG-8.2: other players' hands are hidden; RG-6.1:
players may not reveal them). A move is clicked on the table: a hand card, then the enemy
(or, for a pair, the card it goes with); a discard or a solo jester flip is its card alone;
yield, done and the choice of who goes next are buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.envs.core.view import (
    area,
    card_face,
    hidden_piece,
    last_move,
    make_view,
    piece,
    player,
)
from tabletop.envs.regicide.cards import (
    DISCARD_BASE,
    DONE,
    ENEMY_ATTACK,
    FACE_VALUE,
    FLIP,
    IS_ACE,
    JACK,
    JESTER,
    KIND,
    PLAY_BASE,
    PLAYS,
    RANK,
    RANK_NAMES,
    SUIT,
    SUIT_SYMBOLS,
    VALUE,
    card_name,
)

if TYPE_CHECKING:
    from tabletop.envs.regicide.engine import RegicideState

SUIT_TAGS = ("spades", "hearts", "diamonds", "clubs")
DISCARD, CHOOSE_NEXT, OVER = 1, 2, 3
"""The engine's steps after playing (``engine.PHASE_NAMES``; the engine imports this module)."""
ENEMY_ID = "enemy/0"
ROYAL_WORDS = {11: "Jack", 12: "Queen", 13: "King"}
SUIT_POWERS = (
    (
        "♠ shield",
        "Shield: the enemy's attack drops by the attack value of the whole play, for as long "
        "as that enemy lives (RG-4.4).",
    ),
    (
        "♥ heal",
        "Heal: the discard pile is shuffled and as many of its cards as the play's attack "
        "value go face down under the tavern (RG-4.1).",
    ),
    (
        "♦ draw",
        "Draw: as many cards as the play's attack value are drawn one at a time round the "
        "table from the player, full hands skipped (RG-4.2).",
    ),
    ("♣ double", "Double damage: the play deals twice its attack value (RG-4.3)."),
)
"""Each suit's power keyword and rule, in our words, by suit index."""
IMMUNITY_TEXT = "An enemy ignores the power of its own suit until a jester is played (RG-5)."
KIND_TEXTS = {
    "animal companion": "Animal companion: may be played with one other card, not a jester; "
    "the values add up and both suits' powers work (RG-3.1).",
    "number card": "Two to four cards of one rank may be played together when their values "
    "total 10 or less (RG-3.2).",
    "royal": "A defeated enemy drawn from the tavern: a card of its value whose suit power "
    "works; it pairs with an animal companion but forms no set (RG-6.2).",
}
JESTER_TEXT = (
    "Played alone: no damage, the enemy does not attack, its immunity is cancelled from now "
    "on, and its player chooses who goes next (RG-6.1)."
)
POWER_TEXT = (
    "Jester power: at the start of playing or of paying damage, flip it to discard your "
    "whole hand and draw up to 8 cards from the tavern; each flips once (RG-7.2)."
)


def view(state: RegicideState, observer: int | None = None) -> dict[str, Any]:
    """The position as ``observer`` may see it (``None``: everything), as in ``render``."""
    state.check_observer(observer)
    seats = range(state.game.num_players)
    return make_view(
        state,
        observer,
        status=state.status_line(),
        players=[_player(state, seat) for seat in seats],
        areas=[
            _enemy_area(state),
            area("castle", "Castle", [], layout="pile", count=len(state.castle)),
            _tavern_area(state),
            _healed_area(state, observer),
            area("in_play", "Played against the enemy", _cards("in_play", state.in_play)),
            area("discard", "Discard", _cards("discard", state.discard), layout="pile"),
            *_powers_areas(state),
            *(_hand_area(state, seat, observer) for seat in seats),
        ],
        move_pieces=lambda action: _move_pieces(state, action),
        move_ends=lambda action: _move_ends(state, action),
        phase=_phase(state),
        last_moves=_last_moves(state),
        outcome=_outcome(state),
    )


# ----- cards ----------------------------------------------------------------------------------


def card_title(card: int) -> str:
    """``5♥``, ``A♣``, ``K♠``; ``Jester``."""
    if card >= JESTER:
        return "Jester"
    return RANK_NAMES[RANK[card] - 1] + SUIT_SYMBOLS[SUIT[card]]


def hand_face(card: int) -> dict[str, Any]:
    """A player's card (RG-1.5): its value, its suit's power and what its rank allows."""
    if card >= JESTER:
        return card_face(
            "Jester", "jester", stats={"value": 0}, keywords=["jester"], text=JESTER_TEXT
        )
    keyword, power = SUIT_POWERS[SUIT[card]]
    kind = "royal" if RANK[card] >= JACK else "animal companion" if IS_ACE[card] else "number card"
    return card_face(
        card_title(card),
        kind,
        stats={"value": VALUE[card]},
        keywords=[keyword],
        text=f"{power} {KIND_TEXTS[kind]} {IMMUNITY_TEXT}",
    )


def _card(piece_id: str, card: int, *tags: str) -> dict[str, Any]:
    """A face-up card, tagged with its suit (or ``jester``)."""
    suit = "jester" if SUIT[card] < 0 else SUIT_TAGS[SUIT[card]]
    return piece(piece_id, card_name(card), tags=(suit, *tags), card=hand_face(card))


def _cards(area_id: str, cards: list[int]) -> list[dict[str, Any]]:
    return [_card(f"{area_id}/{i}", card) for i, card in enumerate(cards)]


def _player(state: RegicideState, seat: int) -> dict[str, Any]:
    """Cards in hand, the yield mark and the moves of the seat's current or latest turn
    (all public); in solo, the jester powers left."""
    moves = ", ".join(state.action_to_string(action) for action in state.turn_log[seat])
    counters: dict[str, int | str] = {
        "cards": len(state.hands[seat]),
        "yielded": "yes" if state.yielded[seat] else "no",
        "moves": moves or "-",
    }
    if state.game.num_players == 1:
        counters["jester powers"] = state.jester_powers
    return player(seat, f"Player {seat}", counters)


# ----- areas ----------------------------------------------------------------------------------


def _enemy_area(state: RegicideState) -> dict[str, Any]:
    """The current enemy as a card (RG-1.6): health left, attack after shields, shields,
    immunity; its damage as a mark. Empty once won."""
    if state.won:
        return area("enemy", "Enemy: none left, the last King fell", [])
    enemy = piece(
        ENEMY_ID,
        card_name(state.enemy),
        detail=state.enemy_line(),
        tags=(SUIT_TAGS[SUIT[state.enemy]], "enemy", *(("damaged",) if state.enemy_damage else ())),
        marks={
            "damage": f"{state.enemy_damage}/{state.enemy_health}",
            "attack": state.enemy_attack,
            "shields": state.shields,
            "immune": "none" if state.immune_suit < 0 else SUIT_SYMBOLS[state.immune_suit],
        },
        card=enemy_face(state),
    )
    return area("enemy", "Enemy", [enemy])


def enemy_face(state: RegicideState) -> dict[str, Any]:
    """The enemy's face with its figures as they stand now (RG-2.3 - RG-2.5, RG-5)."""
    rank, suit = RANK[state.enemy], SUIT_SYMBOLS[SUIT[state.enemy]]
    immune = "immunity cancelled" if state.immune_suit < 0 else f"immune to {suit}"
    text = (
        f"{ROYAL_WORDS[rank]} of {suit}: attack {ENEMY_ATTACK[rank]}, health "
        f"{state.enemy_health}; {state.enemy_damage} damage taken, shields {state.shields}. "
        f"It ignores the power of {suit} cards until a jester is played (RG-5). Damage that "
        "reaches its health defeats it; exactly its health puts it face down on the tavern "
        f"(RG-2.5). Captured, it is worth {FACE_VALUE[rank]}."
    )
    return card_face(
        f"{ROYAL_WORDS[rank]} {suit}",
        "enemy",
        stats={
            "health": state.enemy_health - state.enemy_damage,
            "attack": state.enemy_attack,
            "shield": state.shields,
        },
        keywords=[immune],
        text=text,
    )


def _tavern_area(state: RegicideState) -> dict[str, Any]:
    """The draw pile: its size, and face up only the defeated enemies everyone saw put on
    its top by an exact kill (``tavern/0`` is drawn next)."""
    known = state.tavern[len(state.tavern) - state.tavern_known_top :][::-1]
    tops = [_card(f"tavern/{i}", card, "known") for i, card in enumerate(known)]
    return area("tavern", "Tavern", tops, layout="pile", count=len(state.tavern))


def _healed_area(state: RegicideState, observer: int | None) -> dict[str, Any]:
    """The heal batches under the tavern, the next drawn first: how many of each are left
    in the tavern, and the unseen cards it holds less the observer's own (``render``)."""
    own = state.hands[observer] if observer is not None else []
    batches = list(zip(state.heal_sizes, state.heal_cards, strict=True))[::-1]
    pieces = [
        piece(
            f"healed/{i}",
            f"{left} left",
            detail="among " + " ".join(card_name(c) for c in sorted(cards) if c not in own),
            tags=("healed",),
            marks={"left": left},
        )
        for i, (left, cards) in enumerate(batches)
    ]
    return area("healed", "Healed, under the tavern (next first)", pieces)


def _powers_areas(state: RegicideState) -> list[dict[str, Any]]:
    """Solo (RG-7.1): the jesters set aside face up as powers, one per power left."""
    if state.game.num_players != 1:
        return []
    face = card_face(
        "Jester power", "jester power", stats={"left": state.jester_powers}, text=POWER_TEXT
    )
    powers = [
        piece(f"power/{i}", "jester power", tags=("jester", "power"), card=face)
        for i in range(state.jester_powers)
    ]
    return [area("powers", "Jester powers", powers, owner=0)]


def _hand_area(state: RegicideState, seat: int, observer: int | None) -> dict[str, Any]:
    """A hand, sorted: face up for its owner (and ``None``), else the cards everyone knows
    it holds face up, then the rest face down. ``known`` tags the publicly known cards."""
    hand, known = state.hands[seat], state.known_held[seat]
    if observer in (None, seat):
        pieces = [
            _card(f"hand{seat}/{i}", card, *(("known",) if card in known else ()))
            for i, card in enumerate(sorted(hand))
        ]
    else:
        pieces = [_card(f"hand{seat}/{i}", card, "known") for i, card in enumerate(sorted(known))]
        pieces += [hidden_piece(f"hand{seat}/{i}") for i in range(len(known), len(hand))]
    return area(f"hand{seat}", f"Player {seat}", pieces, owner=seat)


# ----- phase, last moves, outcome --------------------------------------------------------------


def _phase(state: RegicideState) -> str:
    """The step of the turn (RG-2) in a few words: all of it public. ``state.phase`` counts
    the engine's play, discard, choose-next and over steps."""
    if state.phase == OVER:
        return "game over"
    if state.phase == CHOOSE_NEXT:
        return "jester played: choose who goes next"
    if state.phase == DISCARD:
        if state.to_cover > 0:
            return f"suffer damage: discard cards worth {state.to_cover} more"
        return "damage paid: discard more or done"
    return "play a card or yield" if state.can_yield() else "play a card"


def _last_moves(state: RegicideState) -> list[dict[str, Any]]:
    """Each player's moves of their current or latest turn (``turn_log``, public), with the
    cards they played or discarded where those still lie face up (against the enemy or on
    the discard pile)."""
    shown = []
    for seat, actions in enumerate(state.turn_log):
        if actions:
            text = ", ".join(state.action_to_string(action) for action in actions)
            shown.append(last_move(seat, text, _moved_cards(state, actions)))
    return shown


def _moved_cards(state: RegicideState, actions: list[int]) -> list[str]:
    """The ids of the face-up cards ``actions`` played or discarded, the latest copy of
    each kind in play, else on the discard pile."""
    ids: list[str] = []
    for action in actions:
        for kind in _kinds(action):
            for zone, cards in (("in_play", state.in_play), ("discard", state.discard)):
                found = [i for i, card in enumerate(cards) if KIND[card] == kind]
                if found and f"{zone}/{found[-1]}" not in ids:
                    ids.append(f"{zone}/{found[-1]}")
                    break
    return ids


def _outcome(state: RegicideState) -> str | None:
    """The shared result in words (RG-8.1): a win with its solo grade (RG-7.3), or who
    could not go on and why (RG-2.4, RG-2.6)."""
    if not state.is_terminal():
        return None
    solo = state.game.num_players == 1
    who = "The player" if solo else "The players"
    if state.won:
        grade = f" ({state.grade()} victory)" if solo else ""
        return f"{who} {'wins' if solo else 'win'}: all twelve royals defeated{grade}"
    if state.to_cover > 0:
        why = f"Player {state.player} cannot pay the {state.to_cover} damage left"
    else:
        why = f"Player {state.player} can neither play a card nor yield"
    defeated = f"{state.enemies_defeated} of 12 royals defeated"
    return f"{who} {'loses' if solo else 'lose'}: {why} ({defeated})"


# ----- moves ----------------------------------------------------------------------------------


def _move_pieces(state: RegicideState, action: int) -> list[str]:
    """The mover's hand cards a play or a discard takes (the first jester of two, as the
    engine takes it), the enemy a play attacks, and the jester power a solo flip uses; none
    for yield, done and next."""
    held = [KIND[card] for card in sorted(state.hands[state.player])]
    cards = [f"hand{state.player}/{held.index(kind)}" for kind in _kinds(action)]
    if PLAY_BASE <= action < DISCARD_BASE:
        return [*cards, ENEMY_ID]
    if action == FLIP:
        return ["power/0"]
    return cards


def _move_ends(state: RegicideState, action: int) -> tuple[str | None, str | None]:
    """What a player clicks: a single card (or a jester, or a set of three or four) then the
    enemy; a pair, its first card then the second (an animal companion first); a discard or
    a flip, its card alone; the buttons nothing."""
    pieces = _move_pieces(state, action)
    if not PLAY_BASE <= action < DISCARD_BASE:
        return (pieces[0], None) if pieces else (None, None)
    cards = pieces[:-1]
    if len(cards) != 2:
        return cards[0], ENEMY_ID
    kinds = PLAYS[action - PLAY_BASE]
    first = next((card for card, kind in zip(cards, kinds, strict=True) if IS_ACE[kind]), cards[0])
    return first, next(card for card in cards if card != first)


def _kinds(action: int) -> tuple[int, ...]:
    """The card kinds an action plays or discards (the action tables of ``cards``)."""
    if PLAY_BASE <= action < DISCARD_BASE:
        return PLAYS[action - PLAY_BASE]
    if DISCARD_BASE <= action < DONE:
        return (action - DISCARD_BASE,)
    return ()

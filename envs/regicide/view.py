"""Regicide's ``State.view`` (format: ``core.view``): what ``render`` shows, as areas a page
can draw. Cards a seat may not see are face-down pieces with positional ids (``hand1/3``), so
a seat's view names no hidden card, not even in an id."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tabletop.envs.core.view import area, hidden_piece, make_view, piece, player
from tabletop.envs.regicide.cards import DISCARD_BASE, DONE, KIND, PLAY_BASE, PLAYS, SUIT, card_name

if TYPE_CHECKING:
    from tabletop.envs.regicide.engine import RegicideState

SUIT_TAGS = ("spades", "hearts", "diamonds", "clubs")


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
            area("in_play", "In play", _cards("in_play", state.in_play)),
            area("discard", "Discard", _cards("discard", state.discard), layout="pile"),
            *(_hand_area(state, seat, observer) for seat in seats),
        ],
        move_pieces=lambda action: _move_pieces(state, action),
    )


def _card(piece_id: str, card: int, *tags: str) -> dict[str, Any]:
    """A face-up card, tagged with its suit (or ``jester``)."""
    suit = "jester" if SUIT[card] < 0 else SUIT_TAGS[SUIT[card]]
    return piece(piece_id, card_name(card), tags=(suit, *tags))


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


def _enemy_area(state: RegicideState) -> dict[str, Any]:
    """The current enemy with its damage, attack, shields and immunity; empty once won."""
    if state.won:
        return area("enemy", "Enemy: none left, the last King fell", [])
    immune = "none" if state.immune_suit < 0 else "♠♥♦♣"[state.immune_suit]
    enemy = _card("enemy/0", state.enemy, "enemy", *(("damaged",) if state.enemy_damage else ()))
    enemy["detail"] = state.enemy_line()
    enemy["marks"] = {
        "damage": f"{state.enemy_damage}/{state.enemy_health}",
        "attack": state.enemy_attack,
        "shields": state.shields,
        "immune": immune,
    }
    return area("enemy", "Enemy", [enemy])


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


def _move_pieces(state: RegicideState, action: int) -> list[str]:
    """The mover's hand cards a play or a discard takes (the first jester of two, as the
    engine takes it); none for yield, done, flip jester and next."""
    held = [KIND[card] for card in sorted(state.hands[state.player])]
    return [f"hand{state.player}/{held.index(kind)}" for kind in _kinds(action)]


def _kinds(action: int) -> tuple[int, ...]:
    """The card kinds an action plays or discards (the action tables of ``cards``)."""
    if PLAY_BASE <= action < DISCARD_BASE:
        return PLAYS[action - PLAY_BASE]
    if DISCARD_BASE <= action < DONE:
        return (action - DISCARD_BASE,)
    return ()

"""A rule-based Kult player: build the Mystic Cross into a pipeline from the Pool to the Hub
and keep tokens moving inward.

- Attract (KU-7.2): every face-up Scene card's token into the Hub, then Cast tokens onto
  the face-up Scene cards that can take them.
- Recruit (KU-7.3): onto every face-up Cast card that can take a token.
- Actions (KU-7.4): play the hand's best card while one scores enough: Places for colour
  keys and token lanes (a Scene card that holds a token is a lane to the Hub, a Cast card
  one from the Pool), Beings in the Cast for lanes and fights, Influences that raise its
  own Beings or holding limits or weaken a rival's Beings, Commands that recruit or draw,
  a card that blocks a rival's lane played into the leader's cross. Keys are found for a
  strong card it cannot pay yet: first abilities that give keys (turning a card), then
  Commands that do, and only then pushes (KU-6), at most two, the cheapest tokens first
  (from a Scene card, then from the Hub, never one that would leave the Pool), and only
  for a card worth that much. Then abilities: turning a card to draw, a push ability
  that recruits when a token can be pushed without leaving the cross.
- Attack (KU-7.5): the attack that wins by the largest margin when the fight gains a
  token (the loser's tokens move to the winner or the Pool) or clears a lane (a Being
  that holds nothing in its own Cast, or a rival's); with a token at stake only with a
  margin of 2, against the Commands an opponent may hold.
- Commands windows (KU-7): a Command that turns the fight it takes part in (a bonus to its
  side, a malus to the other, a cancel when losing), an embargo on the leader's recruit
  phase, a recruiting or drawing Command at any window.
- Discard (KU-7.6): first every card worth turning for its ability (a recruit, a draw
  beyond what the next draw phase would bring): just before the refresh (KU-7.7) turning
  costs nothing; then the hand's least useful card (one with no free station for it, or
  one it cannot pay), so that the draw brings a new one.
- A token stepping out of a Scene card that left play (KU-8.1) goes onto its face-up
  Being with the highest combat value.

It reads only what its seat may see: its own hand, the crosses, tokens, keys and discard
piles (all public, KU-11.1) and its legal actions; it never looks at another hand, a deck
or a Hub card, and it simulates nothing, so it needs no determinization. The conformance
suite checks it by re-dealing hidden information and asking again. Effects are valued
through appraisals registered on the game's vocabulary (``effects.VOCAB``), one per
primitive, and what an effect does (keys, recruits, a fight's bonus or cancel) is read from
the traits its primitive declares, so no decision tests a primitive's name and a new
primitive is one declaration in ``effects.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabletop.envs.core.cards.vocabulary import Effect
from tabletop.envs.kult import combat, crosses, plays
from tabletop.envs.kult.actions import (
    CAST,
    COMMAND_BASE,
    DISCARD_BASE,
    DONE,
    HUB,
    NUM_ACTIONS,
    NUM_COLOURS,
    POOL,
    SCENE,
    STATIONS,
    decode,
)
from tabletop.envs.kult.cards import BEING, COMMAND, INFLUENCE, NEUTRAL, PLACE, Card
from tabletop.envs.kult.effects import ANY, BEFORE_RECRUIT, COLOURS, FIGHT, VOCAB
from tabletop.envs.kult.turns import (
    ACTIONS,
    ATTACK,
    ATTRACT,
    DISCARD,
    FIGHT_WINDOW,
    RECRUIT,
    RECRUIT_WINDOW,
)

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState

SCENE_LANE = 4.0
"""A card that holds a token on a Scene station: a lane to the Hub."""
CAST_LANE = 3.0
"""A card that holds a token on a Cast station: a lane from the Pool."""
KEY_VALUE = 1.2
"""A permanent key of a colour already controlled; a new colour is worth twice as much."""
COMBAT_VALUE = 0.5
"""A point of combat value of a Being in the Cast, where it fights."""
MIN_PLAY = 1.0
"""The least score for which a card is played."""
STRONG = 3.5
"""The least score of a card worth finding keys for (turning cards, Commands, pushes)."""
MAX_PUSHES = 2
"""Pushes spent for keys in one turn, at most."""
PUSH_COST = {"scene": 1.0, "hub": 1.5, "cast": 4.0}
"""What a push costs by where the token comes from: from a Scene card onto a Cast card it
stays in the cross, from the Hub it comes back next turn, from a Cast card it is lost."""
TURN_COST = 0.3
"""A card turned face down for its ability (no colours, no attack until the refresh)."""
COMMAND_COST = 0.8
"""A card from hand spent on its effect."""
DISCARD_BELOW = 1.5
"""A card kept in hand below this worth is discarded at the end of the turn."""
DECODED = tuple(decode(action) for action in range(NUM_ACTIONS))
"""Every action id's ``(kind, fields)``, decoded once: the heuristic reads every legal action
at every decision of every search rollout, and decoding them afresh was a fifth of a search."""


class KultHeuristic:
    """Baseline agent (``act(state, player) -> action``); deterministic."""

    def reset(self) -> None:
        """Stateless between games."""

    def act(self, state: KultState, player: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.pending_token is not None:
            return _step_out(state, player, legal)
        phase = state.phase
        if phase == ATTRACT:
            return _attract(state, player, legal)
        if phase == RECRUIT:
            return next((a for a in legal if DECODED[a][0] == "recruit"), DONE)
        if phase == ACTIONS:
            return _actions(state, player, legal)
        if phase == ATTACK:
            return _attack(state, player, legal)
        if phase in (RECRUIT_WINDOW, FIGHT_WINDOW):
            return _window(state, player, legal)
        if phase == DISCARD:
            return _discard(state, player, legal)
        return legal[0]


# ----- attract ---------------------------------------------------------------------------------


def _attract(state: KultState, player: int, legal: list[int]) -> int:
    """Scene -> Hub first (a face-up Scene card that received a token this phase could not
    pass it on), then Cast -> Scene, the Cast card with the most tokens first."""
    moves = [(a, *DECODED[a][1]) for a in legal if DECODED[a][0] == "attract"]
    to_hub = [a for a, _, target in moves if target == HUB]
    if to_hub:
        return to_hub[0]
    cross = state.crosses[player]
    if moves:
        return max(moves, key=lambda m: (cross[m[1]].tokens, -m[0]))[0]
    return DONE


def _step_out(state: KultState, player: int, legal: list[int]) -> int:
    """Where a token of a Scene card that left play steps out (KU-8.1): onto the own Cast
    card best placed to keep it, a face-up Being with the highest combat value first."""

    def keeps(action: int) -> tuple[int, int, int]:
        station = DECODED[action][1][1]
        base = state.crosses[player][station]
        being = base.card.kind == BEING
        value = crosses.combat_value(state, player, station) if being else -9
        return (int(base.face_up), value, -action)

    return max(legal, key=keeps)


# ----- the actions phase ---------------------------------------------------------------------


def _actions(state: KultState, player: int, legal: list[int]) -> int:
    if state.pending_push is not None:  # the paying push of an invoked ability
        card = state.crosses[player][state.pending_push].card
        return min(legal, key=lambda a: (_paying_cost(card, DECODED[a][1]), a))
    hand = state.hands[player]
    cards = [state.card(iid) for iid in hand]
    plays_ = [a for a in legal if DECODED[a][0] in ("play", "attach")]
    if plays_:
        score, action = max((_play_score(state, player, cards, a), -a) for a in plays_)
        if score >= MIN_PLAY:
            return -action
    step = _key_plan(state, player, cards, legal)
    if step is not None:
        return step
    commands = [a for a in legal if DECODED[a][0] == "command"]
    if commands:
        score, action = max((_command_score(state, player, cards[a - COMMAND_BASE]), -a)
                            for a in commands)  # fmt: skip
        if score >= MIN_PLAY:
            return -action
    ability = _ability(state, player, legal)
    if ability is not None:
        return ability
    return DONE


def _play_score(state: KultState, player: int, cards: list[Card], action: int) -> float:
    kind, fields = DECODED[action]
    card = cards[fields[0]]
    players = state.game.num_players
    if kind == "play":
        _, offset, station = fields
        return placement_score(state, player, card, (player + offset) % players, station)
    _, offset, where = fields
    if offset < 0:
        return _pool_influence_score(state, player, card)
    return influence_score(state, player, card, (player + offset) % players, where)


def placement_score(state: KultState, player: int, card: Card, seat: int, station: int) -> float:
    """What a base card on ``station`` of ``seat``'s cross is worth to ``player``."""
    if seat != player:  # under the other player's control: worth what it takes from them
        if card.holds == 0 and card.kind in (PLACE, BEING) and station in CAST:
            return CAST_LANE * _threat(state, player, seat) - max(card.combat, 0) * COMBAT_VALUE
        return 0.0
    score = 0.0
    if card.holds > 0:
        score += SCENE_LANE if station in SCENE else CAST_LANE
        score += 0.3 * (card.holds - 1)
    if card.kind == PLACE:
        score += _keys_value(state, player, card.colours)
    if card.kind == BEING and station in CAST:
        score += COMBAT_VALUE * card.combat
    score += _effects_value(state, player, card.on_turn, station) * 0.5
    score += _effects_value(state, player, card.on_push, station) * 0.3
    return score


def _keys_value(state: KultState, player: int, colours: Sequence[int]) -> float:
    own = crosses.permanent_keys(state, player)
    return sum(
        count * KEY_VALUE * (2.0 if own[colour] == 0 else 1.0)
        for colour, count in enumerate(colours)
    )


def _threat(state: KultState, player: int, seat: int) -> float:
    """How much hurting ``seat`` is worth to ``player``: 1 for the leading rival, less for
    the others (``progress`` order); never for ``player`` itself."""
    if seat == player:
        return 0.0
    rivals = [s for s in range(state.game.num_players) if s != player]
    best = max(progress(state, s) for s in rivals)
    return 1.0 if progress(state, seat) >= best else 0.5


def progress(state: KultState, seat: int) -> float:
    """How near ``seat`` is to winning: Hub tokens, then tokens in its Scene and Cast."""
    cross = state.crosses[seat]
    scene = sum(cross[s].tokens for s in SCENE if cross[s] is not None)
    cast = sum(cross[s].tokens for s in CAST if cross[s] is not None)
    return state.hub_tokens[seat] + 0.6 * scene + 0.3 * cast


def influence_score(state: KultState, player: int, card: Card, seat: int, where: int) -> float:
    """An Influence on ``seat``'s Hub (``where`` HUB) or on a station or its card."""
    combat_mod = _amount(card, "combat")
    holds_mod = _amount(card, "holds")
    keys = card.static("keys")
    mine = seat == player
    sign = 1.0 if mine else -_threat(state, player, seat)
    if where == HUB:
        score = 0.0
        if keys is not None:
            score += _keys_value(state, player, _colour_counts(keys.colours)) if mine else 0.0
        if combat_mod:
            beings = len(combat.fighters(state, seat))
            score += sign * COMBAT_VALUE * combat_mod * beings
        return score
    base = state.crosses[seat][where]
    score = 0.0
    if combat_mod and base is not None and base.card.kind == BEING and where in CAST:
        score += sign * 0.8 * combat_mod
        if not mine and base.tokens:
            score += 0.5
    if holds_mod:
        lane = base is not None and base.card.kind in (PLACE, BEING)
        score += sign * 1.2 * holds_mod * (1.0 if lane else 0.4)
    return score


def _pool_influence_score(state: KultState, player: int, card: Card) -> float:
    """An Influence on the Pool changes every cross: worth it when it helps ``player`` more
    than the average rival."""
    players = state.game.num_players
    combat_mod = _amount(card, "combat")
    holds_mod = _amount(card, "holds")
    mine = len(combat.fighters(state, player))
    theirs = sum(len(combat.fighters(state, s)) for s in range(players) if s != player)
    score = COMBAT_VALUE * combat_mod * (mine - theirs / (players - 1))
    return score + 0.6 * holds_mod


def _amount(card: Card, static: str) -> int:
    params = card.static(static)
    return 0 if params is None else params.amount


def _colour_counts(colours: Sequence[str]) -> list[int]:
    return [list(colours).count(colour) for colour in COLOURS]


# ----- effects' worth: appraisals registered on the vocabulary ------------------------------


def _effects_value(
    state: KultState, player: int, effects: Sequence[Effect], station: int | None = None
) -> float:
    total = 0.0
    for effect in effects:
        appraise = VOCAB.primitives[effect.do].appraise
        if appraise is not None:
            total += appraise(state, player, effect, station)
    return total


def _free_cast(state: KultState, player: int) -> int:
    """Tokens the face-up Cast cards of ``player`` can still take (an effect's recruits)."""
    room = 0
    for station in CAST:
        base = state.crosses[player][station]
        if base is not None and base.face_up:
            room += max(0, crosses.holding_limit(state, player, station) - base.tokens)
    return min(room, state.pool_tokens)


@VOCAB.appraisal("recruit")
def _recruit(state: KultState, player: int, effect: Effect, station: int | None) -> float:
    return 2.5 * min(effect.tokens, _free_cast(state, player))


@VOCAB.appraisal("draw")
def _draw(state: KultState, player: int, effect: Effect, station: int | None) -> float:
    hand = len(state.hands[player])
    room = 8 - hand
    if state.phase == DISCARD and state.active == player:  # the draw phase refills anyway
        room = min(room, hand + effect.cards - state.arcana[player].hand_size)
    return 0.7 * max(0, min(effect.cards, room))


@VOCAB.appraisal("gain_keys")
def _gain_keys(state: KultState, player: int, effect: Effect, station: int | None) -> float:
    if state.phase == DISCARD:
        return 0.0  # they would break at once (KU-4.3)
    return 0.2 * len(effect.colours)  # worth more only when a key plan needs them


@VOCAB.appraisal("refresh")
def _refresh(state: KultState, player: int, effect: Effect, station: int | None) -> float:
    down = sum(1 for b in state.crosses[player] if b is not None and not b.face_up)
    return 0.4 * down


@VOCAB.appraisal("discard_self")
def _discard_self(state: KultState, player: int, effect: Effect, station: int | None) -> float:
    if station is None:
        return 0.0
    base = state.crosses[player][station]
    return -3.0 - 2.0 * base.tokens if base is not None else 0.0


@VOCAB.appraisal("special")
def _special(state: KultState, player: int, effect: Effect, station: int | None) -> float:
    mine = state.hub_tokens[player]
    behind = sum(tokens > mine for tokens in state.hub_tokens)
    return 0.6 * behind


def _no_value(state: KultState, player: int, effect: Effect, station: int | None) -> float:
    return 0.0  # a fight's and a recruit window's Commands are weighed where they are played


for _name in ("fight_bonus", "cancel_fight", "embargo"):
    VOCAB.appraisal(_name)(_no_value)


# ----- keys for a strong card ----------------------------------------------------------------


def _key_plan(state: KultState, player: int, cards: list[Card], legal: list[int]) -> int | None:
    """The first step towards paying for the hand's best card it cannot pay yet, if the
    keys can be found this turn at a cost below the card's worth: abilities giving keys
    (turning a card), then Commands giving keys, then at most ``MAX_PUSHES`` pushes."""
    keys = crosses.keys(state, player)
    wanted = _wanted_card(state, player, cards, keys)
    if wanted is None:
        return None
    worth, card = wanted
    missing = [max(0, need - have) for need, have in zip(card.cost, keys, strict=True)]
    cost, first = 0.0, None
    for step_cost, action, colours in _key_steps(state, player, cards, legal):
        if not any(missing[c] for c in colours):
            continue
        for colour in colours:
            if missing[colour]:
                missing[colour] -= 1
        cost += step_cost
        first = action if first is None else first
        if not any(missing):
            break
    for _ in range(MAX_PUSHES):
        if not any(missing):
            break
        colour = next(c for c in range(NUM_COLOURS) if missing[c])
        action, step_cost = _push_for(state, player, legal, colour)
        if action is None:
            break
        missing[colour] -= 1
        cost += step_cost
        first = action if first is None else first
    if any(missing) or cost >= worth - 1.0:
        return None
    return first


def _wanted_card(
    state: KultState, player: int, cards: list[Card], keys: list[int]
) -> tuple[float, Card] | None:
    """(worth, card) of the best unaffordable hand card with a place to go, worth at least
    ``STRONG``."""
    best: tuple[float, Card] | None = None
    allegiance = state.arcana[player].allegiance
    for card in cards:
        if crosses.can_pay(keys, card.cost) or card.allegiance not in (NEUTRAL, allegiance):
            continue
        if card.unique and plays.in_play(state, card):
            continue
        worth = potential(state, player, card)
        if worth >= STRONG and (best is None or worth > best[0]):
            best = (worth, card)
    return best


def potential(state: KultState, player: int, card: Card) -> float:
    """The best score ``card`` could have now if its colours were paid."""
    players = state.game.num_players
    if card.kind == COMMAND:
        return _command_score(state, player, card)
    best = 0.0
    offsets = plays.seat_offsets(state, card.into)
    if card.kind == INFLUENCE:
        if card.attach == "pool":
            return _pool_influence_score(state, player, card)
        for offset in offsets:
            seat = (player + offset) % players
            targets = [HUB] if card.attach == "hub" else range(STATIONS)
            for where in targets:
                if where == HUB or plays.attachable(state, seat, where, card.attach, face_up=True):
                    best = max(best, influence_score(state, player, card, seat, where))
        return best
    for offset in offsets:
        seat = (player + offset) % players
        cross = state.crosses[seat]
        for station in card.stations:
            if cross[station] is None:
                best = max(best, placement_score(state, player, card, seat, station))
    return best


def _key_steps(
    state: KultState, player: int, cards: list[Card], legal: list[int]
) -> list[tuple[float, int, list[int]]]:
    """(cost, action, colours gained) of each ability and Command giving keys now,
    cheapest first (pushes are weighed apart)."""
    steps: list[tuple[float, int, list[int]]] = []
    for action in legal:
        kind, fields = DECODED[action]
        if kind == "turn":
            base = state.crosses[player][fields[0]]
            gained = _keys_of(base.card.on_turn)
            lost = list(base.card.colours) if base.card.kind == PLACE else [0] * NUM_COLOURS
            net = [max(0, g - c) for g, c in zip(gained, lost, strict=True)]
            if any(net):
                steps.append((TURN_COST, action, _colour_list(net)))
        elif kind == "command":
            card = cards[fields[0]]
            gained = _keys_of(card.on_play)
            if any(gained) and card.timing == ANY:
                steps.append((COMMAND_COST, action, _colour_list(gained)))
    steps.sort(key=lambda step: (step[0], step[1]))
    return steps


KEY_TRAITS = tuple(f"key_{colour}" for colour in COLOURS)
"""The traits of the temporary keys an effect gives, one per colour (``effects.py``)."""


def _keys_of(effects: Sequence[Effect]) -> list[int]:
    """Temporary keys of each colour that ``effects`` give."""
    return [int(sum(effect.trait(trait) for effect in effects)) for trait in KEY_TRAITS]


def _colour_list(counts: Sequence[int]) -> list[int]:
    return [colour for colour, count in enumerate(counts) for _ in range(count)]


def _push_for(
    state: KultState, player: int, legal: list[int], colour: int
) -> tuple[int | None, float]:
    """The cheapest legal push gaining ``colour`` and its cost (never from the Cast: that
    token would leave the cross)."""
    best: tuple[float, int] | None = None
    for action in legal:
        kind, fields = DECODED[action]
        if kind != "push" or fields[2] != colour:
            continue
        cost = _push_cost(fields)
        if cost < PUSH_COST["cast"] and (best is None or (cost, action) < best):
            best = (cost, action)
    return (None, 0.0) if best is None else (best[1], best[0])


def _push_cost(fields: tuple[int, ...]) -> float:
    source, target = fields[0], fields[1]
    if source == HUB:
        return PUSH_COST["hub"] + (1.0 if target in CAST else 0.0)
    if source in SCENE and target != POOL:
        return PUSH_COST["scene"]
    return PUSH_COST["cast"]


# ----- Commands and abilities ------------------------------------------------------------------


def _command_score(state: KultState, player: int, card: Card) -> float:
    """A Command played outside a fight: its effects' worth less the card spent."""
    if card.timing != ANY:
        return 0.0
    return _effects_value(state, player, card.on_play) - COMMAND_COST + 1.0


def _ability(state: KultState, player: int, legal: list[int]) -> int | None:
    """A card turned for an ability that recruits or draws, or a push ability whose push
    keeps the token in the cross, when worth it."""
    attackers = set(_good_attackers(state, player))
    best: tuple[float, int] | None = None
    for action in legal:
        kind, fields = DECODED[action]
        if kind not in ("turn", "invoke"):
            continue
        station = fields[0]
        base = state.crosses[player][station]
        if kind == "turn":
            if _recruits(base.card.on_turn):
                continue  # turned at the end of the turn, just before the refresh (KU-7.7)
            value = _effects_value(state, player, base.card.on_turn, station) - TURN_COST
            if base.card.kind == PLACE:
                value -= sum(base.card.colours) * 0.2
            if station in attackers:
                value -= 1.5
        else:
            cheapest = min(
                (_paying_cost(base.card, DECODED[a][1]) for a in _paying_pushes(state, player)),
                default=9.0,
            )
            value = _effects_value(state, player, base.card.on_push, station) - cheapest
        if value >= 0.5 and (best is None or (value, -action) > (best[0], -best[1])):
            best = (value, action)
    return None if best is None else best[1]


def _recruits(effects: Sequence[Effect]) -> bool:
    return any(effect.trait("recruits") for effect in effects)


def _paying_cost(card: Card, fields: tuple[int, ...]) -> float:
    """A paying push's cost for ``card``'s ability: a push onto a Cast card takes the room
    a recruiting ability would fill."""
    cost = _push_cost(fields)
    if fields[1] in CAST and _recruits(card.on_push):
        cost += 2.5
    return cost


def _paying_pushes(state: KultState, player: int) -> list[int]:
    return plays.pushes(state, player, paying=True)


# ----- attack ---------------------------------------------------------------------------------


def _attack(state: KultState, player: int, legal: list[int]) -> int:
    best: tuple[float, int] | None = None
    for action in legal:
        if DECODED[action][0] != "attack":
            continue
        value = attack_value(state, player, action)
        if value > 0 and (best is None or (value, -action) > (best[0], -best[1])):
            best = (value, action)
    return DONE if best is None else best[1]


def attack_value(state: KultState, player: int, action: int) -> float:
    """What an attack is worth to ``player`` if the values stand (0: not worth it)."""
    players = state.game.num_players
    attacker, offset, target = DECODED[action][1]
    seat = (player + offset) % players
    mine = state.crosses[player][attacker]
    theirs = state.crosses[seat][target]
    margin = crosses.combat_value(state, player, attacker) - crosses.combat_value(
        state, seat, target
    )
    if margin < 1:
        return 0.0
    room = crosses.holding_limit(state, player, attacker) - mine.tokens
    gained = min(theirs.tokens, room)
    if seat == player:  # only a Being that holds nothing, cleared from its lane
        if crosses.holding_limit(state, seat, target) > 0 or theirs.tokens:
            return 0.0
        value = 1.5
    else:
        threat = _threat(state, player, seat)
        value = 3.0 * gained + threat * (1.5 * theirs.tokens + 1.0)
        if theirs.card.holds == 0 and not theirs.tokens:
            value -= 1.0
    if mine.tokens and margin < 2:  # its own token at stake: a margin against Commands
        return 0.0
    return value + 0.1 * margin


def _good_attackers(state: KultState, player: int) -> list[int]:
    """Own Cast stations from which an attack worth making exists now."""
    if state.attacked:
        return []
    attacks = combat.attacks(state, player)
    return [DECODED[a][1][0] for a in attacks if attack_value(state, player, a) > 0]


# ----- Commands windows ------------------------------------------------------------------------


def _window(state: KultState, player: int, legal: list[int]) -> int:
    commands = [a for a in legal if a != DONE]
    cards = [state.card(iid) for iid in state.hands[player]]
    fight = state.fight
    best: tuple[float, int] | None = None
    for action in commands:
        card = cards[action - COMMAND_BASE]
        if card.timing == FIGHT and fight is not None:
            value = _fight_command_value(state, player, card)
        elif card.timing == BEFORE_RECRUIT:
            value = _embargo_value(state, player)
        else:
            value = _command_score(state, player, card) if not any(_keys_of(card.on_play)) else 0.0
        if value >= MIN_PLAY and (best is None or (value, -action) > (best[0], -best[1])):
            best = (value, action)
    return DONE if best is None else best[1]


def _fight_command_value(state: KultState, player: int, card: Card) -> float:
    """Worth of a fight Command: how much better the fight ends for ``player`` with it."""
    fight = state.fight
    before = _fight_stake(state, player, fight.bonus, fight.cancelled)
    bonus = list(fight.bonus)
    cancelled = fight.cancelled
    for effect in card.on_play:
        bonus[effect.to == "defender"] += int(effect.trait("fight_bonus"))
        cancelled = cancelled or bool(effect.trait("cancels_fight"))
    after = _fight_stake(state, player, bonus, cancelled)
    return (after - before) * 2.0


def _fight_stake(state: KultState, player: int, bonus: Sequence[int], cancelled: bool) -> float:
    """``player``'s gain from the fight's result: +1 if its Being wins, -1 if it loses; a
    third party gains when the leader's Being loses."""
    fight = state.fight
    attack = crosses.combat_value(state, *fight.attacker) + bonus[0]
    defence = crosses.combat_value(state, *fight.defender) + bonus[1]
    if cancelled or attack == defence:
        return 0.0
    winner, loser = (
        (fight.attacker, fight.defender) if attack > defence else (fight.defender, fight.attacker)
    )
    if winner[0] == player and loser[0] != player:
        return 1.0
    if loser[0] == player and winner[0] != player:
        return -1.0
    if winner[0] == player:  # both ours: clearing a lane
        return 0.5
    return 0.5 * _threat(state, player, loser[0]) - 0.5 * _threat(state, player, winner[0])


def _embargo_value(state: KultState, player: int) -> float:
    """Closing the active player's recruit phase: worth the recruits it prevents."""
    active = state.active
    recruits = len(crosses.recruits(state, active))
    return recruits * 1.2 * _threat(state, player, active)


# ----- discard -------------------------------------------------------------------------------


def _discard(state: KultState, player: int, legal: list[int]) -> int:
    """Abilities first: a card turned now costs nothing, the refresh (KU-7.7) follows;
    then the least useful card of the hand."""
    for action in legal:
        kind, fields = DECODED[action]
        if kind == "turn":
            base = state.crosses[player][fields[0]]
            if _effects_value(state, player, base.card.on_turn, fields[0]) >= 0.5:
                return action
    keys = crosses.keys(state, player)
    hand = state.hands[player]
    if len(hand) < 3:
        return DONE
    worst: tuple[float, int] | None = None
    for action in legal:
        if DECODED[action][0] != "discard":
            continue
        card = state.card(hand[action - DISCARD_BASE])
        worth = keep_value(state, player, card, keys)
        if worst is None or (worth, action) < worst:
            worst = (worth, action)
    return worst[1] if worst is not None and worst[0] < DISCARD_BELOW else DONE


def keep_value(state: KultState, player: int, card: Card, keys: list[int]) -> float:
    """A hand card's worth for the turns to come."""
    if card.kind == COMMAND and card.timing != ANY:
        return 1.6  # kept for a fight or a rival's recruit phase
    worth = potential(state, player, card)
    if card.kind == COMMAND and any(_keys_of(card.on_play)):
        worth = max(worth, 1.0)
    if not crosses.can_pay(keys, card.cost):
        worth *= 0.6
    return worth

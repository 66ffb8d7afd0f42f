"""Mini Cards' rule-based baseline: values cards by their effects' traits (the vocabulary
declares them), so it needs no if-chain over primitive names."""

from __future__ import annotations

from mini_cards.cards import INSTANT, UNIT, Card
from mini_cards.engine import MAIN, PASS, MiniCardsState
from tabletop.envs.core.cards.events import Context

WEIGHTS = {"damage": 2.0, "heal": 1.0, "draw": 1.0}


def value(state: MiniCardsState, player: int, card: Card) -> float:
    """What playing ``card`` brings now: its ``played`` effects whose conditions hold, and
    for a unit its continuous effects and turn-start effects."""
    context = Context(player)
    worth = sum(
        WEIGHTS[name] * amount
        for effect in card.triggers.get("played", ())
        if effect.when is None or effect.when.holds(state, context)
        for name, amount in effect.traits.items()
    )
    if card.kind == UNIT:
        worth += 1.0 + sum(modifier.amount for _, modifier in card.statics)
        worth += len(card.triggers.get("turn_starts", ()))
    return worth


class MiniCardsHeuristic:
    """Plays its best unit or spell in its turn and keeps instants to answer with; answers
    with its best instant that does something, else passes."""

    def reset(self) -> None:
        """Nothing to remember between games."""

    def act(self, state: MiniCardsState, player: int) -> int:
        pool = state.game.pool
        best, best_value = PASS, 0.0
        for action in state.legal_actions():
            if action == PASS:
                continue
            card = pool[action - 1]
            if state.phase == MAIN and card.kind == INSTANT:
                continue
            worth = value(state, player, card)
            if worth > best_value:
                best, best_value = action, worth
        return best

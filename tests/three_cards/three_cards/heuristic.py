"""Three Cards' rule-based baseline."""

from __future__ import annotations

from three_cards.engine import ThreeCardsState


class ThreeCardsHeuristic:
    """Leads its lowest card (the answer will see it anyway); answers with the lowest card
    that wins, else its lowest."""

    def reset(self) -> None:
        """Nothing to forget between games."""

    def act(self, state: ThreeCardsState, player: int) -> int:
        hand = state.hands[player]
        if state.led is None:
            return min(hand) - 1
        winners = [card for card in hand if card > state.led]
        return min(winners or hand) - 1

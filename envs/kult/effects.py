"""What Kult cards can say: the game's vocabulary of the kit (``vocabulary.Vocabulary``).

Effects are data on cards (KU-10.2), composed from the primitives declared here once:

- trigger events: ``played`` (a Command resolves, field ``on_play``), ``turned`` (a card
  turned face down for its ability, KU-5.2, field ``on_turn``) and ``pushed`` (an ability
  paid with a push that gives no colour, KU-6.5, field ``on_push``);
- primitives: ``gain_keys`` (temporary keys, KU-4.3), ``draw``, ``recruit`` (tokens from
  the Pool onto your Cast), ``fight_bonus`` and ``cancel_fight`` (a fight, KU-7.5),
  ``embargo`` (the player whose turn it is recruits nothing this turn), ``refresh`` (turn
  your face-down cards face up: declared for the vocabulary, refused in card data since
  only phase 7 turns cards face up, KU-5.3), ``discard_self`` (the card leaves play, KU-8) and
  ``special`` (a small named function in ``SPECIALS``, for the rare card that needs code);
- statics (continuous modifiers of Influences, KU-3.2): ``combat`` (a combat value),
  ``holds`` (a holding limit, KU-3.4) and ``keys`` (permanent keys, KU-4.2).

Each primitive carries a ``timing`` trait: ``fight`` effects can only be used while a fight
is being decided, ``before_recruit`` ones only in the recruit phase's window (KU-7); a
Command's timing is its effects' strictest. The heuristic reads what an effect does from
traits too, never from a primitive's name: ``key_<colour>`` (temporary keys of each colour),
``recruits`` (tokens), ``fight_bonus`` (to the side its selector names) and
``cancels_fight``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field

from tabletop.envs.core.cards.events import Context
from tabletop.envs.core.cards.vocabulary import Effect, Params, RegisteredName, Vocabulary

if TYPE_CHECKING:
    from tabletop.envs.kult.engine import KultState

COLOURS = ("skull", "eye", "rose", "crescent", "hourglass")
"""KU-4.1's five colours, in the order of key counts everywhere (``keys[i]``)."""
Colour = Literal["skull", "eye", "rose", "crescent", "hourglass"]

ANY, FIGHT, BEFORE_RECRUIT = 0.0, 1.0, 2.0
"""Values of the ``timing`` trait: when an effect can be used (see the module docstring)."""

VOCAB = Vocabulary("kult")
VOCAB.event("played", "on_play", "a Command is played and resolves (KU-3.3)")
VOCAB.event("turned", "on_turn", "the card is turned face down for its ability (KU-5.2)")
VOCAB.event("pushed", "on_push", "a push without colour pays for the ability (KU-6.5)")
VOCAB.selector("attacker", "attacker")
VOCAB.selector("defender", "defender")

Special = Callable[["KultState", Context], None]
SPECIALS: dict[str, Special] = {}
"""Named functions for effects the primitives cannot compose (``{do = "special", name =
...}``); each registers itself with ``special``."""


def special(name: str) -> Callable[[Special], Special]:
    """Decorator: register a special effect function under ``name``."""

    def register(function: Special) -> Special:
        SPECIALS[name] = function
        return function

    return register


def timing_of(effects: tuple[Effect, ...]) -> float:
    """The strictest timing of ``effects`` (``ANY`` when none restricts it)."""
    return max((effect.trait("timing") for effect in effects), default=ANY)


# ----- parameter schemas ------------------------------------------------------------------


class KeysParams(Params):
    colours: list[Colour] = Field(min_length=1, max_length=4)


class CardsParams(Params):
    cards: int = Field(ge=1, le=3)


class TokensParams(Params):
    tokens: int = Field(ge=1, le=3)


class AmountParams(Params):
    amount: Annotated[int, Field(ge=-5, le=5)]


class SpecialParams(RegisteredName):
    REGISTRY = SPECIALS
    WHAT = "special"


class HoldsParams(Params):
    amount: int = Field(ge=1, le=3)


@dataclass(frozen=True)
class _Timing:
    """The traits of a primitive: its ``timing`` and the ``figures`` of its parameters. A
    class and named functions rather than closures, so that states holding effects pickle."""

    value: float
    figures: Callable[[Any], dict[str, float]] | None = None

    def __call__(self, params: Any) -> dict[str, float]:
        return {"timing": self.value, **(self.figures(params) if self.figures else {})}


def _key_figures(p: KeysParams) -> dict[str, float]:
    return {f"key_{c}": float(p.colours.count(c)) for c in set(p.colours)}


def _recruit_figures(p: TokensParams) -> dict[str, float]:
    return {"recruits": float(p.tokens)}


def _bonus_figures(p: AmountParams) -> dict[str, float]:
    return {"fight_bonus": float(p.amount)}


def _no_bonus(p: AmountParams) -> bool:
    return p.amount == 0


def _cancel_figures(p: Any) -> dict[str, float]:
    return {"cancels_fight": 1.0}


# ----- primitives -------------------------------------------------------------------------


@VOCAB.primitive(
    "gain_keys", params=KeysParams,
    traits=_Timing(ANY, _key_figures),
)  # fmt: skip
def gain_keys(state: KultState, context: Context, effect: Effect) -> None:
    """Temporary keys for the card's controller until the end of the turn (KU-4.3)."""
    state.gain_keys(context.owner, effect.colours, "card")


@VOCAB.primitive("draw", params=CardsParams, traits=_Timing(ANY))
def draw(state: KultState, context: Context, effect: Effect) -> None:
    state.draw(context.owner, effect.cards)


@VOCAB.primitive("recruit", params=TokensParams, traits=_Timing(ANY, _recruit_figures))
def recruit(state: KultState, context: Context, effect: Effect) -> None:
    """Tokens from the Pool onto the controller's face-up Cast cards that can take one, in
    station order (like KU-7.3's recruiting, outside the recruit phase)."""
    state.recruit_extra(context.owner, effect.tokens)


@VOCAB.primitive(
    "fight_bonus", params=AmountParams, selectors=("attacker", "defender"),
    traits=_Timing(FIGHT, _bonus_figures), empty=_no_bonus,
)  # fmt: skip
def fight_bonus(state: KultState, context: Context, effect: Effect) -> None:
    """A modifier of the attacker's or the defender's combat value for this fight (KU-7.5)."""
    state.fight.bonus[effect.reach == "defender"] += effect.amount


@VOCAB.primitive("cancel_fight", traits=_Timing(FIGHT, _cancel_figures))
def cancel_fight(state: KultState, context: Context, effect: Effect) -> None:
    """The fight ends without a result, as a tie does (KU-7.5)."""
    state.fight.cancelled = True


@VOCAB.primitive("embargo", traits=_Timing(BEFORE_RECRUIT))
def embargo(state: KultState, context: Context, effect: Effect) -> None:
    """The player whose turn it is recruits no token this turn (KU-7.3)."""
    state.embargo = True


@VOCAB.primitive("refresh", traits=_Timing(ANY))
def refresh(state: KultState, context: Context, effect: Effect) -> None:
    """The controller's face-down cards turn face up now (an early KU-7.7)."""
    state.refresh_cross(context.owner)


@VOCAB.primitive("discard_self", traits=_Timing(ANY))
def discard_self(state: KultState, context: Context, effect: Effect) -> None:
    """The card whose ability this is leaves play; its tokens go outward (KU-8.1)."""
    seat, station = context.source
    state.discard_from_cross(seat, station)


@VOCAB.primitive("special", params=SpecialParams, traits=_Timing(ANY))
def run_special(state: KultState, context: Context, effect: Effect) -> None:
    SPECIALS[effect.name](state, context)


@special("tithe")
def tithe(state: KultState, context: Context) -> None:
    """Draw a card for each player whose Hub holds more tokens than yours (catch-up)."""
    mine = state.hub_tokens[context.owner]
    richer = sum(tokens > mine for tokens in state.hub_tokens)
    if richer:
        state.draw(context.owner, richer)


# ----- statics: what Influences modify while they lie face up (KU-3.2) ----------------------


VOCAB.static("combat", params=AmountParams)
VOCAB.static("holds", params=HoldsParams)
VOCAB.static("keys", params=KeysParams)

STATIC_TARGETS = {
    "combat": ("card", "being", "station", "hub", "pool"),
    "holds": ("card", "being", "place", "station", "pool"),
    "keys": ("hub",),
}
"""Where an Influence with each static may be attached: ``combat`` changes the Being it
lies on (on a station: the Being there; on a Hub: every Being of that Cast; on the Pool:
every Being in play), ``holds`` the holding limit of the card (every Place and Being from
the Pool), ``keys`` adds permanent keys to its Hub's owner."""

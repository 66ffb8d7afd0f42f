"""Kult: the rules engine of the occult card game of the Mystic Cross (docs/rules/kult.md,
KU-1 … KU-11), pure Python, built on the card-game kit (``tabletop.envs.core.cards``).

Modules, leaves first:

- ``actions``: the fixed action-id layout (one ``Discrete`` space for 2-4 players);
- ``effects``: the game's vocabulary of effect primitives, statics and special functions;
- ``cards``: the pool and deck file formats, their validation and the compiled cards;
- ``zones``: the zones of a position, the card-in-play objects, drawing and discarding;
- ``crosses``: the Mystic Cross figures (keys, holding limits, combat values) and token
  moves (attract, recruit, push, tokens leaving with a card);
- ``plays``: playing cards (stations, influences, commands), abilities, their legality;
- ``combat``: the attack and the fight;
- ``turns``: the seven phases as the kit's phase objects, the turn's start and end;
- ``notation``, ``narration``, ``rendering``: words for actions, events and positions;
- ``engine``: ``KultGame`` (the options) and ``KultState`` (the position).
"""

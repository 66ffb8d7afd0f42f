"""HKK: the collectible card game of creatures, buildings, items and spells
(docs/rules/hkk.md, HK-1 … HK-11), on the card-game kit (``tabletop.envs.core.cards``).

Only the card model exists so far; the rules engine, encoders and env come later. Modules:

- ``effects``: the game's vocabulary of effect primitives, conditions and statics;
- ``cards``: the pool and deck file formats, their validation and the compiled cards.
"""

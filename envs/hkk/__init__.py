"""HKK: the collectible card game of creatures, buildings, items and spells
(docs/rules/hkk.md, HK-1 … HK-11), on the card-game kit (``tabletop.envs.core.cards``).
The env is ``tabletop.envs.hkk_v0`` (docs/games/hkk.md). Modules:

- ``effects``: the game's vocabulary of effect primitives, conditions and statics;
- ``cards``: the pool and deck file formats, their validation and the compiled cards;
- ``engine``: the match (``HkkGame``) and the position (``HkkState``);
- ``steps``, ``turns``: the turn's steps and their phase objects (HK-3);
- ``actions``, ``notation``, ``rendering``: the action space, its text, the picture;
- ``zones``, ``figures``, ``plays``, ``combat``, ``galetki``: where cards are, what they
  are worth now, playing cards and abilities (HK-7 … HK-9), combat (HK-6), eating mutants
  and body parts (HK-4.5, HK-9.4);
- ``encoders``: the flat and entity observations (HK-11.1);
- ``heuristic``: the rule-based baseline player.
"""

"""The card-game kit: shared machinery for games whose cards are data, knowing no game.

- ``data``: reading card and deck files (TOML) under size and shape limits, and one error
  format naming the file, the card and the field; a pool's arrays of tables and a game's
  deck rules declared as data and checked here.
- ``zones``: card instances (an id per physical card) and zones with an owner and a
  visibility; one move operation that keeps who has seen each card; copies and card
  conservation checks; what caches key on (the table's version and the stamps of every
  zone and slot), moved by every operation and every change of a counted mark (``Marked``).
- ``hidden``: determinization from the zone model (``redeal``); a game's
  ``resample_hidden`` retries such deals until one fits what the observer knows beyond the
  cards with ``resample_consistent`` of ``envs/core/engine.py``, the retry loop every game
  shares.
- ``copies``: the start and end of every state's ``_copy`` (``bare_copy``,
  ``copy_last_move``) and its re-dealt copy for ``resample_hidden`` (``redealt_copy``).
- ``vocabulary``: one registry per game of effect primitives (parameter schema, selectors,
  run function, traits for encoders and heuristics), typed selectors, conditions, trigger
  events and continuous effects; effects are parsed into typed objects at load.
- ``events``: triggers dispatched by event name, conditions checked, effects resolved.
- ``continuous``: figures computed from the cards in play, cached until the table changes.
- ``phases``: turn structure as phase objects (each naming its phase), response windows
  for the non-active player, and the one ending of a game (``end_game``).
- ``priority``: a round of passing priority: who holds it, passes in a row, when it closes.
- ``chain``: a last-in-first-out chain of answers, answered in priority rounds.
- ``pending``: decisions owed by a seat outside the phase order, asked before the phase.
- ``encoding``: a zone as counts per card, or as rows of per-card features.
- ``actions``: a fixed action space as named mixed-radix blocks (``ActionLayout``).

docs/adding-a-game.md ("A card game on the kit") walks through using it.
"""

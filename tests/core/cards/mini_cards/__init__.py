"""Mini Cards: a test-only card game built from the card-game kit (envs/core/cards), to show
that a new card game needs no code of another game: cards as data, hidden hands and decks,
a trigger event, a continuous effect, instants answered on a chain."""

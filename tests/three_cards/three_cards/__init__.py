"""Three Cards: the example game of docs/adding-a-game.md, laid out as a real game is."""

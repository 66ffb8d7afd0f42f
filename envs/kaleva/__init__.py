"""Kaleva: a 2-player board game of hidden character cards (docs/rules/kaleva.md)."""

"""Kaleva: a 2-player board game of hidden character cards (shared/rules/kaleva.md)."""

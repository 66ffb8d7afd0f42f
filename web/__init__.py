"""The web table (``tabletop serve``): play any registered game in the browser against any
agents, watch agents play, and replay finished games; needs the ``[web]`` extra.

``store`` keeps the games in SQLite, ``tables`` runs them (seats, links, what each seat is
shown), ``replays`` steps through finished ones, ``app`` is the HTTP side and ``static``
holds the pages, which draw every game from ``State.view`` (``envs.core.view``).
"""

"""Playing many games and counting them: which games agents play and playing them
(``schedules``), the one runner of games in worker processes (``runner``), game records
(``records``), one side's wins, draws and losses with their intervals (``tally``), what the
games say about the agents (``standings``), result statistics, speed rounds and tables
(``results``) and the figures of an evaluation or a balance run (``plots``).

Below ``web``, ``training`` and ``cli``: the web table imports recorded games from here, the
commands and the trainers play and count their games with it.
"""

"""Playing many games and counting them: game records (``records``), one side's wins, draws
and losses with their intervals (``tally``), result statistics and tables (``results``) and
the figures of an evaluation or a balance run (``plots``).

Below ``web`` and ``training``: the web table imports recorded games from here, the
commands and the trainers count their games with it.
"""

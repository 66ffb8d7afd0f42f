"""The ``tabletop`` command line: the entry point (``main``), the argument helpers every
subcommand shares (``options``) and one module per subcommand.

The top layer: a subcommand may import every other package, and nothing imports a
subcommand, so the code two commands (or a command and a trainer) share lives below, in
``tabletop.matches`` or ``tabletop.training``.
"""

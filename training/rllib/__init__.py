"""The Ray RLlib backend of ``tabletop train`` (``--backend rllib``, docs/distributed.md).

It needs the ``[distributed]`` extra (``pip install 'tabletop[distributed]'``); nothing
else in the package imports it.
"""

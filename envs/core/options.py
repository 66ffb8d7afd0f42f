"""Game option values written as text, as a command line or a web form gives them.

Beside the option checks of ``protocol.check_options``: the command line (``--option``) and
the web table's new-table form read values the same way, so an option means the same thing
wherever it is typed.
"""

from __future__ import annotations

OptionScalar = bool | int | float | str
OptionValue = OptionScalar | tuple[OptionScalar, ...]


def parse_option_value(text: str) -> OptionValue:
    """``"true"`` -> True, ``"2"`` -> 2, ``"0.5"`` -> 0.5, anything else stays text (a path
    too); a comma makes a tuple of such items, so options that take several values are
    writable on a command line: ``"warrior,mage"`` -> ("warrior", "mage"), ``"3,"`` -> (3,)."""
    if "," not in text:
        return _parse_scalar(text)
    items = [item.strip() for item in text.split(",")]
    if items[-1] == "":
        items.pop()  # a trailing comma: a one-item tuple, as in Python
    if "" in items:
        raise ValueError(f"empty item in the list {text!r}")
    return tuple(_parse_scalar(item) for item in items)


def _parse_scalar(text: str) -> OptionScalar:
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for number_type in (int, float):
        try:
            return number_type(text)
        except ValueError:
            pass
    return text

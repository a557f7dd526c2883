"""The errors halluscope raises on purpose, each carrying what the caller needs to
point at the mistake (docs/architecture.md#input-validationpy-errorspy).

Both classes subclass ``ValueError`` *and* ``TypeError``: callers written against the
plain built-in errors this package raised before keep working, whichever of the two
they catch. Surfaces (the CLI, the Space) read the attributes instead of parsing the
message.
"""

from __future__ import annotations


class HalluscopeError(Exception):
    """Base of every error halluscope raises on purpose."""


class InputError(HalluscopeError, ValueError, TypeError):
    """A bad input row: ``row`` (0-based, None for a whole column) and ``field``
    ("predictions", "sources", "references", "publication_dates", ...)."""

    def __init__(self, message: str, *, row: int | None = None, field: str | None = None) -> None:
        self.row = row
        self.field = field
        #: the message without the "row N: " prefix (for callers that renumber rows)
        self.message = message
        prefix = f"row {row}: " if row is not None else ""
        super().__init__(prefix + message)


class OptionError(HalluscopeError, ValueError, TypeError):
    """A bad option value or an unknown option name: ``option`` names it."""

    def __init__(self, message: str, *, option: str | None = None) -> None:
        self.option = option
        super().__init__(message)

"""The command's own errors: which exit code each mistake gets (:func:`halluscope.cli.main`)."""

from __future__ import annotations

from ..errors import HalluscopeError


class LineError(HalluscopeError):
    """A bad input row that stops the run (exit code 1): the message names the file,
    line and field. (The API's row errors, :class:`halluscope.errors.InputError`, are
    turned into this one with the input line in place of the API's row.)"""


class CommandError(HalluscopeError):
    """A mistake in the command or what it names (exit code 2): an unknown metric, a
    refused option or device, a model that cannot be loaded, a missing or ambiguous
    field, an input or output path the command cannot use."""


class FileError(CommandError):
    """A file the command cannot use as asked (exit code 2): a missing folder,
    identical output paths, text that is not UTF-8, an incomplete scores file."""

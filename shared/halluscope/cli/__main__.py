"""``python -m halluscope.cli``: the ``halluscope`` command."""

import sys

from .parser import command

sys.exit(command())

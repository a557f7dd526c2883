"""``python -m halluscope.cli``: the ``halluscope`` command."""
import sys

from .parser import main

sys.exit(main())

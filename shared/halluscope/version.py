"""The package version: written here once; ``pyproject.toml`` reads it without importing
anything, and the package, the signatures and the CLI import it from here (not from the
package's ``__init__``, which imports the whole API)."""

__version__ = "0.1.0"

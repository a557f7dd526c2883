"""Text helpers the edit functions share: a replacement spliced into a span, a word in
another word's case, and the one stretch where an edited summary differs."""

from __future__ import annotations


def _replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def match_case(new: str, old: str) -> str:
    """``new`` in the case of ``old``: ALL CAPS, Capitalised or as given."""
    if len(old) > 1 and old.isupper():
        return new.upper()
    if old[:1].isupper():
        return new[:1].upper() + new[1:]
    return new


def changed_span(original: str, edited: str) -> tuple[int, int, int, str, str]:
    """(start, end in the original, end in the edited, old text, new text) of the one
    stretch where the two differ (common prefix and suffix removed)."""
    start = 0
    while start < min(len(original), len(edited)) and original[start] == edited[start]:
        start += 1
    end_o, end_e = len(original), len(edited)
    while end_o > start and end_e > start and original[end_o - 1] == edited[end_e - 1]:
        end_o, end_e = end_o - 1, end_e - 1
    # whole words: "first" -> "last" differ in "fir" / "la" only
    while start > 0 and original[start - 1].isalnum() and edited[start - 1].isalnum():
        start -= 1
    while end_o < len(original) and end_e < len(edited) and original[end_o].isalnum():
        end_o, end_e = end_o + 1, end_e + 1
    return start, end_o, end_e, original[start:end_o], edited[start:end_e]

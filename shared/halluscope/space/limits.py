"""What the apps accept and how long a request may run: input caps in characters and
spaCy tokens, a time budget per request, a concurrency limit (docs/space.md)."""

from __future__ import annotations

import ctypes
import html
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from ..registry import ModelNotAvailableError
from ..validation import validate_inputs

LOGGER = logging.getLogger("halluscope.space")


#: the longest texts the apps accept, in characters (longer ones get a message)
MAX_SOURCE_CHARS = 20_000
MAX_REFERENCE_CHARS = 3_000
MAX_SUMMARY_CHARS = 3_000
#: ... and in spaCy tokens (:func:`count_tokens`): above the most any SummaC or FRANK
#: text has within the character caps (4,337 tokens in 20,000 characters, 789 in 3,000),
#: while a text of amounts or percentages ("$37m $74m ...") has 0.5 tokens a character
#: against prose's 0.2 and took 2.2 s at the character caps on a 2-core CPU
#: (docs/space.md#input-caps)
MAX_SOURCE_TOKENS = 4_500
MAX_REFERENCE_TOKENS = 800
MAX_SUMMARY_TOKENS = 800
#: text -> (character cap, token cap)
CAPS = {
    "source": (MAX_SOURCE_CHARS, MAX_SOURCE_TOKENS),
    "reference": (MAX_REFERENCE_CHARS, MAX_REFERENCE_TOKENS),
    "summary": (MAX_SUMMARY_CHARS, MAX_SUMMARY_TOKENS),
}


class InputProblem(ValueError):
    """Input the apps refuse; its text is shown to the user as it is."""


# ------------------------------------------------------------ safety: text, time, load

#: seconds one request may score (environment variable; default :data:`DEFAULT_TIME_BUDGET`)
TIME_BUDGET_ENV = "HALLUSCOPE_SPACE_SECONDS"
DEFAULT_TIME_BUDGET = 30.0
#: requests scored at once, and requests waiting in the queue (environment variables)
CONCURRENCY_ENV = "HALLUSCOPE_SPACE_CONCURRENCY"
QUEUE_SIZE_ENV = "HALLUSCOPE_SPACE_QUEUE"
DEFAULT_CONCURRENCY = 1
DEFAULT_QUEUE_SIZE = 16

_MARKDOWN_SYNTAX = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>:])")


def markdown_text(text: str) -> str:
    """``text`` for a Markdown component, shown as written: HTML special characters
    become entities (an ``<img>`` is shown, never fetched) and Markdown syntax is
    backslash-escaped (no links, emphasis or headings)."""
    return _MARKDOWN_SYNTAX.sub(r"\\\1", html.escape(str(text), quote=False))


def _env_number(name: str, default: float, kind: type = float) -> Any:
    """A positive number from the environment variable ``name`` (``default`` when unset
    or not a positive number)."""
    try:
        value = kind(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def time_budget() -> float:
    """Seconds one request may score: ``HALLUSCOPE_SPACE_SECONDS`` or 30."""
    return _env_number(TIME_BUDGET_ENV, DEFAULT_TIME_BUDGET)


class BudgetExceeded(Exception):
    """A request ran past its time budget; its text is shown to the user."""


class _Stop(BaseException):
    """Raised inside a scoring thread that ran past its budget (a BaseException, so
    that no ``except Exception`` in the scoring code swallows it)."""


#: one scoring thread at a time per process; a thread stopped for its budget holds it
#: until it has really stopped, so runaway work never piles up
_WORKER_GATE = threading.Lock()


def _stop_thread(thread: threading.Thread) -> None:
    """Raise :class:`_Stop` in ``thread`` at its next Python instruction (CPython's
    ``PyThreadState_SetAsyncExc``; work inside one long C call stops when it returns)."""
    if thread.ident is None:  # never started: nothing runs to stop
        return
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(_Stop))


def run_with_budget(function: Callable[..., Any], *args: Any, budget: float | None = None, **kwargs: Any) -> Any:
    """``function(*args, **kwargs)`` in a scoring thread, waiting at most ``budget``
    seconds (default :func:`time_budget`), counted from the call, so a wait for an
    earlier stopped request counts too. Past the budget the thread is stopped and
    :class:`BudgetExceeded` raised with a message for the page; the function's own
    exceptions are raised as they are."""
    budget = time_budget() if budget is None else budget
    deadline = time.monotonic() + budget
    if not _WORKER_GATE.acquire(timeout=budget):
        raise BudgetExceeded(
            f"The app is still stopping an earlier request that ran past its time budget "
            f"({budget:g} s); try again in a moment."
        )
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = function(*args, **kwargs)
        except _Stop:
            pass
        except BaseException as error:  # handed to the caller
            outcome["error"] = error
        finally:
            _WORKER_GATE.release()

    thread = threading.Thread(target=work, name="halluscope-space-scoring", daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()))
    if thread.is_alive():
        _stop_thread(thread)
        raise BudgetExceeded(
            f"Scoring took longer than {budget:g} s, this app's time budget per request, and "
            "was stopped. Shorter texts score faster; the halluscope package and the "
            "evaluate metrics have no time limit."
        )
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


# --------------------------------------------------------------------------- inputs


def count_tokens(text: str) -> int:
    """The number of spaCy tokens of ``text`` as the default pipeline's tokenizer
    (with the parser's guard against pathological runs) splits it; linear time."""
    from ..parsing import guarded_doc
    from ..resources import get_parse_cache

    return len(guarded_doc(get_parse_cache().nlp, text))


def check_texts(source: str, summary: str, reference: str = "") -> None:
    """Raise :class:`InputProblem` for an empty source or summary, a value that is not
    text, or an over-long text (:data:`CAPS`: characters first, then tokens), and the
    API's :class:`~halluscope.errors.InputError` for a text no model can read. The
    reference follows the API's table (docs/api.md#what-a-reference-may-be): None, ``""``
    or whitespace is no reference; ``0``, ``False`` or a list is refused."""
    texts = {"source": source, "summary": summary, "reference": reference}
    for label, text in texts.items():
        if text is not None and not isinstance(text, str):
            raise InputProblem(f"The {label} must be text, got {type(text).__name__}.")
    if not (source or "").strip():
        raise InputProblem("The source is empty: paste the document the summary was written from.")
    if not (summary or "").strip():
        raise InputProblem("The summary is empty: paste the summary to check.")
    advice = (
        "Shorten it (nothing was cut); for longer texts use the halluscope package or the evaluate metric directly."
    )
    for label, (max_chars, _) in CAPS.items():
        if len(texts[label] or "") > max_chars:
            raise InputProblem(
                f"The {label} is too long: {len(texts[label]):,} characters, this app accepts at "
                f"most {max_chars:,}. {advice}"
            )
    # the API's own checks (lone surrogates, invisible-only texts) before spaCy's tokenizer sees the texts
    validate_inputs([summary], [source], [reference] if reference else None)
    for label, (_, max_tokens) in CAPS.items():
        tokens = count_tokens(texts[label]) if texts[label] else 0
        if tokens > max_tokens:
            raise InputProblem(
                f"The {label} is too long: {tokens:,} tokens (words, numbers and symbols), this "
                f"app accepts at most {max_tokens:,}. {advice}"
            )


def _problem_message(error: BaseException) -> str:
    """The page's text for an exception from scoring."""
    if isinstance(error, (InputProblem, BudgetExceeded)):
        return str(error)
    if isinstance(error, ModelNotAvailableError):
        return f"A model is not available: {error}"
    if isinstance(error, (ValueError, TypeError)):
        return f"The input was refused: {error}"
    LOGGER.exception("scoring failed")
    return f"Scoring failed ({type(error).__name__}): {error}"

"""Publication dates, one per row, against which QHI resolves relative dates
("yesterday", "last year"; docs/papers.md)."""

from __future__ import annotations

import datetime as _dt


def validate_publication_dates(dates, n_rows: int) -> list[_dt.date | None]:
    """``None`` or one entry per row: ``None``, ``""``, a ``date``/``datetime`` or an ISO
    string, between 0100-01-01 and 9899-12-31 (relative dates are resolved by calendar
    arithmetic around the date, which must stay inside ``datetime``'s years 1-9999).
    Errors are :class:`halluscope.errors.InputError` naming row and field."""
    from .errors import InputError

    field = "publication_dates"
    lowest, highest = _dt.date(100, 1, 1), _dt.date(9899, 12, 31)
    if dates is None:
        return [None] * n_rows
    if isinstance(dates, (str, bytes, _dt.date)):
        raise InputError("`publication_dates` must be a list with one entry per prediction", field=field)
    try:
        dates = list(dates)
    except TypeError:
        raise InputError(f"`publication_dates` must be a list, got {type(dates).__name__}", field=field) from None
    if len(dates) != n_rows:
        raise InputError(f"`publication_dates` has {len(dates)} rows but `predictions` has {n_rows}", field=field)
    out: list[_dt.date | None] = []
    for row, value in enumerate(dates):
        if value is None or value == "":
            out.append(None)
            continue
        if isinstance(value, _dt.datetime):
            day = value.date()
        elif isinstance(value, _dt.date):
            day = value
        elif isinstance(value, str):
            try:
                day = _dt.date.fromisoformat(value.strip()[:10])
            except ValueError:
                raise InputError(
                    f"`publication_dates` {value!r} is not an ISO date (YYYY-MM-DD)", row=row, field=field
                ) from None
        else:
            raise InputError(
                f"`publication_dates` must be a date or ISO string, got {type(value).__name__}", row=row, field=field
            )
        if not lowest <= day <= highest:
            raise InputError(
                f"`publication_dates` {day.isoformat()} is outside the supported range "
                f"{lowest.isoformat()} to {highest.isoformat()} (relative dates around it "
                "could leave the calendar)",
                row=row,
                field=field,
            )
        out.append(day)
    return out

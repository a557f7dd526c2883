"""Bad input on every surface (API, evaluate modules, CLI, Space): each case either
raises a clear error naming row and field (``InputError.row``/``.field``), an option
error naming its option, a one-line CLI ``error:`` naming line and field, a Space
message, or is a documented behaviour checked by its result. Nothing is scored
silently wrong, and the CLI never prints a traceback."""

import json
import math
import os

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import pytest  # noqa: E402
from halluscope import score_chi, score_ehi, score_qhi  # noqa: E402
from halluscope.cli import main  # noqa: E402
from halluscope.errors import InputError, OptionError  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = "Sales rose 12% to $4.2 billion in 2023, Apple said on Monday."
SUMMARY = "Apple said sales rose 12%."

#: (label, value, what the message says about it) for a text field
BAD_TEXTS = [
    ("none", None, "is None"),
    ("int", 3, "must be a string, got int"),
    ("bytes", b"Apple", "must be a string, got bytes"),
    ("dict", {"t": "x"}, "must be a string, got dict"),
    ("nan", float("nan"), "must be a string, got float"),
    ("surrogate", "Broken \ud83d emoji.", "holds a lone surrogate (U+D83D at character 7)"),
    ("zero-width", "\u200b\u200d", "has only invisible characters"),
    ("noncharacter", "Sales \uffff rose.", "holds a Unicode noncharacter (U+FFFF at character 6)"),
]
#: a list is a valid reference row (several references), so it is bad only elsewhere
BAD_TEXT_OR_LIST = BAD_TEXTS + [("list", ["Apple"], "must be a string, got list")]
BAD_REFERENCES = [
    (label, value, said.replace("must be a string,", "must be a string or a list of strings,"))
    for label, value, said in BAD_TEXTS
    if label != "none"
] + [
    ("false", False, "`references` must be a string or a list of strings, got bool"),
    ("empty-list", [], '`references` is an empty list: for a row without reference give None or ""'),
    ("list-with-none", ["ok", None], "`references[1]` must be a string, got NoneType"),
    ("list-with-int", ["ok", 3], "`references[1]` must be a string, got int"),
    ("list-with-blank", ["ok", " "], "`references[1]` is empty or whitespace-only"),
]


def _columns(field, value, row=1):
    columns = {"predictions": [SUMMARY, SUMMARY], "sources": [SOURCE, SOURCE], "references": ["", ""]}
    columns[field] = list(columns[field])
    columns[field][row] = value
    return columns


def _cases(field, values, row=1):
    return [pytest.param(field, value, said, row, id=f"{field}-{label}-row{row}") for label, value, said in values]


API_CASES = (
    _cases("predictions", BAD_TEXT_OR_LIST)
    + _cases("sources", BAD_TEXT_OR_LIST)
    + _cases("references", BAD_REFERENCES)
    + _cases("sources", BAD_TEXTS[:2], row=0)
)


# ------------------------------------------------------------------------------ API


@pytest.mark.parametrize("field, value, said, row", API_CASES)
def test_api_names_row_and_field(field, value, said, row):
    columns = _columns(field, value, row)
    with pytest.raises(InputError) as caught:
        score_qhi(columns["predictions"], columns["sources"], columns["references"])
    assert (caught.value.row, caught.value.field) == (row, field)
    assert said in str(caught.value) and str(caught.value).startswith(f"row {row}: ")


@pytest.mark.parametrize(
    "dates, row, said",
    [
        (["2024-01-01", "9999-12-31"], 1, "9999-12-31 is outside the supported range 0100-01-01 to 9899-12-31"),
        (["0001-01-01", None], 0, "0001-01-01 is outside the supported range"),
        (["yesterday", None], 0, "'yesterday' is not an ISO date"),
        ([None, 20240101], 1, "must be a date or ISO string, got int"),
        ([None, float("nan")], 1, "must be a date or ISO string, got float"),
        (["<img src=x>", None], 0, "'<img src=x>' is not an ISO date"),
    ],
)
def test_api_publication_dates_name_row_and_field(dates, row, said):
    with pytest.raises(InputError) as caught:
        score_qhi([SUMMARY, SUMMARY], [SOURCE, SOURCE], publication_dates=dates)
    assert (caught.value.row, caught.value.field) == (row, "publication_dates") and said in str(caught.value)


@pytest.mark.parametrize(
    "call, said",
    [
        (lambda: score_qhi(SUMMARY, [SOURCE]), "`predictions` must be a list of strings, not a single string"),
        (lambda: score_qhi([SUMMARY], None), "`sources` is required"),
        (lambda: score_qhi([SUMMARY, SUMMARY], [SOURCE]), "`sources` has 1 rows but `predictions` has 2"),
        (lambda: score_qhi([SUMMARY], [SOURCE], "ref"), "not a single string"),
        (lambda: score_qhi([SUMMARY], [SOURCE], publication_dates="2024-01-01"), "one entry per prediction"),
    ],
)
def test_api_whole_column_errors_name_the_field(call, said):
    with pytest.raises(InputError, match=said.replace("(", r"\(").replace(")", r"\)")) as caught:
        call()
    assert caught.value.row is None and caught.value.field is not None


@pytest.mark.parametrize(
    "weights, said",
    [
        ({"qhi": 0}, "must be a positive finite number, got 0"),
        ({"qhi": float("nan")}, "got nan"),
        ({"qhi": 1e-300}, "differ by more than 1e+12 times"),
        ({"bleu": 1}, "unknown dimensions ['bleu']"),
    ],
)
def test_api_bad_weights_name_the_option(weights, said):
    with pytest.raises(OptionError) as caught:
        score_chi([SUMMARY], [SOURCE], weights=weights)
    assert caught.value.option == "weights" and said in str(caught.value)


def test_documented_behaviours():
    # an empty or whitespace-only prediction is scored as a summary with no units
    empty = score_ehi(["", "  "], [SOURCE, SOURCE])
    assert all(math.isnan(x) for x in empty["ehi_scores"])
    # "" or None as a reference selects the reference-free mode of that row
    free = score_qhi([SUMMARY, SUMMARY], [SOURCE, SOURCE], ["", None], return_details=True)
    assert [row["reference_free"] for row in free["details"]] == [True, True]
    # weights are relative: 1e308 each is equal weighting (no overflow to NaN)
    huge = score_chi([SUMMARY], [SOURCE], weights={"ehi": 1e308, "rhi": 1e308, "qhi": 1e308})
    assert huge["chi_scores"] == score_chi([SUMMARY], [SOURCE])["chi_scores"]
    assert not math.isnan(huge["chi_scores"][0])


# ------------------------------------------------------------------ evaluate modules


@pytest.fixture(scope="module")
def chi_module():
    import evaluate

    return evaluate.load(os.path.join(REPO, "metrics", "chi"))


EVALUATE_CASES = (
    _cases("predictions", BAD_TEXT_OR_LIST)
    + _cases("sources", BAD_TEXT_OR_LIST)
    + _cases("references", BAD_REFERENCES)
    + _cases("predictions", BAD_TEXTS[:4], row=0)
)


@pytest.mark.parametrize("field, value, said, row", EVALUATE_CASES)
def test_evaluate_checks_every_row(chi_module, field, value, said, row):
    """evaluate itself checks row 0 only and str()s the rest; the modules check all."""
    with pytest.raises(InputError) as caught:
        chi_module.compute(**_columns(field, value, row))
    assert (caught.value.row, caught.value.field) == (row, field) and said in str(caught.value)


def test_evaluate_add_batch_counts_rows_across_batches(chi_module):
    chi_module.add_batch(predictions=[SUMMARY], references=[""], sources=[SOURCE])
    with pytest.raises(InputError) as caught:
        chi_module.add_batch(predictions=[SUMMARY, {"t": "x"}], references=["", ""], sources=[SOURCE, SOURCE])
    assert (caught.value.row, caught.value.field) == (2, "predictions")
    with pytest.raises(InputError) as caught:
        chi_module.add(prediction=SUMMARY, reference="", sources=None)
    assert (caught.value.row, caught.value.field) == (1, "sources")
    result = chi_module.compute()  # the valid row added first is still there, alone
    assert result["chi_scores"] == score_chi([SUMMARY], [SOURCE])["chi_scores"]


def test_evaluate_missing_sources_column(chi_module):
    with pytest.raises(InputError, match="`sources` is required") as caught:
        chi_module.compute(predictions=[SUMMARY], references=[""])
    assert caught.value.field == "sources"


def test_evaluate_mixed_string_and_list_references_are_scored_like_the_api(chi_module):
    references = ["Apple said sales rose.", ["Sales rose 12%.", "Apple reported sales."]]
    result = chi_module.compute(predictions=[SUMMARY, SUMMARY], references=references, sources=[SOURCE, SOURCE])
    direct = score_chi([SUMMARY, SUMMARY], [SOURCE, SOURCE], references)
    assert [repr(x) for x in result["chi_scores"]] == [repr(x) for x in direct["chi_scores"]]


# ------------------------------------------------------------------------------- CLI


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")  # ASCII escapes
    return str(path)


GOOD = {"id": "a", "source": SOURCE, "prediction": SUMMARY, "reference": "", "date": "2024-01-02"}
ARGS = ["--reference-field", "reference", "--publication-date-field", "date", "--no-progress"]


@pytest.mark.parametrize(
    "changes, said",
    [
        ({"prediction": 3}, "field 'prediction': `predictions` must be a string, got int"),
        ({"prediction": None}, "field 'prediction': `predictions` is None; expected a string"),
        ({"prediction": {"t": "x"}}, "field 'prediction': `predictions` must be a string, got dict"),
        ({"prediction": ["x"]}, "field 'prediction': `predictions` must be a string, got list"),
        ({"prediction": "Broken \ud83d emoji."}, "field 'prediction': `predictions` holds a lone surrogate"),
        ({"source": "\u200b"}, "field 'source': `sources` has only invisible characters"),
        ({"source": ""}, "field 'source': `sources` is empty or whitespace-only"),
        ({"reference": 0}, "field 'reference': `references` must be a string or a list of strings, got int"),
        ({"reference": []}, "field 'reference': `references` is an empty list"),
        ({"reference": [3]}, "field 'reference': `references[0]` must be a string, got int"),
        ({"date": "9999-12-31"}, "field 'date': `publication_dates` 9999-12-31 is outside the supported range"),
        ({"date": "<img src=x>"}, "field 'date': `publication_dates` '<img src=x>' is not an ISO date"),
    ],
)
def test_cli_bad_rows_name_line_and_field(changes, said, tmp_path, capsys):
    path = _jsonl(tmp_path / "in.jsonl", [GOOD, {**GOOD, **changes}])
    assert main(["score", "--input", path, "--output", str(tmp_path / "out.jsonl"), *ARGS]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path} line 2: {said}") and err.count("\n") == 1
    assert not os.path.exists(tmp_path / "out.jsonl") and not os.path.exists(tmp_path / "out.jsonl.partial")


@pytest.mark.parametrize(
    "option, said",
    [
        ('weights={"qhi": 0}', "--option weights (chi): `weights['qhi']` must be a positive finite number, got 0"),
        ('weights={"qhi": 1e-300}', "--option weights (chi): `weights` {'qhi': 1e-300} differ by more than"),
        ("formula=papers", "--option formula (chi): "),
        ("no_such_option=1", "--option no_such_option: no option of chi has this name"),
    ],
)
def test_cli_bad_options_are_one_line(option, said, tmp_path, capsys):
    path = _jsonl(tmp_path / "in.jsonl", [GOOD])
    output = tmp_path / "out.jsonl"
    output.write_text("kept\n", encoding="utf-8")
    assert main(["score", "--input", path, "--output", str(output), *ARGS, "--option", option]) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith(f"error: {said}") and "Traceback" not in err
    assert output.read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize(
    "setup, arguments, said",
    [
        (
            lambda d: (d / "in.jsonl").write_bytes(b'{"source": "Caf\xe9", "prediction": "x"}\n'),
            ["score", "--input", "{d}/in.jsonl", "--output", "{d}/o.jsonl"],
            "{d}/in.jsonl line 1: not valid UTF-8",
        ),
        (
            lambda d: _jsonl(d / "in.jsonl", [GOOD]),
            ["score", "--input", "{d}/in.jsonl", "--output", "{d}/no/o.jsonl"],
            "--output {d}/no/o.jsonl: the folder",
        ),
        (
            lambda d: _jsonl(d / "in.jsonl", [GOOD]),
            ["score", "--input", "{d}/in.jsonl", "--output", "{d}/o.jsonl", "--summary-output", "{d}/o.jsonl"],
            "--summary-output {d}/o.jsonl is the --output file",
        ),
        (
            lambda d: (d / "s.jsonl").write_text(
                '{"line": 1, "scores": {"chi": {}}}\n{"line": 2, "sc', encoding="utf-8"
            ),
            ["report", "--input", "{d}/s.jsonl", "--output", "{d}/r.html"],
            "{d}/s.jsonl line 2: not a complete scores record",
        ),
        (
            lambda d: None,
            ["report", "--input", "{d}/missing.jsonl", "--output", "{d}/r.html"],
            "--input {d}/missing.jsonl: no such file",
        ),
    ],
)
def test_cli_file_problems_exit_2_in_one_line(setup, arguments, said, tmp_path, capsys):
    setup(tmp_path)
    arguments = [a.format(d=tmp_path) for a in arguments]
    assert main(arguments) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {said.format(d=tmp_path)}") and err.count("\n") == 1


# ----------------------------------------------------------------------------- Space


@pytest.mark.parametrize(
    "source, summary, date, said",
    [
        (None, SUMMARY, None, "The source is empty"),
        (SOURCE, 3, None, "The summary must be text, got int"),
        (SOURCE, "Broken \ud83d emoji.", None, "The input was refused: row 0: `predictions` holds a lone surrogate"),
        ("\u200b\u200b", SUMMARY, None, "The input was refused: row 0: `sources` has only invisible characters"),
        (SOURCE, SUMMARY, "9999-12-31", "The input was refused: row 0: `publication_dates` 9999-12-31 is outside"),
        (
            SOURCE,
            SUMMARY,
            '<img src="http://127.0.0.1:9/track.png">',
            "The input was refused: row 0: `publication_dates` '<img src=\"http://127.0.0.1:9/track.png\">' is not",
        ),
    ],
)
def test_space_messages(source, summary, date, said):
    import gradio as gr
    from halluscope import space

    display = space.display.score_for_display(source, "", summary, ["chi"], publication_date=date)
    assert display["ok"] is False and display["message"].startswith(said)
    status = space.app._chi_updates(gr, display)[0]
    assert "<" not in status  # shown as text, never as HTML


def test_space_acu_refuses_bad_text():
    from halluscope import space

    display = space.acu_display.acu_for_display(SOURCE, "Broken \ud83d emoji.", nli_scorer=lambda p, h: None)
    assert display["ok"] is False
    assert display["message"].startswith("The input was refused: row 0: `predictions` holds a lone surrogate")

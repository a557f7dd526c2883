"""One table of what a row's reference may be, on every surface (issue 57, class 4;
docs/api.md#what-a-reference-may-be): None, "" and whitespace mean no reference,
anything else that is not a string or a non-empty list of strings is an error naming
the row and field. Each surface is scored against the API's own answer."""

import json
import os

import pytest
from halluscope import Scorer, score_qhi
from halluscope.cli import main
from halluscope.errors import InputError
from halluscope.records import json_safe
from halluscope.validation import is_no_reference, row_references

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = "Apple said sales rose 12% to $4.2 billion in 2023."
SUMMARY = "Apple said sales rose 21% in 2023."
REFERENCE = "Sales rose 12% to $4.2 billion."

#: values that mean "no reference" in a row (absent is each surface's own case)
NO_REFERENCE = [None, "", "  \n\t"]
#: (value, what the error says): every other non-text
ERRORS = [
    (0, "`references` must be a string or a list of strings, got int"),
    (False, "`references` must be a string or a list of strings, got bool"),
    (True, "got bool"),
    (1.5, "got float"),
    (float("nan"), "got float"),
    ([], '`references` is an empty list: for a row without reference give None or ""'),
    ((), "`references` is an empty tuple"),
    (b"ref", "got bytes"),
    ({"text": REFERENCE}, "got dict"),
    ({REFERENCE}, "got set"),
    ([None], "`references[0]` must be a string, got NoneType"),
    ([REFERENCE, ""], "`references[1]` is empty or whitespace-only"),
    ([REFERENCE, 3], "`references[1]` must be a string, got int"),
]
#: the errors a JSON file can hold
JSON_ERRORS = [
    (value, said)
    for value, said in ERRORS
    if value == value and not isinstance(value, (bytes, set, tuple, float)) or value == 1.5
]


def _ids(values):
    return [repr(value) for value in values]


@pytest.fixture(scope="module")
def free():
    """The API's reference-free answer for SUMMARY, and its reference-based one."""
    return (
        score_qhi([SUMMARY], [SOURCE], None, return_details=True),
        score_qhi([SUMMARY], [SOURCE], [REFERENCE], return_details=True),
    )


def _same(result, row, expected):
    """Row ``row`` of ``result`` scores as the one row of ``expected``, details included."""
    assert repr(result["qhi_scores"][row]) == repr(expected["qhi_scores"][0])
    assert result["details"][row] == expected["details"][0]


# ------------------------------------------------------------------------- the table


@pytest.mark.parametrize("value", NO_REFERENCE, ids=_ids(NO_REFERENCE))
def test_the_table_reads_none_and_blank_text_as_no_reference(value):
    assert is_no_reference(value) and row_references(value, 4) == ()


@pytest.mark.parametrize("value, said", ERRORS, ids=_ids(v for v, _ in ERRORS))
def test_the_table_refuses_every_other_non_text(value, said):
    assert not is_no_reference(value)
    with pytest.raises(InputError) as caught:
        row_references(value, 4)
    assert (caught.value.row, caught.value.field) == (4, "references") and said in str(caught.value)


def test_the_table_reads_strings_and_lists_of_strings_as_references():
    assert row_references(REFERENCE, 0) == (REFERENCE,)
    assert row_references([REFERENCE, "Apple sold more."], 0) == (REFERENCE, "Apple sold more.")
    assert row_references((REFERENCE,), 0) == (REFERENCE,)


# --------------------------------------------------------------------------------- API


def test_api_scores_each_no_reference_row_reference_free(free):
    reference_free, with_reference = free
    rows = NO_REFERENCE + [REFERENCE, [REFERENCE]]
    result = score_qhi([SUMMARY] * len(rows), [SOURCE] * len(rows), rows, return_details=True)
    for row in range(len(NO_REFERENCE)):
        _same(result, row, reference_free)
        assert result["details"][row]["reference_free"] is True
    _same(result, len(NO_REFERENCE), with_reference)
    _same(result, len(NO_REFERENCE) + 1, with_reference)
    # the case of the issue: 12% is the reference's, so the reference-based and
    # reference-free answers differ (a reference silently dropped would show)
    assert result["details"][len(NO_REFERENCE)]["reference_free"] is False


@pytest.mark.parametrize("value, said", ERRORS, ids=_ids(v for v, _ in ERRORS))
def test_api_refuses_each_other_value_naming_row_and_field(value, said):
    with pytest.raises(InputError) as caught:
        score_qhi([SUMMARY] * 3, [SOURCE] * 3, [REFERENCE, None, value])
    assert (caught.value.row, caught.value.field) == (2, "references")
    assert str(caught.value).startswith("row 2: ") and said in str(caught.value)


# ------------------------------------------------------------------------------ Scorer


@pytest.fixture(scope="module")
def scorer():
    return Scorer("qhi", load=False)


def test_score_batches_reads_absent_none_and_blank_as_no_reference(scorer, free):
    reference_free, with_reference = free
    rows = (
        [{"prediction": SUMMARY, "source": SOURCE}, (SUMMARY, SOURCE), (SUMMARY, SOURCE, None)]
        + [{"prediction": SUMMARY, "source": SOURCE, "reference": value} for value in NO_REFERENCE]
        + [{"prediction": SUMMARY, "source": SOURCE, "reference": REFERENCE}]
    )
    results = list(scorer.score_batches(rows, batch_size=4, return_details=True, progress=False))
    merged = results[0].merge(results)
    for row in range(len(rows) - 1):
        _same(merged, row, reference_free)
    _same(merged, len(rows) - 1, with_reference)


def test_score_batches_of_only_no_reference_rows_is_a_reference_free_call(scorer, free):
    rows = [{"prediction": SUMMARY, "source": SOURCE, "reference": value} for value in NO_REFERENCE]
    (result,) = scorer.score_batches(rows, batch_size=8, return_details=True, progress=False)
    for row in range(len(rows)):
        _same(result, row, free[0])


@pytest.mark.parametrize("value, said", ERRORS, ids=_ids(v for v, _ in ERRORS))
@pytest.mark.parametrize("shape", ["mapping", "tuple"])
def test_score_batches_refuses_each_other_value_naming_its_row(scorer, shape, value, said):
    def row(reference):
        if shape == "tuple":
            return SUMMARY, SOURCE, reference
        return {"prediction": SUMMARY, "source": SOURCE, "reference": reference}

    rows = [row(REFERENCE), row(None), row(""), row(value)]  # the bad one: row 3, in the second batch
    with pytest.raises(InputError) as caught:
        list(scorer.score_batches(rows, batch_size=2, progress=False))
    assert (caught.value.row, caught.value.field) == (3, "references") and said in str(caught.value)
    assert "(in the batch starting at row 2)" in str(caught.value)


class _Columns:
    """What ``Scorer.score_dataset`` reads of a ``datasets.Dataset``, over plain lists
    (a Dataset column cannot mix ``0`` with strings)."""

    def __init__(self, **columns):
        self.columns = columns
        self.column_names = list(columns)
        self.num_rows = len(next(iter(columns.values())))

    def iter(self, batch_size):
        for start in range(0, self.num_rows, batch_size):
            yield {name: values[start : start + batch_size] for name, values in self.columns.items()}


def test_score_dataset_reads_none_and_blank_as_no_reference(scorer, free):
    import datasets

    references = NO_REFERENCE + [REFERENCE]
    dataset = datasets.Dataset.from_dict({"document": [SOURCE] * 4, "summary": [SUMMARY] * 4, "reference": references})
    result = scorer.score_dataset(
        dataset,
        prediction_column="summary",
        source_column="document",
        reference_column="reference",
        batch_size=2,
        return_details=True,
        progress=False,
    )
    for row in range(3):
        _same(result, row, free[0])
    _same(result, 3, free[1])


@pytest.mark.parametrize("value, said", ERRORS, ids=_ids(v for v, _ in ERRORS))
def test_score_dataset_refuses_each_other_value_naming_its_row(scorer, value, said):
    dataset = _Columns(prediction=[SUMMARY] * 3, source=[SOURCE] * 3, reference=[None, "", value])
    with pytest.raises(InputError) as caught:
        scorer.score_dataset(dataset, reference_column="reference", batch_size=2, progress=False)
    assert (caught.value.row, caught.value.field) == (2, "references") and said in str(caught.value)


# -------------------------------------------------------------------- evaluate module


@pytest.fixture(scope="module")
def qhi_module():
    import evaluate

    return evaluate.load(os.path.join(REPO, "metrics", "qhi"))


def test_evaluate_reads_none_and_blank_as_no_reference(qhi_module, free):
    references = NO_REFERENCE + [REFERENCE, [REFERENCE]]
    n = len(references)
    result = qhi_module.compute(
        predictions=[SUMMARY] * n, references=references, sources=[SOURCE] * n, return_details=True
    )
    for row in range(len(NO_REFERENCE)):
        _same(result, row, free[0])
    _same(result, n - 2, free[1])
    _same(result, n - 1, free[1])
    # a None first row (evaluate's own check of row 0 alone would have refused it)
    first = qhi_module.compute(predictions=[SUMMARY], references=[None], sources=[SOURCE], return_details=True)
    _same(first, 0, free[0])


def test_evaluate_add_takes_a_row_without_reference(qhi_module, free):
    qhi_module.add(prediction=SUMMARY, reference=None, source=SOURCE)
    qhi_module.add(prediction=SUMMARY, reference="", source=SOURCE)
    qhi_module.add(prediction=SUMMARY, reference=REFERENCE, source=SOURCE)
    result = qhi_module.compute(return_details=True)
    _same(result, 0, free[0])
    _same(result, 1, free[0])
    _same(result, 2, free[1])


@pytest.mark.parametrize("value, said", ERRORS, ids=_ids(v for v, _ in ERRORS))
def test_evaluate_refuses_each_other_value_naming_row_and_field(qhi_module, value, said):
    with pytest.raises(InputError) as caught:
        qhi_module.compute(predictions=[SUMMARY] * 3, references=[REFERENCE, None, value], sources=[SOURCE] * 3)
    assert (caught.value.row, caught.value.field) == (2, "references") and said in str(caught.value)


# --------------------------------------------------------------------------------- CLI


def _run_cli(tmp_path, references):
    rows = [
        {"id": str(k), "source": SOURCE, "prediction": SUMMARY, "reference": value}
        for k, value in enumerate(references)
    ]
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    output = tmp_path / "out.jsonl"
    code = main(
        [
            "score",
            "--input",
            str(path),
            "--output",
            str(output),
            "--metrics",
            "qhi",
            "--reference-field",
            "reference",
            "--no-progress",
        ]
    )
    return code, path, output


def test_cli_reads_null_and_blank_as_no_reference(tmp_path, free):
    code, _, output = _run_cli(tmp_path, NO_REFERENCE + [REFERENCE])
    assert code == 0
    records = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert [r["reference"] for r in records] == NO_REFERENCE + [REFERENCE]  # kept as given
    for record, expected in zip(records, [free[0]] * 3 + [free[1]], strict=True):
        assert record["details"]["qhi"] == json.loads(json.dumps(json_safe(expected["details"][0])))
        assert record["scores"]["qhi"]["qhi"] == expected["qhi_scores"][0]


@pytest.mark.parametrize("value, said", JSON_ERRORS, ids=_ids(v for v, _ in JSON_ERRORS))
def test_cli_refuses_each_other_value_naming_line_and_field(tmp_path, capsys, value, said):
    code, path, output = _run_cli(tmp_path, [REFERENCE, None, value])
    assert code == 1 and not output.exists()
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path} line 3: field 'reference': ") and said in err


# ------------------------------------------------------------------------------- Space


@pytest.mark.parametrize("value", NO_REFERENCE, ids=_ids(NO_REFERENCE))
def test_space_reads_none_and_blank_as_no_reference(value):
    from halluscope.space.display import score_for_display

    display = score_for_display(SOURCE, value, SUMMARY, ["qhi"])
    assert display["ok"] is True and display["reference_free"] is True


@pytest.mark.parametrize("value", [0, False, [], [REFERENCE]], ids=_ids([0, False, [], [REFERENCE]]))
def test_space_refuses_a_reference_that_is_not_text(value):
    from halluscope.space.display import score_for_display

    display = score_for_display(SOURCE, value, SUMMARY, ["qhi"])
    assert display["ok"] is False
    assert display["message"] == f"The reference must be text, got {type(value).__name__}."


def test_space_scores_each_value_as_the_api_does(free):
    from halluscope.space.display import score_for_display

    for value, expected, reference_free in ((REFERENCE, free[1], False), (None, free[0], True)):
        display = score_for_display(SOURCE, value, SUMMARY, ["qhi"])
        assert display["ok"] is True and display["reference_free"] is reference_free
        (row,) = [row for row in display["scores"] if row["metric"].lower().startswith("qhi")]
        assert row["score"] == expected["qhi_scores"][0]

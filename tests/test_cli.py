"""End-to-end tests of ``halluscope score``: the installed command in a subprocess, and
``halluscope.cli.main`` in-process for the other input formats and the error paths.

One subprocess scores the shared JSONL file (in chunks of 2, skipping its malformed
line 3) while this process computes the same scores with ``score_chi`` directly; the
other tests reuse both.
"""

import json
import os
import subprocess
import sys

import pytest
from halluscope import score_chi, score_dlsd_acu, score_qhi
from halluscope.cli import main
from halluscope.records import json_safe
from tiny_models import tiny_nli_model

HALLUSCOPE = os.path.join(os.path.dirname(sys.executable), "halluscope")

GITHUB_SOURCE = "Microsoft acquired the startup GitHub in 2018.\nThe deal was worth $7.5 billion."
BERLIN_SOURCE = (
    "Barack Obama met Angela Merkel in Berlin on Tuesday to discuss the World Health "
    "Organization's budget. The two leaders agreed to raise funding."
)
#: the valid examples; line 3 of the JSONL file is malformed, so they sit on lines 1, 2, 4, 5
EXAMPLES = [
    {
        "id": "faithful",
        "source": GITHUB_SOURCE,
        "reference": "Microsoft acquired GitHub for $7.5 billion in 2018.",
        "prediction": "Microsoft acquired GitHub for $7.5 billion in 2018.",
    },
    {
        "id": "entity-swap",
        "source": BERLIN_SOURCE,
        "reference": "Obama and Merkel met in Berlin to discuss WHO funding.",
        "prediction": "Barack Obama and Emmanuel Macron discussed the budget in Paris.",
    },
    {
        "id": "reference-free",
        "source": GITHUB_SOURCE,
        "reference": "",
        "prediction": "Microsoft bought GitHub for $9 billion in 2019.",
    },
    {
        "id": "quantity",
        "source": "Sales rose 12% to $4.2 billion in 2023.",
        "reference": "Sales grew 12% to $4.2 billion.",
        "prediction": "Sales rose 21% to $4.2 billion.",
    },
]
MALFORMED_LINE = '{"id": "broken", "source": "Sales rose.", "prediction": \n'
JSONL_LINES = [1, 2, 4, 5]


def _write_jsonl(path, rows, malformed_at=None):
    lines = [json.dumps(row) + "\n" for row in rows]
    if malformed_at is not None:
        lines.insert(malformed_at - 1, MALFORMED_LINE)
    path.write_text("".join(lines), encoding="utf-8")
    return str(path)


def _read_jsonl(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _scores_and_details(records):
    return [(record["scores"], record["details"]) for record in records]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def data_jsonl(workdir):
    return _write_jsonl(workdir / "data.jsonl", EXAMPLES, malformed_at=3)


@pytest.fixture(scope="module")
def subprocess_run(workdir, data_jsonl):
    """The installed command on the JSONL file (chunks of 2, --on-error skip), and the
    direct API result on the same texts, computed while the subprocess runs."""
    output = str(workdir / "subprocess.jsonl")
    command = [
        HALLUSCOPE,
        "score",
        "--input",
        data_jsonl,
        "--output",
        output,
        "--reference-field",
        "reference",
        "--on-error",
        "skip",
        "--chunk-size",
        "2",
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    direct = score_chi(
        [e["prediction"] for e in EXAMPLES],
        [e["source"] for e in EXAMPLES],
        [e["reference"] for e in EXAMPLES],
        return_details=True,
    )
    stdout, stderr = process.communicate(timeout=600)
    return {
        "returncode": process.returncode,
        "stdout": stdout,
        "stderr": stderr,
        "records": _read_jsonl(output) if os.path.exists(output) else None,
        "summary": json.loads((workdir / "subprocess.summary.json").read_text()),
        "direct": direct,
    }


def test_command_scores_equal_the_api(subprocess_run):
    assert subprocess_run["returncode"] == 0, subprocess_run["stderr"]
    records, direct = subprocess_run["records"], subprocess_run["direct"]
    assert [r["line"] for r in records] == JSONL_LINES
    assert [r["id"] for r in records] == [e["id"] for e in EXAMPLES]
    for row, (record, example) in enumerate(zip(records, EXAMPLES, strict=True)):
        assert {key: record[key] for key in ("source", "prediction", "reference")} == {
            key: example[key] for key in ("source", "prediction", "reference")
        }
        assert record["scores"] == {
            "chi": {
                name: json_safe(direct[f"{name}_scores"][row]) for name in ("chi", "ehi", "rhi", "qhi", "p_consistent")
            }
        }
        assert record["labels"] == {"chi": direct["labels"][row]}  # the shipped cut on p_consistent
        assert record["details"] == {"chi": json_safe(direct["details"][row])}
    # the invented entities are unsupported; the row with reference "" is reference-free
    entity_units = {u["text"]: u["status"] for u in records[1]["details"]["chi"]["ehi"]["units"]}
    assert entity_units["Emmanuel Macron"] == "unsupported" and entity_units["Paris"] == "unsupported"
    assert [r["details"]["chi"]["reference_free"] for r in records] == [False, False, True, False]


def test_skip_reports_the_malformed_line(subprocess_run):
    assert "data.jsonl line 3: not valid JSON" in subprocess_run["stderr"]
    assert "skipped 1 line: 3" in subprocess_run["stdout"]
    assert subprocess_run["summary"]["skipped"] == [
        {"line": 3, "reason": "not valid JSON (Expecting value at column 58)"}
    ]


def test_summary_table_and_progress(subprocess_run):
    summary, direct = subprocess_run["summary"], subprocess_run["direct"]
    assert summary["examples"] == 4
    assert summary["metrics"]["chi"]["signature"] == direct["signature"]
    for name in ("chi", "ehi", "rhi", "qhi"):
        assert summary["metrics"]["chi"]["scores"][name] == {
            "mean": direct[name],
            "defined": sum(v == v for v in direct[f"{name}_scores"]),
        }
    table = subprocess_run["stdout"].splitlines()
    assert table[0].split() == ["score", "mean", "defined", "signature"]
    assert table[1].split() == ["chi", f"{direct['chi']:.4f}", "4/4", direct["signature"]]
    assert table[2].split() == ["chi.ehi", f"{direct['ehi']:.4f}", f"{direct['ehi_defined']}/4"]
    assert "scoring: 100%" in subprocess_run["stderr"] and "4/4" in subprocess_run["stderr"]


def test_one_chunk_equals_chunks_of_two(subprocess_run, data_jsonl, workdir, capsys):
    output = str(workdir / "one-chunk.jsonl")
    assert (
        main(
            ["score", "--input", data_jsonl, "--output", output, "--reference-field", "reference", "--on-error", "skip"]
        )
        == 0
    )
    assert "scoring:" not in capsys.readouterr().err  # one chunk: no progress bar
    assert _read_jsonl(output) == subprocess_run["records"]


def test_csv_and_datasets_inputs_give_the_same_scores(subprocess_run, workdir):
    import csv

    import datasets

    csv_path = str(workdir / "data.csv")
    with open(csv_path, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["id", "source", "reference", "prediction"])
        writer.writeheader()
        writer.writerows(EXAMPLES)
    folder = str(workdir / "data_dataset")
    datasets.Dataset.from_list(EXAMPLES).save_to_disk(folder)
    expected = _scores_and_details(subprocess_run["records"])
    for path, label, positions in ((csv_path, "line", [2, 4, 5, 7]), (folder, "row", [0, 1, 2, 3])):
        output = str(workdir / f"from-{os.path.basename(path)}.jsonl")
        assert main(["score", "--input", path, "--output", output, "--reference-field", "reference"]) == 0
        records = _read_jsonl(output)
        # header on line 1; the GitHub source spans two lines: records give the line they start on
        assert [r[label] for r in records] == positions
        assert _scores_and_details(records) == expected


@pytest.mark.slow
def test_malformed_line_stops_the_command(data_jsonl, workdir):
    output = workdir / "stopped.jsonl"
    completed = subprocess.run(
        [HALLUSCOPE, "score", "--input", data_jsonl, "--output", str(output), "--reference-field", "reference"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 1
    assert completed.stderr.strip() == (f"error: {data_jsonl} line 3: not valid JSON (Expecting value at column 58)")
    assert not output.exists()  # checked before anything is scored


@pytest.mark.parametrize(
    "rows, arguments, message",
    [
        ([EXAMPLES[0], {"id": "x", "source": "A text."}], [], "line 2: missing field 'prediction'"),
        (
            [EXAMPLES[0], {"id": "x", "source": "A text.", "prediction": 42}],
            [],
            "line 2: field 'prediction': `predictions` must be a string, got int",
        ),
        (
            [{"id": "x", "source": "  ", "prediction": "A summary."}],
            [],
            "line 1: field 'source': `sources` is empty or whitespace-only",
        ),
        (
            [{"id": "x", "source": "A text.", "prediction": "A summary.", "reference": 0}],
            ["--reference-field", "reference"],
            "line 1: field 'reference': `references` must be a string or a list of strings, got int "
            '(for a row without reference give None or "")',
        ),
        (
            [EXAMPLES[0], {"id": "x", "text": "A text.", "summary": "A summary."}],
            ["--reference-field", "reference"],
            "line 2: missing field 'source'",
        ),
    ],
)
def test_bad_rows_name_line_and_field(rows, arguments, message, workdir, capsys):
    path = _write_jsonl(workdir / "bad.jsonl", rows)
    output = str(workdir / "bad-out.jsonl")
    assert main(["score", "--input", path, "--output", output, *arguments]) == 1
    assert capsys.readouterr().err == f"error: {path} {message}\n"


def test_bad_rows_are_skipped_and_listed(workdir, capsys):
    path = _write_jsonl(
        workdir / "skip.jsonl",
        [
            {"source": "Sales rose 5%.", "prediction": "Sales rose 5%."},
            {"source": "A text."},
            {"source": "Sales rose 5%.", "prediction": 7},
        ],
    )
    output = str(workdir / "skip-out.jsonl")
    assert main(["score", "--input", path, "--output", output, "--on-error", "skip"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        f"skipped {path} line 2: missing field 'prediction'",
        f"skipped {path} line 3: field 'prediction': `predictions` must be a string, got int",
    ]
    assert "skipped 2 lines: 2, 3" in captured.out
    assert [r["line"] for r in _read_jsonl(output)] == [1]


def test_csv_without_the_field_fails_at_once(workdir, capsys):
    path = workdir / "no-prediction.csv"
    path.write_text("id,source,summary\n1,A text.,A summary.\n", encoding="utf-8")
    assert main(["score", "--input", str(path), "--output", str(workdir / "x.jsonl"), "--on-error", "skip"]) == 2
    assert capsys.readouterr().err == (
        f"error: {path} has no field 'prediction' (fields: id, source, summary); "
        "the summaries look to be in 'summary': pass --prediction-field summary\n"
    )


@pytest.mark.parametrize(
    "rows, arguments, message",
    [
        # a field missing from the first row is a mistake in the command (as a CSV header), whatever --on-error says
        (
            [{"id": "x", "text": "A text.", "summary": "A summary."}],
            ["--source-field", "text", "--prediction-field", "summary", "--reference-field", "gold"],
            "line 1 has no field 'gold' (fields: id, text, summary)",
        ),
        # SummaC's layout: the summary is 'claim', the document 'document'
        (
            [{"document": BERLIN_SOURCE, "claim": "Obama met Merkel.", "label": 1}],
            ["--source-field", "document"],
            "line 1 has no field 'prediction' (fields: document, claim, label); the summaries look to be in 'claim': "
            "pass --prediction-field claim",
        ),
        # no field named as summaries are: no hint
        (
            [{"source": BERLIN_SOURCE, "text": "Obama met Merkel."}],
            [],
            "line 1 has no field 'prediction' (fields: source, text)",
        ),
        # FRANK's layout: the document is 'article'; the hint names the field with the longest text
        (
            [{"article": BERLIN_SOURCE, "summary": "Obama met Merkel.", "label": 1}],
            ["--prediction-field", "summary"],
            "line 1 has no field 'source' (fields: article, summary, label); the documents look to be in 'article': "
            "pass --source-field article",
        ),
    ],
)
def test_a_field_missing_from_the_first_row_is_a_command_error(rows, arguments, message, workdir, capsys):
    path = _write_jsonl(workdir / "first-row.jsonl", rows)
    assert main(["score", "--input", path, "--output", str(workdir / "x.jsonl"), "--on-error", "skip", *arguments]) == 2
    assert capsys.readouterr().err == f"error: {path} {message}\n"


def test_options_reach_every_metric_that_takes_them(workdir, capsys):
    path = _write_jsonl(workdir / "options.jsonl", EXAMPLES[:2])
    output = str(workdir / "options-out.jsonl")
    assert (
        main(
            [
                "score",
                "--input",
                path,
                "--output",
                output,
                "--metrics",
                "chi,qhi",
                "--reference-field",
                "reference",
                "--option",
                "formula=paper",
                "--option",
                "intransitive=none",
                "--option",
                "epsilon=0.1",
                "--option",
                "attribution=null",
                "--option",
                "relation-slots=head",
                "--option",
                'weights={"qhi": 2}',
            ]
        )
        == 0
    )
    texts = (
        [e["prediction"] for e in EXAMPLES[:2]],
        [e["source"] for e in EXAMPLES[:2]],
        [e["reference"] for e in EXAMPLES[:2]],
    )
    # qhi takes formula, epsilon and attribution; chi takes all six
    chi = score_chi(
        *texts,
        formula="paper",
        intransitive="none",
        epsilon=0.1,
        attribution=None,
        relation_slots="head",
        weights={"qhi": 2},
        return_details=True,
    )
    qhi = score_qhi(*texts, formula="paper", epsilon=0.1, attribution=None, return_details=True)
    records = _read_jsonl(output)
    assert [r["scores"]["chi"]["chi"] for r in records] == [json_safe(x) for x in chi["chi_scores"]]
    assert [r["details"]["qhi"] for r in records] == json_safe(qhi["details"])
    assert chi["signature"] in capsys.readouterr().out and "|w:ehi=1,rhi=1,qhi=2" in chi["signature"]


@pytest.mark.parametrize(
    "option, message",
    [
        ("formula", "--option 'formula': expected NAME=VALUE, e.g. formula=paper"),
        ("tau=0.5", "--option tau: no option of chi has this name (their options: attribution, "),
        ("nli_model=x", "--option nli_model: nli_model has its own flag; use --nli-model (e.g. --nli-model x)"),
        ("weights={}", "--option weights (chi): `weights` is empty; give a weight per dimension to change"),
        ('weights={"qhi": NaN}', "--option weights (chi): `weights['qhi']` must be a positive finite number, got nan"),
        ("formula=papers", "--option formula (chi): `formula` must be one of ('support', 'paper'), got 'papers'"),
        ("truecase=yes", "--option truecase (chi): `truecase` must be True or False, got 'yes'"),
    ],
)
def test_bad_options_are_refused_with_their_name(option, message, data_jsonl, workdir, capsys):
    assert (
        main(
            [
                "score",
                "--input",
                data_jsonl,
                "--output",
                str(workdir / "x.jsonl"),
                "--on-error",
                "skip",
                "--option",
                option,
            ]
        )
        == 2
    )
    assert capsys.readouterr().err.splitlines()[-1].startswith(f"error: {message}")


def _score_flags_naming_options():
    """``halluscope score``'s flags whose destination is the name of a metric option."""
    import argparse

    from halluscope import options
    from halluscope.cli.parser import build_parser

    names = {option.name for option in options.OPTIONS}
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {
        action.dest: action.option_strings[0] for action in commands.choices["score"]._actions if action.dest in names
    }


def test_every_option_with_its_own_flag_is_refused_by_option_naming_the_flag(data_jsonl, workdir, capsys):
    """One setting, one spelling: --option workers=2 beside --workers could disagree."""
    from halluscope.cli.chunked_scoring import OWN_FLAGS, api_options
    from halluscope.cli.command_errors import CommandError

    flags = _score_flags_naming_options()
    assert flags == OWN_FLAGS  # every flag that sets an option, and only those
    for name, flag in flags.items():
        for spelled in (name, name.replace("_", "-")):
            with pytest.raises(CommandError) as refused:
                api_options([f"{spelled}=2"], ["chi", "dlsd_acu"])
            assert str(refused.value) == f"--option {name}: {name} has its own flag; use {flag} (e.g. {flag} 2)"
    assert (
        main(
            [
                "score",
                "--input",
                data_jsonl,
                "--output",
                str(workdir / "x.jsonl"),
                "--on-error",
                "skip",
                "--option",
                "cache_mb=64",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: --option cache_mb: cache_mb has its own flag; use --cache-mb (e.g. --cache-mb 64)"
    )


def test_an_option_p_consistent_is_not_calibrated_for_leaves_it_out_of_the_records(data_jsonl, workdir):
    output = workdir / "weighted.jsonl"
    assert (
        main(
            [
                "score",
                "--input",
                data_jsonl,
                "--output",
                str(output),
                "--on-error",
                "skip",
                "--no-progress",
                "--option",
                'weights={"qhi": 3}',
            ]
        )
        == 0
    )
    records = _read_jsonl(output)
    assert records and all(set(r["scores"]["chi"]) == {"chi", "ehi", "rhi", "qhi"} for r in records)
    assert not any("labels" in r or "p_consistent" in r["details"]["chi"] for r in records)
    summary = json.loads((workdir / "weighted.summary.json").read_text())
    assert set(summary["metrics"]["chi"]["scores"]) == {"chi", "ehi", "rhi", "qhi"}
    assert "|w:ehi=1,rhi=1,qhi=3|" in summary["metrics"]["chi"]["signature"]


def test_publication_dates_resolve_relative_dates_for_qhi_and_chi(workdir, capsys):
    from halluscope.examples import load_examples

    dated = [e for e in load_examples() if e["publication_date"]]
    rows = [
        {"source": e["source"], "prediction": e["prediction"], "published": e["publication_date"]} for e in dated
    ] + [{"source": dated[0]["source"], "prediction": dated[0]["prediction"], "published": ""}]
    path = _write_jsonl(workdir / "dated.jsonl", rows)
    output = str(workdir / "dated-out.jsonl")
    assert (
        main(
            [
                "score",
                "--input",
                path,
                "--output",
                output,
                "--metrics",
                "qhi,ehi",
                "--publication-date-field",
                "published",
            ]
        )
        == 0
    )
    records = _read_jsonl(output)
    dates = [r["published"] for r in rows]
    direct = score_qhi(
        [r["prediction"] for r in rows], [r["source"] for r in rows], None, publication_dates=dates, return_details=True
    )
    undated = score_qhi([r["prediction"] for r in rows], [r["source"] for r in rows], None)
    assert [r["publication_date"] for r in records] == dates
    assert [r["scores"]["qhi"]["qhi"] for r in records] == json_safe(direct["qhi_scores"])
    # the date matters: without it the relative-date example scores differently
    assert direct["qhi_scores"][:2] != undated["qhi_scores"][:2]
    assert direct["qhi_scores"][2] == undated["qhi_scores"][2]
    bad = _write_jsonl(workdir / "bad-date.jsonl", [{**rows[0], "published": "last week"}])
    assert main(["score", "--input", bad, "--output", output, "--publication-date-field", "published"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"error: {bad} line 1: field 'published': `publication_dates` 'last week' is not an ISO date (YYYY-MM-DD)"
    )


def test_unknown_metric_is_refused(data_jsonl, workdir, capsys):
    assert main(["score", "--input", data_jsonl, "--output", str(workdir / "x.jsonl"), "--metrics", "chi,bleu"]) == 2
    assert capsys.readouterr().err == (
        "error: --metrics: unknown metric 'bleu'; choose from chi, ehi, rhi, qhi, dlsd_acu\n"
    )


def test_dlsd_acu_with_a_tiny_nli_model(workdir, capsys):
    nli_folder = tiny_nli_model(workdir / "tiny-nli")
    path = _write_jsonl(workdir / "dlsd.jsonl", EXAMPLES)
    output = str(workdir / "dlsd-out.jsonl")
    assert (
        main(
            [
                "score",
                "--input",
                path,
                "--output",
                output,
                "--metrics",
                "dlsd_acu",
                "--decomposer",
                "rules",
                "--nli-model",
                nli_folder,
                "--host",
                "fenice",
            ]
        )
        == 0
    )
    stdout = capsys.readouterr().out
    records = _read_jsonl(output)
    direct = score_dlsd_acu(
        [e["prediction"] for e in EXAMPLES],
        [e["source"] for e in EXAMPLES],
        host="fenice",
        decomposer="rules",
        nli_model=nli_folder,
        return_details=True,
    )
    assert [r["scores"] for r in records] == [
        {"dlsd_acu": {"dlsd_acu": json_safe(s)}} for s in direct["dlsd_acu_scores"]
    ]
    assert [r["details"]["dlsd_acu"] for r in records] == json_safe(direct["details"])
    assert "reference" not in records[0]  # no --reference-field
    summary = json.loads((workdir / "dlsd-out.summary.json").read_text())
    counters = summary["metrics"]["dlsd_acu"]["counters"]
    assert set(counters) == {
        "nli_pairs_requested",
        "nli_pairs_scored",
        "nli_pairs_cached",
        "decomposer_calls",
        "decomposer_calls_summary",
        "decomposer_calls_document",
    }
    assert counters["nli_pairs_requested"] == direct["nli_pairs_requested"] > 0
    assert counters["nli_pairs_requested"] == counters["nli_pairs_scored"] + counters["nli_pairs_cached"]
    assert summary["metrics"]["dlsd_acu"]["signature"] == direct["signature"]
    assert "dlsd_acu counters: nli_pairs_requested=" in stdout


# -- no data lost: outputs replaced only at the end, interrupted runs resume ---------------

RUN = ["--reference-field", "reference", "--chunk-size", "1", "--no-progress"]


@pytest.fixture(scope="module")
def uninterrupted(workdir):
    """The four examples scored in one go (chunks of 1): records and summary."""
    path = _write_jsonl(workdir / "resume-in.jsonl", EXAMPLES)
    output = workdir / "whole.jsonl"
    assert main(["score", "--input", path, "--output", str(output), *RUN]) == 0
    return {
        "input": path,
        "records": _read_jsonl(output),
        "summary": json.loads((workdir / "whole.summary.json").read_text()),
    }


def _interrupt_at(monkeypatch, call, exception=KeyboardInterrupt):
    """Make the ``call``-th API call of the command raise ``exception``."""
    import halluscope.cli.chunked_scoring as cli

    real, calls = cli.metric_function, []

    def counting(metric):
        function = real(metric)

        def wrapped(*args, **kwargs):
            calls.append(metric)
            if len(calls) == call:
                raise exception()
            return function(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(cli, "metric_function", counting)


def test_interrupted_run_keeps_a_partial_file_and_resume_finishes_it(uninterrupted, workdir, monkeypatch, capsys):
    output = workdir / "resumed.jsonl"
    output.write_text("the previous run's scores\n", encoding="utf-8")
    _interrupt_at(monkeypatch, 3)  # chunks 1 and 2 written, the third interrupted
    assert main(["score", "--input", uninterrupted["input"], "--output", str(output), *RUN]) == 130
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        f"interrupted: 2 of 4 examples are scored in {output}.partial; run the same command with --resume to continue"
    )
    assert output.read_text(encoding="utf-8") == "the previous run's scores\n"  # untouched
    assert _read_jsonl(f"{output}.partial") == uninterrupted["records"][:2]
    monkeypatch.undo()
    assert main(["score", "--input", uninterrupted["input"], "--output", str(output), *RUN, "--resume"]) == 0
    assert "resuming after 2 scored examples" in capsys.readouterr().err
    assert _read_jsonl(output) == uninterrupted["records"]
    summary = json.loads((workdir / "resumed.summary.json").read_text())
    assert summary["metrics"] == uninterrupted["summary"]["metrics"] and summary["examples"] == 4
    assert not os.path.exists(f"{output}.partial") and not os.path.exists(f"{output}.partial.json")


def test_a_sigterm_swallowed_by_a_finaliser_still_stops_the_run(uninterrupted, workdir, monkeypatch, capsys):
    """The CI failure of stop 36: SIGTERM landed in a regex finaliser, Python printed
    "Exception ignored in ... __del__" and the run went on to exit 0. The request is
    kept and acted on after the chunk being written."""
    import signal

    import halluscope.cli.chunked_scoring as cli

    real, calls = cli.metric_function, []

    class Finaliser:
        def __del__(self):
            os.kill(os.getpid(), signal.SIGTERM)  # the handler runs here; its exception is ignored

    def counting(metric):
        function = real(metric)

        def wrapped(*args, **kwargs):
            calls.append(metric)
            if len(calls) == 2:
                Finaliser()
            return function(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(cli, "metric_function", counting)
    swallowed = []

    def recording_hook(unraisable):
        swallowed.append(unraisable.exc_type)

    monkeypatch.setattr(sys, "unraisablehook", recording_hook)
    # what the process had before the run (a shell that starts a job in the background
    # without job control gives it SIGINT ignored, not Python's default handler)
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    output = workdir / "swallowed.jsonl"
    assert main(["score", "--input", uninterrupted["input"], "--output", str(output), *RUN]) == 130
    # Python swallowed it in the finaliser; the run kept it, and the process's hook (which
    # prints "Exception ignored ... Traceback") was not bothered with it (issue 57)
    assert swallowed == []
    err = capsys.readouterr().err
    assert "Exception ignored" not in err and "Traceback" not in err
    assert sys.unraisablehook is recording_hook  # the run's hook is gone with the run
    assert err.splitlines()[-1] == (
        f"interrupted: 2 of 4 examples are scored in {output}.partial; run the same command with --resume to continue"
    )
    assert _read_jsonl(f"{output}.partial") == uninterrupted["records"][:2]
    # the run's handlers are gone: the process has its own back
    assert {signum: signal.getsignal(signum) for signum in before} == before


def test_resume_drops_a_line_cut_short(uninterrupted, workdir, monkeypatch, capsys):
    output = workdir / "cut.jsonl"
    _interrupt_at(monkeypatch, 4)
    assert main(["score", "--input", uninterrupted["input"], "--output", str(output), *RUN]) == 130
    monkeypatch.undo()
    capsys.readouterr()
    partial = f"{output}.partial"
    with open(partial, "a", encoding="utf-8") as handle:  # a kill -9 in the middle of a line
        handle.write(json.dumps(uninterrupted["records"][3])[:40])
    assert main(["report", "--input", partial, "--output", str(workdir / "cut.html")]) == 2
    assert capsys.readouterr().err == (
        f"error: {partial} line 4: not a complete scores record (JSONDecodeError); an interrupted "
        "`halluscope score` run finishes with --resume\n"
    )
    assert main(["score", "--input", uninterrupted["input"], "--output", str(output), *RUN, "--resume"]) == 0
    assert _read_jsonl(output) == uninterrupted["records"]


def test_resume_refuses_other_settings(uninterrupted, workdir, monkeypatch, capsys):
    output = workdir / "other.jsonl"
    _interrupt_at(monkeypatch, 2)
    assert main(["score", "--input", uninterrupted["input"], "--output", str(output), *RUN]) == 130
    monkeypatch.undo()
    capsys.readouterr()
    assert (
        main(
            [
                "score",
                "--input",
                uninterrupted["input"],
                "--output",
                str(output),
                *RUN,
                "--resume",
                "--option",
                "formula=paper",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err.startswith(
        f"error: --resume: {output}.partial was written by a run with other settings"
    )
    assert len(_read_jsonl(f"{output}.partial")) == 1  # still there, unchanged


def test_a_failing_run_never_touches_the_existing_output(uninterrupted, workdir, capsys):
    output = workdir / "kept.jsonl"
    output.write_text("precious\n", encoding="utf-8")
    assert (
        main(
            [
                "score",
                "--input",
                uninterrupted["input"],
                "--output",
                str(output),
                *RUN,
                "--option",
                'weights={"qhi": 0}',
            ]
        )
        == 2
    )
    assert (
        capsys.readouterr()
        .err.splitlines()[-1]
        .startswith("error: --option weights (chi): `weights['qhi']` must be a positive finite number, got 0")
    )
    assert output.read_text(encoding="utf-8") == "precious\n"
    assert not os.path.exists(f"{output}.partial") and not os.path.exists(f"{output}.partial.json")


@pytest.mark.parametrize(
    "arguments, message",
    [
        (
            ["--output", "{dir}/same.jsonl", "--summary-output", "{dir}/same.jsonl"],
            "--summary-output {dir}/same.jsonl is the --output file: the summary would overwrite the scores; "
            "choose another name",
        ),
        (
            ["--output", "{dir}/missing/out.jsonl"],
            "--output {dir}/missing/out.jsonl: the folder {dir}/missing does not exist",
        ),
        (
            ["--output", "{dir}/out.jsonl", "--summary-output", "{dir}/nowhere/s.json"],
            "--summary-output {dir}/nowhere/s.json: the folder {dir}/nowhere does not exist",
        ),
        (["--output", "{input}"], "--output {input} is the --input file; choose another name"),
    ],
)
def test_output_paths_are_checked_first(arguments, message, uninterrupted, workdir, capsys):
    directory = str(workdir)
    fill = {"dir": directory, "input": uninterrupted["input"]}
    arguments = [a.format(**fill) for a in arguments]
    assert main(["score", "--input", uninterrupted["input"], *arguments]) == 2
    assert capsys.readouterr().err == f"error: {message.format(**fill)}\n"


@pytest.mark.parametrize(
    "name, content, message",
    [
        (
            "latin1.jsonl",
            b'{"source": "ok", "prediction": "ok"}\n{"source": "Caf\xe9", "prediction": "x"}\n',
            "line 2: not valid UTF-8 (byte 0xe9 at byte 16 of the line); save the file as UTF-8",
        ),
        (
            "latin1.csv",
            b"source,prediction\nok,ok\nCaf\xe9,x\n",
            "line 3: not valid UTF-8 (byte 0xe9 at byte 4 of the line); save the file as UTF-8",
        ),
    ],
)
def test_input_that_is_not_utf8_is_one_line(name, content, message, workdir, capsys):
    path = workdir / name
    path.write_bytes(content)
    assert main(["score", "--input", str(path), "--output", str(workdir / "x.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {path} {message}\n"


@pytest.mark.slow
def test_sigterm_leaves_a_valid_partial_file_and_resume_matches(uninterrupted, workdir):
    """The installed command, killed with SIGTERM while scoring 24 rows one at a time,
    then resumed: the same records as the uninterrupted run."""
    import signal
    import time

    rows = [dict(example, id=f"{k}-{example['id']}") for k in range(6) for example in EXAMPLES]
    path = _write_jsonl(workdir / "sigterm-in.jsonl", rows)
    output = str(workdir / "sigterm.jsonl")
    command = [HALLUSCOPE, "score", "--input", path, "--output", output, *RUN]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 300
    while time.time() < deadline and process.poll() is None:
        if os.path.exists(output + ".partial") and len(open(output + ".partial").readlines()) >= 2:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert "run the same command with --resume to continue" in stderr.splitlines()[-1]
    partial = _read_jsonl(output + ".partial")  # every line a complete record
    assert 2 <= len(partial) < 24 and not os.path.exists(output)
    resumed = subprocess.run(command + ["--resume"], capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    records = _read_jsonl(output)
    assert [r["line"] for r in records] == list(range(1, 25))
    assert [r["scores"] for r in records] == [r["scores"] for r in uninterrupted["records"]] * 6
    assert [r["details"] for r in records] == [r["details"] for r in uninterrupted["records"]] * 6


# -- checked before scoring: device, models, fields; what the records hold; stdin/stdout ------------------


def _no_scoring(monkeypatch):
    """Record every API call the command makes (a check that fails first makes none)."""
    import halluscope.cli.chunked_scoring as cli

    calls = []
    real = cli.metric_function

    def recording(metric):
        calls.append(metric)
        return real(metric)

    monkeypatch.setattr(cli, "metric_function", recording)
    return calls


def test_cuda_on_a_torch_without_it_is_one_line(uninterrupted, workdir, monkeypatch, capsys):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    calls = _no_scoring(monkeypatch)
    output = workdir / "cuda.jsonl"
    assert main(["score", "--input", uninterrupted["input"], "--output", str(output), "--device", "cuda"]) == 2
    assert capsys.readouterr().err == (
        f"error: --device cuda: CUDA is not available to this torch ({torch.__version__}); use --device cpu, "
        "or auto (the default: CUDA when available, else the CPU)\n"
    )
    assert calls == [] and not output.exists()
    assert main(["score", "--input", uninterrupted["input"], "--output", str(output), "--device", "gpu0"]) == 2
    assert capsys.readouterr().err == "error: --device gpu0: not a torch device; use auto, cpu, cuda or cuda:N\n"


def test_device_auto_is_cuda_when_available_else_cpu(monkeypatch):
    import torch
    from halluscope.cli.chunked_scoring import resolve_device

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert resolve_device("auto", ["chi"]) == "cpu"
    assert resolve_device("auto", ["ehi", "qhi"]) is None  # no torch model among them
    assert resolve_device("cpu", ["dlsd_acu"]) == "cpu"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    assert resolve_device("auto", ["rhi"]) == "cuda:0"


def test_a_missing_nli_model_is_found_before_any_metric_scores(uninterrupted, workdir, monkeypatch, capsys):
    calls = _no_scoring(monkeypatch)
    missing = str(workdir / "no-such-nli-model")
    output = workdir / "nli.jsonl"
    assert (
        main(
            [
                "score",
                "--input",
                uninterrupted["input"],
                "--output",
                str(output),
                "--metrics",
                "chi,dlsd_acu",
                "--decomposer",
                "rules",
                "--nli-model",
                missing,
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    # found by the option check itself, before any model loads
    assert err == f"error: --nli-model (dlsd_acu): `nli_model` {missing}: no such folder\n"
    assert err.count("\n") == 1 and "Traceback" not in err
    assert calls == []  # chi scored nothing either
    assert not output.exists() and not os.path.exists(f"{output}.partial")


GITHUB_DOCUMENT = GITHUB_SOURCE + "\nGitHub had 28 million developers at the time; Nat Friedman became its chief."
BERLIN_DOCUMENT = BERLIN_SOURCE + " Merkel later told reporters that the talks had been constructive."
#: SummaC's layout: 'source' names the file an example came from; the document is 'document'
SUMMAC_ROWS = [
    {
        "dataset": "cogensumm",
        "document": GITHUB_DOCUMENT,
        "claim": "Microsoft acquired GitHub in 2018.",
        "label": 1,
        "source": "SummaCoz data/positive/cogensumm/0.txt",
    },
    {
        "dataset": "cogensumm",
        "document": BERLIN_DOCUMENT,
        "claim": "Macron met Merkel in Paris.",
        "label": 0,
        "source": "SummaCoz data/annot/cogensumm/1.txt",
    },
]


def test_a_source_field_of_labels_is_refused(workdir, capsys):
    path = _write_jsonl(workdir / "summac.jsonl", SUMMAC_ROWS)
    output = str(workdir / "summac-out.jsonl")
    assert main(["score", "--input", path, "--output", output, "--prediction-field", "claim"]) == 2
    mean = (len(GITHUB_DOCUMENT) + len(BERLIN_DOCUMENT)) / 2
    assert mean >= 4 * (len(SUMMAC_ROWS[0]["source"]) + len(SUMMAC_ROWS[1]["source"])) / 2  # the rule's ratio
    assert capsys.readouterr().err == (
        "error: the field 'source' looks like a label, not the document: its values are all at most 64 characters "
        f"(e.g. 'SummaCoz data/positive/cogensumm/0.txt') while 'document' holds texts of {mean:.0f} characters on "
        "average; pass --source-field document (or --source-field source to score 'source' anyway)\n"
    )
    assert not os.path.exists(output)
    # named explicitly, either field is scored; every other input field is kept, 'source' included
    assert (
        main(
            [
                "score",
                "--input",
                path,
                "--output",
                output,
                "--prediction-field",
                "claim",
                "--source-field",
                "document",
                "--no-progress",
            ]
        )
        == 0
    )
    records = _read_jsonl(output)
    assert [r["source"] for r in records] == [GITHUB_DOCUMENT, BERLIN_DOCUMENT]
    assert [r["fields"] for r in records] == [
        {"dataset": "cogensumm", "label": row["label"], "source": row["source"]} for row in SUMMAC_ROWS
    ]
    assert (
        main(
            [
                "score",
                "--input",
                path,
                "--output",
                output,
                "--prediction-field",
                "claim",
                "--source-field",
                "source",
                "--metrics",
                "ehi",
                "--no-progress",
            ]
        )
        == 0
    )


def test_short_sources_without_a_longer_field_are_scored(workdir, capsys):
    path = _write_jsonl(workdir / "short.jsonl", [{"source": "Sales rose 5%.", "prediction": "Sales rose 5%."}])
    assert main(["score", "--input", path, "--output", str(workdir / "short-out.jsonl"), "--metrics", "qhi"]) == 0


@pytest.fixture(scope="module")
def kept_runs(workdir):
    """The SummaC-like rows scored with --metrics ehi: all fields kept (the default),
    none, one, and without sources."""
    path = _write_jsonl(workdir / "keep.jsonl", SUMMAC_ROWS)
    base = [
        "score",
        "--input",
        path,
        "--source-field",
        "document",
        "--prediction-field",
        "claim",
        "--metrics",
        "ehi",
        "--no-progress",
    ]
    runs = {}
    for name, extra in (
        ("all", []),
        ("none", ["--keep-fields", "none"]),
        ("label", ["--keep-fields", "label"]),
        ("no-sources", ["--no-sources-in-output"]),
    ):
        output = str(workdir / f"keep-{name}.jsonl")
        assert main(base + ["--output", output] + extra) == 0
        runs[name] = _read_jsonl(output)
    return path, base, runs


def test_keep_fields(kept_runs, workdir, capsys):
    path, base, runs = kept_runs
    assert [r["fields"] for r in runs["all"]] == [
        {"dataset": "cogensumm", "label": 1, "source": "SummaCoz data/positive/cogensumm/0.txt"},
        {"dataset": "cogensumm", "label": 0, "source": "SummaCoz data/annot/cogensumm/1.txt"},
    ]
    assert ["fields" in r for r in runs["none"]] == [False, False]
    assert [r["fields"] for r in runs["label"]] == [{"label": 1}, {"label": 0}]
    assert [r["scores"] for r in runs["none"]] == [r["scores"] for r in runs["all"]]
    capsys.readouterr()
    assert main(base + ["--output", str(workdir / "x.jsonl"), "--keep-fields", "label,lable"]) == 2
    assert capsys.readouterr().err == "error: --keep-fields: no row has the field 'lable'\n"


def test_no_sources_in_output(kept_runs):
    _, _, runs = kept_runs
    assert ["source" in r for r in runs["all"]] == [True, True]
    assert ["source" in r for r in runs["no-sources"]] == [False, False]
    assert [{k: v for k, v in r.items() if k != "source"} for r in runs["all"]] == runs["no-sources"]


def test_limit_reads_only_the_first_examples(workdir, capsys):
    # line 3 is malformed, but --limit 2 stops reading before it
    path = _write_jsonl(workdir / "limit.jsonl", EXAMPLES, malformed_at=3)
    output = str(workdir / "limit-out.jsonl")
    assert main(["score", "--input", path, "--output", output, "--metrics", "qhi", "--limit", "2"]) == 0
    assert [r["line"] for r in _read_jsonl(output)] == [1, 2]
    assert "scored 2 examples" in capsys.readouterr().out
    assert main(["score", "--input", path, "--output", output, "--limit", "0"]) == 2
    assert capsys.readouterr().err == (
        "error: halluscope score: argument --limit: must be a positive integer, got 0 (see halluscope score --help)\n"
    )


def test_stdin_to_stdout(uninterrupted, workdir, monkeypatch, capsys):
    import io

    data = open(uninterrupted["input"], "rb").read()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    monkeypatch.chdir(workdir)
    assert main(["score", "--input", "-", "--output", "-", *RUN]) == 0
    captured = capsys.readouterr()
    records = [json.loads(line) for line in captured.out.splitlines()]
    assert records == uninterrupted["records"]  # the same records as from the file
    assert "scored 4 examples from - into -" in captured.err  # the table goes to stderr
    assert not os.path.exists(workdir / "-.partial") and not os.path.exists(workdir / "-.summary.json")
    assert main(["score", "--input", uninterrupted["input"], "--output", "-", "--resume"]) == 2
    assert capsys.readouterr().err == (
        "error: --resume needs an output file: with --output - (or a device or FIFO) "
        "the records go straight through, with no partial file to continue\n"
    )


def test_version_and_usage_errors_are_one_line(capsys):
    from halluscope import __version__

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"halluscope {__version__}\n"
    assert main(["score", "--input", "x.jsonl"]) == 2
    assert capsys.readouterr().err == (
        "error: halluscope score: the following arguments are required: --output (see halluscope score --help)\n"
    )
    assert main(["report", "--input", "s.jsonl", "--output", "r.html", "--cut", "half"]) == 2
    assert capsys.readouterr().err == (
        "error: halluscope report: argument --cut: must be a number, got 'half' (see halluscope report --help)\n"
    )


def test_every_option_has_help_and_shows_its_default():
    import argparse

    from halluscope.cli.parser import _HelpFormatter, build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    formatter = _HelpFormatter("halluscope")
    for name, command in commands.choices.items():
        for action in command._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            assert action.help, (name, action.option_strings)
            shown = formatter._get_help_string(action) % {"default": action.default}
            flag = isinstance(action, argparse._StoreTrueAction)
            assert flag or action.required or "default" in shown, (name, action.option_strings, shown)
    score_help = commands.choices["score"].format_help()
    for default in (
        "(default: chi)",
        "(default: auto)",
        "(default: all)",
        "(default: stop)",
        "(default: 64)",
        "(default: seq2seq)",
        "(default: fizz)",
        "(default: prediction)",
        "(default: id)",
    ):
        assert default in " ".join(score_help.split()), default


@pytest.mark.slow
def test_the_installed_command_gives_no_traceback(uninterrupted, workdir):
    """The installed command: --device cuda without CUDA, and a pipe from stdin to stdout."""
    import torch

    if not torch.cuda.is_available():
        completed = subprocess.run(
            [
                HALLUSCOPE,
                "score",
                "--input",
                uninterrupted["input"],
                "--output",
                str(workdir / "cuda-sub.jsonl"),
                "--device",
                "cuda",
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert completed.returncode == 2
        assert completed.stderr.startswith("error: --device cuda: CUDA is not available to this torch")
        assert completed.stderr.count("\n") == 1 and "Traceback" not in completed.stderr
    with open(uninterrupted["input"], "rb") as stdin:
        piped = subprocess.run(
            [HALLUSCOPE, "score", "--input", "-", "--output", "-", *RUN], stdin=stdin, capture_output=True, timeout=600
        )
    assert piped.returncode == 0, piped.stderr
    assert [json.loads(line) for line in piped.stdout.decode("utf-8").splitlines()] == uninterrupted["records"]


def test_the_documented_exit_codes_are_the_command_s(repo_root, workdir, capsys):
    """docs/cli.md#exit-codes lists every code main returns, and each listed code is
    returned where it says: 0 for --version, 2 for no command, 141 for a reader of
    --output - that goes away (1 and 130 are checked by the tests above)."""
    import re

    with open(os.path.join(repo_root, "docs", "cli.md"), encoding="utf-8") as handle:
        page = handle.read()
    section = page.split("### Exit codes", 1)[1].split("\n## ", 1)[0]
    assert [int(code) for code in re.findall(r"^- (\d+):", section, flags=re.M)] == [0, 1, 2, 130, 141]
    from halluscope.cli import parser

    returned = {int(code) for code in re.findall(r"return (\d+)", open(parser.__file__, encoding="utf-8").read())}
    assert returned == {1, 2, 130, 141}  # and 0 from the handlers, --help and --version
    assert main(["--version"]) == 0 and main([]) == 2
    capsys.readouterr()
    # 141: the reader reads one record and leaves; the next chunks cannot be written
    rows = [dict(EXAMPLES[0], id=str(k), source=GITHUB_SOURCE + " " + "The deal closed. " * 300) for k in range(24)]
    path = _write_jsonl(workdir / "long-sources.jsonl", rows)
    process = subprocess.Popen(
        [
            HALLUSCOPE,
            "score",
            "--input",
            path,
            "--output",
            "-",
            "--metrics",
            "ehi",
            "--chunk-size",
            "1",
            "--no-progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert json.loads(process.stdout.readline())["id"] == "0"
    process.stdout.close()
    assert process.wait(timeout=300) == 141
    said = process.stderr.read().decode("utf-8")
    assert "error" not in said and "Traceback" not in said, said


def test_a_lone_surrogate_in_a_kept_field_or_the_id_is_a_bad_row(workdir, capsys):
    """JSON's "\\ud83d" reads as half of a UTF-16 pair, which no UTF-8 record can hold:
    in a kept field or the id it is a bad row naming its line and field (it crashed the
    writer with a traceback), skipped with --on-error skip."""
    rows = [
        '{"id": "ok", "source": "Apple bought Beats for $3 billion.", "prediction": "Apple bought Beats.", '
        '"note": "fine"}',
        '{"id": "a", "source": "Apple bought Beats.", "prediction": "Apple bought Beats.", "note": "x\\ud83d"}',
        '{"id": "b\\udc00", "source": "Apple bought Beats.", "prediction": "Apple bought Beats."}',
        '{"id": "c", "source": "Apple bought Beats.", "prediction": "Apple bought Beats.", "note": {"k\\ud800": 1}}',
    ]
    path = workdir / "surrogates.jsonl"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    output = workdir / "surrogates-out.jsonl"
    assert (
        main(
            [
                "score",
                "--input",
                str(path),
                "--output",
                str(output),
                "--keep-fields",
                "note",
                "--on-error",
                "skip",
                "--no-progress",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    cannot = "which cannot be written as UTF-8; fix the text's decoding"
    assert f"skipped {path} line 2: field 'note' holds a lone surrogate (U+D83D at character 1), {cannot}" in err
    assert f"skipped {path} line 3: field 'id' holds a lone surrogate (U+DC00 at character 1), {cannot}" in err
    assert f"skipped {path} line 4: field 'note' holds a lone surrogate (U+D800 at character 1), {cannot}" in err
    assert [record["id"] for record in _read_jsonl(output)] == ["ok"]
    assert main(["score", "--input", str(path), "--output", str(output), "--keep-fields", "note"]) == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"error: {path} line 2: field 'note' holds a lone surrogate (U+D83D at character 1), {cannot}"
    )

"""benchmarks/identity.py, the bit-identity dumps of issue 59: the exact lines a result
becomes, and the manifest and the --check failure path on one small dump of a tiny
inline data folder (not the validation data)."""

from __future__ import annotations

import hashlib
import json
import math
import re

from benchmarks import identity


def test_a_result_becomes_exact_repr_lines_without_its_timings():
    result = {
        "chi": math.nan,
        "chi_scores": [0.1 + 0.2, math.nan],
        "nli_seconds": 2.5,
        "signature": "halluscope:x|metric:chi",
        "details": [{"score": -0.0, "units": []}, None],
    }
    assert list(identity.result_lines("fold chi", result)) == [
        "# fold chi {'chi': nan, 'chi_scores': [0.30000000000000004, nan], 'signature': 'halluscope:x|metric:chi'}",
        "fold chi [0] {'score': -0.0, 'units': []}",
        "fold chi [1] None",
    ]


def _write_jsonl(path, rows):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")


def _tiny_data(folder):
    """One row per SummaC fold and one per FRANK part, in the layout of ../shared/data."""
    source = "Alice Smith opened a bakery in Leeds in 2019. It sells 40 loaves a day."
    for name in ("cogensumm", "xsumfaith", "polytope", "factcc", "summeval", "frank"):
        _write_jsonl(
            folder / "summac" / f"{name}_val.jsonl",
            [{"document": source, "claim": "Alice Smith opened a bakery.", "label": 1}],
        )
    frank = [
        {
            "article": source,
            "summary": summary,
            "reference": "A baker in Leeds sells 40 loaves a day.",
            "label": label,
            "model_name": "m",
            "Factuality": float(label),
            "dataset": dataset,
        }
        for summary, label, dataset in (
            ("Alice Smith opened a bakery in York in 2019.", 0, "cnndm"),
            ("The bakery sells 40 loaves a day.", 1, "bbc"),
        )
    ]
    _write_jsonl(folder / "frank" / "frank_val.jsonl", frank)
    return folder


def test_manifest_lists_each_dump_and_check_names_the_one_that_differs(tmp_path, capsys):
    data, out = _tiny_data(tmp_path / "data"), tmp_path / "out"
    wrong = tmp_path / "wrong.sha256"
    wrong.write_text("0" * 64 + "  chi-cold-workers1\n", encoding="utf-8")

    argv = ["--data", str(data), "--out", str(out), "--only", "chi-cold-workers1", "--check", str(wrong)]
    assert identity.main(argv) == 1

    written = {
        path.name: hashlib.sha256(path.read_bytes()).hexdigest()
        for path in out.iterdir()
        if path.is_file() and path.name != identity.MANIFEST
    }
    manifest = (out / identity.MANIFEST).read_text(encoding="utf-8")
    assert manifest == (
        f"{written['chi-cold-workers1']}  chi-cold-workers1\n{written['chi-warm-workers1']}  chi-warm-workers1\n"
    )
    assert re.fullmatch(r"([0-9a-f]{64}  [a-z0-9-]+\n)+", manifest)
    # the second call of the process (warm caches) dumps the same bytes as the first
    assert written["chi-cold-workers1"] == written["chi-warm-workers1"]
    first = (out / "chi-cold-workers1").read_text(encoding="utf-8").splitlines()
    assert first[0].startswith("# frank-cnndm chi {'chi': ") and first[1].startswith("frank-cnndm chi [0] {")
    assert len(first) == 2

    assert capsys.readouterr().err.splitlines() == [
        f"chi-cold-workers1: differs (sha256 {written['chi-cold-workers1'][:12]}, expected 000000000000)",
        "chi-warm-workers1: not in the manifest",
    ]
    assert identity.compare(written, identity.read_manifest(str(out / identity.MANIFEST))) == []

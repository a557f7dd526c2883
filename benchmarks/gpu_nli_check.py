"""Device check of the NLI engine on a tiny random BERT classifier built here.

On CUDA (when available): float32/float16/bfloat16 probabilities against
float32 (max abs difference), the simulated OOM back-off, and pairs/second on
CUDA vs CPU. Without CUDA the CUDA parts are skipped with a message and the CPU
numbers are still printed. The model is random: the numbers measure plumbing
and throughput, not NLI quality.

    python -m benchmarks.gpu_nli_check [--pairs 4000] [--hidden 32] [--layers 2]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from halluscope.nli import NLIEngine  # noqa: E402

WORDS = (
    "the a cat dog man woman sat ran on in mat park house is was not did saw big small "
    "red blue and then because yesterday today"
).split()


def build_model(folder: str, hidden: int, layers: int) -> str:
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    with open(os.path.join(folder, "vocab.txt"), "w") as handle:
        handle.write("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n")
    tokenizer = BertTokenizer.from_pretrained(folder)
    config = BertConfig(
        vocab_size=5 + len(WORDS),
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=max(1, hidden // 16),
        intermediate_size=4 * hidden,
        max_position_embeddings=512,
        num_labels=3,
        id2label={0: "SUPPORTS", 1: "REFUTES", 2: "NOT ENOUGH INFO"},
        label2id={"SUPPORTS": 0, "REFUTES": 1, "NOT ENOUGH INFO": 2},
    )
    torch.manual_seed(0)
    model = BertForSequenceClassification(config)
    with torch.no_grad():
        model.classifier.weight.mul_(40.0)
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


def make_pairs(n: int, seed: int = 0) -> list:
    rng = random.Random(seed)
    pairs = []
    for i in range(n):
        premise = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 120)))
        hypothesis = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 20)))
        pairs.append((premise, f"{hypothesis} {i % 7}"))  # "i % 7" is [UNK]; pairs stay distinct
    return list(dict.fromkeys(pairs))


def throughput(engine: NLIEngine, pairs: list, sync: bool) -> tuple:
    engine.score(pairs[:64])  # warm-up (kernels, allocator)
    engine.clear_cache()
    engine.reset_counters()
    if sync:
        torch.cuda.synchronize()
    start = time.perf_counter()
    probs = engine.score(pairs)
    if sync:
        torch.cuda.synchronize()
    seconds = time.perf_counter() - start
    assert engine.scored == len(pairs)
    return probs, len(pairs) / seconds, engine.forward_seconds


def simulated_oom(engine: NLIEngine, pairs: list, reference: np.ndarray) -> None:
    tried = []
    real_forward = engine._forward

    def flaky(batch):
        tried.append(int(batch["input_ids"].shape[0]))
        if batch["input_ids"].shape[0] > 2:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory (simulated)")
        return real_forward(batch)

    engine._forward = flaky
    engine.clear_cache()
    engine.reset_counters()
    try:
        probs = engine.score(pairs)
    finally:
        engine._forward = real_forward
    diff = float(np.abs(probs - reference).max())
    print(
        f"  OOM back-off ({engine.device}): batch sizes tried {tried[:6]}{'...' if len(tried) > 6 else ''}"
        f" ({len(tried)} forwards), oom_retries={engine.oom_retries}, "
        f"max |p - p_ref| = {diff:.2e}, {'OK' if diff < 1e-5 else 'MISMATCH'}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=4000)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args()
    print(
        f"torch {torch.__version__}; cuda available: {torch.cuda.is_available()}"
        + (f" ({torch.cuda.get_device_name()})" if torch.cuda.is_available() else "")
    )
    pairs = make_pairs(args.pairs)
    with tempfile.TemporaryDirectory() as folder:
        path = build_model(folder, args.hidden, args.layers)
        print(
            f"tiny BERT: hidden {args.hidden}, {args.layers} layers; {len(pairs)} distinct pairs, "
            f"batch size {args.batch_size}"
        )
        common = dict(batch_size=args.batch_size, max_length=512, cache_size=len(pairs) + 64)
        cpu = NLIEngine(path, device="cpu", **common)
        cpu_probs, cpu_rate, cpu_fwd = throughput(cpu, pairs, sync=False)
        print(f"cpu float32: {cpu_rate:,.0f} pairs/s (forward {cpu_fwd:.2f}s of the call)")
        cpu_bf16 = NLIEngine(path, device="cpu", dtype="bfloat16", **common)
        bf16_probs, bf16_rate, _ = throughput(cpu_bf16, pairs, sync=False)
        print(f"cpu bfloat16: {bf16_rate:,.0f} pairs/s; max |p - p_fp32| = {np.abs(bf16_probs - cpu_probs).max():.2e}")
        simulated_oom(NLIEngine(path, device="cpu", **dict(common, batch_size=8)), pairs[:40], cpu_probs[:40])
        if not torch.cuda.is_available():
            print(
                "CUDA not available: skipping the float16/bfloat16 CUDA runs, the CUDA OOM "
                "back-off and the CUDA throughput"
            )
            return 0
        results = {}
        for dtype in ("float32", "float16", "bfloat16"):
            engine = NLIEngine(path, device="cuda", dtype=dtype, **common)
            probs, rate, fwd = throughput(engine, pairs, sync=True)
            results[dtype] = probs
            line = (
                f"cuda {dtype}: {rate:,.0f} pairs/s (forward {fwd:.2f}s); "
                f"max |p - p_cpu_fp32| = {np.abs(probs - cpu_probs).max():.2e}"
            )
            if dtype != "float32":
                line += f"; max |p - p_cuda_fp32| = {np.abs(probs - results['float32']).max():.2e}"
            else:
                line += f"; speed-up vs cpu float32 = {rate / cpu_rate:.1f}x"
            print(line)
        simulated_oom(NLIEngine(path, device="cuda", **dict(common, batch_size=8)), pairs[:40], results["float32"][:40])
    return 0


if __name__ == "__main__":
    sys.exit(main())

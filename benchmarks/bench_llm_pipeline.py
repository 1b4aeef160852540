"""Calls, tokens and wall time per stage of the LLM generation pipeline, and what the full
benchmark would cost.

Runs the ``tiny`` preset (one short instance: 3 sessions of 8 turns, 6 facts, 1 request)
end to end on a backbone — by default the embedded local model — into a scratch folder,
with a fresh request cache so every call is real, validates the result, and prints:

1. per stage: calls (measured vs the dry-run's first-attempt plan), prompt and completion
   tokens, LLM seconds, wall seconds, and the verifier/fallback events;
2. the extrapolation to the full benchmark (paper preset, 50 instances): the dry-run's plan
   per stage scaled by this run's measured calls-per-planned-call and tokens-per-call, and
   the time that takes at this run's throughput. With ``--price-in/--price-out`` (USD per
   million tokens) it also prints a cost for a paid endpoint.

    .venv/bin/python benchmarks/bench_llm_pipeline.py                       # embedded 0.5B model
    BEMULA_API_KEY=... .venv/bin/python benchmarks/bench_llm_pipeline.py \\
        --backbone openai --model gpt-4o-mini --base-url https://api.openai.com/v1 --price-in 0.15 --price-out 0.6
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backbone", default="local")
    parser.add_argument("--model", default=None)
    parser.add_argument("--base-url", default=None)
    parser.add_argument("--workers", type=int, default=2, help="parallel sessions / client concurrency")
    parser.add_argument("--price-in", type=float, default=None, help="USD per million prompt tokens")
    parser.add_argument("--price-out", type=float, default=None, help="USD per million completion tokens")
    parser.add_argument("--json", action="store_true", help="also print one JSON object")
    parser.add_argument("--from-run", type=Path, default=None,
                        help="summarise an earlier tiny run instead (its dataset folder, holding .llm-cache/report.json)")
    args = parser.parse_args()

    from bemula.generate.llm.config import LLMPipelineConfig, paper_config, tiny_config
    from bemula.generate.llm.pipeline import CACHE_DIRNAME, GenerationReport, estimate, generate_llm_benchmark
    from bemula.validate import validate_dataset

    config = LLMPipelineConfig(**{**vars(tiny_config()), "workers": args.workers})
    planned = estimate(config)
    if args.from_run is not None:
        saved = json.loads((args.from_run / CACHE_DIRNAME / "report.json").read_text())
        report = GenerationReport(out=args.from_run, instances=saved["instances"], meters=saved["stages"],
                                  wall_s=saved["wall_s"])
        validation = validate_dataset(args.from_run)
        startup_s, model = float("nan"), "(an earlier run)"
    else:
        from bemula.llm.backends import open_llm

        scratch = Path(tempfile.mkdtemp(prefix="bemula-bench-llm-"))
        started = time.perf_counter()
        # a fresh request cache, so every call is real (the local weights stay where they are)
        with open_llm(args.backbone, model=args.model, base_url=args.base_url, concurrency=args.workers,
                      cache_path=scratch / "requests.sqlite", timeout_s=900.0) as client:
            startup_s = time.perf_counter() - started
            model = client.describe().get("model", "")
            report = generate_llm_benchmark(client, scratch / "out", seed=0, config=config, model=model,
                                            backbone=args.backbone)
        validation = validate_dataset(scratch / "out")

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPU(s), load average {load:.1f}; backbone "
          f"{args.backbone} ({model}); start-up {'n/a' if startup_s != startup_s else f'{startup_s:.1f}s'}; "
          f"generation {report.wall_s:.1f}s; "
          f"validation {'OK' if validation.ok else f'{len(validation.violations)} violation(s)'}")
    header = f"{'stage':<11}{'calls':>7}{'planned':>9}{'prompt tok':>12}{'compl tok':>11}{'llm s':>8}{'wall s':>8}  events"
    print(header)
    print("-" * len(header))
    totals = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "llm_s": 0.0, "wall_s": 0.0}
    for stage, m in report.meters.items():
        events = ", ".join(f"{k.split('.', 1)[1]}={v}" for k, v in m.items() if k.startswith("events.") and v)
        print(f"{stage:<11}{m['calls']:>7}{planned['stages'][stage]['calls']:>9}{m['prompt_tokens']:>12,}"
              f"{m['completion_tokens']:>11,}{m['llm_s']:>8.1f}{m['wall_s']:>8.1f}  {events}")
        for k in totals:
            totals[k] += m[k]
    print(f"{'total':<11}{totals['calls']:>7}{planned['total']['calls']:>9}{totals['prompt_tokens']:>12,}"
          f"{totals['completion_tokens']:>11,}{totals['llm_s']:>8.1f}{totals['wall_s']:>8.1f}")

    # extrapolate: per stage, (measured calls / planned calls) and (measured tokens / measured calls)
    full = estimate(paper_config())
    seconds_per_call = report.wall_s / max(1, totals["calls"])
    ext = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
    print(f"\nfull benchmark (paper preset: {full['instances']} instances, {full['turns_per_version']:,} turns "
          "per version), extrapolated from this run:")
    for stage, m in report.meters.items():
        plan_small = max(1, planned["stages"][stage]["calls"])
        ratio = m["calls"] / plan_small
        calls = full["stages"][stage]["calls"] * ratio
        # tokens per call follow the full plan's own per-call sizes (prompts grow with history)
        full_plan = full["stages"][stage]
        token_scale_p = (m["prompt_tokens"] / max(1, m["calls"])) / max(1, planned["stages"][stage]["prompt_tokens"] / plan_small)
        token_scale_c = (m["completion_tokens"] / max(1, m["calls"])) / max(1, planned["stages"][stage]["completion_tokens"] / plan_small)
        prompt = full_plan["prompt_tokens"] * ratio * token_scale_p
        completion = full_plan["completion_tokens"] * ratio * token_scale_c
        ext["calls"] += calls
        ext["prompt_tokens"] += prompt
        ext["completion_tokens"] += completion
        print(f"  {stage:<11} {calls:>10,.0f} calls {prompt:>14,.0f} prompt tok {completion:>12,.0f} completion tok")
    print(f"  {'total':<11} {ext['calls']:>10,.0f} calls {ext['prompt_tokens']:>14,.0f} prompt tok "
          f"{ext['completion_tokens']:>12,.0f} completion tok")
    hours = ext["calls"] * seconds_per_call / 3600
    print(f"  time at this run's pace ({seconds_per_call:.2f} s per call, {args.workers} worker(s)): ≈{hours:,.0f} h")
    if args.price_in is not None and args.price_out is not None:
        usd = ext["prompt_tokens"] / 1e6 * args.price_in + ext["completion_tokens"] / 1e6 * args.price_out
        print(f"  cost at ${args.price_in}/M in, ${args.price_out}/M out: ≈${usd:,.2f}")
    if args.json:
        print(json.dumps({"report": report.as_dict(), "planned": planned, "extrapolated": ext,
                          "hours": hours, "validation_ok": validation.ok}, indent=1, default=str))


if __name__ == "__main__":
    main()

"""``bemula llm …``: check a backbone answers, inspect the local models and the request cache.

Errors from the LLM layer are one line already; here they are printed without a traceback
and the command exits 1.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer

from bemula.cli.app import app

llm_app = typer.Typer(
    help="LLM access: check a backbone, list local models, inspect the request cache.",
    no_args_is_help=True,
)
app.add_typer(llm_app, name="llm")

DEFAULT_PROMPT = 'Answer with JSON only: {"capital": <the capital of France>}'


def _fail(message: str) -> None:
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(code=1)


@llm_app.command("check")
def check(
    backbone: str = typer.Option("local", "--backbone", "-b", help="local, or openai (alias endpoint)"),
    model: str | None = typer.Option(
        None, "--model", "-m", help="local: local-0.5b (default) or local-1.5b; openai: the model name"
    ),
    base_url: str | None = typer.Option(None, "--base-url", help="OpenAI-compatible base URL (…/v1)"),
    gguf: Path | None = typer.Option(None, "--gguf", help="local: use this GGUF file instead"),
    prompt: str = typer.Option(DEFAULT_PROMPT, "--prompt", "-p", help="What to ask"),
    max_tokens: int = typer.Option(64, "--max-tokens"),
    timeout_s: float | None = typer.Option(
        None, "--timeout", help="Seconds per call (default 120; 600 for local)"
    ),
    retries: int = typer.Option(2, "--retries", help="Retries on transient errors"),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object"),
) -> None:
    """Ask one prompt (bypassing the cache) and print the answer, tokens and latency."""
    from bemula.llm.backends import open_llm
    from bemula.llm.client import LLMError

    timeout_kw: dict[str, Any] = {"timeout_s": timeout_s} if timeout_s is not None else {}
    started = time.perf_counter()
    try:
        with open_llm(
            backbone,
            model=model,
            base_url=base_url,
            gguf=gguf,
            use_cache=False,
            max_retries=retries,
            concurrency=1,
            **timeout_kw,
        ) as client:
            ready_s = time.perf_counter() - started
            result = client.chat([{"role": "user", "content": prompt}], max_tokens=max_tokens)
            info = client.describe()
    except LLMError as exc:
        _fail(str(exc))
        return
    report = {
        "backbone": backbone,
        "model": info["model"],
        "base_url": info["base_url"],
        "answer": result.text,
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "latency_s": round(result.latency_s, 3),
        "ready_s": round(ready_s, 3),
    }
    if as_json:
        typer.echo(json.dumps(report))
        return
    typer.echo(f"backbone : {backbone} ({info['model']} at {info['base_url']})")
    typer.echo(f"ready in : {ready_s:.2f} s")
    typer.echo(f"answer   : {result.text.strip()}")
    typer.echo(
        f"tokens   : {result.prompt_tokens} prompt + {result.completion_tokens} completion "
        f"in {result.latency_s:.2f} s"
    )
    typer.secho("ok", fg=typer.colors.GREEN)


@llm_app.command("models")
def models() -> None:
    """List the packaged local models: installed? assembled and verified?"""
    from bemula.llm.client import LLMUnavailable
    from bemula.llm.weights import DEFAULT_LOCAL_MODEL, LOCAL_MODELS, models_dir, part_paths

    for spec in LOCAL_MODELS.values():
        try:
            part_paths(spec)
            installed = "installed"
        except LLMUnavailable:
            installed = "not installed"
        assembled = (models_dir() / spec.filename).is_file()
        default = " (default)" if spec.name == DEFAULT_LOCAL_MODEL else ""
        typer.echo(
            f"{spec.name}{default}: {spec.label}, {spec.size_bytes / 1e6:.0f} MB, {installed}"
            f"{', assembled' if assembled else ''}; parts {spec.dist_prefix}1..{spec.parts}"
            f"=={spec.version}; sha256 {spec.sha256}"
        )


@llm_app.command("assemble")
def assemble_cmd(
    model: str = typer.Option("local-0.5b", "--model", "-m", help="local-0.5b or local-1.5b"),
) -> None:
    """Assemble and verify a packaged local model now (otherwise done on first use)."""
    from bemula.llm.client import LLMUnavailable
    from bemula.llm.weights import assemble, resolve_local_model

    try:
        path = assemble(resolve_local_model(model))
    except LLMUnavailable as exc:
        _fail(str(exc))
        return
    typer.echo(str(path))


def _cache(path: Path | None):
    from bemula.llm.cache import RequestCache, default_cache_path

    target = path or default_cache_path()
    if not target.exists():
        _fail(f"no request cache at {target} (nothing cached yet)")
    return RequestCache(target)


@llm_app.command("cache-stats")
def cache_stats(
    path: Path | None = typer.Option(None, "--path", help="Cache file (default: the user cache)"),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object"),
) -> None:
    """Rows and lifetime hits in the request cache, per model and endpoint."""
    from bemula.llm.cache import default_cache_path

    target = path or default_cache_path()
    if not target.exists():
        typer.echo(f"cache : {target} (empty: nothing cached yet)")
        return
    cache = _cache(target)
    try:
        summary = cache.summary()
    finally:
        cache.close()
    if as_json:
        typer.echo(json.dumps(summary))
        return
    typer.echo(f"cache : {summary['path']} ({summary['bytes'] / 1e6:.1f} MB)")
    typer.echo(f"rows  : {summary['rows']}, lifetime hits: {summary['hits']}")
    for group in summary["by_model"]:
        typer.echo(f"  {group['model']} @ {group['endpoint']}: {group['rows']} rows, {group['hits']} hits")


@llm_app.command("cache-clear")
def cache_clear(
    path: Path | None = typer.Option(None, "--path", help="Cache file (default: the user cache)"),
    model: str | None = typer.Option(None, "--model", "-m", help="Only this model's rows"),
) -> None:
    """Delete cached answers (all, or one model's)."""
    cache = _cache(path)
    try:
        removed = cache.clear(model)
    finally:
        cache.close()
    typer.echo(f"removed {removed} cached answer(s)")

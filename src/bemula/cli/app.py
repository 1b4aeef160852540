"""The Typer application every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="bemula",
    help="BEMULA: can agents forget when asked? Generate, run, judge and score memory unlearning.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        from bemula import __version__

        typer.echo(__version__)
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="print the bemula version and exit"),
) -> None:
    """BEMULA memory-unlearning benchmark."""


@app.command()
def version() -> None:
    """Print the bemula version."""
    from bemula import __version__

    typer.echo(__version__)

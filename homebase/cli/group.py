"""Click, run so that every failure is the contract's one line on stderr (cli/output.py):
non-standalone mode, with Click's own exceptions caught here instead of Click printing its
usage block. Every command and group of the `homebase` table uses these two classes."""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from homebase.cli import output


@contextmanager
def _naming_the_command(ctx: click.Context) -> Iterator[None]:
    """Some of Click's parser errors (an option given without its value) leave out the
    command they are about; the one line names it."""
    try:
        yield
    except click.UsageError as error:
        if error.ctx is None:  # (error.cmd, which Click sets beside it, Click never reads)
            error.ctx = ctx
        raise


class Command(click.Command):
    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        with _naming_the_command(ctx):
            return super().parse_args(ctx, args)


class Group(click.Group):
    command_class = Command
    group_class = type  # subgroups are Groups too

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # No arguments is a usage error (one line), not the help page with exit 2.
        kwargs.setdefault("no_args_is_help", False)
        kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
        super().__init__(*args, **kwargs)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        with _naming_the_command(ctx):
            return super().parse_args(ctx, args)

    def run(self, argv: Sequence[str] | None = None) -> None:
        """Runs one command line; a failure exits with one line on stderr."""
        try:
            code = self.main(argv, prog_name="homebase", standalone_mode=False)
        except click.UsageError as error:  # unknown command or option, missing or bad value
            output.fail(output.usage_reason(error), output.USAGE)
        except click.ClickException as error:
            output.fail(error.format_message(), error.exit_code)
        except click.Abort:  # Ctrl-C; the server and the worker stop on it cleanly instead
            output.fail("interrupted", 130)
        except Exception as error:  # the contract: a one-line reason, non-zero exit
            output.fail(output.failure_reason(error))
        if isinstance(code, int) and code != 0:  # a command that called ctx.exit(code)
            raise SystemExit(code)

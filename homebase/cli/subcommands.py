"""The type of what `ArgumentParser.add_subparsers()` returns: argparse names that class
privately (`_SubParsersAction`), so commands are typed by what they call on it."""

import argparse
from typing import Any, Protocol


class Subcommands(Protocol):
    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...

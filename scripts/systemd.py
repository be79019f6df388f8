"""Reading systemd unit files (deploy/systemd/*.service) as scripts/topology.py needs them:
the command of ExecStart= and the variables of Environment=, so the topology starts its
processes from the units an operator installs and tests them without systemd.
docs/operations.md ("Production install").

The part of systemd.syntax(7) and systemd.exec(5) the units use: [Section] headers,
Key=Value lines, # and ; comments, a backslash continuing a line, repeated keys (an empty
assignment resets a list, as in systemd), Environment= holding several assignments with
double or single quotes around one (`Environment="A=two words" B=c`), `%%` for a percent
sign. Other specifiers (%h, %i, ...) and `$VARIABLE` in ExecStart= are refused, not guessed.
The standard library only, like the topology.
"""

import shlex
from dataclasses import dataclass, field
from pathlib import Path

# ExecStart='s prefixes (systemd.service(5), "Table 1"): ignore failure, argv[0], no
# variable expansion, full privileges, ambient capabilities.
_EXEC_PREFIXES = "-@:+!|"


@dataclass
class Unit:
    path: str
    sections: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def values(self, section: str, key: str) -> list[str]:
        return self.sections.get(section, {}).get(key, [])

    def value(self, section: str, key: str) -> str | None:
        """The last assignment of a single-valued key, as systemd reads it."""
        found = self.values(section, key)
        return found[-1] if found else None

    @property
    def exec_start(self) -> list[str]:
        """ExecStart= as an argument list, its prefixes removed."""
        line = self.value("Service", "ExecStart")
        if not line:
            raise ValueError(f"{self.path}: no ExecStart=")
        line = _specifiers(line.lstrip(_EXEC_PREFIXES), self.path)
        argv = shlex.split(line)
        if any("$" in word for word in argv):
            raise ValueError(f"{self.path}: $VARIABLE in ExecStart= is not supported here")
        return argv

    @property
    def environment(self) -> dict[str, str]:
        """Every Environment= assignment, in order (a later one wins)."""
        variables: dict[str, str] = {}
        for line in self.values("Service", "Environment"):
            for assignment in shlex.split(_specifiers(line, self.path)):
                name, equals, value = assignment.partition("=")
                if not equals or not name:
                    raise ValueError(f"{self.path}: Environment= {assignment!r} is not NAME=value")
                variables[name] = value
        return variables


def _specifiers(text: str, path: str) -> str:
    parts = text.split("%%")
    for part in parts:
        if "%" in part:
            raise ValueError(f"{path}: specifiers such as %h are not supported here: {text!r}")
    return "%".join(parts)


def parse(text: str, path: str = "<unit>") -> Unit:
    unit = Unit(path)
    section: dict[str, list[str]] | None = None
    pending = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith(("#", ";")):
            continue  # a comment, also between continued lines, as systemd reads it
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            section = unit.sections.setdefault(line[1:-1], {})
            continue
        key, equals, value = line.partition("=")
        if not equals or section is None:
            raise ValueError(f"{path}:{number}: not a Key=Value line of a section: {raw!r}")
        key, value = key.strip(), value.strip()
        if value:
            section.setdefault(key, []).append(value)
        else:
            section[key] = []  # an empty assignment resets the list
    return unit


def load(path: Path) -> Unit:
    return parse(Path(path).read_text(), str(path))

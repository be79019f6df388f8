"""The refused rows of an import as a CSV file to correct and import again
(docs/imports-exports.md, "Refused rows as a CSV"): the upload's own header and cells of
each refused row, and a last column `why`. Built from the upload on request, never
stored apart from it: once the upload is gone (24 hours after it was made) there is no
such file.

Blocking (run it in a thread).
"""

import csv
import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from homebase.imports.csv_rows import CsvReader
from homebase.imports.records import FieldErrorRecord, reason

WHY = "why"


def why(errors: Sequence[FieldErrorRecord]) -> str:
    """A row's errors as one cell: `field: message; ...`."""
    return "; ".join(reason(item["field"], item["message"]) for item in errors)


def build(path: Path, refused: Mapping[int, str]) -> bytes:
    """The rows of the CSV file at `path` that start on a line of `refused` ({line: why}),
    under the file's header and `why`, as UTF-8 CSV (the file's own separator)."""
    with path.open("rb") as file:
        reader = CsvReader(file)
        out = io.StringIO()
        writer = csv.writer(out, delimiter=reader.separator, lineterminator="\r\n")
        columns = reader.columns
        writer.writerow([*columns, WHY if WHY not in columns else WHY + "_refused"])
        for line, cells in reader:
            reason = refused.get(line)
            if reason is not None:
                writer.writerow([*cells, reason])
    return out.getvalue().encode("utf-8")

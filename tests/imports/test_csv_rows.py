"""The CSV reader for imports (homebase/imports/csv_rows.py): pure functions, no database."""

import io

import orjson
import pytest

from homebase.imports import csv_rows
from homebase.imports.csv_rows import CsvError, MappingError, chunks, map_rows, parse, preview
from homebase.imports.schemas import MAX_ROWS, ImportObject


def test_a_byte_order_mark_is_dropped_and_the_header_names_the_columns():
    for data in (
        b"\xef\xbb\xbfFirst Name,Email\nDana,dana@example.com\n",
        b"First Name,Email\r\nDana,dana@example.com\r\n",
    ):
        table = parse(data)
        assert table.columns == ["First Name", "Email"]
        assert table.records == [["Dana", "dana@example.com"]] and table.separator == ","


def test_quoted_cells_may_hold_newlines_separators_and_quotes():
    data = (
        b"first_name,notes,email\n"
        b'Dana,"Wants 3 beds,\nnear ""Noe Valley""",dana@example.com\n'
        b"Sam,,sam@example.com\n"
    )
    table = parse(data)
    assert table.records == [
        ["Dana", 'Wants 3 beds,\nnear "Noe Valley"', "dana@example.com"],
        ["Sam", "", "sam@example.com"],
    ]
    assert table.lines == [2, 4]  # where each row starts, the header being line 1


def test_semicolons_are_detected_from_the_header():
    data = 'Vorname;Nachname;E-Mail;Notiz\nJürgen;Müller;j@example.de;"a, b; c"\n'.encode()
    table = parse(data)
    assert table.separator == ";"
    assert table.records == [["Jürgen", "Müller", "j@example.de", "a, b; c"]]
    # A comma inside a quoted header cell does not outvote the semicolons.
    assert parse(b'"Name, full";Email;Phone\nx;y;z\n').separator == ";"


def test_tags_in_one_cell_are_split_and_trimmed():
    data = b'Name,Tags\nDana," buyer, vip |pre-approved;  ;x "\nSam,\n'
    rows = map_rows(parse(data), {"Name": "first_name", "Tags": "tags"})
    assert rows == [
        {"first_name": "Dana", "tags": ["buyer", "vip", "pre-approved", "x"]},
        {"first_name": "Sam"},  # an empty cell leaves the member out
    ]


def test_mapping_custom_fields_stage_and_short_rows():
    data = b"First,Stage,Budget,Zip,Ignored\nDana,hot lead,900000\n"
    rows = map_rows(
        parse(data),
        {
            "First": "first_name",
            "Stage": "stage",
            "Budget": "custom_fields.budget",
            "Zip": "custom_fields.zip",
        },
    )
    assert rows == [
        {"first_name": "Dana", "stage": "HOT_LEAD", "custom_fields": {"budget": "900000"}}
    ]
    leads = map_rows(
        parse(b"Phone,Source,Zip\n+14155550142,Zillow,94110\n"),
        {"Phone": "phone", "Source": "source", "Zip": "context.zip"},
        ImportObject.LEADS,
    )
    assert leads == [{"phone": "+14155550142", "source": "Zillow", "context": {"zip": "94110"}}]


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"Nope": "email"}, "'Nope' is not a column"),
        ({"A": "email", "B": "email"}, "two columns are mapped to 'email'"),
        ({"A": "nickname"}, "'A' is mapped to 'nickname'"),
        ({"A": "custom_fields."}, "'A' is mapped to 'custom_fields.'"),
        ({"A": "context.zip"}, "'A' is mapped to 'context.zip'"),  # leads only
    ],
)
def test_a_bad_mapping_is_refused_clearly(mapping, message):
    with pytest.raises(MappingError, match=message):
        map_rows(parse(b"A,B\n1,2\n"), mapping)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the file is empty"),
        (b"\n \n", "the file is empty"),
        (b"Name,Email\nDana,\xff\xfe\n", "line 2: the file is not UTF-8 text"),
        (b"Name,Email\nDa\x00na,x\n", "NUL characters"),
        (b"Name,\nDana,x\n", "line 1: column 2 of the header row has no name"),
        (b"Name,Name\nDana,x\n", "line 1: the header names the column 'Name' twice"),
        (b"Name,Email\nDana,x,extra\n", "line 2: 3 cells but the header has 2 columns"),
        (b'Name,Email\nDana,"x"y\n', "line 2: malformed CSV"),
        (b'Name,Email\nDana,"never closed\n', "malformed CSV"),
    ],
)
def test_a_malformed_file_raises_a_clear_error(data, message):
    with pytest.raises(CsvError, match=message):
        parse(data)


def test_bounds(monkeypatch):
    with pytest.raises(CsvError, match="at most 20000"):
        parse(b"Notes\n" + b"x" * 20_001 + b"\n")
    with pytest.raises(CsvError, match="at most 200"):
        parse(",".join(f"c{index}" for index in range(201)).encode() + b"\n")
    with pytest.raises(CsvError, match="line 4: more than 2 rows"):
        parse(b"Name\na\nb\nc\n", max_rows=2)


def test_preview_shows_the_first_rows_and_suggests_a_mapping():
    data = b"E-mail,First Name,Mobile Phone,Tags,Misc\n" + b"d@example.com,Dana,415,a,z\n" * 12
    shown = preview(parse(data))
    assert shown["row_count"] == 12 and len(shown["rows"]) == csv_rows.PREVIEW_ROWS
    assert shown["rows"][0]["First Name"] == "Dana"
    assert shown["suggested_mapping"] == {
        "E-mail": "email",
        "First Name": "first_name",
        "Mobile Phone": "phone",
        "Tags": "tags",
    }


def test_chunks_split_a_large_file_into_imports():
    rows = [{"first_name": f"P{index}"} for index in range(MAX_ROWS * 2 + 1)]
    found = list(chunks(rows))
    assert [(chunk.start, len(chunk.rows)) for chunk in found] == [
        (0, MAX_ROWS),
        (MAX_ROWS, MAX_ROWS),
        (MAX_ROWS * 2, 1),
    ]
    body = found[2].body(ImportObject.CONTACTS, match_on=["email"])
    assert body == {"object": "contacts", "rows": [rows[-1]], "match_on": ["email"]}
    by_size = list(chunks(rows[:1000], max_bytes=10_000))
    assert all(len(orjson.dumps(chunk.body(ImportObject.CONTACTS))) <= 10_000 for chunk in by_size)
    assert sum(len(chunk.rows) for chunk in by_size) == 1000
    assert [chunk.start for chunk in by_size][:2] == [0, len(by_size[0].rows)]


def test_custom_field_cells_take_their_types_json_values():
    rows = [
        {"custom_fields": {"budget": "500000", "rate": "2.5", "big": "1,250.50", "vip": "Yes"}},
        {"custom_fields": {"budget": "lots", "areas": "north; south", "note": "7", "vip": "maybe"}},
        {"first_name": "no custom fields"},
        {"custom_fields": {"budget": "650,000", "rate": "-$1,250", "big": "$2,500,000.75"}},
        # A decimal comma, groups not of three, a comma and no digits: text, refused.
        {"custom_fields": {"budget": "2,5", "rate": "12,34,567", "big": "$,"}},
    ]
    types = {
        "budget": "number",
        "rate": "number",
        "big": "number",
        "vip": "boolean",
        "areas": "multi_select",
        "note": "text",
    }
    csv_rows.type_custom_fields(rows, types)
    assert rows[0]["custom_fields"] == {"budget": 500000, "rate": 2.5, "big": 1250.5, "vip": True}
    # What does not read as its type stays text, for the import's own message.
    assert rows[1]["custom_fields"] == {
        "budget": "lots",
        "areas": ["north", "south"],
        "note": "7",
        "vip": "maybe",
    }
    assert rows[3]["custom_fields"] == {"budget": 650000, "rate": -1250, "big": 2500000.75}
    assert rows[4]["custom_fields"] == {"budget": "2,5", "rate": "12,34,567", "big": "$,"}


class Counting(io.BytesIO):
    """A file that counts the bytes read from it."""

    taken = 0

    def read(self, size=-1):
        data = super().read(size)
        self.taken += len(data)
        return data


def test_a_file_is_read_a_row_at_a_time():
    data = b"Name,Email\n" + b"Dana,dana@example.com\n" * 100_000  # 2.2 MB
    head = Counting(data)
    table = csv_rows.head(head, rows=3)
    assert table.columns == ["Name", "Email"] and len(table.records) == 3
    assert head.taken < 200_000  # the first rows, not the file
    summary = csv_rows.scan(io.BytesIO(data))
    assert (summary.columns, summary.separator, summary.rows) == (["Name", "Email"], ",", 100_000)
    reader = csv_rows.CsvReader(io.BytesIO(data))
    assert next(iter(reader)) == (2, ["Dana", "dana@example.com"])


def test_line_ends_blank_lines_and_the_header_separator():
    assert parse(b"a,b\r1,2\r3,4\r").records == [["1", "2"], ["3", "4"]]  # old Macs
    table = parse(b"\n\r\nVorname;Name\nJ;M\n")  # blank lines before the header
    assert (table.columns, table.separator, table.lines) == (["Vorname", "Name"], ";", [4])
    assert parse(b'"Name\nfull";Email\nx;y\n').columns == ["Name\nfull", "Email"]


def test_an_encoding_error_far_into_the_file_names_its_line():
    # Past the reader's first pieces, and a character cut by a piece's end before it.
    rows = "Jürgen,x\n".encode() * 30_000
    for bad in (b"\xff", b"\xc3"):
        with pytest.raises(CsvError, match="line 30002: the file is not UTF-8 text"):
            parse(b"Name,Email\n" + rows + b"Dana," + bad + b"\n")


def test_a_row_is_bounded_before_it_is_split_into_cells():
    with pytest.raises(CsvError, match="line 2: a row holds more than 1000000 characters"):
        parse(b"Name\n" + b"," * csv_rows.MAX_ROW_CHARS + b"\n")
    # Quoted cells spanning lines: the row's lines count together.
    spanning = b"Name\n" + b'"\n",' * (csv_rows.MAX_ROW_CHARS // 4) + b"\n"
    with pytest.raises(CsvError, match="more than 1000000 characters"):
        parse(spanning)

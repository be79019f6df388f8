"""An appointment as an iCalendar object (RFC 5545) holding one VEVENT.

The UID is the appointment id, so every push of one appointment replaces the same
event; SEQUENCE is the push revision, so clients see each change as newer. A
cancelled appointment stays on the calendar with STATUS:CANCELLED.
"""

from datetime import UTC, datetime
from typing import Any

PRODID = "-//Homebase//Appointments v1//EN"


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def escape(text: str) -> str:
    """TEXT value escaping: backslash, semicolon, comma and newlines."""
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\r", "\\n")
        .replace("\n", "\\n")
    )


def fold(line: str) -> str:
    """Lines longer than 75 octets continue on the next line after CRLF and a space,
    never splitting a UTF-8 character."""
    encoded = line.encode()
    if len(encoded) <= 75:
        return line
    parts, current, limit = [], b"", 75
    for character in line:
        piece = character.encode()
        if len(current) + len(piece) > limit:
            parts.append(current.decode())
            current, limit = b"", 74  # continuation lines start with a space
        current += piece
    parts.append(current.decode())
    return "\r\n ".join(parts)


def uid(appointment_id: str) -> str:
    return appointment_id


def calendar_object(appointment: dict[str, Any], *, sequence: int, now: datetime) -> bytes:
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        f"PRODID:{PRODID}",
        "CALSCALE:GREGORIAN",
        "BEGIN:VEVENT",
        f"UID:{uid(appointment['id'])}",
        f"DTSTAMP:{_utc(now)}",
        f"DTSTART:{_utc(appointment['starts_at'])}",
        f"DTEND:{_utc(appointment['ends_at'])}",
        f"SUMMARY:{escape(appointment['title'])}",
        f"SEQUENCE:{sequence}",
        f"LAST-MODIFIED:{_utc(appointment['updated_at'])}",
        f"CREATED:{_utc(appointment['created_at'])}",
        "STATUS:" + ("CANCELLED" if appointment["outcome"] == "cancelled" else "CONFIRMED"),
    ]
    if appointment["location"]:
        lines.append(f"LOCATION:{escape(appointment['location'])}")
    if appointment["notes"]:
        lines.append(f"DESCRIPTION:{escape(appointment['notes'])}")
    lines += ["END:VEVENT", "END:VCALENDAR"]
    return ("\r\n".join(fold(line) for line in lines) + "\r\n").encode()

"""How personal data looks to a credential without contacts:read:pii (and always in
webhook payloads): the last four digits of a phone, the first character and the domain
of an email address."""

MASK = "*"


def mask_phone(phone: str | None) -> str | None:
    if not phone:
        return phone
    digits_seen = 0
    characters = list(phone)
    total_digits = sum(character.isdigit() for character in characters)
    for index, character in enumerate(characters):
        if character.isdigit():
            digits_seen += 1
            if digits_seen <= total_digits - 4:
                characters[index] = MASK
    return "".join(characters)


def mask_email(email: str | None) -> str | None:
    if not email:
        return email
    local, at, domain = email.partition("@")
    if not at:
        return MASK * 3
    return f"{local[:1]}{MASK * 3}@{domain}"

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_channel import MessageChannel
from ..models.persona_action import PersonaAction
from ..models.persona_first_touch import PersonaFirstTouch
from ..models.persona_narrowed_voicemail import PersonaNarrowedVoicemail
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.persona_narrowed_showing_hours import PersonaNarrowedShowingHours
    from ..models.persona_narrowed_translations import PersonaNarrowedTranslations


T = TypeVar("T", bound="PersonaNarrowed")


@_attrs_define
class PersonaNarrowed:
    """A Persona narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Persona.

        Attributes:
            id (str):
            name (str | Unset):
            tone (str | Unset): How the persona writes.
            channels (list[MessageChannel] | Unset): Where its messages may go.
            signature (None | str | Unset): Appended to every message it sends.
            instructions (None | str | Unset): What the AI is for and must not do, given to the model as its instructions.
            responder (bool | Unset): True for the workspace's AI responder (at most one): the persona the AI answers leads'
                inbound texts as.
            disclosure (None | str | Unset): Opens the responder's first reply: says an automated assistant is writing, and
                for whom. Up to 160 characters. It, handoff_reply and signature may hold {agent_first_name}, {agent_name} (the
                contact's owner, else the workspace's name), {persona_name} and {workspace_name}.
            handoff_reply (None | str | Unset): What the responder answers when it hands the conversation to a person.
            handoff_assignee (None | str | Unset): The workspace member a handed-off conversation goes to when the contact
                has no owner (a user id).
            handoff_minutes (int | Unset): Minutes, counted inside showing_hours, before a handoff's task is due (default
                15).
            links (list[str] | Unset): The page URLs (absolute http or https) the responder's replies may carry, besides the
                workspace's listings' own `url`; empty when none.
            phone (None | str | Unset): The persona's business number in E.164, the one number its replies may give. The
                business's, not a contact's: never masked.
            actions (list[PersonaAction] | Unset): The tools the AI may use as this persona (docs/ai.md, "Actions"); empty:
                it only answers, acting on nothing.
            showing_hours (PersonaNarrowedShowingHours | Unset): When showings may be booked, by weekday (mon ... sun) as
                [opens, closes] in the workspace's time_zone; a day left out has none. Default Monday to Saturday 09:00-18:00.
            showing_minutes (int | Unset): How long a showing the AI books lasts.
            qualification_fields (list[str] | Unset): The contact custom fields (keys) set_qualification may write.
            tags (list[str] | Unset): The only tags add_tags may add.
            languages (list[str] | Unset): The languages (ISO 639-1) the AI answers in (default en, es); a lead writing in
                another is handed to a person.
            translations (PersonaNarrowedTranslations | Unset): By language, the persona's disclosure, handoff_reply,
                signature and opt_out_confirmation in it; a text left out is the persona's own field.
            first_touch (PersonaFirstTouch | Unset): What the responder persona sends a new lead unasked (docs/ai.md, "First
                touch
                and follow-ups"; docs/voice.md): nothing (`off`, the default), a text, an AI call,
                or a text and, when it goes unanswered, a call.
            first_touch_delay_seconds (int | Unset): Seconds after the lead's creation its first touch is due (default 30).
            call_after_text_minutes (int | Unset): With first_touch `text_then_call` (or a `text_then_call` campaign):
                minutes after the AI's text, unanswered, that it calls (default 10).
            follow_ups (list[str] | Unset): ISO 8601 durations (e.g. PT10M, P1D): each a follow-up text, measured from the
                AI's previous text the lead has not answered; empty: none.
            voice (bool | Unset): Whether the AI places and answers phone calls as this persona (docs/voice.md); false by
                default.
            voicemail (PersonaNarrowedVoicemail | Unset): On an answering machine: hang_up (the default), or leave
                voicemail_text, opened by the call's disclosure.
            voicemail_text (None | str | Unset): The short message left on an answering machine; null: the service's.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    name: str | Unset = UNSET
    tone: str | Unset = UNSET
    channels: list[MessageChannel] | Unset = UNSET
    signature: None | str | Unset = UNSET
    instructions: None | str | Unset = UNSET
    responder: bool | Unset = UNSET
    disclosure: None | str | Unset = UNSET
    handoff_reply: None | str | Unset = UNSET
    handoff_assignee: None | str | Unset = UNSET
    handoff_minutes: int | Unset = UNSET
    links: list[str] | Unset = UNSET
    phone: None | str | Unset = UNSET
    actions: list[PersonaAction] | Unset = UNSET
    showing_hours: PersonaNarrowedShowingHours | Unset = UNSET
    showing_minutes: int | Unset = UNSET
    qualification_fields: list[str] | Unset = UNSET
    tags: list[str] | Unset = UNSET
    languages: list[str] | Unset = UNSET
    translations: PersonaNarrowedTranslations | Unset = UNSET
    first_touch: PersonaFirstTouch | Unset = UNSET
    first_touch_delay_seconds: int | Unset = UNSET
    call_after_text_minutes: int | Unset = UNSET
    follow_ups: list[str] | Unset = UNSET
    voice: bool | Unset = UNSET
    voicemail: PersonaNarrowedVoicemail | Unset = UNSET
    voicemail_text: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        tone = self.tone

        channels: list[str] | Unset = UNSET
        if not isinstance(self.channels, Unset):
            channels = []
            for channels_item_data in self.channels:
                channels_item = channels_item_data.value
                channels.append(channels_item)

        signature: None | str | Unset
        if isinstance(self.signature, Unset):
            signature = UNSET
        else:
            signature = self.signature

        instructions: None | str | Unset
        if isinstance(self.instructions, Unset):
            instructions = UNSET
        else:
            instructions = self.instructions

        responder = self.responder

        disclosure: None | str | Unset
        if isinstance(self.disclosure, Unset):
            disclosure = UNSET
        else:
            disclosure = self.disclosure

        handoff_reply: None | str | Unset
        if isinstance(self.handoff_reply, Unset):
            handoff_reply = UNSET
        else:
            handoff_reply = self.handoff_reply

        handoff_assignee: None | str | Unset
        if isinstance(self.handoff_assignee, Unset):
            handoff_assignee = UNSET
        else:
            handoff_assignee = self.handoff_assignee

        handoff_minutes = self.handoff_minutes

        links: list[str] | Unset = UNSET
        if not isinstance(self.links, Unset):
            links = self.links

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        actions: list[str] | Unset = UNSET
        if not isinstance(self.actions, Unset):
            actions = []
            for actions_item_data in self.actions:
                actions_item = actions_item_data.value
                actions.append(actions_item)

        showing_hours: dict[str, Any] | Unset = UNSET
        if not isinstance(self.showing_hours, Unset):
            showing_hours = self.showing_hours.to_dict()

        showing_minutes = self.showing_minutes

        qualification_fields: list[str] | Unset = UNSET
        if not isinstance(self.qualification_fields, Unset):
            qualification_fields = self.qualification_fields

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        languages: list[str] | Unset = UNSET
        if not isinstance(self.languages, Unset):
            languages = self.languages

        translations: dict[str, Any] | Unset = UNSET
        if not isinstance(self.translations, Unset):
            translations = self.translations.to_dict()

        first_touch: str | Unset = UNSET
        if not isinstance(self.first_touch, Unset):
            first_touch = self.first_touch.value

        first_touch_delay_seconds = self.first_touch_delay_seconds

        call_after_text_minutes = self.call_after_text_minutes

        follow_ups: list[str] | Unset = UNSET
        if not isinstance(self.follow_ups, Unset):
            follow_ups = self.follow_ups

        voice = self.voice

        voicemail: str | Unset = UNSET
        if not isinstance(self.voicemail, Unset):
            voicemail = self.voicemail.value

        voicemail_text: None | str | Unset
        if isinstance(self.voicemail_text, Unset):
            voicemail_text = UNSET
        else:
            voicemail_text = self.voicemail_text

        created_at: str | Unset = UNSET
        if not isinstance(self.created_at, Unset):
            created_at = self.created_at.isoformat()

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if tone is not UNSET:
            field_dict["tone"] = tone
        if channels is not UNSET:
            field_dict["channels"] = channels
        if signature is not UNSET:
            field_dict["signature"] = signature
        if instructions is not UNSET:
            field_dict["instructions"] = instructions
        if responder is not UNSET:
            field_dict["responder"] = responder
        if disclosure is not UNSET:
            field_dict["disclosure"] = disclosure
        if handoff_reply is not UNSET:
            field_dict["handoff_reply"] = handoff_reply
        if handoff_assignee is not UNSET:
            field_dict["handoff_assignee"] = handoff_assignee
        if handoff_minutes is not UNSET:
            field_dict["handoff_minutes"] = handoff_minutes
        if links is not UNSET:
            field_dict["links"] = links
        if phone is not UNSET:
            field_dict["phone"] = phone
        if actions is not UNSET:
            field_dict["actions"] = actions
        if showing_hours is not UNSET:
            field_dict["showing_hours"] = showing_hours
        if showing_minutes is not UNSET:
            field_dict["showing_minutes"] = showing_minutes
        if qualification_fields is not UNSET:
            field_dict["qualification_fields"] = qualification_fields
        if tags is not UNSET:
            field_dict["tags"] = tags
        if languages is not UNSET:
            field_dict["languages"] = languages
        if translations is not UNSET:
            field_dict["translations"] = translations
        if first_touch is not UNSET:
            field_dict["first_touch"] = first_touch
        if first_touch_delay_seconds is not UNSET:
            field_dict["first_touch_delay_seconds"] = first_touch_delay_seconds
        if call_after_text_minutes is not UNSET:
            field_dict["call_after_text_minutes"] = call_after_text_minutes
        if follow_ups is not UNSET:
            field_dict["follow_ups"] = follow_ups
        if voice is not UNSET:
            field_dict["voice"] = voice
        if voicemail is not UNSET:
            field_dict["voicemail"] = voicemail
        if voicemail_text is not UNSET:
            field_dict["voicemail_text"] = voicemail_text
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.persona_narrowed_showing_hours import PersonaNarrowedShowingHours
        from ..models.persona_narrowed_translations import PersonaNarrowedTranslations

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name", UNSET)

        tone = d.pop("tone", UNSET)

        _channels = d.pop("channels", UNSET)
        channels: list[MessageChannel] | Unset = UNSET
        if _channels is not UNSET:
            channels = []
            for channels_item_data in _channels:
                channels_item = MessageChannel(channels_item_data)

                channels.append(channels_item)

        def _parse_signature(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        signature = _parse_signature(d.pop("signature", UNSET))

        def _parse_instructions(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        instructions = _parse_instructions(d.pop("instructions", UNSET))

        responder = d.pop("responder", UNSET)

        def _parse_disclosure(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disclosure = _parse_disclosure(d.pop("disclosure", UNSET))

        def _parse_handoff_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        handoff_reply = _parse_handoff_reply(d.pop("handoff_reply", UNSET))

        def _parse_handoff_assignee(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        handoff_assignee = _parse_handoff_assignee(d.pop("handoff_assignee", UNSET))

        handoff_minutes = d.pop("handoff_minutes", UNSET)

        links = cast(list[str], d.pop("links", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        _actions = d.pop("actions", UNSET)
        actions: list[PersonaAction] | Unset = UNSET
        if _actions is not UNSET:
            actions = []
            for actions_item_data in _actions:
                actions_item = PersonaAction(actions_item_data)

                actions.append(actions_item)

        _showing_hours = d.pop("showing_hours", UNSET)
        showing_hours: PersonaNarrowedShowingHours | Unset
        if isinstance(_showing_hours, Unset):
            showing_hours = UNSET
        else:
            showing_hours = PersonaNarrowedShowingHours.from_dict(_showing_hours)

        showing_minutes = d.pop("showing_minutes", UNSET)

        qualification_fields = cast(list[str], d.pop("qualification_fields", UNSET))

        tags = cast(list[str], d.pop("tags", UNSET))

        languages = cast(list[str], d.pop("languages", UNSET))

        _translations = d.pop("translations", UNSET)
        translations: PersonaNarrowedTranslations | Unset
        if isinstance(_translations, Unset):
            translations = UNSET
        else:
            translations = PersonaNarrowedTranslations.from_dict(_translations)

        _first_touch = d.pop("first_touch", UNSET)
        first_touch: PersonaFirstTouch | Unset
        if isinstance(_first_touch, Unset):
            first_touch = UNSET
        else:
            first_touch = PersonaFirstTouch(_first_touch)

        first_touch_delay_seconds = d.pop("first_touch_delay_seconds", UNSET)

        call_after_text_minutes = d.pop("call_after_text_minutes", UNSET)

        follow_ups = cast(list[str], d.pop("follow_ups", UNSET))

        voice = d.pop("voice", UNSET)

        _voicemail = d.pop("voicemail", UNSET)
        voicemail: PersonaNarrowedVoicemail | Unset
        if isinstance(_voicemail, Unset):
            voicemail = UNSET
        else:
            voicemail = PersonaNarrowedVoicemail(_voicemail)

        def _parse_voicemail_text(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        voicemail_text = _parse_voicemail_text(d.pop("voicemail_text", UNSET))

        _created_at = d.pop("created_at", UNSET)
        created_at: datetime.datetime | Unset
        if isinstance(_created_at, Unset):
            created_at = UNSET
        else:
            created_at = datetime.datetime.fromisoformat(_created_at)

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        persona_narrowed = cls(
            id=id,
            name=name,
            tone=tone,
            channels=channels,
            signature=signature,
            instructions=instructions,
            responder=responder,
            disclosure=disclosure,
            handoff_reply=handoff_reply,
            handoff_assignee=handoff_assignee,
            handoff_minutes=handoff_minutes,
            links=links,
            phone=phone,
            actions=actions,
            showing_hours=showing_hours,
            showing_minutes=showing_minutes,
            qualification_fields=qualification_fields,
            tags=tags,
            languages=languages,
            translations=translations,
            first_touch=first_touch,
            first_touch_delay_seconds=first_touch_delay_seconds,
            call_after_text_minutes=call_after_text_minutes,
            follow_ups=follow_ups,
            voice=voice,
            voicemail=voicemail,
            voicemail_text=voicemail_text,
            created_at=created_at,
            updated_at=updated_at,
        )

        persona_narrowed.additional_properties = d
        return persona_narrowed

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.message_channel import MessageChannel
from ..models.persona_action import PersonaAction
from ..models.persona_first_touch import PersonaFirstTouch
from ..models.persona_voicemail import PersonaVoicemail

if TYPE_CHECKING:
    from ..models.persona_showing_hours import PersonaShowingHours
    from ..models.persona_translations import PersonaTranslations


T = TypeVar("T", bound="Persona")


@_attrs_define
class Persona:
    """
    Attributes:
        id (str):
        name (str):
        tone (str): How the persona writes.
        channels (list[MessageChannel]): Where its messages may go.
        signature (None | str): Appended to every message it sends.
        instructions (None | str): What the AI is for and must not do, given to the model as its instructions.
        responder (bool): True for the workspace's AI responder (at most one): the persona the AI answers leads' inbound
            texts as.
        disclosure (None | str): Opens the responder's first reply: says an automated assistant is writing, and for
            whom. Up to 160 characters. It, handoff_reply and signature may hold {agent_first_name}, {agent_name} (the
            contact's owner, else the workspace's name), {persona_name} and {workspace_name}.
        handoff_reply (None | str): What the responder answers when it hands the conversation to a person.
        handoff_assignee (None | str): The workspace member a handed-off conversation goes to when the contact has no
            owner (a user id).
        handoff_minutes (int): Minutes, counted inside showing_hours, before a handoff's task is due (default 15).
        links (list[str]): The page URLs (absolute http or https) the responder's replies may carry, besides the
            workspace's listings' own `url`; empty when none.
        phone (None | str): The persona's business number in E.164, the one number its replies may give. The business's,
            not a contact's: never masked.
        actions (list[PersonaAction]): The tools the AI may use as this persona (docs/ai.md, "Actions"); empty: it only
            answers, acting on nothing.
        showing_hours (PersonaShowingHours): When showings may be booked, by weekday (mon ... sun) as [opens, closes] in
            the workspace's time_zone; a day left out has none. Default Monday to Saturday 09:00-18:00.
        showing_minutes (int): How long a showing the AI books lasts.
        qualification_fields (list[str]): The contact custom fields (keys) set_qualification may write.
        tags (list[str]): The only tags add_tags may add.
        languages (list[str]): The languages (ISO 639-1) the AI answers in (default en, es); a lead writing in another
            is handed to a person.
        translations (PersonaTranslations): By language, the persona's disclosure, handoff_reply, signature and
            opt_out_confirmation in it; a text left out is the persona's own field.
        first_touch (PersonaFirstTouch): What the responder persona sends a new lead unasked (docs/ai.md, "First touch
            and follow-ups"; docs/voice.md): nothing (`off`, the default), a text, an AI call,
            or a text and, when it goes unanswered, a call.
        first_touch_delay_seconds (int): Seconds after the lead's creation its first touch is due (default 30).
        call_after_text_minutes (int): With first_touch `text_then_call` (or a `text_then_call` campaign): minutes after
            the AI's text, unanswered, that it calls (default 10).
        follow_ups (list[str]): ISO 8601 durations (e.g. PT10M, P1D): each a follow-up text, measured from the AI's
            previous text the lead has not answered; empty: none.
        voice (bool): Whether the AI places and answers phone calls as this persona (docs/voice.md); false by default.
        voicemail (PersonaVoicemail): On an answering machine: hang_up (the default), or leave voicemail_text, opened by
            the call's disclosure.
        voicemail_text (None | str): The short message left on an answering machine; null: the service's.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    name: str
    tone: str
    channels: list[MessageChannel]
    signature: None | str
    instructions: None | str
    responder: bool
    disclosure: None | str
    handoff_reply: None | str
    handoff_assignee: None | str
    handoff_minutes: int
    links: list[str]
    phone: None | str
    actions: list[PersonaAction]
    showing_hours: PersonaShowingHours
    showing_minutes: int
    qualification_fields: list[str]
    tags: list[str]
    languages: list[str]
    translations: PersonaTranslations
    first_touch: PersonaFirstTouch
    first_touch_delay_seconds: int
    call_after_text_minutes: int
    follow_ups: list[str]
    voice: bool
    voicemail: PersonaVoicemail
    voicemail_text: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        tone = self.tone

        channels = []
        for channels_item_data in self.channels:
            channels_item = channels_item_data.value
            channels.append(channels_item)

        signature: None | str
        signature = self.signature

        instructions: None | str
        instructions = self.instructions

        responder = self.responder

        disclosure: None | str
        disclosure = self.disclosure

        handoff_reply: None | str
        handoff_reply = self.handoff_reply

        handoff_assignee: None | str
        handoff_assignee = self.handoff_assignee

        handoff_minutes = self.handoff_minutes

        links = self.links

        phone: None | str
        phone = self.phone

        actions = []
        for actions_item_data in self.actions:
            actions_item = actions_item_data.value
            actions.append(actions_item)

        showing_hours = self.showing_hours.to_dict()

        showing_minutes = self.showing_minutes

        qualification_fields = self.qualification_fields

        tags = self.tags

        languages = self.languages

        translations = self.translations.to_dict()

        first_touch = self.first_touch.value

        first_touch_delay_seconds = self.first_touch_delay_seconds

        call_after_text_minutes = self.call_after_text_minutes

        follow_ups = self.follow_ups

        voice = self.voice

        voicemail = self.voicemail.value

        voicemail_text: None | str
        voicemail_text = self.voicemail_text

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "tone": tone,
                "channels": channels,
                "signature": signature,
                "instructions": instructions,
                "responder": responder,
                "disclosure": disclosure,
                "handoff_reply": handoff_reply,
                "handoff_assignee": handoff_assignee,
                "handoff_minutes": handoff_minutes,
                "links": links,
                "phone": phone,
                "actions": actions,
                "showing_hours": showing_hours,
                "showing_minutes": showing_minutes,
                "qualification_fields": qualification_fields,
                "tags": tags,
                "languages": languages,
                "translations": translations,
                "first_touch": first_touch,
                "first_touch_delay_seconds": first_touch_delay_seconds,
                "call_after_text_minutes": call_after_text_minutes,
                "follow_ups": follow_ups,
                "voice": voice,
                "voicemail": voicemail,
                "voicemail_text": voicemail_text,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.persona_showing_hours import PersonaShowingHours
        from ..models.persona_translations import PersonaTranslations

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        tone = d.pop("tone")

        channels = []
        _channels = d.pop("channels")
        for channels_item_data in _channels:
            channels_item = MessageChannel(channels_item_data)

            channels.append(channels_item)

        def _parse_signature(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        signature = _parse_signature(d.pop("signature"))

        def _parse_instructions(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        instructions = _parse_instructions(d.pop("instructions"))

        responder = d.pop("responder")

        def _parse_disclosure(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        disclosure = _parse_disclosure(d.pop("disclosure"))

        def _parse_handoff_reply(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        handoff_reply = _parse_handoff_reply(d.pop("handoff_reply"))

        def _parse_handoff_assignee(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        handoff_assignee = _parse_handoff_assignee(d.pop("handoff_assignee"))

        handoff_minutes = d.pop("handoff_minutes")

        links = cast(list[str], d.pop("links"))

        def _parse_phone(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        phone = _parse_phone(d.pop("phone"))

        actions = []
        _actions = d.pop("actions")
        for actions_item_data in _actions:
            actions_item = PersonaAction(actions_item_data)

            actions.append(actions_item)

        showing_hours = PersonaShowingHours.from_dict(d.pop("showing_hours"))

        showing_minutes = d.pop("showing_minutes")

        qualification_fields = cast(list[str], d.pop("qualification_fields"))

        tags = cast(list[str], d.pop("tags"))

        languages = cast(list[str], d.pop("languages"))

        translations = PersonaTranslations.from_dict(d.pop("translations"))

        first_touch = PersonaFirstTouch(d.pop("first_touch"))

        first_touch_delay_seconds = d.pop("first_touch_delay_seconds")

        call_after_text_minutes = d.pop("call_after_text_minutes")

        follow_ups = cast(list[str], d.pop("follow_ups"))

        voice = d.pop("voice")

        voicemail = PersonaVoicemail(d.pop("voicemail"))

        def _parse_voicemail_text(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        voicemail_text = _parse_voicemail_text(d.pop("voicemail_text"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        persona = cls(
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

        persona.additional_properties = d
        return persona

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PreviewRequest")


@_attrs_define
class PreviewRequest:
    """The lead facts routing looks at; only source is required.

    Attributes:
        source (str):
        zip_ (None | str | Unset):
        city (None | str | Unset):
        price (float | None | Unset):
        has_phone (bool | Unset): Defaults to true: every lead carries a phone. Default: True.
        tags (list[str] | Unset):
        stage (None | str | Unset):
        office_id (None | str | Unset):
        team_id (None | str | Unset):
    """

    source: str
    zip_: None | str | Unset = UNSET
    city: None | str | Unset = UNSET
    price: float | None | Unset = UNSET
    has_phone: bool | Unset = True
    tags: list[str] | Unset = UNSET
    stage: None | str | Unset = UNSET
    office_id: None | str | Unset = UNSET
    team_id: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        source = self.source

        zip_: None | str | Unset
        if isinstance(self.zip_, Unset):
            zip_ = UNSET
        else:
            zip_ = self.zip_

        city: None | str | Unset
        if isinstance(self.city, Unset):
            city = UNSET
        else:
            city = self.city

        price: float | None | Unset
        if isinstance(self.price, Unset):
            price = UNSET
        else:
            price = self.price

        has_phone = self.has_phone

        tags: list[str] | Unset = UNSET
        if not isinstance(self.tags, Unset):
            tags = self.tags

        stage: None | str | Unset
        if isinstance(self.stage, Unset):
            stage = UNSET
        else:
            stage = self.stage

        office_id: None | str | Unset
        if isinstance(self.office_id, Unset):
            office_id = UNSET
        else:
            office_id = self.office_id

        team_id: None | str | Unset
        if isinstance(self.team_id, Unset):
            team_id = UNSET
        else:
            team_id = self.team_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "source": source,
            }
        )
        if zip_ is not UNSET:
            field_dict["zip"] = zip_
        if city is not UNSET:
            field_dict["city"] = city
        if price is not UNSET:
            field_dict["price"] = price
        if has_phone is not UNSET:
            field_dict["has_phone"] = has_phone
        if tags is not UNSET:
            field_dict["tags"] = tags
        if stage is not UNSET:
            field_dict["stage"] = stage
        if office_id is not UNSET:
            field_dict["office_id"] = office_id
        if team_id is not UNSET:
            field_dict["team_id"] = team_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        source = d.pop("source")

        def _parse_zip_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        zip_ = _parse_zip_(d.pop("zip", UNSET))

        def _parse_city(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        city = _parse_city(d.pop("city", UNSET))

        def _parse_price(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        price = _parse_price(d.pop("price", UNSET))

        has_phone = d.pop("has_phone", UNSET)

        tags = cast(list[str], d.pop("tags", UNSET))

        def _parse_stage(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        stage = _parse_stage(d.pop("stage", UNSET))

        def _parse_office_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        office_id = _parse_office_id(d.pop("office_id", UNSET))

        def _parse_team_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        team_id = _parse_team_id(d.pop("team_id", UNSET))

        preview_request = cls(
            source=source,
            zip_=zip_,
            city=city,
            price=price,
            has_phone=has_phone,
            tags=tags,
            stage=stage,
            office_id=office_id,
            team_id=team_id,
        )

        return preview_request

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.listing_status import ListingStatus

if TYPE_CHECKING:
    from ..models.photo import Photo


T = TypeVar("T", bound="Listing")


@_attrs_define
class Listing:
    """
    Attributes:
        id (str):
        address (str): Street address.
        unit (None | str):
        city (str):
        state (str):
        zip_ (str):
        price (None | str): Asking price, decimal string in major units.
        currency (str): ISO 4217.
        beds (int | None):
        baths (float | None): Half baths count 0.5.
        square_feet (int | None):
        property_type (None | str): single_family, condo, townhouse, multi_family, land, ...
        status (ListingStatus):
        description (None | str):
        photos (list[Photo]): In display order.
        agent_id (None | str): The listing agent, a workspace member.
        url (None | str): The listing's own page (absolute http or https), which the AI responder's replies may link.
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    address: str
    unit: None | str
    city: str
    state: str
    zip_: str
    price: None | str
    currency: str
    beds: int | None
    baths: float | None
    square_feet: int | None
    property_type: None | str
    status: ListingStatus
    description: None | str
    photos: list[Photo]
    agent_id: None | str
    url: None | str
    created_at: datetime.datetime
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        address = self.address

        unit: None | str
        unit = self.unit

        city = self.city

        state = self.state

        zip_ = self.zip_

        price: None | str
        price = self.price

        currency = self.currency

        beds: int | None
        beds = self.beds

        baths: float | None
        baths = self.baths

        square_feet: int | None
        square_feet = self.square_feet

        property_type: None | str
        property_type = self.property_type

        status = self.status.value

        description: None | str
        description = self.description

        photos = []
        for photos_item_data in self.photos:
            photos_item = photos_item_data.to_dict()
            photos.append(photos_item)

        agent_id: None | str
        agent_id = self.agent_id

        url: None | str
        url = self.url

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "address": address,
                "unit": unit,
                "city": city,
                "state": state,
                "zip": zip_,
                "price": price,
                "currency": currency,
                "beds": beds,
                "baths": baths,
                "square_feet": square_feet,
                "property_type": property_type,
                "status": status,
                "description": description,
                "photos": photos,
                "agent_id": agent_id,
                "url": url,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.photo import Photo

        d = dict(src_dict)
        id = d.pop("id")

        address = d.pop("address")

        def _parse_unit(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        unit = _parse_unit(d.pop("unit"))

        city = d.pop("city")

        state = d.pop("state")

        zip_ = d.pop("zip")

        def _parse_price(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        price = _parse_price(d.pop("price"))

        currency = d.pop("currency")

        def _parse_beds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        beds = _parse_beds(d.pop("beds"))

        def _parse_baths(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        baths = _parse_baths(d.pop("baths"))

        def _parse_square_feet(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        square_feet = _parse_square_feet(d.pop("square_feet"))

        def _parse_property_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        property_type = _parse_property_type(d.pop("property_type"))

        status = ListingStatus(d.pop("status"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        photos = []
        _photos = d.pop("photos")
        for photos_item_data in _photos:
            photos_item = Photo.from_dict(photos_item_data)

            photos.append(photos_item)

        def _parse_agent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_id = _parse_agent_id(d.pop("agent_id"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        listing = cls(
            id=id,
            address=address,
            unit=unit,
            city=city,
            state=state,
            zip_=zip_,
            price=price,
            currency=currency,
            beds=beds,
            baths=baths,
            square_feet=square_feet,
            property_type=property_type,
            status=status,
            description=description,
            photos=photos,
            agent_id=agent_id,
            url=url,
            created_at=created_at,
            updated_at=updated_at,
        )

        listing.additional_properties = d
        return listing

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

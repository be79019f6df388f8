from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.listing_status import ListingStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.photo import Photo


T = TypeVar("T", bound="ListingNarrowed")


@_attrs_define
class ListingNarrowed:
    """A Listing narrowed by the `fields` query parameter: only `id` are always present; every other member only when
    `fields` names it. Without `fields` the answer is a whole Listing.

        Attributes:
            id (str):
            address (str | Unset): Street address.
            unit (None | str | Unset):
            city (str | Unset):
            state (str | Unset):
            zip_ (str | Unset):
            price (None | str | Unset): Asking price, decimal string in major units.
            currency (str | Unset): ISO 4217.
            beds (int | None | Unset):
            baths (float | None | Unset): Half baths count 0.5.
            square_feet (int | None | Unset):
            property_type (None | str | Unset): single_family, condo, townhouse, multi_family, land, ...
            status (ListingStatus | Unset):
            description (None | str | Unset):
            photos (list[Photo] | Unset): In display order.
            agent_id (None | str | Unset): The listing agent, a workspace member.
            url (None | str | Unset): The listing's own page (absolute http or https), which the AI responder's replies may
                link.
            created_at (datetime.datetime | Unset):
            updated_at (datetime.datetime | Unset):
    """

    id: str
    address: str | Unset = UNSET
    unit: None | str | Unset = UNSET
    city: str | Unset = UNSET
    state: str | Unset = UNSET
    zip_: str | Unset = UNSET
    price: None | str | Unset = UNSET
    currency: str | Unset = UNSET
    beds: int | None | Unset = UNSET
    baths: float | None | Unset = UNSET
    square_feet: int | None | Unset = UNSET
    property_type: None | str | Unset = UNSET
    status: ListingStatus | Unset = UNSET
    description: None | str | Unset = UNSET
    photos: list[Photo] | Unset = UNSET
    agent_id: None | str | Unset = UNSET
    url: None | str | Unset = UNSET
    created_at: datetime.datetime | Unset = UNSET
    updated_at: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        address = self.address

        unit: None | str | Unset
        if isinstance(self.unit, Unset):
            unit = UNSET
        else:
            unit = self.unit

        city = self.city

        state = self.state

        zip_ = self.zip_

        price: None | str | Unset
        if isinstance(self.price, Unset):
            price = UNSET
        else:
            price = self.price

        currency = self.currency

        beds: int | None | Unset
        if isinstance(self.beds, Unset):
            beds = UNSET
        else:
            beds = self.beds

        baths: float | None | Unset
        if isinstance(self.baths, Unset):
            baths = UNSET
        else:
            baths = self.baths

        square_feet: int | None | Unset
        if isinstance(self.square_feet, Unset):
            square_feet = UNSET
        else:
            square_feet = self.square_feet

        property_type: None | str | Unset
        if isinstance(self.property_type, Unset):
            property_type = UNSET
        else:
            property_type = self.property_type

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        photos: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.photos, Unset):
            photos = []
            for photos_item_data in self.photos:
                photos_item = photos_item_data.to_dict()
                photos.append(photos_item)

        agent_id: None | str | Unset
        if isinstance(self.agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = self.agent_id

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

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
        if address is not UNSET:
            field_dict["address"] = address
        if unit is not UNSET:
            field_dict["unit"] = unit
        if city is not UNSET:
            field_dict["city"] = city
        if state is not UNSET:
            field_dict["state"] = state
        if zip_ is not UNSET:
            field_dict["zip"] = zip_
        if price is not UNSET:
            field_dict["price"] = price
        if currency is not UNSET:
            field_dict["currency"] = currency
        if beds is not UNSET:
            field_dict["beds"] = beds
        if baths is not UNSET:
            field_dict["baths"] = baths
        if square_feet is not UNSET:
            field_dict["square_feet"] = square_feet
        if property_type is not UNSET:
            field_dict["property_type"] = property_type
        if status is not UNSET:
            field_dict["status"] = status
        if description is not UNSET:
            field_dict["description"] = description
        if photos is not UNSET:
            field_dict["photos"] = photos
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if url is not UNSET:
            field_dict["url"] = url
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.photo import Photo

        d = dict(src_dict)
        id = d.pop("id")

        address = d.pop("address", UNSET)

        def _parse_unit(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        unit = _parse_unit(d.pop("unit", UNSET))

        city = d.pop("city", UNSET)

        state = d.pop("state", UNSET)

        zip_ = d.pop("zip", UNSET)

        def _parse_price(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        price = _parse_price(d.pop("price", UNSET))

        currency = d.pop("currency", UNSET)

        def _parse_beds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        beds = _parse_beds(d.pop("beds", UNSET))

        def _parse_baths(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        baths = _parse_baths(d.pop("baths", UNSET))

        def _parse_square_feet(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        square_feet = _parse_square_feet(d.pop("square_feet", UNSET))

        def _parse_property_type(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        property_type = _parse_property_type(d.pop("property_type", UNSET))

        _status = d.pop("status", UNSET)
        status: ListingStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = ListingStatus(_status)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _photos = d.pop("photos", UNSET)
        photos: list[Photo] | Unset = UNSET
        if _photos is not UNSET:
            photos = []
            for photos_item_data in _photos:
                photos_item = Photo.from_dict(photos_item_data)

                photos.append(photos_item)

        def _parse_agent_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_id = _parse_agent_id(d.pop("agent_id", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

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

        listing_narrowed = cls(
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

        listing_narrowed.additional_properties = d
        return listing_narrowed

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

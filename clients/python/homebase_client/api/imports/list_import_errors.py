from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.import_row_kind import ImportRowKind
from ...models.page_import_row_errors import PageImportRowErrors
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    kind: ImportRowKind | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_kind: None | str | Unset
    if isinstance(kind, Unset):
        json_kind = UNSET
    elif isinstance(kind, ImportRowKind):
        json_kind = kind.value
    else:
        json_kind = kind
    params["kind"] = json_kind

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/imports/{id}/errors".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | PageImportRowErrors | None:
    if response.status_code == 200:
        response_200 = PageImportRowErrors.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = ErrorEnvelope.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorEnvelope | PageImportRowErrors]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    kind: ImportRowKind | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> Response[ErrorEnvelope | PageImportRowErrors]:
    """List an import's refused rows and warnings

     Each row's index in `rows`, its CSV line (a file's rows), whether it was refused or written with
    warnings (`kind`), and the field and message a single create would have answered 400 with, word for
    word. Rows are listed as the worker reaches them.

    Args:
        id (str): The import's id. An unknown id and another workspace's id both answer 404.
        kind (ImportRowKind | None | Unset): Only the rows refused, or only those written with
            warnings.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageImportRowErrors]
    """

    kwargs = _get_kwargs(
        id=id,
        kind=kind,
        cursor=cursor,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    kind: ImportRowKind | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> ErrorEnvelope | PageImportRowErrors | None:
    """List an import's refused rows and warnings

     Each row's index in `rows`, its CSV line (a file's rows), whether it was refused or written with
    warnings (`kind`), and the field and message a single create would have answered 400 with, word for
    word. Rows are listed as the worker reaches them.

    Args:
        id (str): The import's id. An unknown id and another workspace's id both answer 404.
        kind (ImportRowKind | None | Unset): Only the rows refused, or only those written with
            warnings.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageImportRowErrors
    """

    return sync_detailed(
        id=id,
        client=client,
        kind=kind,
        cursor=cursor,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    kind: ImportRowKind | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> Response[ErrorEnvelope | PageImportRowErrors]:
    """List an import's refused rows and warnings

     Each row's index in `rows`, its CSV line (a file's rows), whether it was refused or written with
    warnings (`kind`), and the field and message a single create would have answered 400 with, word for
    word. Rows are listed as the worker reaches them.

    Args:
        id (str): The import's id. An unknown id and another workspace's id both answer 404.
        kind (ImportRowKind | None | Unset): Only the rows refused, or only those written with
            warnings.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | PageImportRowErrors]
    """

    kwargs = _get_kwargs(
        id=id,
        kind=kind,
        cursor=cursor,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    kind: ImportRowKind | None | Unset = UNSET,
    cursor: None | str | Unset = UNSET,
    limit: int | Unset = 50,
) -> ErrorEnvelope | PageImportRowErrors | None:
    """List an import's refused rows and warnings

     Each row's index in `rows`, its CSV line (a file's rows), whether it was refused or written with
    warnings (`kind`), and the field and message a single create would have answered 400 with, word for
    word. Rows are listed as the worker reaches them.

    Args:
        id (str): The import's id. An unknown id and another workspace's id both answer 404.
        kind (ImportRowKind | None | Unset): Only the rows refused, or only those written with
            warnings.
        cursor (None | str | Unset): Opaque position from a previous page's next_cursor; omit for
            the first page. A malformed or stale cursor restarts from the beginning.
        limit (int | Unset): Page size, 1 to 200. Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | PageImportRowErrors
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            kind=kind,
            cursor=cursor,
            limit=limit,
        )
    ).parsed

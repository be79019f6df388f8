from fastapi import APIRouter
from sqlalchemy import text
from starlette.requests import Request

from homebase.kit.responses import JSONResponse, json_response
from homebase.runtime import get_runtime

router = APIRouter()


@router.get("/healthz", include_in_schema=False)
async def healthz(request: Request) -> JSONResponse:
    try:
        async with get_runtime(request).db.transaction(write=False) as connection:
            await connection.execute(text("SELECT 1"))
    except Exception:  # any failure to reach the database is "not ready"
        return json_response({"status": "unavailable"}, 503)
    return json_response({"status": "ok"})

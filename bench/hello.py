"""The baseline: a bare FastAPI hello-world, served the way `homebase serve` serves
(uvicorn, uvloop, httptools, one worker). Every figure of the service is a ratio to it."""

from fastapi import FastAPI

app = FastAPI()


@app.get("/")
async def hello() -> dict[str, str]:
    return {"hello": "world"}

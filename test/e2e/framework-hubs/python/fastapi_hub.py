"""A Public Hub on FastAPI (Debian bookworm: FastAPI 0.92, pydantic 1.10, uvicorn), written as a
FastAPI user would: pydantic models with field constraints (a bad body gets FastAPI's own
``422 {"detail": [{"loc", "msg", "type", ...}]}``), ``APIKeyHeader`` for the key, HTTPException's
``{"detail": "..."}`` for refusals, sqlite with a UNIQUE index on ``ref`` whose IntegrityError is
answered ``409 {"detail": "Award with ref … already exists"}``, limit/offset paging. No rate limit:
slowapi is neither in Debian nor in this machine's package index.

Note pydantic 1's ``conint`` coerces a float: an amount of 7.5 is credited as 7 (its default).
Served by ``serve.py fastapi``; GET /_ledger (test only) lists every applied award and balance.
"""
import os
import sqlite3
import tempfile

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, conint, constr

from hubcommon import BALANCES, HOLDERS, HUBS, KEYS, STAKERS, WALLET, ranked, signature_problem

DB = os.path.join(os.environ.get("HUB_DB_DIR") or tempfile.mkdtemp(prefix="fastapi-hub-"), "fastapi.sqlite3")

app = FastAPI(title="Alpha test hub")
app.add_middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["*"], allow_headers=["*"])
api_key = APIKeyHeader(name="x-api-key")


@app.on_event("startup")
def create_schema():
    with sqlite3.connect(DB) as conn:
        conn.executescript(
            """
            CREATE TABLE IF NOT EXISTS awards (id INTEGER PRIMARY KEY, hub TEXT NOT NULL, wallet TEXT NOT NULL,
              amount INTEGER NOT NULL, reason TEXT NOT NULL, ref TEXT NOT NULL UNIQUE, created_at TEXT DEFAULT CURRENT_TIMESTAMP);
            CREATE TABLE IF NOT EXISTS balances (wallet TEXT PRIMARY KEY, bits INTEGER NOT NULL);
            """
        )
        conn.executemany("INSERT OR IGNORE INTO balances (wallet, bits) VALUES (?, ?)", BALANCES.items())


def db():
    conn = sqlite3.connect(DB, timeout=20, check_same_thread=False)
    try:
        yield conn
    finally:
        conn.close()


def hub_key(slug: str, client_id: str = Depends(api_key)) -> str:
    key = KEYS.get(client_id)
    if key is None:
        raise HTTPException(status_code=401, detail="Invalid API key")
    if slug not in HUBS:
        raise HTTPException(status_code=404, detail="Hub not found")
    if key["hub"] != slug:
        raise HTTPException(status_code=403, detail="This API key is scoped to another hub")
    return client_id


async def signed(request: Request, client_id: str = Depends(hub_key)) -> None:
    problem = signature_problem(
        client_id,
        request.headers.get("x-api-timestamp"),
        request.headers.get("x-api-signature"),
        request.method,
        request.url.path,
        await request.body(),
    )
    if problem:
        raise HTTPException(status_code=401, detail=problem)


class AwardIn(BaseModel):
    wallet: constr(regex=WALLET)
    amount: conint(ge=1, le=1_000_000)
    reason: constr(max_length=200) = ""
    ref: constr(min_length=1, max_length=200)


def bits_of(conn, wallet):
    row = conn.execute("SELECT bits FROM balances WHERE wallet = ?", (wallet,)).fetchone()
    return row[0] if row else 0


@app.get("/api/v1")
def discovery():
    return {"name": "Alpha test hub", "version": "v1", "framework": "fastapi"}


@app.get("/api/v1/hub/{slug}", dependencies=[Depends(hub_key)])
def hub(slug: str):
    return {"slug": slug, **HUBS[slug]}


@app.get("/api/v1/hub/{slug}/leaderboard", dependencies=[Depends(hub_key)])
def leaderboard(slug: str, limit: int = Query(10, ge=1, le=100), offset: int = Query(0, ge=0)):
    return ranked()[offset : offset + limit]


@app.get("/api/v1/hub/{slug}/holder/{wallet}", dependencies=[Depends(hub_key)])
def holder(slug: str, wallet: str, conn=Depends(db)):
    tokens = HOLDERS.get(wallet)
    return {"hub": slug, "wallet": wallet, "holder": tokens is not None, "tokens": tokens or 0, "bits": bits_of(conn, wallet)}


@app.get("/api/v1/hub/{slug}/stake-status", dependencies=[Depends(hub_key)])
def stake_status(slug: str, wallet: str = Query(...)):
    row = next((row for row in ranked() if row["wallet"] == wallet), None)
    return {"hub": slug, "wallet": wallet, "staking": row is not None, "staked": row["staked"] if row else 0, "rank": row["rank"] if row else None}


@app.post("/api/v1/hub/{slug}/bits/earn", dependencies=[Depends(signed)])
def earn(slug: str, award: AwardIn, conn=Depends(db)):
    try:
        with conn:
            conn.execute(
                "INSERT INTO awards (hub, wallet, amount, reason, ref) VALUES (?, ?, ?, ?, ?)",
                (slug, award.wallet, award.amount, award.reason, award.ref),
            )
            conn.execute(
                "INSERT INTO balances (wallet, bits) VALUES (?, ?) ON CONFLICT (wallet) DO UPDATE SET bits = bits + excluded.bits",
                (award.wallet, award.amount),
            )
    except sqlite3.IntegrityError:
        raise HTTPException(status_code=409, detail=f"Award with ref {award.ref} already exists")
    return {"ref": award.ref, "wallet": award.wallet, "amount": award.amount, "balance": bits_of(conn, award.wallet)}


@app.get("/_ledger")
def ledger(conn=Depends(db)):
    awards = conn.execute("SELECT wallet, amount, reason, ref FROM awards ORDER BY id").fetchall()
    return {
        "awards": [dict(zip(("wallet", "amount", "reason", "ref"), row)) for row in awards],
        "balances": dict(conn.execute("SELECT wallet, bits FROM balances").fetchall()),
    }

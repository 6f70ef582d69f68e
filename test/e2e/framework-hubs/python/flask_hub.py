"""A Public Hub on Flask 2.2 with Flask-Limiter 3.3 (Debian bookworm), written as a Flask user would:
``abort()`` for every refusal, so Flask's (Werkzeug's) default HTML error pages; a limit on awards
(HUB_AWARD_RATE, e.g. ``5/minute``) with Flask-Limiter's headers on (RATELIMIT_HEADERS_ENABLED) and
its default 429 page; sqlite with a UNIQUE index on ``ref``, whose IntegrityError is answered
``abort(409, description="Award with ref … already exists.")``; a leaderboard paged with
``page``/``limit`` as Flask-SQLAlchemy's paginate shapes it (items, page, pages, total).
Served by ``serve.py flask``; GET /_ledger (test only) lists every applied award and balance.
"""
import functools
import os
import re
import sqlite3
import tempfile

from flask import Flask, abort, g, jsonify, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from hubcommon import BALANCES, HOLDERS, HUBS, KEYS, WALLET, award_rate, ranked, signature_problem


def create_app():
    app = Flask(__name__)
    app.config["DATABASE"] = os.path.join(os.environ.get("HUB_DB_DIR") or tempfile.mkdtemp(prefix="flask-hub-"), "flask.sqlite3")
    app.config["RATELIMIT_HEADERS_ENABLED"] = True
    limiter = Limiter(get_remote_address, app=app, storage_uri="memory://")

    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.executescript(
            """
            CREATE TABLE IF NOT EXISTS awards (id INTEGER PRIMARY KEY, hub TEXT NOT NULL, wallet TEXT NOT NULL,
              amount INTEGER NOT NULL, reason TEXT NOT NULL, ref TEXT NOT NULL UNIQUE, created_at TEXT DEFAULT CURRENT_TIMESTAMP);
            CREATE TABLE IF NOT EXISTS balances (wallet TEXT PRIMARY KEY, bits INTEGER NOT NULL);
            """
        )
        conn.executemany("INSERT OR IGNORE INTO balances (wallet, bits) VALUES (?, ?)", BALANCES.items())

    def get_db():
        if "db" not in g:
            g.db = sqlite3.connect(app.config["DATABASE"], timeout=20)
        return g.db

    @app.teardown_appcontext
    def close_db(_error):
        db = g.pop("db", None)
        if db is not None:
            db.close()

    def bits_of(wallet):
        row = get_db().execute("SELECT bits FROM balances WHERE wallet = ?", (wallet,)).fetchone()
        return row[0] if row else 0

    def requires_key(view):
        @functools.wraps(view)
        def wrapped(slug, **kwargs):
            key = KEYS.get(request.headers.get("x-api-key", ""))
            if key is None:
                abort(401)
            if slug not in HUBS:
                abort(404)
            if key["hub"] != slug:
                abort(403)
            return view(slug, **kwargs)

        return wrapped

    @app.after_request
    def cors(response):
        response.headers["Access-Control-Allow-Origin"] = "*"
        return response

    @app.get("/api/v1")
    def discovery():
        return {"name": "Alpha test hub", "version": "v1", "framework": "flask"}

    @app.get("/api/v1/hub/<slug>")
    @requires_key
    def hub(slug):
        return {"slug": slug, **HUBS[slug]}

    @app.get("/api/v1/hub/<slug>/leaderboard")
    @requires_key
    def leaderboard(slug):
        page = request.args.get("page", 1, type=int)
        per_page = min(request.args.get("limit", 10, type=int), 100)
        if page < 1 or per_page < 1:
            abort(404)
        rows = ranked()
        pages = -(-len(rows) // per_page)
        return {"items": rows[(page - 1) * per_page : page * per_page], "page": page, "per_page": per_page, "pages": pages, "total": len(rows)}

    @app.get("/api/v1/hub/<slug>/holder/<wallet>")
    @requires_key
    def holder(slug, wallet):
        tokens = HOLDERS.get(wallet)
        return {"hub": slug, "wallet": wallet, "holder": tokens is not None, "tokens": tokens or 0, "bits": bits_of(wallet)}

    @app.get("/api/v1/hub/<slug>/stake-status")
    @requires_key
    def stake_status(slug):
        wallet = request.args.get("wallet")
        if not wallet:
            abort(400, description="The wallet query parameter is required.")
        row = next((row for row in ranked() if row["wallet"] == wallet), None)
        return {"hub": slug, "wallet": wallet, "staking": row is not None, "staked": row["staked"] if row else 0, "rank": row["rank"] if row else None}

    @app.post("/api/v1/hub/<slug>/bits/earn")
    @limiter.limit(award_rate("600/minute"))
    @requires_key
    def earn(slug):
        problem = signature_problem(
            request.headers.get("x-api-key"),
            request.headers.get("x-api-timestamp"),
            request.headers.get("x-api-signature"),
            request.method,
            request.path,
            request.get_data(),
        )
        if problem:
            abort(401, description=problem)
        award = request.get_json()
        wallet, amount, reason, ref = (award.get(field) if isinstance(award, dict) else None for field in ("wallet", "amount", "reason", "ref"))
        if not isinstance(wallet, str) or not re.fullmatch(WALLET, wallet):
            abort(400, description="wallet must be 0x and 40 hexadecimal digits.")
        if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 1_000_000:
            abort(400, description="amount must be a whole number from 1 to 1000000.")
        if reason is not None and not isinstance(reason, str):
            abort(400, description="reason must be a string.")
        if not isinstance(ref, str) or not ref:
            abort(400, description="ref is required.")
        db = get_db()
        try:
            with db:
                db.execute("INSERT INTO awards (hub, wallet, amount, reason, ref) VALUES (?, ?, ?, ?, ?)", (slug, wallet, amount, reason or "", ref))
                db.execute("INSERT INTO balances (wallet, bits) VALUES (?, ?) ON CONFLICT (wallet) DO UPDATE SET bits = bits + excluded.bits", (wallet, amount))
        except sqlite3.IntegrityError:
            abort(409, description=f"Award with ref {ref} already exists.")
        return jsonify(ref=ref, wallet=wallet, amount=amount, balance=bits_of(wallet)), 201

    @app.get("/_ledger")
    def ledger():
        db = get_db()
        awards = db.execute("SELECT wallet, amount, reason, ref FROM awards ORDER BY id").fetchall()
        return {"awards": [dict(zip(("wallet", "amount", "reason", "ref"), row)) for row in awards], "balances": dict(db.execute("SELECT wallet, bits FROM balances").fetchall())}

    return app

#!/usr/bin/python3
"""Serves one of the Python test hubs on loopback:
``/usr/bin/python3 serve.py drf|fastapi|flask [--port N]`` (or PORT; 0, the default, picks a free
one). It binds the socket itself, prepares the hub (the DRF hub's ``migrate``, which seeds it), prints
``listening on http://127.0.0.1:N/api/v1 …`` and serves until SIGTERM or SIGINT: DRF and Flask on
gunicorn (one process, so one throttle's memory; 8 threads), FastAPI on uvicorn. The sqlite files go
in HUB_DB_DIR, else in a temporary directory removed on exit. Run with Debian's /usr/bin/python3
(install-python.sh installs the frameworks there). Other settings: HUB_AWARD_RATE (DRF, Flask),
HUB_PAGE_SIZE (DRF).
"""
import argparse
import os
import shutil
import socket
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def gunicorn(application, sock):
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):
        def load_config(self):
            for name, value in {
                "bind": [f"fd://{sock.fileno()}"],
                "workers": 1,
                "worker_class": "gthread",
                "threads": 8,
                "graceful_timeout": 5,
                "loglevel": os.environ.get("HUB_LOG_LEVEL", "warning"),
            }.items():
                self.cfg.set(name, value)

        def load(self):
            return application

    Server().run()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hub", choices=["drf", "fastapi", "flask"])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "0")))
    args = parser.parse_args()

    own_dir = not os.environ.get("HUB_DB_DIR")
    if own_dir:
        os.environ["HUB_DB_DIR"] = tempfile.mkdtemp(prefix=f"{args.hub}-hub-")
    master = os.getpid()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    sock.listen(128)
    sock.set_inheritable(True)
    origin = f"http://127.0.0.1:{sock.getsockname()[1]}"
    announce = lambda: print(f"listening on {origin}/api/v1 (key pk_alpha_e2e, hub alpha; GET {origin}/_ledger)", flush=True)
    try:
        if args.hub == "drf":
            sys.path.insert(0, os.path.join(HERE, "drf"))
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "hubsite.settings")
            import django
            from django.core.management import call_command

            django.setup()
            call_command("migrate", verbosity=0)
            from hubsite.wsgi import application

            announce()
            gunicorn(application, sock)
        elif args.hub == "flask":
            from flask_hub import create_app

            application = create_app()
            announce()
            gunicorn(application, sock)
        else:
            import uvicorn

            from fastapi_hub import app

            server = uvicorn.Server(uvicorn.Config(app, log_level=os.environ.get("HUB_LOG_LEVEL", "warning")))
            announce()
            server.run(sockets=[sock])
    finally:
        # gunicorn's workers are forks of this process: only the process that made the directory removes it.
        if own_dir and os.getpid() == master:
            shutil.rmtree(os.environ["HUB_DB_DIR"], ignore_errors=True)


if __name__ == "__main__":
    main()

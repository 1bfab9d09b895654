"""The site's production web server: ``python -m okeysite.web [--host H] [--port P]``.

uvicorn on uvloop, with httptools for HTTP and the sans-I/O ``websockets`` protocol for sockets:
every move is a frame to each of its table's sockets, and measured under the load bench these
cost about 0.3 ms less CPU a move than daphne's Twisted stack for the same application
(BENCHMARKS.md, issue 23). The ASGI application is the same one (``okeysite.asgi``); ``make run``
keeps Django's ``runserver`` (daphne) for local work, with its autoreload.

The options are fixed here so the Procfile, compose, the Dockerfile, the benches and the tests
that start real server processes all run the same server the same way:

* no permessage-deflate: browsers offer it, and compressing every 2 kB frame per socket cost more
  CPU than the bandwidth it saves on a table;
* no proxy headers: the client address is ``okeysite.proxy``'s business (it trusts exactly
  ``TRUSTED_PROXY_HOPS``), and uvicorn rewriting it first would trust the client's own say;
* no lifespan (the application has none), a frame cap far above any client frame (the
  consumers refuse more than 2 kB with a translated error; this only bounds memory), and a
  bounded graceful shutdown: open sockets are closed with 1012 and the clients reconnect to
  another server.
"""

from __future__ import annotations

import argparse
import os

WS_MAX_BYTES = 1 << 20
GRACEFUL_SHUTDOWN_SECONDS = 10


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m okeysite.web", description=__doc__.split("\n")[0])
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--log-level", default=os.environ.get("WEB_LOG_LEVEL", "info"))
    args = parser.parse_args(argv)

    import uvicorn

    uvicorn.run(
        "okeysite.asgi:application", host=args.host, port=args.port,
        loop="uvloop", http="httptools", ws="websockets-sansio",
        ws_per_message_deflate=False, ws_max_size=WS_MAX_BYTES,
        lifespan="off", proxy_headers=False, server_header=False,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS, log_level=args.log_level,
    )


if __name__ == "__main__":
    main()

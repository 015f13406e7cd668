"""A TLS front for a plain-HTTP server, for the HTTPS tests (tests/integration/https.rs).

Usage: tls_proxy.py CERT KEY UPSTREAM_PORT TLS_VERSION   (TLS_VERSION: 1.2 or 1.3)

Listens on a free port of 127.0.0.1, prints it on the first line of stdout, and pipes each TLS
connection's bytes to 127.0.0.1:UPSTREAM_PORT and back. Python's TLS is OpenSSL, so the
handshake is checked against a TLS stack other than dynoscope's rustls. Exits when stdin closes
(the test process ended).
"""

import asyncio
import os
import ssl
import sys
import threading


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        writer.close()


async def main():
    cert, key, upstream, version = sys.argv[1:5]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    pinned = {"1.2": ssl.TLSVersion.TLSv1_2, "1.3": ssl.TLSVersion.TLSv1_3}[version]
    context.minimum_version = context.maximum_version = pinned

    async def serve(client_reader, client_writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", int(upstream))
        await asyncio.gather(pipe(client_reader, up_writer), pipe(up_reader, client_writer))

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=context)
    print(server.sockets[0].getsockname()[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    await server.serve_forever()


asyncio.run(main())

"""A cable between the store and its PostgreSQL server that the tests can cut: a Unix socket in a folder of
its own that passes every byte both ways to the real server's socket, reading PostgreSQL's messages from
the server as they pass (a type byte and a length each).

``cut_after_commit()`` arms it: the next time the server says a write is done (its ``CommandComplete``
for a ``COMMIT`` or an ``INSERT``), that answer is dropped and the connection cut, so the client cannot
tell whether its write was kept (it was). ``refuse()`` and ``accept()`` turn new connections away and let
them in again, so a client cannot ask at once either. ``commit_seconds`` holds back every answer that a
``COMMIT`` is done that long, as a slow disk or a far server would (bench/server.py's ``--commit-ms``).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import struct
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.postgres import PORT


class PostgresProxy:
    def __init__(self, server_folder: Path, commit_seconds: float = 0.0) -> None:
        self.commit_seconds = commit_seconds
        self.target = str(server_folder / f".s.PGSQL.{PORT}")
        self.folder = Path(tempfile.mkdtemp(prefix="eights-pgproxy-"))
        self.url = f"postgresql+psycopg://postgres@/eights?host={self.folder}&port={PORT}"
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(self.folder / f".s.PGSQL.{PORT}"))
        self.listener.listen(64)
        self.armed = threading.Event()
        self.refusing = threading.Event()
        #: How many answers were dropped, and connections turned away.
        self.cuts = 0
        self.refused = 0
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_after_commit(self) -> None:
        self.armed.set()

    def refuse(self) -> None:
        self.refusing.set()

    def accept(self) -> None:
        self.refusing.clear()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.close()
        with self.lock:
            for sock in list(self.open):
                with contextlib.suppress(OSError):
                    sock.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing.is_set():
                self.refused += 1
                client.close()
                continue
            server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                server.connect(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                self.open |= {client, server}
            threading.Thread(target=self._pass, args=(client, server), daemon=True).start()
            threading.Thread(target=self._answers, args=(server, client), daemon=True).start()

    def _pass(self, source: socket.socket, sink: socket.socket) -> None:
        """The client's bytes to the server, as they come."""
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        self._cut(source, sink)

    def _answers(self, server: socket.socket, client: socket.socket) -> None:
        """The server's messages to the client, one whole message at a time; an armed cable drops the
        answer that says a write is done, and cuts the connection there."""
        buffer = b""
        try:
            while data := server.recv(65536):
                buffer += data
                out = b""
                while len(buffer) >= 5:
                    kind, length = buffer[0:1], struct.unpack("!I", buffer[1:5])[0]
                    if len(buffer) < 1 + length:
                        break
                    message, buffer = buffer[: 1 + length], buffer[1 + length :]
                    tag = message[5:].rstrip(b"\0") if kind == b"C" else b""
                    if tag == b"COMMIT" and self.commit_seconds:
                        client.sendall(out)
                        out = b""
                        time.sleep(self.commit_seconds)
                    if (tag == b"COMMIT" or tag.startswith(b"INSERT")) and self.armed.is_set():
                        self.armed.clear()
                        self.cuts += 1
                        client.sendall(out)
                        self._cut(server, client)
                        return
                    out += message
                if out:
                    client.sendall(out)
        except OSError:
            pass
        self._cut(server, client)

    def _cut(self, *sockets: socket.socket) -> None:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                sock.close()
            with self.lock:
                self.open.discard(sock)


@contextmanager
def proxied(server_folder: Path, commit_seconds: float = 0.0) -> Iterator[PostgresProxy]:
    proxy = PostgresProxy(server_folder, commit_seconds)
    try:
        yield proxy
    finally:
        proxy.close()

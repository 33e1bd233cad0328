"""The rooms of the web table: the registry of a server's rooms (``registry.Hub``), one actor per room
(``room.Room``: its lock, version, connections and messages), its runner (``runner.Runner``: the computers'
turns and away people), its keeping in the store (``keeping.Keeping``), what a room is made of (``seats``),
the connections (``connection``) and, with many instances, the relays between them (``relay.Relays``).

A room (``room``, ``runner``, ``seats``, ``connection``, ``errors``) imports no socket, database, Redis or
validation library: the same room plays in a browser with no server (``eights.web.offline``).
"""

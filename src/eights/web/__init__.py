"""The web table: rooms of friends and computers played in the browser, a WebSocket each (``app``, ``rooms``),
score sheets on the web, quick labs and reviews, served by ``eights serve`` (``eights.cli.serve``)."""

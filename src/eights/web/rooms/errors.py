"""A refused message, in the player's words."""


class RoomError(ValueError):
    """A refused message: ``code`` (docs/protocol.md) and a sentence for the player."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

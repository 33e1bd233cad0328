"""Secret tokens: a seat's (the web table) and a score sheet's edit link. Only a token's hash is ever kept."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A new secret token (128 random bits, URL-safe)."""
    return secrets.token_urlsafe(16)


def token_hash(token: str) -> str:
    """What is kept of a secret token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()


def same_token(token: str, hashed: str | None) -> bool:
    """Whether ``token`` hashes to ``hashed``, compared in constant time."""
    return hashed is not None and hmac.compare_digest(token_hash(token), hashed)

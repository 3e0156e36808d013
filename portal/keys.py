"""API keys of endpoint submissions, encrypted at rest.

Fernet (AES-128-CBC + HMAC-SHA256, from ``cryptography``) with the deployment's keys: the
``EKB_ENDPOINT_KEYS`` setting (the first encrypts, every one decrypts, so keys can be rotated),
or one key derived from ``SECRET_KEY`` with HKDF when none is set. A stored key is decrypted in
one place only — the worker, into the endpoint client's Authorization header.
"""

from __future__ import annotations

import base64

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings


class KeyUnreadable(RuntimeError):
    """A stored API key cannot be decrypted with this deployment's keys."""


def _fernet() -> MultiFernet:
    keys = list(settings.EKB_ENDPOINT_KEYS)
    if not keys:
        derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=b"edgekernelbench endpoint keys",
                       info=b"fernet v1").derive(settings.SECRET_KEY.encode())
        keys = [base64.urlsafe_b64encode(derived).decode()]
    return MultiFernet([Fernet(k) for k in keys])


def encrypt(plain: str) -> str:
    return _fernet().encrypt(plain.encode()).decode() if plain else ""


def decrypt(token: str) -> str:
    if not token:
        return ""
    try:
        return _fernet().decrypt(token.encode()).decode()
    except InvalidToken:
        raise KeyUnreadable("the endpoint's API key cannot be decrypted with this deployment's keys "
                            "(EKB_ENDPOINT_KEYS or DJANGO_SECRET_KEY changed)") from None

"""Fair secret dice: every roll derived from the game's secret seed and its place in the log.

A roll is HMAC-SHA256 keyed with the 32-byte seed over the game id, the sequence number of the
event that records the roll, the roll's purpose and the die's number within the roll. Before play
only the seed's SHA-256 is published; when the game ends the seed is, so anyone can re-derive
every roll from the log. A roll is never made twice: replay reads the value from the log.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

DIE_FACES = {"1d2": (1, 2), "1d6": (1, 6), "2d6": (2, 6), "1d10": (1, 10)}


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The public SHA-256 of the seed, posted when the game starts."""
    return hashlib.sha256(seed).hexdigest()


def die(seed: bytes, game_id: str, seq: int, purpose: str, k: int, faces: int) -> int:
    msg = f"{game_id}|{seq}|{purpose}|{k}".encode()
    digest = hmac.new(seed, msg, hashlib.sha256).digest()
    # 2**256 is so much larger than the number of faces that the remainder's bias is nil.
    return int.from_bytes(digest, "big") % faces + 1


def roll(seed: bytes, game_id: str, seq: int, purpose: str, dice: str) -> int:
    """The value of a roll (``1d2``, ``1d6``, ``2d6``, ``1d10``): the sum of its dice."""
    try:
        count, faces = DIE_FACES[dice]
    except KeyError:
        raise ValueError(f"unknown dice {dice!r}; known: {', '.join(DIE_FACES)}") from None
    return sum(die(seed, game_id, seq, purpose, k, faces) for k in range(count))


def sources_commitment(seed: bytes, scenario_sha256: str, ruleset_sha256: str) -> str:
    """The public SHA-256 that binds a game to the scenario and ruleset texts it is played from,
    posted at the start beside the seed's. After the game, a record whose texts were changed
    (a table edited to fit a result) no longer gives the commitment everyone saw. It covers the
    secret seed, so until the seed is published it tells nothing about the scenario's hidden
    parts: no guess of the enemy's set-up can be tested against it."""
    material = seed + f"|{scenario_sha256}|{ruleset_sha256}".encode()
    return hashlib.sha256(material).hexdigest()


class SeededDice:
    """The dice of one game, as the rules engine calls them."""

    def __init__(self, seed: bytes, game_id: str) -> None:
        self._seed = seed
        self._game_id = game_id

    def __call__(self, seq: int, purpose: str, dice: str) -> int:
        return roll(self._seed, self._game_id, seq, purpose, dice)

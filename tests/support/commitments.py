"""Comparing what a side receives in two games that differ only in hidden enemy state.

The start message carries the scenario commitment: a SHA-256 over the secret seed and the
scenario's texts, hidden set-up included. It differs between two such games by construction,
yet tells nothing while the seed is secret (``test_the_scenario_commitment_hides_the_set_up``
shows that no guess of the texts can be tested against it). Everything else a side receives
must be the same byte for byte, so the comparisons mask that one value and nothing more."""

from __future__ import annotations

import re

_SCENARIO_COMMITMENT = re.compile(r"(Scenario commitment \([^)]*\): `)[0-9a-f]{64}(`)")


def masked(text: str) -> str:
    """``text`` with the scenario commitment's value replaced by a fixed mark."""
    return _SCENARIO_COMMITMENT.sub(r"\1<scenario commitment>\2", text)

"""The words of ``/game verify``: what checking a finished game found, short enough for one
Discord message (``vedette verify`` prints the same checks in full)."""

from __future__ import annotations

from umpire.verify.check import MAX_LISTED, Verdict

NOT_OVER = ("the game is not over: its seed is still secret, so its rolls cannot be checked "
            "yet. Check it once it has ended.")
#: Differences quoted in the answer; ``vedette verify`` lists up to ``MAX_LISTED``.
QUOTED = min(5, MAX_LISTED)


def verdict_text(verdict: Verdict) -> str:
    """How many rolls and commands were checked, and whether everything matches."""
    gid = verdict.game_id
    if verdict.secret:
        return f"Game `{gid}` has not ended: {NOT_OVER}"
    if not verdict.readjudicated:
        why = "; ".join(verdict.notes) or "its scenario cannot be loaded"
        checked = "they match" if not verdict.problems else "they do not all match"
        lines = [f"Game `{gid}` cannot be decided again ({why}). Only the values of its "
                 f"{verdict.rolls} rolls were checked against the seed: {checked}."]
    elif verdict.problems:
        lines = [f"**Game `{gid}` does not match the rules**: {len(verdict.problems)} "
                 f"difference(s) in {verdict.rolls} rolls and {verdict.commands} commands "
                 "checked."]
    else:
        dice, texts = verdict.commitments
        lines = [f"**Game `{gid}` verified**: all {verdict.rolls} rolls match the published "
                 f"seed, and all {verdict.commands} commands decided again give every event "
                 "of the log, with no gaps.",
                 f"Compare with the start message in the game's channel: dice commitment "
                 f"`{dice}`, scenario commitment `{texts}`."]
    lines += [f"- {p}" for p in verdict.problems[:QUOTED]]
    if len(verdict.problems) > QUOTED:
        lines.append(f"… and {len(verdict.problems) - QUOTED} more: run `vedette verify "
                     "--record` on the game record for the full list.")
    count = len(verdict.corrections)
    lines.append(f"Corrections by the host: {count}." if count else
                 "Corrections by the host: none.")
    return "\n".join(lines)

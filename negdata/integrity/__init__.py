"""``negdata verify RUN``: a finished run's integrity, checked before training on it. Every
problem found is one line, ``path: what``; ``verify_run`` collects them all instead of stopping
at the first, so that one pass says everything that is wrong."""

from negdata.integrity.run import RunProblems, Verification, verify_run

__all__ = ["RunProblems", "Verification", "verify_run"]

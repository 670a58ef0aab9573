"""Exports of a finished run in the formats other tools' loaders read."""

from negdata.export.negbench import export_negbench
from negdata.export.run_inputs import RunError

__all__ = ["RunError", "export_negbench"]

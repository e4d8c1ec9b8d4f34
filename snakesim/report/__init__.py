"""Figures and reports, drawn on matplotlib Figure objects (no global pyplot state)."""

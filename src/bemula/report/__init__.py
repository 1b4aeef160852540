"""Reports (SPEC §3): tables in the paper's layout (Markdown, CSV, LaTeX), matplotlib plots,
and one self-contained HTML page with a drill-down to every question. ``bemula report`` and
``bemula eval`` write them; see docs/metrics.md."""

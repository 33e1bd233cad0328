"""The terminal game: the full-screen table (Textual: ``app``, ``screens``, ``widgets``), the plain-text
mode for screen readers and pipes (``plain``), and the score sheet in the terminal. Started by ``eights
play`` and ``eights scorecard`` (``eights.cli``); nothing here is a command."""

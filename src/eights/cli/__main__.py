"""``python -m eights.cli``: the ``eights`` command."""

from eights.cli import main

main()

"""One module per `brisca-table` subcommand. Each has ``configure(parser)`` and ``run(args) -> int``.

Modules import heavy libraries (OpenCV, Flask, numpy) inside ``run`` so that the CLI starts fast.
"""

"""``python -m stream_mf2`` runs the command-line tool."""

from stream_mf2.cli import main

raise SystemExit(main())

"""``python -m app`` does what the ``capadvisor`` command does."""

from app.cli import main

raise SystemExit(main())

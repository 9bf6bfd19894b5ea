"""``python -m swept``: the ``swept`` command (see :mod:`swept.cli`)."""

import sys

from .cli import main

sys.exit(main())

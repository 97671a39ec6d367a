"""Entry point for ``python -m kb``."""

from kb.cli import main

if __name__ == "__main__":
    main()

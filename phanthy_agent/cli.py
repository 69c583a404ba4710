"""The `phanthy` command."""

import argparse
import sys

from . import __version__


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="phanthy")
    parser.add_argument("--version", action="version", version=f"phanthy {__version__}")
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())

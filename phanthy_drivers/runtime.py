"""The process runtime lives in `phanthy_common.runtime`; this name is kept so drivers written
against `phanthy_drivers.runtime` keep working."""

from phanthy_common.runtime import *  # noqa: F401,F403

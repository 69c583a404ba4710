"""The driver SDK lives in `phanthy_common.sdk` (a driver needs only the common package); this
name is kept so drivers written against `phanthy_drivers.sdk` keep working."""

from phanthy_common.sdk import *  # noqa: F401,F403

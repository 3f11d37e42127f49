"""The library's log, routed to logging.getLogger("fftmux").

The C library's messages (a plugin skipped, a tuning cache it cannot use) reach the
"fftmux" logger at the matching level, and the library prints nothing itself. Every
message is passed (they are few) and the logger filters, so its level may change at any
time. An explicit FFTMUX_LOG keeps the library's own stderr printing instead, so that no
message is shown twice.
"""

import atexit
import ctypes
import logging
import os

logger = logging.getLogger("fftmux")
# Quiet unless the application configures logging, as the library is without FFTMUX_LOG.
logger.addHandler(logging.NullHandler())

# fftmux_log_level values, which are fixed, as logging levels
_LEVELS = (logging.ERROR, logging.WARNING, logging.INFO, logging.DEBUG)
LOG_DEBUG, LOG_ENV = 3, 0x101

Callback = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint32, ctypes.c_char_p)


def _forward(user, level, message):
    python_level = _LEVELS[level] if level < len(_LEVELS) else logging.DEBUG
    logger.log(python_level, "%s", message.decode("utf-8", "replace"))


# A module global: the library may call it as long as the process runs.
_callback = Callback(_forward)


def install(dll):
    """Routes dll's log to the logger, unless FFTMUX_LOG asks for stderr."""
    if os.environ.get("FFTMUX_LOG"):
        return
    dll.fftmux_set_log_callback(_callback, None, LOG_DEBUG)
    # Messages after the interpreter has begun to shut down go nowhere.
    atexit.register(dll.fftmux_set_log_callback, Callback(), None, LOG_ENV)  # Callback(): NULL

"""Exceptions raised for failures of the C API, one class per fftmux_status.

Each carries the status code, its name and fftmux_last_error()'s message. The
classes also derive from the closest builtin exception, so callers who do not
know fftmux still catch them naturally (ValueError for invalid arguments).
"""


class Error(Exception):
    """A failure reported by libfftmux."""

    status = None

    def __init__(self, message, status=None):
        super().__init__(message)
        if status is not None:
            self.status = status
        self.message = message


class InvalidArgumentError(Error, ValueError):
    status = 1


class UnsupportedError(Error):
    status = 2


class NotFoundError(Error, LookupError):
    status = 3


class UnavailableError(Error):
    status = 4


class BackendError(Error, RuntimeError):
    status = 5


class OutOfMemoryError(Error, MemoryError):
    status = 6


class FileError(Error, OSError):
    status = 7


class InternalError(Error, RuntimeError):
    status = 8


_BY_STATUS = {
    cls.status: cls
    for cls in (
        InvalidArgumentError,
        UnsupportedError,
        NotFoundError,
        UnavailableError,
        BackendError,
        OutOfMemoryError,
        FileError,
        InternalError,
    )
}


def error_for(status, message):
    """The exception for a non-zero status (an unknown code still raises Error)."""
    cls = _BY_STATUS.get(status, Error)
    return cls(message, status)

"""Reading a file argument: at most a bound, and only from a regular file (or ``-``).

``arena season show /dev/zero`` once grew to gigabytes in seconds and a FIFO given as a file
hung the command, because a file argument was read whole by whatever opened it. Every command
(the games' tools too) reads its file arguments here (through
:func:`arena.core.tools.read_text_arg`, which turns a refusal into the usual one-line error): a path is looked at with ``stat`` first and refused
unless it is a regular file; it is then opened with ``O_NONBLOCK``, so a FIFO swapped in
between the two cannot block the open, and looked at again on the open descriptor; and at
most ``limit + 1`` bytes are read, so a file that grows meanwhile is refused too. ``-`` reads
standard input, which may be a pipe or a terminal by design, under the same bound.

This module imports only ``os``, ``stat`` and ``sys`` (loaded by every Python process): a
game's quick start (its package's ``quick`` module, :mod:`arena.cli`) reads its file here
before argparse or anything else is loaded.
"""

import os
import stat
import sys

FILE_LIMIT = 16 << 20
"""The most a file argument may hold unless its command says less: 16 MiB, hundreds of times
a season record or a game's longest script, and read in well under a second."""

PUZZLE_LIMIT = 1 << 20
"""The most a lock, board, grid, deck or solution file may hold: 1 MiB, thousands of times
the few hundred bytes such a file is (its parser would only refuse more, after reading it)."""


class Refused(Exception):
    """A file argument that is not read: the message is one line naming it and why."""


def size_text(limit: int) -> str:
    """``16 MiB``, ``64 KiB`` or ``100 bytes``: the limit as a message says it."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= size and limit % size == 0:
            return f"{limit // size} {unit}"
    return f"{limit} bytes"


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _check_mode(path: str, mode: int) -> None:
    if stat.S_ISDIR(mode):
        raise Refused(f"{path}: is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise Refused(f"{path}: is {_kind(mode)}, not a regular file")


def _os_error(path: str, exc: OSError) -> Refused:
    if isinstance(exc, FileNotFoundError | NotADirectoryError):
        return Refused(f"{path}: no such file")
    if isinstance(exc, PermissionError):
        return Refused(f"{path}: permission denied")
    return Refused(f"{path}: cannot be read ({exc.strerror or exc})")


def _too_large(where: str, limit: int, what: str) -> Refused:
    return Refused(f"{where}: larger than {size_text(limit)}, the most {what} may be")


def read_bytes(path: str, limit: int, what: str) -> bytes:
    """At most ``limit`` bytes of the regular file ``path`` (standard input for ``-``), or
    :class:`Refused`. ``what`` names the kind of file in the message about its size ("a lock
    file")."""
    if path == "-":
        return _read_stdin(limit, what)
    if not path:
        raise Refused("a file argument is empty; give a file name")
    if "\0" in path:
        raise Refused(f"{path!r}: a file name cannot hold a NUL character")
    try:
        before = os.stat(path)
    except OSError as exc:
        raise _os_error(path, exc) from None
    _check_mode(path, before.st_mode)
    if before.st_size > limit:
        raise _too_large(path, limit, what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) \
        | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _os_error(path, exc) from None
    try:
        _check_mode(path, os.fstat(fd).st_mode)
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise _os_error(path, exc) from None
    finally:
        os.close(fd)
    if left <= 0:
        raise _too_large(path, limit, what)
    return b"".join(chunks)


def _read_stdin(limit: int, what: str) -> bytes:
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        data: bytes = stream.read(limit + 1)
    else:  # a text stream put in place of stdin (the tests' StringIO): bounded in characters
        data = sys.stdin.read(limit + 1).encode("utf-8")
    if len(data) > limit:
        raise _too_large("standard input", limit, what)
    return data


def read_text(path: str, limit: int, what: str) -> str:
    """:func:`read_bytes` decoded as UTF-8; text that is not UTF-8 is :class:`Refused`."""
    data = read_bytes(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = "standard input" if path == "-" else path
        raise Refused(f"{where}: not UTF-8 text (byte {exc.start + 1} cannot be "
                      "decoded)") from None

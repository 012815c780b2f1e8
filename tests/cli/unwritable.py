"""A folder nobody may write in, on every machine.

Root may write in any folder whatever its mode, and CI runs as root; so besides taking the
write bit away, the OS's answer for everyone else is given through ``os.access``, which is
what the command line asks before it starts any work."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def unwritable_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    real_access = os.access

    def access(path: object, mode: int, **kwargs: object) -> bool:
        if mode & os.W_OK and str(path).startswith(str(folder)):
            return False
        return real_access(path, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)
    return folder

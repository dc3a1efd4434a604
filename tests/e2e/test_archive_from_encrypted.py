"""`casefile archive export` from an encrypted workspace: refused unsealed without
--unsealed (one line naming why and the sealed way), written with either flag; a plain
workspace's export is as before."""

from __future__ import annotations

from pathlib import Path

from casefile.export.archive_file import is_sealed
from tests.e2e.cli_helpers import casefile

KEY = {"CASEFILE_PASSPHRASE": "tide tables at dawn"}
TITLE = "Harbor inquiry"


def test_an_unsealed_archive_of_an_encrypted_workspace_needs_unsealed(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    made = casefile(folder, "--encrypt", "case", "new", TITLE, env=KEY, new_workspace=True)
    assert made.code == 0, made.err
    out = tmp_path / "harbor.casefile"

    refused = casefile(folder, "archive", "export", "--case", TITLE, "-o", str(out), env=KEY)
    assert refused.code == 1 and not out.exists()
    (line,) = refused.err.strip().splitlines()
    assert "the workspace is encrypted" in line and "--seal" in line and "--unsealed" in line

    plain = casefile(folder, "archive", "export", "--case", TITLE, "-o", str(out),
                     "--unsealed", env=KEY)
    assert plain.code == 0, plain.err
    assert out.is_file() and not is_sealed(out)

    sealed_out = tmp_path / "harbor-sealed.casefile"
    sealed = casefile(folder, "archive", "export", "--case", TITLE, "-o", str(sealed_out),
                      "--seal", env={**KEY, "CASEFILE_ARCHIVE_PASSPHRASE": "archive secret"})
    assert sealed.code == 0, sealed.err
    assert is_sealed(sealed_out)

    both = casefile(folder, "archive", "export", "--case", TITLE, "-o", str(out), "--seal",
                    "--unsealed", env=KEY)
    assert both.code == 2


def test_a_plain_workspace_exports_unsealed_without_a_flag(tmp_path: Path) -> None:
    folder = tmp_path / "ws"
    assert casefile(folder, "case", "new", TITLE).code == 0
    out = tmp_path / "harbor.casefile"
    done = casefile(folder, "archive", "export", "--case", TITLE, "-o", str(out))
    assert done.code == 0, done.err
    assert not is_sealed(out)

"""The firmware logic tests again, under the real MicroPython WebAssembly port (Node)."""
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
RUNNER = ROOT / "firmware" / "tests" / "run_mpy.mjs"
PKG = ROOT / "firmware" / "tests" / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"

pytestmark = [
    pytest.mark.skipif(shutil.which("node") is None, reason="node not installed (CI installs it)"),
    pytest.mark.skipif(not PKG.exists(), reason="run `npm ci --prefix firmware/tests` (CI does)"),
]


def _run(*args):
    return subprocess.run(["node", str(RUNNER), *args], capture_output=True, text=True, timeout=120)


def test_logic_passes_under_micropython():
    r = _run()
    assert "MicroPython" in r.stdout, r.stdout + r.stderr
    assert r.returncode == 0, r.stdout + r.stderr
    assert " 0 failed" in r.stdout


def test_runner_reports_failures(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import protocol\nassert protocol.crc16(b'123456789') == 0x29B1\n"
                   "print('1 passed, 1 failed')\n")
    r = _run(str(bad))
    assert r.returncode == 1, r.stdout + r.stderr


def test_runner_reports_exceptions(tmp_path):
    bad = tmp_path / "boom.py"
    bad.write_text("raise RuntimeError('boom')\n")
    r = _run(str(bad))
    assert r.returncode != 0

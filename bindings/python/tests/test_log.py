"""The library's log reaches logging.getLogger("fftmux") at the matching level, and an
explicit FFTMUX_LOG keeps the library's stderr printing instead: never both."""

import logging
import os
import subprocess
import sys

import pytest

import fftmux

CORRUPT = "tuning cache ignored, routing uses estimates"


@pytest.fixture
def corrupt_config(tmp_path, monkeypatch):
    """A config whose tuning cache is not TOML."""
    monkeypatch.delenv("FFTMUX_TUNING_CACHE", raising=False)
    cache = tmp_path / "tuning.toml"
    cache.write_bytes(b"[meta]\nschema = 1\n[[measurement]]\nproblem = \"c2c")
    config = tmp_path / "fftmux.toml"
    config.write_text(f'tuning_cache = "{cache}"\n[backends.fftw]\nplanner = "estimate"\n')
    return config


pytestmark = pytest.mark.skipif("FFTMUX_LOG" in os.environ,
                                reason="FFTMUX_LOG is set: the library prints to stderr itself")


def test_a_corrupt_tuning_cache_is_a_warning_of_the_fftmux_logger(corrupt_config, caplog):
    caplog.set_level(logging.WARNING, logger="fftmux")
    with fftmux.Context(config=corrupt_config) as ctx:
        ctx.notes()  # reads the tuning cache
    warnings = [r for r in caplog.records if r.name == "fftmux" and CORRUPT in r.getMessage()]
    assert len(warnings) == 1, caplog.text
    assert warnings[0].levelno == logging.WARNING


def test_debug_messages_follow_the_loggers_level(tmp_path, caplog):
    missing = tmp_path / "no-plugins-here"
    caplog.set_level(logging.INFO, logger="fftmux")
    fftmux.Context(plugin_path=missing).close()
    assert not any("does not exist" in r.getMessage() for r in caplog.records), caplog.text
    caplog.set_level(logging.DEBUG, logger="fftmux")
    fftmux.Context(plugin_path=missing).close()
    debug = [r for r in caplog.records if f"{missing} does not exist" in r.getMessage()]
    assert [r.levelno for r in debug] == [logging.DEBUG], caplog.text


SHOW_WARNING = ("import logging, sys, fftmux; logging.basicConfig();"
                "fftmux.Context(config=sys.argv[1]).notes()")


def stderr_of(config, **env):
    """What a process that configured logging to stderr shows for the corrupt cache."""
    base = {k: v for k, v in os.environ.items() if k != "FFTMUX_LOG"}
    r = subprocess.run([sys.executable, "-c", SHOW_WARNING, str(config)],
                       env={**base, **env}, capture_output=True, text=True, timeout=120,
                       cwd=os.path.dirname(os.path.dirname(fftmux.__file__)))
    assert r.returncode == 0, r.stderr
    return r.stderr


def test_the_warning_is_shown_once_by_logging_or_by_fftmux_log(corrupt_config):
    text = stderr_of(corrupt_config)
    assert text.count(CORRUPT) == 1 and "WARNING:fftmux:" in text, text
    text = stderr_of(corrupt_config, FFTMUX_LOG="warn")
    assert text.count(CORRUPT) == 1 and "fftmux warning: " in text, text

"""Tuning that travels from Python: export, import, show and clear the cache."""

import pytest

import fftmux


@pytest.fixture
def ctx(tmp_path, monkeypatch):
    monkeypatch.setenv("FFTMUX_TUNING_CACHE", str(tmp_path / "user.toml"))
    monkeypatch.setenv("FFTMUX_SYSTEM_TUNING_CACHE", str(tmp_path / "system.toml"))
    with fftmux.Context() as context:
        yield context


def test_export_import_show_and_clear(ctx, tmp_path):
    assert ctx.system_tuning_path() == str(tmp_path / "system.toml")
    ctx.autotune([{"shape": (64,)}], backends=["fftw"], repeats=2, warmup=0)
    carried = tmp_path / "carried.toml"
    fftmux.tuning_export(carried, context=ctx)
    assert carried.read_text() == (tmp_path / "user.toml").read_text()
    assert fftmux.tuning_clear("fftw", context=ctx) == 1
    assert "[[measurement]]" not in fftmux.tuning_show(ctx)
    assert fftmux.tuning_import(carried, context=ctx) == 1
    shown = fftmux.tuning_show(ctx)
    assert shown.count("[[measurement]]") == 1 and 'backend = "fftw"' in shown
    assert fftmux.tuning_clear(context=ctx) == 1


def test_a_foreign_file_is_refused_and_changes_nothing(ctx, tmp_path):
    ctx.autotune([{"shape": (32,)}], backends=["fftw"], repeats=2, warmup=0)
    before = (tmp_path / "user.toml").read_text()
    foreign = tmp_path / "foreign.toml"
    foreign.write_text("[meta]\nschema = 42\n")
    with pytest.raises(fftmux.InvalidArgumentError, match="has schema 42"):
        fftmux.tuning_import(foreign, context=ctx)
    with pytest.raises(fftmux.FileError, match="missing.toml"):
        fftmux.tuning_import(tmp_path / "missing.toml", context=ctx)
    assert (tmp_path / "user.toml").read_text() == before


def test_bad_arguments_name_the_rule(ctx):
    with pytest.raises(fftmux.InvalidArgumentError, match="backend is empty"):
        fftmux.tuning_clear("", context=ctx)
    with pytest.raises(fftmux.InvalidArgumentError, match="path is empty"):
        fftmux.tuning_export("", context=ctx)
    with pytest.raises(TypeError, match="path must be a str or path-like"):
        fftmux.tuning_import(3, context=ctx)
    with pytest.raises(fftmux.NotFoundError, match="run fftmux autotune first"):
        fftmux.tuning_export("out.toml", context=ctx)

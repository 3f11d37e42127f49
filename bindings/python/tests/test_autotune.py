"""autotune from Python: records, the cache it writes, routing by it, errors."""

import pytest

import fftmux


def test_records_and_cache_route_plans(tmp_path):
    cache = tmp_path / "tuning.toml"
    seen = []
    with fftmux.Context() as ctx:
        records = ctx.autotune([{"shape": (256,), "batch": 8}, {"shape": (8, 8), "precision": "f64"}],
                               cache=cache, repeats=3, warmup=1, progress=seen.append)
    assert records == seen and len(records) >= 2
    fftw = [r for r in records if r.backend == "fftw"]
    assert len(fftw) == 4 and all(r.ok for r in fftw), [r.reason for r in fftw]  # default, measure
    for r in fftw:
        assert r.median_seconds > 0 and r.plan_seconds > 0 and r.round_trip_error < 1e-5
        assert r.runs > 0 and r.gbytes_per_second > 0
    for i in (0, 1):  # the backend's best of each problem has its phases apart
        best = min((r for r in fftw if r.problem_index == i), key=lambda r: r.median_seconds)
        assert best.upload_seconds is not None and best.download_seconds is not None
    assert {r.problem["shape"] for r in fftw} == {(256,), (8, 8)}
    assert "[[measurement]]" in cache.read_text()


def test_the_default_context_routes_by_its_cache(tmp_path, monkeypatch):
    cache = tmp_path / "tuning.toml"
    monkeypatch.setenv("FFTMUX_TUNING_CACHE", str(cache))
    with fftmux.Context() as ctx:
        assert ctx.tuning_cache_path() == str(cache)
        ctx.autotune([{"shape": (128,), "batch": 4}], repeats=2, warmup=0)
        plan = fftmux.Plan((128,), batch=4, precision="f32", context=ctx)
        assert "cache hit" in plan.explain()
        del plan


def test_problem_sets():
    quick = fftmux.problem_set("quick")
    assert 10 < len(quick) < len(fftmux.problem_set("default"))
    assert all("shape" in p for p in quick)
    with pytest.raises(ValueError, match="problem set 'slow'"):
        fftmux.problem_set("slow")


def test_errors_carry_the_library_message(tmp_path):
    with pytest.raises(fftmux.InvalidArgumentError, match="repeats = 0"):
        fftmux.autotune([{"shape": (8,)}], repeats=0, cache=tmp_path / "t.toml")
    with pytest.raises(fftmux.InvalidArgumentError, match=r"problems\[0\]: n\[0\] = 0"):
        fftmux.autotune([{"shape": (0,)}], cache=tmp_path / "t.toml")


def test_a_failing_progress_callback_is_reraised(tmp_path):
    def boom(record):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        fftmux.autotune([{"shape": (16,)}], repeats=1, warmup=0, progress=boom,
                        cache=tmp_path / "t.toml")

"""Shared test helpers: where the shared corpus is, and how to list it."""
from __future__ import annotations

import contextlib
import csv
import os
from pathlib import Path

import pytest
from hypothesis import settings

# In CI, property tests run a fixed set of examples (no flaky runs); locally
# they explore new ones each time.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("GAMAO_CORPUS", ROOT.parent / "shared" / "corpus"))
SELFPLAY = ROOT / "tests" / "data" / "selfplay"
EXAMPLES = ROOT / "examples"

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(),
    reason=f"the shared corpus is not at {CORPUS} (set GAMAO_CORPUS to its folder)")


def _producers() -> dict[str, str]:
    """corpus file name -> producer, from PROVENANCE.tsv."""
    out = {}
    prov = CORPUS / "PROVENANCE.tsv"
    if not prov.exists():
        return out
    with open(prov, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            repo = row["repo"].replace("/", "__")
            out[f"{repo}/{row['path'].replace('/', '__')}"] = row["producer"]
    return out


def corpus_files() -> list[Path]:
    """Every file of the corpus, bulk included (PROVENANCE files excluded)."""
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.name != "PROVENANCE.tsv")


CORPUS2 = Path(os.environ.get("GAMAO_CORPUS2", ROOT.parent / "shared" / "corpus2"))


def both_corpora_files() -> list[Path]:
    """Every file of the corpus and of corpus2 (what the kernels' tests
    compare their Python twins on)."""
    return sorted(p for d in (CORPUS, CORPUS2) if d.is_dir()
                  for p in d.rglob("*") if p.is_file() and p.name != "PROVENANCE.tsv")


def outcome_digest(path: Path, of_matches) -> str:
    """``of_matches(matches)`` of the matches of a file (the name of the
    error that stops its reading, for a file the corpus holds because it is
    unreadable), as the SHA-256 of its repr: a comparison over the whole
    corpus keeps a few kilobytes, not every outcome (held whole, those stay
    in the test process's memory, which later tests' children inherit in
    their peak memory figure)."""
    import hashlib
    from gamao_cli.formats import read_path
    try:
        matches = read_path(str(path))
    except Exception as e:   # noqa: BLE001 - any error: its name is the outcome
        return type(e).__name__
    return hashlib.sha256(repr(of_matches(matches)).encode("utf-8", "surrogatepass")).hexdigest()


def is_match_file(path: Path) -> bool:
    """Whether PROVENANCE.tsv says a corpus file is a match file (bulk: all are)."""
    if path.suffix.lower() == ".sgf":
        return False
    rel = path.relative_to(CORPUS).as_posix()
    producer = _PRODUCERS.get(rel)
    if producer is None:
        return "bulk/" in rel
    low = producer.lower()
    return not ("not a match" in low or "sgf" in low or "not .mat" in low)


_PRODUCERS = _producers()


def corpus_match_files() -> list[Path]:
    return [p for p in corpus_files() if is_match_file(p)]


def corpus_sample(bulk_step: int) -> list[Path]:
    """Every corpus match file outside ``bulk/`` and every ``bulk_step``-th of ``bulk/``."""
    files = corpus_match_files()
    plain = [p for p in files if "bulk" not in p.relative_to(CORPUS).parts]
    bulk = [p for p in files if "bulk" in p.relative_to(CORPUS).parts]
    return plain + bulk[::bulk_step]


def corpus_non_match_files() -> list[Path]:
    return [p for p in corpus_files() if not is_match_file(p)]


def read(path: Path) -> str:
    from gamao_cli.formats.textio import decode_bytes
    return decode_bytes(path.read_bytes(), str(path))[0]


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch):
    """gamao speaks the language the environment asks for (issue 16): the
    tests read it in English whatever the machine's locale, and each test
    starts and ends with the library in English. (The tests of the
    languages set their own environment, or pass --lang.)"""
    from gamao_cli import i18n
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    if i18n.from_environment() != i18n.SOURCE:
        monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.set_language(i18n.SOURCE)
    yield
    i18n.set_language(i18n.SOURCE)


@contextlib.contextmanager
def local_cluster():
    """A ``distributed.LocalCluster`` of two worker processes on the loopback
    (its scheduler's address given), closed afterwards. Starting one sets
    variables in this process's environment for its workers
    (``MALLOC_TRIM_THRESHOLD_``, ``OMP_NUM_THREADS``, ``PYTHONHASHSEED``...):
    they are put back at once, so that the commands later tests run as
    processes of their own get the environment a user's shell gives (under
    that malloc setting one export of a compressed tar took 23 s of CPU
    instead of 2)."""
    import distributed
    saved = dict(os.environ)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                       silence_logs=50)
    os.environ.clear()
    os.environ.update(saved)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def fail_fsync_of(monkeypatch, marker: str) -> None:
    """Make ``os.fsync`` fail (EIO, as a failing disk) for the files whose
    path holds ``marker`` (a temporary file's name starts ``.NAME.``); skip
    where /proc/self/fd cannot tell the files apart."""
    import errno
    import os
    import pytest
    if not os.path.exists("/proc/self/fd"):
        pytest.skip("needs /proc/self/fd to tell the files apart")
    real_fsync = os.fsync

    def failing_fsync(fd):
        if marker in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.EIO, "Input/output error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)

"""Coverage-guided fuzzing of one reader of the format registry (Atheris / libFuzzer).

    python fuzz/fuzz_reader.py FORMAT [libFuzzer options] [corpus folders]
    python fuzz/fuzz_reader.py mat /tmp/gamao-fuzz/mat /tmp/gamao-fuzz/seeds-mat \\
        -max_total_time=1800 -max_len=4096

FORMAT is a readable format of ``gamao_cli.formats`` (``mat``, ``sgf``,
``json``, ``xg``, ``bgf``, ``gnubg-text``; ``python fuzz/fuzz_reader.py --list`` lists them). Each input is
taken as the bytes of a file of that format: read by the format's own reader
(``Format.read`` of a :class:`~gamao_cli.formats.Source` in memory, which
decodes text formats with ``textio``), replayed, and with ``FUZZ_CONVERT=1``
(the default) written in every format, each output read back into the same
match (see ``common.py``). See fuzz/README.md.
"""
from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)


def _usage() -> None:
    from gamao_cli import formats
    names = ", ".join(f.name for f in formats.readable())
    raise SystemExit(f"usage: python fuzz/fuzz_reader.py FORMAT [libFuzzer options]; "
                     f"FORMAT is one of: {names}")


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        _usage()
    name = sys.argv.pop(1)
    import atheris

    with atheris.instrument_imports(include=["gamao_cli", "lark"]):
        from gamao_cli import formats
        # everything an input can reach: the readers, the validator, the writers
        import gamao_cli.formats.bgf.reader  # noqa: F401
        import gamao_cli.formats.gnubg_text.reader  # noqa: F401
        import gamao_cli.formats.json.codec  # noqa: F401
        import gamao_cli.formats.mat.reader  # noqa: F401
        import gamao_cli.formats.mat.writer  # noqa: F401
        import gamao_cli.formats.sgf.reader  # noqa: F401
        import gamao_cli.formats.sgf.writer  # noqa: F401
        import gamao_cli.formats.xg.reader  # noqa: F401
        import gamao_cli.replay.replay  # noqa: F401
    import common

    if name == "--list":
        print("\n".join(f.name for f in formats.readable()))
        return
    if name not in formats.FORMATS or not formats.get(name).capabilities.read:
        _usage()
    convert = os.environ.get("FUZZ_CONVERT", "1") == "1"
    label = "fuzz" + formats.get(name).extensions[0]

    def one_input(data: bytes) -> None:
        common.one_input_format(data, name, label, convert=convert)

    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

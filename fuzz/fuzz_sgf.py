"""Coverage-guided fuzzing of the SGF reader (Atheris / libFuzzer).

    python fuzz/fuzz_sgf.py /tmp/gamao-fuzz/sgf /tmp/gamao-fuzz/seeds-sgf \
        -max_total_time=1800 -max_len=16384

See fuzz/README.md. Each input is taken as the bytes of a file: decoded
(gamao_cli.formats.textio), read (gamao_cli.formats.sgf.reader.read_sgf), replayed and
converted.
"""
from __future__ import annotations

import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

with atheris.instrument_imports(include=["gamao_cli", "lark"]):
    from gamao_cli.formats.sgf.reader import read_sgf
    from gamao_cli.formats import textio, validator, conversion, matfile_writer, json_format, sgf_writer  # noqa: F401

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CONVERT = os.environ.get("FUZZ_CONVERT", "1") == "1"


def one_input(data: bytes) -> None:
    common.one_input(data, "fuzz.sgf", read_sgf, convert=CONVERT)


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

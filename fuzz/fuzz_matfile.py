"""Coverage-guided fuzzing of the match-file reader (Atheris / libFuzzer).

    python fuzz/fuzz_matfile.py /tmp/gamao-fuzz/mat /tmp/gamao-fuzz/seeds-mat \
        -max_total_time=1800 -max_len=16384

See fuzz/README.md. Each input is taken as the bytes of a file: decoded
(gamao_cli.formats.textio), read (gamao_cli.formats.mat.reader), replayed and converted.
"""
from __future__ import annotations

import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

with atheris.instrument_imports(include=["gamao_cli", "lark"]):
    from gamao_cli.formats.mat.reader import read_matches
    from gamao_cli.formats import textio, validator, conversion, matfile_writer, json_format, sgf_writer  # noqa: F401

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402

CONVERT = os.environ.get("FUZZ_CONVERT", "1") == "1"


def one_input(data: bytes) -> None:
    common.one_input(data, "fuzz.mat", read_matches, convert=CONVERT)


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

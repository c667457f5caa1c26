"""Coverage-guided fuzzing of the match-file reader (Atheris / libFuzzer).

    python fuzz/fuzz_matfile.py /tmp/gamao-fuzz/mat /tmp/gamao-fuzz/seeds-mat \
        -max_total_time=1800 -max_len=16384

See fuzz/README.md. Each input is taken as the bytes of a file: decoded
(gamao_cli.textio), read (gamao_cli.matfile_reader), replayed and converted.
"""
from __future__ import annotations

import os
import sys

import atheris

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

with atheris.instrument_imports(include=["gamao_cli", "lark"]):
    from gamao_cli.errors import InputError
    from gamao_cli.matfile_reader import read_matches
    from gamao_cli.textio import decode_bytes
    from gamao_cli import validator, conversion, matfile_writer, json_format, sgf_writer  # noqa: F401

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import check_input_error, exercise_matches, is_known  # noqa: E402

CONVERT = os.environ.get("FUZZ_CONVERT", "1") == "1"


def one_input(data: bytes) -> None:
    try:
        text, _enc = decode_bytes(data, "fuzz.mat")
    except InputError as exc:
        check_input_error(exc)
        return
    try:
        matches = read_matches(text, "fuzz.mat")
    except InputError as exc:
        check_input_error(exc)
        return
    except Exception as exc:
        if is_known(exc):
            return
        raise
    try:
        if CONVERT:
            exercise_matches(matches, reread=True)
        else:
            for mt in matches:
                validator.validate_match(mt)
    except Exception as exc:
        if is_known(exc):
            return
        raise


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

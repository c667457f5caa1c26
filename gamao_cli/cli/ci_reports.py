"""The reports of ``gamao validate`` in CI services' own formats.

- ``sarif``: SARIF 2.1.0 (OASIS), what GitHub code scanning takes
  (``github/codeql-action/upload-sarif``): one rule per code, each result
  with its rule, level and region.
- ``codeclimate``: GitLab's code-quality report (a subset of Code Climate's
  issue format): a JSON array of issues, each with ``description``,
  ``check_name``, ``fingerprint``, ``severity``, ``location.path`` and
  ``location.lines.begin``.
- :class:`StepSummary`: with ``--format github``, the whole report as a
  Markdown table appended to the file GitHub names in
  ``$GITHUB_STEP_SUMMARY`` (the job summary).

Paths are written relative to the working directory (the repository's root
when the job runs there), with ``/``, as both services match them against
the repository's files (:func:`report_path`; the github annotations too).
sarif and codeclimate keep every diagnostic, as json does.
"""
from __future__ import annotations

import hashlib
import html
import json
import os
import re
from pathlib import Path, PurePosixPath
from typing import Any, Callable, Iterable
from urllib.parse import quote

import click

from gamao_cli import __version__
from gamao_cli.i18n import _, ngettext, pgettext
from gamao_cli.messages import CODES, MESSAGES, severity_word
from gamao_cli.replay.check import FileCheck
from gamao_cli.replay.diagnostics import Diagnostic

SARIF_VERSION = "2.1.0"
#: The schema the report names (the one the tests validate it against).
SARIF_SCHEMA = ("https://raw.githubusercontent.com/schemastore/schemastore/master/src/schemas/"
                "json/sarif-2.1.0-rtm.5.json")
_SARIF_LEVELS = {"error": "error", "warning": "warning", "info": "note"}

#: gamao's severities as GitLab's (info, minor, major, critical, blocker).
#: An error on a file that could not be checked at all (not read, not a
#: match file, or gamao failed on it) is critical; blocker is not used.
CODECLIMATE_SEVERITIES = {"error": "major", "warning": "minor", "info": "info"}
CODECLIMATE_UNREAD = "critical"

#: What GitHub shows of one step's summary (larger ones are not shown).
STEP_SUMMARY_LIMIT = 1024 * 1024


def report_path(path: str) -> str:
    """``path`` as the reports name it: relative to the working directory
    when it lies under it, with ``/`` between folders.

    >>> report_path("./matches/../matches/a.mat")
    'matches/a.mat'
    >>> report_path(os.path.join(os.getcwd(), "b", "c.mat"))
    'b/c.mat'
    """
    p = Path(os.path.normpath(path))
    if p.is_absolute():
        try:
            p = p.relative_to(Path.cwd())
        except ValueError:
            pass
    return PurePosixPath(*p.parts).as_posix() if p.parts else path


def _legal(d: Diagnostic) -> str:
    """``; legal: 13/7 8/7, ...`` (the legal plays of an illegal one), or nothing."""
    return "; " + _("legal: {plays}").format(plays=", ".join(d.legal)) if d.legal else ""


def _line(d: Diagnostic) -> int | None:
    """The diagnostic's line, or None (a line 0 is no line)."""
    return d.line if d.line else None


def _byte(d: Diagnostic) -> int | None:
    at = d.fields.get("at_byte")
    return at if isinstance(at, int) and at >= 0 else None


def _fingerprints(results: Iterable[FileCheck]) -> Iterable[tuple[FileCheck, Diagnostic, str]]:
    """Each diagnostic with its fingerprint: a SHA-256 of its code, path and
    location (line, column, byte offset), and for a second one of the same
    code at the same place, its rank there; so it stays the same from run to
    run while the file does not change there."""
    seen: dict[str, int] = {}
    for r in results:
        for d in r.diagnostics:
            key = "\0".join(str(x) for x in (d.code, report_path(d.path), _line(d), d.column,
                                             _byte(d)))
            seen[key] = n = seen.get(key, 0) + 1
            if n > 1:
                key += f"\0{n}"
            yield r, d, hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


# -- SARIF ----------------------------------------------------------------------

def _rule(code: str) -> dict[str, Any]:
    """A code as a SARIF rule: its title, and the messages it has (English,
    the words of gamao's message table, with their fields in braces)."""
    info = CODES[code]
    templates = [MESSAGES[k] for k in MESSAGES if k == code or k.startswith(code + ".")]
    text = f"{code}: {info.title} ({info.category}, {info.severity})."
    markdown = f"**{code}**: {info.title} ({info.category}, {info.severity})."
    if templates:
        text += " Its messages: " + "; ".join(templates) + "."
        markdown += "\n\nIts messages:\n\n" + "\n".join(f"- `{t}`" for t in templates)
    return {
        "id": code,
        "shortDescription": {"text": info.title},
        "fullDescription": {"text": f"{info.title} ({info.category}, {info.severity})"},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": _SARIF_LEVELS[info.severity]},
        "properties": {"tags": [info.category]},
    }


def _location(d: Diagnostic) -> list[dict[str, Any]]:
    if not d.path or d.path == "<stdin>":
        return []   # standard input is no artifact of the repository
    physical: dict[str, Any] = {"artifactLocation": {"uri": quote(report_path(d.path))}}
    region: dict[str, Any] = {}
    if _line(d):
        region["startLine"] = d.line
        if d.column:
            region["startColumn"] = d.column
    if _byte(d) is not None:
        region["byteOffset"] = _byte(d)   # a binary file's place (or where a text did not decode)
    if region:
        physical["region"] = region
    return [{"physicalLocation": physical}]


def sarif_report(results: list[FileCheck]) -> str:
    """SARIF 2.1.0: one run of gamao with a rule per code and a result per
    diagnostic (its message in the language that speaks).

    >>> from gamao_cli.replay.check import FileCheck
    >>> d = Diagnostic("GM202", "a wrong play", path="a.mat", line=3, column=9)
    >>> doc = json.loads(sarif_report([FileCheck("a.mat", diagnostics=[d])]))
    >>> result = doc["runs"][0]["results"][0]
    >>> result["ruleId"], result["level"], result["locations"][0]["physicalLocation"]
    ('GM202', 'error', {'artifactLocation': {'uri': 'a.mat'}, 'region': {'startLine': 3, 'startColumn': 9}})
    """
    codes = list(CODES)
    index = {code: i for i, code in enumerate(codes)}
    out = []
    for _r, d, fingerprint in _fingerprints(results):
        result: dict[str, Any] = {
            "ruleId": d.code, "ruleIndex": index[d.code], "level": _SARIF_LEVELS[d.severity],
            "message": {"text": d.message + _legal(d)},
            "locations": _location(d),
            "fingerprints": {"gamao/v1": fingerprint},
        }
        where = {k: v for k, v in (("game", d.game), ("move", d.move)) if v is not None}
        if where:
            result["properties"] = where
        out.append(result)
    doc = {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {"name": "gamao", "version": __version__,
                                "semanticVersion": __version__,
                                "rules": [_rule(code) for code in codes]}},
            "invocations": [{"executionSuccessful": all(r.internal_error is None
                                                        for r in results)}],
            "columnKind": "unicodeCodePoints",
            "results": out,
        }],
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


# -- GitLab code quality (Code Climate) ----------------------------------------

def codeclimate_severity(r: FileCheck, d: Diagnostic) -> str:
    """GitLab's severity of a diagnostic (see :data:`CODECLIMATE_SEVERITIES`)."""
    if d.severity == "error" and (r.unreadable or r.internal_error is not None):
        return CODECLIMATE_UNREAD
    return CODECLIMATE_SEVERITIES[d.severity]


def codeclimate_report(results: list[FileCheck]) -> str:
    """GitLab's code-quality report: one issue per diagnostic. A finding with
    no line (one about the whole file, or in a binary file) is put on line 1,
    the first GitLab can show; its message says the byte offset where there
    is one.

    >>> from gamao_cli.replay.check import FileCheck
    >>> d = Diagnostic("GM202", "a wrong play", path="a.mat", line=3, column=9)
    >>> [issue] = json.loads(codeclimate_report([FileCheck("a.mat", diagnostics=[d])]))
    >>> issue["check_name"], issue["severity"], issue["location"]
    ('GM202', 'major', {'path': 'a.mat', 'lines': {'begin': 3}})
    """
    issues = []
    for r, d, fingerprint in _fingerprints(results):
        issues.append({
            "type": "issue",
            "description": f"{d.code} {d.message}{_legal(d)}",
            "check_name": d.code,
            "fingerprint": fingerprint,
            "severity": codeclimate_severity(r, d),
            "location": {"path": report_path(d.path), "lines": {"begin": _line(d) or 1}},
        })
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"


# -- GitHub's job summary ------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|~#!])")


def markdown_cell(text: str) -> str:
    """``text`` as one cell of a Markdown table: on one line, its ``|`` and
    Markdown's marks escaped, and no HTML (GitHub renders HTML in summaries).

    >>> markdown_cell("a | b <i>*c*</i>\\nd")
    'a \\\\| b &lt;i&gt;\\\\*c\\\\*&lt;/i&gt; d'
    """
    text = " ".join(text.split())
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


class StepSummary:
    """The github report's Markdown table, kept in memory up to what GitHub
    shows of a step's summary (:data:`STEP_SUMMARY_LIMIT`) and appended to
    the summary file at the end (GitHub joins what each step appends)."""

    _RESERVE = 4096   # room for the heading and the closing words

    def __init__(self, show: Callable[[Diagnostic], bool]):
        self.show = show            # which diagnostics the report shows
        self.rows: list[str] = []
        self.size = 0
        self.left_out = 0

    def add(self, r: FileCheck) -> None:
        for d in r.diagnostics:
            if not self.show(d):
                continue
            cells = (report_path(d.path), str(_line(d) or ""), str(d.column or "") if _line(d)
                     else "", d.code, severity_word(d.severity), d.message + _legal(d))
            row = "| " + " | ".join(markdown_cell(c) for c in cells) + " |\n"
            size = len(row.encode("utf-8", "surrogatepass"))
            if self.left_out or self.size + size > STEP_SUMMARY_LIMIT - self._RESERVE:
                self.left_out += 1
            else:
                self.rows.append(row)
                self.size += size

    def text(self, closing: str) -> str:
        """The summary, under the report's ``closing`` line."""
        out = ["## gamao validate\n", "\n", markdown_cell(closing) + "\n"]
        if self.rows:
            head = (pgettext("column", "file"), pgettext("column", "line"),
                    pgettext("column", "column"), pgettext("column", "code"),
                    pgettext("column", "severity"), pgettext("column", "message"))
            out += ["\n", "| " + " | ".join(head) + " |\n",
                    "| --- | ---: | ---: | --- | --- | --- |\n"]
            out += self.rows
        if self.left_out:
            out += ["\n", markdown_cell(ngettext(
                "{n} more finding is left out: GitHub shows 1 MiB of a step's summary; every "
                "finding is in the step's log",
                "{n} more findings are left out: GitHub shows 1 MiB of a step's summary; every "
                "finding is in the step's log", self.left_out).format(n=self.left_out)) + "\n"]
        return "".join(out) + "\n"

    def append_to(self, path: str, closing: str) -> bool:
        """Append the summary to ``path``; whether it was written (one that
        cannot be is said on standard error; the report's exit code is then 2,
        as for any output that cannot be written)."""
        try:
            with open(path, "a", encoding="utf-8", errors="surrogateescape") as fh:
                fh.write(self.text(closing))
        except OSError as exc:
            click.echo(_("gamao: cannot write the step summary {path}: {reason}")
                       .format(path=path, reason=exc.strerror or exc), err=True)
            return False
        return True

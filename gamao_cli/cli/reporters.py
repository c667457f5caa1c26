"""Output formats of ``gamao validate``: text, json, jsonl, github, junit,
and (in :mod:`.ci_reports`) sarif and codeclimate.

Each reporter takes the :class:`~gamao_cli.replay.check.FileCheck` s (in input
order) and returns the text to print. The formats in :data:`STREAMED` are
also written file by file as the results come (:func:`stream`), keeping only
a :class:`Tally`: checking a folder of any number of files then takes
memory that does not grow with it.

Infos (a producer's quirk gamao interprets, never a fault) are left out of
the text and github reports unless asked (``--show-info``, or a
``--severity`` threshold): on a real archive they would drown the result.
Their closing line still counts them, and json, jsonl, junit, sarif and
codeclimate keep every diagnostic.
"""
from __future__ import annotations

import json
import sys
from typing import Any, Callable, Iterable

import click

from gamao_cli import __version__
from gamao_cli.i18n import _, ngettext
from gamao_cli.messages import severity_word
from gamao_cli.replay.check import FileCheck
from gamao_cli.replay.diagnostics import Diagnostic

from .ci_reports import StepSummary, codeclimate_report, report_path, sarif_report
from .exit_codes import Status

FORMATS = ("text", "json", "jsonl", "github", "junit", "sarif", "codeclimate", "html")
STREAMED = ("text", "jsonl", "github")
JSON_SCHEMA_VERSION = 1

_COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}

#: The severities, gravest first; a threshold shows itself and the graver ones.
SEVERITIES = ("error", "warning", "info")
DEFAULT_THRESHOLD = "warning"
#: The reports a threshold applies to (the others keep every diagnostic).
FILTERED = ("text", "github")


def shown(d: Diagnostic, threshold: str) -> bool:
    """Whether ``d`` is at least as grave as ``threshold``.

    >>> d = Diagnostic("GM103", "a hit the record does not mark")
    >>> shown(d, "warning"), shown(d, "info")
    (False, True)
    """
    return SEVERITIES.index(d.severity) <= SEVERITIES.index(threshold)


class Tally:
    """What the closing line and the exit code need of the results."""

    KEYS = ("files", "unreadable", "matches", "games", "plays", "errors", "warnings", "infos")

    def __init__(self, strict: bool = False, threshold: str = "info"):
        self.strict = strict
        self.threshold = threshold   # what the report shows; the counts hold everything
        self.quiet = False
        self.counts = dict.fromkeys(self.KEYS, 0)
        self.internal_error = False  # gamao itself failed on a file
        self.failed = False          # a file is not ok (errors, or warnings when strict)
        self.unwritten = False       # an output besides standard output could not be written

    def add(self, r: FileCheck) -> None:
        c = self.counts
        c["files"] += 1
        c["unreadable"] += r.unreadable
        c["matches"] += len(r.matches)
        c["games"] += r.games
        c["plays"] += r.plays
        c["errors"] += r.errors
        c["warnings"] += r.warnings
        c["infos"] += sum(d.severity == "info" for d in r.diagnostics)
        self.internal_error = self.internal_error or r.internal_error is not None
        self.failed = self.failed or not r.ok(self.strict)

    def status(self) -> Status:
        """The exit status of what was tallied."""
        status = Status()
        if self.failed:
            status.found()
        if self.counts["unreadable"] or self.unwritten:
            status.unreadable()
        if self.internal_error:
            status.internal_error()   # a bug in gamao outweighs what the files hold
        return status

    @classmethod
    def of(cls, results: Iterable[FileCheck], strict: bool = False) -> "Tally":
        tally = cls(strict)
        for r in results:
            tally.add(r)
        return tally


def totals(results: Iterable[FileCheck]) -> dict[str, int]:
    return dict(Tally.of(results).counts)


def summary_line(results: "Iterable[FileCheck] | Tally") -> str:
    """The closing line: what was checked and how many of each severity.

    >>> t = Tally(threshold="warning"); t.counts.update(files=2, games=3, infos=4, warnings=1)
    >>> summary_line(t)
    '2 files, 3 games: 0 errors, 1 warning, 4 infos (infos not shown: --show-info)'
    """
    tally = results if isinstance(results, Tally) else Tally.of(results)
    t = tally.counts
    line = _("{files}, {games}: {errors}, {warnings}").format(
        files=ngettext("{n} file", "{n} files", t["files"]).format(n=t["files"]),
        games=ngettext("{n} game", "{n} games", t["games"]).format(n=t["games"]),
        errors=ngettext("{n} error", "{n} errors", t["errors"]).format(n=t["errors"]),
        warnings=ngettext("{n} warning", "{n} warnings", t["warnings"]).format(n=t["warnings"]))
    if t["infos"]:
        line += ", " + ngettext("{n} info", "{n} infos", t["infos"]).format(n=t["infos"])
    hidden = [kind for kind in ("warning", "info")
              if t[kind + "s"] and SEVERITIES.index(kind) > SEVERITIES.index(tally.threshold)]
    if hidden and not tally.quiet:
        line += " " + (_("(warnings and infos not shown: --show-info)") if len(hidden) == 2
                       else _("(warnings not shown: --show-info)") if hidden == ["warning"]
                       else _("(infos not shown: --show-info)"))
    if t["unreadable"]:
        line += " " + ngettext("({n} file not read)", "({n} files not read)",
                               t["unreadable"]).format(n=t["unreadable"])
    return line


def _legal(d: Diagnostic) -> str:
    """``; legal: 13/7 8/7, ...`` (the legal plays of an illegal one), or nothing."""
    return "; " + _("legal: {plays}").format(plays=", ".join(d.legal)) if d.legal else ""


def diagnostic_text(d: Diagnostic, colour: bool) -> str:
    if not colour:
        return d.format_text()
    msg = d.message
    if d.legal:
        msg += click.style(_legal(d), dim=True)
    return (click.style(d.location(), bold=True) + ": " + click.style(d.code, bold=True) + " "
            + click.style(severity_word(d.severity), fg=_COLOURS.get(d.severity)) + " " + msg)


def _text_lines(r: FileCheck, colour: bool, quiet: bool, threshold: str) -> list[str]:
    return [] if quiet else [diagnostic_text(d, colour) for d in r.diagnostics
                             if shown(d, threshold)]


def text_report(results: Iterable[FileCheck], *, colour: bool = False, quiet: bool = False,
                threshold: str = DEFAULT_THRESHOLD) -> str:
    return _collect("text", results, colour=colour, quiet=quiet, threshold=threshold)


def _stdout_speaks_utf8() -> bool:
    import codecs
    enc = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        return codecs.lookup(enc).name in ("utf-8", "utf-8-sig")
    except LookupError:
        return False


def json_text(doc: Any, indent: int | None = None) -> str:
    """``doc`` as strict JSON for standard output: characters the output's
    encoding cannot hold (an emoji under a Latin-1 locale) as JSON escapes
    (``\\ud83d\\ude00``, never Python's ``\\U0001f600``), a float that is no
    number (NaN, infinity) as ``null``, and an int of more than 4,300
    digits (a running score from a 4,300-digit score line) as a string of
    its digits, since JSON readers (Python's among them) refuse to read
    such a number."""
    from gamao_cli.formats.json.codec import _no_nan
    ascii_only = not _stdout_speaks_utf8()
    try:
        return json.dumps(doc, indent=indent, ensure_ascii=ascii_only, allow_nan=False)
    except ValueError:
        doc = _long_ints_as_text(_no_nan(doc, (), []))
        return json.dumps(doc, indent=indent, ensure_ascii=ascii_only, allow_nan=False)


def _long_ints_as_text(v: Any) -> Any:
    from gamao_cli.formats.limits import all_digits, fits
    if isinstance(v, int) and not isinstance(v, bool) and not fits(v):
        with all_digits():
            return str(v)
    if isinstance(v, dict):
        return {k: _long_ints_as_text(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_long_ints_as_text(x) for x in v]
    return v


def json_report(results: list[FileCheck], *, strict: bool = False) -> str:
    doc = {
        "version": JSON_SCHEMA_VERSION,
        "gamao": __version__,
        "files": [r.to_dict(strict) for r in results],
        "summary": totals(results),
    }
    return json_text(doc, indent=2) + "\n"


def _jsonl_lines(r: FileCheck) -> list[str]:
    return [json_text(d.to_dict()) for d in r.diagnostics]


def jsonl_report(results: Iterable[FileCheck]) -> str:
    return _collect("jsonl", results)


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


_GH_KINDS = {"error": "error", "warning": "warning", "info": "notice"}

#: What GitHub keeps of one step's annotations: 10 of each kind (errors,
#: warnings, notices); and 50 a job (actions/toolkit docs/problem-matchers.md).
#: What is past it GitHub drops silently, so the github report writes no more
#: and says so in one notice of its own (which is one of the 10 notices).
GITHUB_LIMIT = 10


def _github_annotation(d: Diagnostic) -> str:
    props = [f"file={_gh_escape(report_path(d.path), True)}"]
    if d.line:  # a line 0 (a whole-game finding of a binary file) is no line
        props.append(f"line={d.line}")
        if d.column:
            props.append(f"col={d.column}")
    props.append(f"title={_gh_escape(d.code + ' ' + d.category, True)}")
    msg = d.message + _legal(d)
    if not d.line and d.game is not None:   # no line to point at: name the game
        msg = d.where() + ": " + msg
    return f"::{_GH_KINDS[d.severity]} {','.join(props)}::{_gh_escape(msg)}"


class GitHubAnnotations:
    """The github report's lifecycle: :meth:`lines` of each file as it comes,
    then :meth:`closing`.

    An annotation is a workflow command GitHub turns into a mark on the pull
    request's file; it keeps :data:`GITHUB_LIMIT` of each kind a step. The
    gravest are written first: the first errors at once, the first warnings
    and notices (at most 10 each, so memory stays small) at the close, after
    the errors. What is past the limit is written as a plain line of the
    step's log (``path:line:col: CODE severity message``), and a last notice
    says how many there are and where they are (the log; the job summary too
    when :mod:`.ci_reports` writes it).
    """

    def __init__(self, threshold: str, summary: bool = False):
        self.threshold = threshold
        self.summary = summary      # whether a step summary holds the whole report
        self.errors = 0             # error annotations written
        self.held: dict[str, list[Diagnostic]] = {"warning": [], "info": []}
        self.more = 0               # findings shown as log lines, not annotations

    def lines(self, r: FileCheck) -> list[str]:
        out = []
        for d in r.diagnostics:
            if not shown(d, self.threshold):
                continue
            if d.severity == "error" and self.errors < GITHUB_LIMIT:
                self.errors += 1
                out.append(_github_annotation(d))
            elif d.severity != "error" and len(self.held[d.severity]) < GITHUB_LIMIT:
                self.held[d.severity].append(d)
            else:
                self.more += 1
                out.append(d.format_text())
        return out

    def closing(self) -> list[str]:
        notices = self.held["info"]
        out = []
        if self.more and len(notices) == GITHUB_LIMIT:
            # the notice that says so is one of the 10 GitHub keeps
            self.more += 1
            out.append(notices.pop().format_text())
        out += [_github_annotation(d) for d in self.held["warning"] + notices]
        if self.more:
            text = ngettext("{n} more finding is not an annotation (GitHub keeps {limit} errors, "
                            "{limit} warnings and {limit} notices a step)",
                            "{n} more findings are not annotations (GitHub keeps {limit} "
                            "errors, {limit} warnings and {limit} notices a step)",
                            self.more).format(n=self.more, limit=GITHUB_LIMIT)
            text += ": " + (_("every finding is in this step's log and in the job summary")
                            if self.summary else _("every finding is in this step's log"))
            out.append(f"::notice title=gamao::{_gh_escape(text)}")
        return out


def github_report(results: Iterable[FileCheck], *, threshold: str = DEFAULT_THRESHOLD) -> str:
    return _collect("github", results, threshold=threshold)


def junit_report(results: list[FileCheck], *, strict: bool = False) -> str:
    """JUnit XML: one test case per file; errors (and, strict, warnings) fail it."""
    from xml.etree import ElementTree as ET
    suite = ET.Element("testsuite", name="gamao validate", tests=str(len(results)))
    failures = errors = 0
    for r in results:
        case = ET.SubElement(suite, "testcase", classname="gamao.validate", name=r.path)
        if r.unreadable:
            errors += 1
            d = r.diagnostics[0]
            el = ET.SubElement(case, "error", message=d.message, type=d.code)
            el.text = d.format_text()
            continue
        bad = [d for d in r.diagnostics
               if d.severity == "error" or (strict and d.severity == "warning")]
        if bad:
            failures += 1
            el = ET.SubElement(case, "failure", type=bad[0].code,
                               message=ngettext("{n} problem: {message}", "{n} problems: {message}",
                                                len(bad)).format(n=len(bad), message=bad[0].message))
            el.text = "\n".join(d.format_text() for d in r.diagnostics)
        elif r.diagnostics:
            out = ET.SubElement(case, "system-out")
            out.text = "\n".join(d.format_text() for d in r.diagnostics)
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    root = ET.Element("testsuites", name="gamao", tests=str(len(results)),
                      failures=str(failures), errors=str(errors))
    root.append(suite)
    ET.indent(root)
    from gamao_cli.formats.textio import xml_safe
    # what XML 1.0 forbids (a control character in a file name) as its escape
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + xml_safe(ET.tostring(root, encoding="unicode")) \
        + "\n"


def stream(fmt: str, results: Iterable[FileCheck], write: Callable[[str], None], *,
           colour: bool = False, quiet: bool = False, strict: bool = False,
           threshold: str = DEFAULT_THRESHOLD, step_summary: str | None = None) -> Tally:
    """Write a report in one of the :data:`STREAMED` formats file by file, as
    ``results`` come, then its closing line; return the :class:`Tally`.
    ``threshold``: the least grave severity text and github show.
    ``step_summary``: with github, the file the whole report is appended to
    as a Markdown table (GitHub's ``$GITHUB_STEP_SUMMARY``)."""
    tally = Tally(strict, threshold if fmt in FILTERED else "info")
    tally.quiet = quiet and fmt == "text"
    github = GitHubAnnotations(threshold, summary=bool(step_summary)) if fmt == "github" else None
    table = StepSummary(lambda d: shown(d, threshold)) if github and step_summary else None
    for r in results:
        tally.add(r)
        if fmt == "text":
            lines = _text_lines(r, colour, quiet, threshold)
        elif fmt == "jsonl":
            lines = _jsonl_lines(r)
        elif github:
            lines = github.lines(r)
            if table:
                table.add(r)
        else:
            raise ValueError(f"{fmt} is not written file by file")
        if lines:
            write("\n".join(lines) + "\n")
    if github:
        lines = github.closing()
        if lines:
            write("\n".join(lines) + "\n")
    if fmt in ("text", "github"):
        write(summary_line(tally) + "\n")
    if table and not table.append_to(step_summary, summary_line(tally)):
        tally.unwritten = True
    return tally


def _collect(fmt: str, results: Iterable[FileCheck], **options) -> str:
    out: list[str] = []
    stream(fmt, results, out.append, **options)
    return "".join(out)


def render(fmt: str, results: list[FileCheck], *, colour: bool = False, quiet: bool = False,
           strict: bool = False, threshold: str = DEFAULT_THRESHOLD) -> str:
    if fmt == "text":
        return text_report(results, colour=colour, quiet=quiet, threshold=threshold)
    if fmt == "json":
        return json_report(results, strict=strict)
    if fmt == "jsonl":
        return jsonl_report(results)
    if fmt == "github":
        return github_report(results, threshold=threshold)
    if fmt == "junit":
        return junit_report(results, strict=strict)
    if fmt == "sarif":
        return sarif_report(results)
    if fmt == "codeclimate":
        return codeclimate_report(results)
    raise ValueError(fmt)


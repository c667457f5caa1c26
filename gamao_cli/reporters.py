"""Output formats of ``gamao validate``: text, json, jsonl, github, junit.

Each reporter takes the list of :class:`~gamao_cli.checking.FileCheck` (in
input order) and returns the text to print.
"""
from __future__ import annotations

import json
from typing import Any, Iterable
from xml.etree import ElementTree as ET

import click

from . import __version__
from .checking import FileCheck
from .diagnostics import Diagnostic

FORMATS = ("text", "json", "jsonl", "github", "junit")
JSON_SCHEMA_VERSION = 1

_COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}


def totals(results: list[FileCheck]) -> dict[str, int]:
    return {
        "files": len(results),
        "unreadable": sum(r.unreadable for r in results),
        "matches": sum(len(r.matches) for r in results),
        "games": sum(r.games for r in results),
        "plays": sum(r.plays for r in results),
        "errors": sum(r.errors for r in results),
        "warnings": sum(r.warnings for r in results),
        "infos": sum(d.severity == "info" for r in results for d in r.diagnostics),
    }


def summary_line(results: list[FileCheck]) -> str:
    t = totals(results)
    line = (f"{t['files']} {'file' if t['files'] == 1 else 'files'}, {t['games']} "
            f"{'game' if t['games'] == 1 else 'games'}: {t['errors']} "
            f"{'error' if t['errors'] == 1 else 'errors'}, {t['warnings']} "
            f"{'warning' if t['warnings'] == 1 else 'warnings'}")
    if t["unreadable"]:
        line += f" ({t['unreadable']} {'file' if t['unreadable'] == 1 else 'files'} not read)"
    return line


def diagnostic_text(d: Diagnostic, colour: bool) -> str:
    if not colour:
        return d.format_text()
    msg = d.message
    if d.legal:
        msg += click.style("; legal: " + ", ".join(d.legal), dim=True)
    return (click.style(d.location(), bold=True) + ": " + click.style(d.code, bold=True) + " "
            + click.style(d.severity, fg=_COLOURS.get(d.severity)) + " " + msg)


def text_report(results: list[FileCheck], *, colour: bool = False, quiet: bool = False) -> str:
    lines = []
    if not quiet:
        for r in results:
            lines.extend(diagnostic_text(d, colour) for d in r.diagnostics)
    lines.append(summary_line(results))
    return "\n".join(lines) + "\n"


def json_report(results: list[FileCheck], *, strict: bool = False) -> str:
    doc = {
        "version": JSON_SCHEMA_VERSION,
        "gamao": __version__,
        "files": [r.to_dict(strict) for r in results],
        "summary": totals(results),
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def jsonl_report(results: Iterable[FileCheck]) -> str:
    out = []
    for r in results:
        for d in r.diagnostics:
            out.append(json.dumps(d.to_dict(), ensure_ascii=False))
    return "".join(line + "\n" for line in out)


def _gh_escape(text: str, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def github_report(results: list[FileCheck]) -> str:
    """GitHub Actions workflow commands: one annotation per diagnostic."""
    kinds = {"error": "error", "warning": "warning", "info": "notice"}
    out = []
    for r in results:
        for d in r.diagnostics:
            props = [f"file={_gh_escape(d.path, True)}"]
            if d.line is not None:
                props.append(f"line={d.line}")
            if d.column is not None:
                props.append(f"col={d.column}")
            props.append(f"title={_gh_escape(d.code + ' ' + d.category, True)}")
            msg = d.message + ("; legal: " + ", ".join(d.legal) if d.legal else "")
            out.append(f"::{kinds[d.severity]} {','.join(props)}::{_gh_escape(msg)}")
    out.append(summary_line(results))
    return "\n".join(out) + "\n"


def junit_report(results: list[FileCheck], *, strict: bool = False) -> str:
    """JUnit XML: one test case per file; errors (and, strict, warnings) fail it."""
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
                               message=f"{len(bad)} {'problem' if len(bad) == 1 else 'problems'}: "
                                       f"{bad[0].message}")
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
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def render(fmt: str, results: list[FileCheck], *, colour: bool = False, quiet: bool = False,
           strict: bool = False) -> str:
    if fmt == "text":
        return text_report(results, colour=colour, quiet=quiet)
    if fmt == "json":
        return json_report(results, strict=strict)
    if fmt == "jsonl":
        return jsonl_report(results)
    if fmt == "github":
        return github_report(results)
    if fmt == "junit":
        return junit_report(results, strict=strict)
    raise ValueError(fmt)


def as_jsonable(obj: Any) -> Any:
    return json.loads(json.dumps(obj))

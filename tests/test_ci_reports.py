"""The reports in CI services' own formats (``gamao validate --format github |
sarif | codeclimate``), GitHub's job summary, and the composite action
(``action.yml``) that runs gamao in a GitHub workflow.

SARIF is validated against the SARIF 2.1.0 schema (``tests/data/sarif``,
from the npm package ``@microsoft/jest-sarif``); the GitHub limits are
actions/toolkit's ``docs/problem-matchers.md`` (10 errors, 10 warnings, 10
notices a step); GitLab's fields are those of its code-quality report
format.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from conftest import CORPUS, EXAMPLES, ROOT
from gamao_cli.cli import main
from gamao_cli.messages import CODES

SARIF_SCHEMA = ROOT / "tests" / "data" / "sarif" / "sarif-2.1.0-rtm.5.json"
CORPUS2 = Path(os.environ.get("GAMAO_CORPUS2", ROOT.parent / "shared" / "corpus2"))
BULK = CORPUS / "bulk"
ILLEGAL = EXAMPLES / "illegal-play.mat"
CLEAN = EXAMPLES / "gnubg-selfplay-5pt.mat"

needs_corpus2 = pytest.mark.skipif(
    not CORPUS2.is_dir(),
    reason=f"the shared corpus2 folder is not at {CORPUS2} (set GAMAO_CORPUS2 to its folder)")
needs_bulk = pytest.mark.skipif(
    not BULK.is_dir(), reason=f"the shared bulk corpus is not at {BULK} (set GAMAO_CORPUS)")

ONLY_A_WARNING = """ 1 point match

 Game 1
 Ann : 0                        Bob : 0
  1) 31: 8/5* 6/5                 61: 13/7 8/7
"""


def run(*args: str, env: dict | None = None):
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


@pytest.fixture(scope="module")
def sarif_validator():
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())


def _assert_valid(validator, doc) -> None:
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message[:300]}" for e in errors[:10])


@pytest.fixture
def many_findings(tmp_path: Path, monkeypatch) -> Path:
    """A folder with 14 errors, 12 warnings and 24 infos (more than GitHub keeps
    of each), the working directory."""
    for i in range(7):
        shutil.copy(ILLEGAL, tmp_path / f"e{i:02}.mat")        # 2 errors each
    for i in range(12):
        (tmp_path / f"w{i:02}.mat").write_text(ONLY_A_WARNING)  # 1 warning, 2 infos each
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- the schema is the one named -------------------------------------------------

def test_the_shipped_schema_is_the_one_its_readme_names():
    readme = (SARIF_SCHEMA.parent / "README.md").read_text(encoding="utf-8")
    digest = hashlib.sha256(SARIF_SCHEMA.read_bytes()).hexdigest()
    assert digest in readme
    assert "MIT" in readme and "@microsoft/jest-sarif" in readme


def test_the_schema_refuses_what_is_not_sarif(sarif_validator):
    """The validation below means something: a level SARIF does not have, a
    line 0 and a result without a message are refused."""
    good = json.loads(run("validate", "--format", "sarif", str(ILLEGAL)).stdout)
    _assert_valid(sarif_validator, good)
    for spoil in (lambda r: r.update(level="info"),
                  lambda r: r["locations"][0]["physicalLocation"]["region"].update(startLine=0),
                  lambda r: r.pop("message")):
        bad = json.loads(json.dumps(good))
        spoil(bad["runs"][0]["results"][0])
        assert not sarif_validator.is_valid(bad)


# -- sarif -----------------------------------------------------------------------

def test_sarif_of_the_examples_is_valid_with_one_rule_per_code(sarif_validator, monkeypatch):
    monkeypatch.chdir(ROOT)
    r = run("validate", "--format", "sarif", str(EXAMPLES))
    assert r.exit_code == 1   # as text says: the examples hold two errors on purpose
    doc = json.loads(r.stdout)
    _assert_valid(sarif_validator, doc)
    assert doc["version"] == "2.1.0"
    [run_] = doc["runs"]
    rules = run_["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == list(CODES)
    for rule in rules:
        info = CODES[rule["id"]]
        assert rule["shortDescription"]["text"] == info.title
        assert info.title in rule["help"]["text"] and info.title in rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] == {"error": "error", "warning": "warning",
                                                         "info": "note"}[info.severity]
    gm202 = next(rule for rule in rules if rule["id"] == "GM202")
    assert "no die shows" in gm202["help"]["text"]   # its message, besides its title
    results = run_["results"]
    assert [(x["ruleId"], x["level"]) for x in results] == [("GM202", "error"), ("GM401", "error")]
    first = results[0]
    assert rules[first["ruleIndex"]]["id"] == "GM202"
    assert first["message"]["text"].startswith("6/3 8/4 with 4-2")
    assert first["locations"] == [{"physicalLocation": {
        "artifactLocation": {"uri": "examples/illegal-play.mat"},
        "region": {"startLine": 9, "startColumn": 38}}}]


def test_sarif_uris_are_relative_to_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / "my matches").mkdir()
    target = tmp_path / "my matches" / "game #1.mat"
    shutil.copy(ILLEGAL, target)
    monkeypatch.chdir(tmp_path)
    for given in (str(target), "my matches/game #1.mat", "./my matches/../my matches"):
        doc = json.loads(run("validate", "--format", "sarif", given).stdout)
        uris = {x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for x in doc["runs"][0]["results"]}
        assert uris == {"my%20matches/game%20%231.mat"}, given


def test_sarif_gives_a_binary_files_place_as_a_byte_offset(tmp_path, monkeypatch,
                                                           sarif_validator):
    monkeypatch.chdir(tmp_path)
    Path("bin.mat").write_bytes(b" 1 point match\n\n Game 1\x00\x01\x02")
    doc = json.loads(run("validate", "--format", "sarif", "bin.mat").stdout)
    _assert_valid(sarif_validator, doc)
    [result] = doc["runs"][0]["results"]
    assert result["ruleId"] == "GM003"
    assert result["locations"][0]["physicalLocation"]["region"] == {"byteOffset": 23}


def test_sarif_leaves_out_a_line_0_and_standard_input(sarif_validator):
    from gamao_cli.cli.ci_reports import sarif_report
    from gamao_cli.replay.check import FileCheck
    from gamao_cli.replay.diagnostics import Diagnostic
    whole_game = Diagnostic("GM207", "too many steps", path="a.xg", line=0, column=0, game=3,
                            move=12)
    piped = Diagnostic("GM202", "a wrong play", path="<stdin>", line=3, column=9)
    doc = json.loads(sarif_report([FileCheck("a.xg", diagnostics=[whole_game]),
                                   FileCheck("<stdin>", diagnostics=[piped])]))
    _assert_valid(sarif_validator, doc)
    first, second = doc["runs"][0]["results"]
    assert first["locations"] == [{"physicalLocation": {"artifactLocation": {"uri": "a.xg"}}}]
    assert first["properties"] == {"game": 3, "move": 12}
    assert second["locations"] == []


@needs_corpus2
def test_sarif_of_corpus2_is_valid(sarif_validator):
    """Every kind of record the second corpus holds (real archives' text, XG's
    binary files, analysed SGF, gnubg's text export), with the findings they
    give: readable or not, each result valid SARIF with a region."""
    r = run("validate", "--format", "sarif", "--show-info", str(CORPUS2))
    doc = json.loads(r.stdout)
    _assert_valid(sarif_validator, doc)
    results = doc["runs"][0]["results"]
    assert results
    json_doc = json.loads(run("validate", "--format", "json", str(CORPUS2)).stdout)
    assert len(results) == sum(len(f["diagnostics"]) for f in json_doc["files"])
    kinds = {tuple(sorted(x["locations"][0]["physicalLocation"].get("region", {})))
             for x in results}
    assert ("startColumn", "startLine") in kinds and ("byteOffset",) in kinds


@pytest.mark.slow
@needs_bulk
def test_sarif_of_the_bulk_corpus_is_valid(sarif_validator):
    doc = json.loads(run("validate", "--format", "sarif", str(BULK)).stdout)
    _assert_valid(sarif_validator, doc)
    assert len(doc["runs"][0]["results"]) > 100   # the bulk corpus's infos
    assert len(doc["runs"][0]["results"]) <= 25_000  # what GitHub takes of a run


# -- codeclimate (GitLab) -------------------------------------------------------------

def test_codeclimate_has_every_field_gitlab_documents(many_findings):
    r = run("validate", "--format", "codeclimate", ".")
    assert r.exit_code == 1
    issues = json.loads(r.stdout)
    assert isinstance(issues, list) and len(issues) == 14 + 12 + 24
    for issue in issues:
        assert isinstance(issue["description"], str) and issue["description"]
        assert re.fullmatch(r"GM\d{3}", issue["check_name"])
        assert issue["description"].startswith(issue["check_name"] + " ")
        assert re.fullmatch(r"[0-9a-f]{64}", issue["fingerprint"])
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert not os.path.isabs(issue["location"]["path"])
        assert Path(issue["location"]["path"]).is_file()
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert issue["location"]["lines"]["begin"] >= 1
    by_code = {(i["check_name"], i["severity"]) for i in issues}
    assert by_code == {("GM202", "major"), ("GM401", "major"), ("GM102", "minor"),
                       ("GM410", "info")}
    first = next(i for i in issues if i["check_name"] == "GM202")
    assert first["location"] == {"path": "e00.mat", "lines": {"begin": 9}}
    assert "no die shows 3" in first["description"]
    assert len({i["fingerprint"] for i in issues}) == len(issues)


def test_codeclimate_fingerprints_are_stable_and_follow_the_place(many_findings):
    once = json.loads(run("validate", "--format", "codeclimate", ".").stdout)
    again = json.loads(run("validate", "--format", "codeclimate", "--jobs", "1", ".").stdout)
    assert [i["fingerprint"] for i in once] == [i["fingerprint"] for i in again]
    # the same finding one line lower is another finding
    text = ILLEGAL.read_text()
    Path("e00.mat").write_text("\n" + text)
    moved = json.loads(run("validate", "--format", "codeclimate", "e00.mat").stdout)
    assert moved[0]["location"]["lines"]["begin"] == 10
    assert moved[0]["fingerprint"] not in {i["fingerprint"] for i in once}


def test_codeclimate_marks_an_unread_file_critical_on_line_1(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("notes.txt").write_text("not a match\n")
    r = run("validate", "--format", "codeclimate", "notes.txt")
    assert r.exit_code == 2
    [issue] = json.loads(r.stdout)
    assert issue["check_name"] == "GM002" and issue["severity"] == "critical"
    assert issue["location"] == {"path": "notes.txt", "lines": {"begin": 1}}


# -- the exit code does not depend on the format --------------------------------------

@pytest.mark.parametrize("files, code", [([ILLEGAL], 1), ([CLEAN], 0),
                                         ([CLEAN, "notes.txt"], 2)])
def test_every_format_exits_with_the_same_code(files, code, tmp_path, monkeypatch):
    from gamao_cli.cli.reporters import FORMATS
    monkeypatch.chdir(tmp_path)
    Path("notes.txt").write_text("not a match\n")
    for fmt in FORMATS:
        extra = ["--html-dir", str(tmp_path / f"html-{len(files)}")] if fmt == "html" else []
        r = run("validate", "--format", fmt, *extra, *map(str, files))
        assert r.exit_code == code, (fmt, r.output)


# -- github: as many annotations as GitHub keeps -----------------------------------------

def _annotations(out: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^::(\w+) ([^:]*)::(.*)$", out, re.M)]


def test_github_writes_the_gravest_first_and_at_most_what_github_keeps(many_findings):
    r = run("validate", "--format", "github", "--show-info", ".")
    assert r.exit_code == 1
    kinds = [kind for kind, _props in _annotations(r.stdout)]
    assert kinds == ["error"] * 10 + ["warning"] * 10 + ["notice"] * 10
    last = r.stdout.splitlines()[-2]
    # 4 errors, 2 warnings, 15 infos (the last notice is gamao's own)
    assert last == ("::notice title=gamao::21 more findings are not annotations (GitHub keeps 10 "
                    "errors, 10 warnings and 10 notices a step): every finding is in this step's "
                    "log")
    log = [line for line in r.stdout.splitlines() if not line.startswith("::")]
    assert len(log) == 21 + 1 and log[-1].startswith("19 files, 26 games: 14 errors, 12 warnings")
    assert sorted(line.split()[1] for line in log[:-1]) == ["GM102"] * 2 + ["GM202"] * 2 + [
        "GM401"] * 2 + ["GM410"] * 15


def test_github_says_nothing_more_when_all_fit(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for i in range(5):
        shutil.copy(ILLEGAL, f"e{i}.mat")      # 10 errors: exactly what GitHub keeps
    r = run("validate", "--format", "github", ".")
    assert [k for k, _ in _annotations(r.stdout)] == ["error"] * 10
    assert "more finding" not in r.stdout


def test_github_step_summary_is_appended_as_a_markdown_table(many_findings):
    summary = many_findings / "summary.md"
    summary.write_text("# an earlier step's summary\n")
    r = run("validate", "--format", "github", ".", env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert r.exit_code == 1
    text = summary.read_text()
    assert text.startswith("# an earlier step's summary\n## gamao validate\n")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "GM" in line]
    assert len(rows) == 14 + 12   # every finding shown (infos are not, as in the log)
    assert rows[0] == ("| e00.mat | 9 | 38 | GM202 | error | 6/3 8/4 with 4-2: 6/3 moves 3 "
                       "pips, but no die shows 3; legal: 8/4 6/4, 13/9 6/4, 14/10 6/4, 24/20 6/4, "
                       "6/2 6/4 |")
    assert "19 files, 26 games: 14 errors, 12 warnings" in text
    assert "every finding is in this step's log and in the job summary" in r.stdout


def test_github_step_summary_in_portuguese_keeps_its_table(many_findings):
    summary = many_findings / "summary.md"
    r = run("--lang", "pt_BR", "validate", "--format", "github", ".",
            env={"GITHUB_STEP_SUMMARY": str(summary)})
    assert r.exit_code == 1
    head = next(line for line in summary.read_text().splitlines() if line.startswith("| "))
    assert head == "| arquivo | linha | coluna | código | gravidade | mensagem |"


def test_a_step_summary_that_cannot_be_written_is_exit_2(many_findings):
    r = run("validate", "--format", "github", ".",
            env={"GITHUB_STEP_SUMMARY": str(many_findings / "no such folder" / "s.md")})
    assert r.exit_code == 2
    assert "cannot write the step summary" in r.stderr


def test_markdown_cells_hold_no_html_and_no_column_break():
    from gamao_cli.cli.ci_reports import markdown_cell
    cell = markdown_cell("Ann | Bob <script>alert(1)</script>\n*x*")
    assert "<" not in cell and "\n" not in cell
    assert re.search(r"(?<!\\)\|", cell) is None


@pytest.mark.slow
@needs_bulk
def test_github_on_the_bulk_corpus_keeps_to_githubs_limits(tmp_path):
    summary = tmp_path / "summary.md"
    r = run("validate", "--format", "github", "--show-info", str(BULK),
            env={"GITHUB_STEP_SUMMARY": str(summary)})
    kinds = [kind for kind, _props in _annotations(r.stdout)]
    for kind in ("error", "warning", "notice"):
        assert kinds.count(kind) <= 10
    assert r.stdout.splitlines()[-2].startswith("::notice title=gamao::")
    assert "more findings are not annotations" in r.stdout.splitlines()[-2]
    assert summary.stat().st_size > 0 and "| GM4" in summary.read_text()


# -- the composite action ---------------------------------------------------------------

ACTION = ROOT / "action.yml"


def _action() -> dict:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))


def _expand(value: str, inputs: dict[str, str], action_path: str) -> str:
    """GitHub's ``${{ inputs.NAME }}`` and ``${{ github.action_path }}`` (the
    only expressions the action uses; any other fails the test)."""
    def one(m: re.Match) -> str:
        expr = m.group(1).strip()
        if expr == "github.action_path":
            return action_path
        name = re.fullmatch(r"inputs\.([\w-]+)", expr)
        assert name, f"an expression the test does not know: {expr}"
        return inputs[name.group(1)]
    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def _run_step(step: dict, inputs: dict[str, str], env: dict[str, str], cwd: Path):
    """Run one ``run:`` step as GitHub does: its ``env:`` with the expressions
    evaluated, its script (never expanded: the action passes inputs through
    the environment) in bash with ``-eo pipefail``."""
    assert step["shell"] == "bash"
    assert "${{" not in step["run"], "inputs reach the script through env:, never pasted in"
    step_env = {k: _expand(str(v), inputs, str(ROOT)) for k, v in step.get("env", {}).items()}
    script = cwd / "step.sh"
    script.write_text(step["run"])
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=cwd, env={**env, **step_env}, capture_output=True, text=True,
                          timeout=600)


def _inputs(**given: str) -> dict[str, str]:
    defaults = {name: str(spec.get("default", "")) for name, spec in _action()["inputs"].items()}
    return {**defaults, **given}


def test_action_is_a_composite_action_with_paths_and_format():
    action = _action()
    assert action["runs"]["using"] == "composite"
    assert {"paths", "format"} <= set(action["inputs"])
    assert action["inputs"]["format"]["default"] == "github"
    for spec in action["inputs"].values():
        assert spec["description"]
    assert "README.md" not in str(action)   # nothing left of a template


def _validate_step() -> dict:
    return next(s for s in _action()["runs"]["steps"] if "gamao validate" in s.get("run", ""))


def test_action_passes_its_inputs_to_gamao(tmp_path):
    """The validate step run as GitHub would, with gamao of this checkout on
    PATH (the install step puts it there): the inputs reach the command, the
    exit code is gamao's."""
    (tmp_path / "my matches").mkdir()
    shutil.copy(ILLEGAL, tmp_path / "my matches" / "bad.mat")
    shutil.copy(CLEAN, tmp_path / "good.mat")
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"],
           "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")}
    step = _validate_step()
    p = _run_step(step, _inputs(paths="my matches\ngood.mat\n"), env, tmp_path)
    assert p.returncode == 1, p.stderr
    assert p.stdout.startswith("::error file=my matches/bad.mat,line=9,col=38,title=GM202")
    assert p.stdout.splitlines()[-1] == "2 files, 5 games: 2 errors, 0 warnings"
    assert "GM202" in (tmp_path / "summary.md").read_text()

    p = _run_step(step, _inputs(paths="good.mat", format="sarif"), env, tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["runs"][0]["results"] == []

    p = _run_step(step, _inputs(paths="my matches", format="codeclimate",
                                output="gl-code-quality-report.json", args="--ignore GM401"),
                  env, tmp_path)
    assert p.returncode == 1, p.stderr
    issues = json.loads((tmp_path / "gl-code-quality-report.json").read_text())
    assert [i["check_name"] for i in issues] == ["GM202"]

    p = _run_step(step, _inputs(paths="good.mat", format="no-such-format"), env, tmp_path)
    assert p.returncode == 2 and "no-such-format" in p.stderr


@pytest.mark.slow
def test_action_installs_gamao_from_its_checkout_and_runs_it(tmp_path):
    """Every step of the action, the install included (pip from the action's
    own folder into a virtual environment under RUNNER_TEMP)."""
    shutil.copy(ILLEGAL, tmp_path / "bad.mat")
    runner_temp = tmp_path / "runner"
    runner_temp.mkdir()
    github_path = tmp_path / "github_path"
    github_path.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(RUNNER_TEMP=str(runner_temp), GITHUB_PATH=str(github_path),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    inputs = _inputs(paths="bad.mat")
    for step in _action()["runs"]["steps"]:
        p = _run_step(step, inputs, env, tmp_path)
        if "gamao validate" in step["run"]:
            assert p.returncode == 1, p.stderr
            assert p.stdout.startswith("::error file=bad.mat,line=9,col=38,title=GM202")
        else:
            assert p.returncode == 0, p.stderr[-3000:]
            # what a step adds to GITHUB_PATH is on PATH for the next ones
            added = [line for line in github_path.read_text().splitlines() if line]
            env["PATH"] = os.pathsep.join(added + [env["PATH"]])
    gamao = shutil.which("gamao", path=env["PATH"])
    assert gamao and gamao.startswith(str(runner_temp))


def test_sarif_and_codeclimate_keep_their_structure_in_every_language(monkeypatch):
    """Only the results' messages follow --lang; the rules' help is English
    (the words of the code table), the rest is the same."""
    monkeypatch.chdir(ROOT)

    def strip(doc):
        if isinstance(doc, dict):
            return {k: "<text>" if k in ("text", "description") else strip(v)
                    for k, v in doc.items()}
        if isinstance(doc, list):
            return [strip(v) for v in doc]
        return doc

    for fmt in ("sarif", "codeclimate"):
        en = json.loads(run("validate", "--format", fmt, str(EXAMPLES)).stdout)
        pt = json.loads(run("--lang", "pt_BR", "validate", "--format", fmt, str(EXAMPLES)).stdout)
        assert en != pt                      # the messages are translated
        assert strip(en) == strip(pt)
        if fmt == "sarif":
            assert en["runs"][0]["tool"] == pt["runs"][0]["tool"]   # rules in English

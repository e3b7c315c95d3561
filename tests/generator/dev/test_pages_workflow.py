"""The GitHub Pages workflow builds with the README's command and deploys
build/ with the official actions, with publish rights only where needed."""
import re

from tests.conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def job(text: str, name: str) -> str:
    match = re.search(rf"^  {name}:\n(.*?)(?=^  \S|\Z)", text, re.M | re.S)
    assert match, f"no {name} job"
    return match.group(1)


def test_workflow_builds_with_make_and_deploys_build_folder():
    text = WORKFLOW.read_text("utf-8")
    build, deploy = job(text, "build"), job(text, "deploy")
    assert re.search(r"^\s+run: make build$", build, re.M)
    assert re.search(r"uses: actions/upload-pages-artifact@v\d+\n\s+with:\n\s+path: build/?\n", build)
    assert "needs: build" in deploy and "uses: actions/deploy-pages@v" in deploy
    assert "name: github-pages" in deploy


def test_only_the_deploy_job_may_publish():
    text = WORKFLOW.read_text("utf-8")
    top = text.split("\njobs:")[0]
    assert re.search(r"^permissions:\n  contents: read\n", top, re.M)
    assert "pages: write" not in top and "id-token: write" not in top
    deploy = job(text, "deploy")
    assert re.search(r"pages: write", deploy) and re.search(r"id-token: write", deploy)
    assert re.search(r"^concurrency:\n  group: pages\n  cancel-in-progress: false$", text, re.M)

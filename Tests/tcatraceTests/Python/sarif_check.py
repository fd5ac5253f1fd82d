"""Reads a SARIF log as GitHub code scanning's tools do, and prints what it found, as JSON.

sarif_pydantic checks the log against SARIF 2.1.0's object model (required properties, types,
levels); sarif-tools, Microsoft's SARIF reader, loads it and counts its results by level.

    python3 sarif_check.py LOG.sarif
"""
import json
import sys
from urllib.parse import unquote

from sarif import loader
import sarif_pydantic

path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    document = json.load(f)

log = sarif_pydantic.Sarif.model_validate(document)
assert log.version == "2.1.0", log.version
run = log.runs[0]
rules = run.tool.driver.rules or []
results = []
files = set()
for result in run.results or []:
    location = result.locations[0].physical_location
    assert location.artifact_location.uri_base_id == "%SRCROOT%"
    assert result.rule_id == rules[result.rule_index].id, (result.rule_id, result.rule_index)
    files.add(unquote(location.artifact_location.uri))
    results.append([result.rule_id, result.level.value, location.region.start_line])

sarif_file = loader.load_sarif_file(path)
report = sarif_file.get_report()
records = [[r["Code"], r["Severity"], r["Line"]] for r in sarif_file.get_records()]
assert records == results, (records, results)
print(
    json.dumps(
        {
            "errors": report.get_issue_count_for_severity("error"),
            "files": sorted(files),
            "results": results,
            "rules": len(rules),
            "warnings": report.get_issue_count_for_severity("warning"),
        },
        sort_keys=True,
    )
)

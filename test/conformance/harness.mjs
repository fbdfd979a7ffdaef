// Logic shared by run-server.sh and run-client.sh, kept out of the shell scripts so the baseline
// format, the requirement set and the verdict are handled in one place.
//
//   node harness.mjs check-baseline <expected-failures.txt> <revision>
//       Fails if the baseline is malformed or names a scenario the revision does not score.
//   node harness.mjs scenarios <server|client> <revision>
//       Prints every scenario the revision runs for that leg, scored ones first.
//   node harness.mjs verdict <server|client> <results-dir> <expected-failures.txt> <revision>
//       Prints one line per scenario and a closing tally, and exits 1 when a
//       scored scenario fails without being listed, a listed one passes, or a result is missing.
//
// The verdict follows the conformance CLI's own baseline rules: a check with status FAILURE or
// WARNING makes a scenario fail; `<scenario>` excuses the whole scenario; `<scenario>:<check-id>`
// excuses only that check (its most severe occurrence) and goes stale once that check succeeds.

import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));
const LEGS = ["server", "client"];
const DEFAULT_REVISION = "2025-11-25";
const SEVERITY = { FAILURE: 3, WARNING: 2, SUCCESS: 1 };
const isFailing = (check) => check.status === "FAILURE" || check.status === "WARNING";

function loadRequirements(revision) {
  const path = join(here, "node_modules/@modelcontextprotocol/conformance/requirements", `${revision}.yaml`);
  const doc = parseYaml(readFileSync(path, "utf8"));
  const notScored = (leg) => (doc.not_scored ?? []).filter((e) => e.leg === leg).map((e) => e.scenario);
  return {
    scored: (leg) => doc[leg] ?? [],
    all: (leg) => [...(doc[leg] ?? []), ...notScored(leg)],
  };
}

/** Reads `<leg> <scenario>[:<check-id>]` lines; `#` starts a comment. */
function readBaseline(path, revision) {
  const requirements = loadRequirements(revision);
  const baseline = { server: [], client: [] };
  readFileSync(path, "utf8")
    .split("\n")
    .forEach((raw, index) => {
      const line = raw.replace(/#.*/, "").trim();
      if (line === "") return;
      const where = `${path}:${index + 1}`;
      const [leg, entry, extra] = line.split(/\s+/);
      if (!LEGS.includes(leg) || entry === undefined || extra !== undefined) {
        throw new Error(`${where}: expected "<server|client> <scenario>[:<check-id>]", got "${raw}"`);
      }
      // Scenario names contain slashes but never colons, so the first colon splits off a check id.
      const colon = entry.indexOf(":");
      const scenario = colon === -1 ? entry : entry.slice(0, colon);
      const checkId = colon === -1 ? undefined : entry.slice(colon + 1);
      if (scenario === "" || checkId === "") throw new Error(`${where}: empty scenario or check id`);
      // An entry for a scenario that is not scored would otherwise be silently ignored.
      if (!requirements.scored(leg).includes(scenario)) {
        throw new Error(`${where}: "${scenario}" is not a scored ${leg} scenario of ${revision}`);
      }
      baseline[leg].push({ scenario, checkId });
    });
  return baseline;
}

/** Finds every checks.json under dir, keyed by the scenario name its folder encodes. */
function collectResults(dir, leg) {
  const results = new Map();
  const walk = (current) => {
    for (const name of readdirSync(current)) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) {
        walk(path);
      } else if (name === "checks.json") {
        // Folders are "<scenario>-<ISO time with : and . as ->", and the server leg prefixes
        // "server-"; authorization scenario names contain a slash, so those nest one level.
        let scenario = relative(dir, current).replace(/-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/, "");
        if (leg === "server") scenario = scenario.replace(/^server-/, "");
        results.set(scenario, JSON.parse(readFileSync(path, "utf8")));
      }
    }
  };
  walk(dir);
  return results;
}

/** Keeps the most severe occurrence of each non-INFO check id (ties: the last one). */
function collapse(checks) {
  const winner = new Map();
  checks.forEach((check, index) => {
    if (check.status === "INFO") return;
    const current = winner.get(check.id);
    if (current === undefined || (SEVERITY[check.status] ?? 0) >= (SEVERITY[checks[current].status] ?? 0)) {
      winner.set(check.id, index);
    }
  });
  return checks.filter((check, index) => check.status !== "INFO" && winner.get(check.id) === index);
}

function describe(check) {
  const why = (check.errorMessage ?? check.description ?? "").replace(/\s+/g, " ");
  return `      ${check.status} ${check.id}: ${why.slice(0, 240)}`;
}

/** Judges one scored scenario against its baseline entries, the way the CLI does. */
function judge(checks, entries) {
  const wholesale = entries.some((e) => e.checkId === undefined);
  const listedChecks = new Set(entries.filter((e) => e.checkId !== undefined).map((e) => e.checkId));
  const collapsed = collapse(checks);
  const failing = collapsed.filter(isFailing);
  if (wholesale) {
    return failing.length > 0 ? { verdict: "expected", shown: [] } : { verdict: "stale", shown: [] };
  }
  const unexpected = failing.filter((c) => !listedChecks.has(c.id));
  const stale = [...listedChecks].filter((id) => collapsed.find((c) => c.id === id)?.status === "SUCCESS");
  if (unexpected.length > 0) return { verdict: "unexpected", shown: unexpected };
  if (stale.length > 0) return { verdict: "stale", shown: [], stale };
  return { verdict: failing.length > 0 ? "expected" : "passed", shown: [] };
}

function verdict(leg, resultsDir, txtPath, revision) {
  const requirements = loadRequirements(revision);
  const baseline = readBaseline(txtPath, revision)[leg];
  const results = collectResults(resultsDir, leg);
  const tally = { passed: 0, failed: 0, expected: 0, unexpected: 0, stale: 0, missing: 0 };

  console.log(`\nScored ${leg} scenarios for ${revision}:`);
  for (const scenario of requirements.scored(leg)) {
    const checks = results.get(scenario);
    if (checks === undefined) {
      tally.failed++;
      tally.missing++;
      console.log(`  ✗ ${scenario}  (no result was written)`);
      continue;
    }
    const count = (status) => checks.filter((c) => c.status === status).length;
    const counts = `${count("SUCCESS")} ok, ${count("FAILURE")} failed, ${count("WARNING")} warnings`;
    const result = judge(
      checks,
      baseline.filter((e) => e.scenario === scenario),
    );
    const passing = !checks.some(isFailing);
    if (passing) tally.passed++;
    else tally.failed++;
    if (result.verdict === "expected") tally.expected++;
    if (result.verdict === "unexpected") tally.unexpected++;
    if (result.verdict === "stale") tally.stale++;
    const note = {
      passed: "",
      expected: "  [expected]",
      unexpected: "",
      stale: `  [listed in the baseline but passes${result.stale ? `: ${result.stale.join(", ")}` : ""}; remove it]`,
    }[result.verdict];
    console.log(`  ${passing ? "✓" : "✗"} ${scenario}  (${counts})${note}`);
    for (const check of result.shown) console.log(describe(check));
  }

  const unscored = requirements.all(leg).filter((s) => !requirements.scored(leg).includes(s));
  if (unscored.length > 0) {
    console.log("Run but not scored:");
    for (const scenario of unscored) {
      const checks = results.get(scenario);
      const mark = checks === undefined ? "?" : checks.some(isFailing) ? "✗" : "✓";
      console.log(`  ${mark} ${scenario}`);
    }
  }
  console.log(
    `\n${tally.expected} expected failure(s), ${tally.unexpected} unexpected, ` +
      `${tally.stale} stale baseline entr${tally.stale === 1 ? "y" : "ies"}, ${tally.missing} without a result.`,
  );
  // Worded so that it cannot be mistaken for a test runner's closing "N passed, N failed" line:
  // expected failures are not failures of the run. The tally file feeds the CI summary.
  const scored = tally.passed + tally.failed;
  console.log(
    `conformance-${leg}: ${tally.passed} of ${scored} scored scenarios pass (${tally.expected} listed as expected failures)`,
  );
  writeFileSync(
    // The default revision keeps the plain name; each further revision's leg gets its own file.
    join(resultsDir, "..", revision === DEFAULT_REVISION ? `tally-${leg}.json` : `tally-${leg}-${revision}.json`),
    JSON.stringify({
      passed: tally.passed,
      unexpected: tally.unexpected + tally.stale + tally.missing,
      expected: tally.expected,
    }),
  );
  return tally.unexpected + tally.stale + tally.missing === 0 ? 0 : 1;
}

const [command, ...args] = process.argv.slice(2);
try {
  if (command === "check-baseline" && args.length === 2) {
    readBaseline(args[0], args[1]);
  } else if (command === "scenarios" && args.length === 2 && LEGS.includes(args[0])) {
    for (const scenario of loadRequirements(args[1]).all(args[0])) console.log(scenario);
  } else if (command === "verdict" && args.length === 4 && LEGS.includes(args[0])) {
    process.exitCode = verdict(args[0], args[1], args[2], args[3]);
  } else {
    console.error(
      "usage: harness.mjs check-baseline <txt> <revision> | scenarios <leg> <revision>" +
        " | verdict <leg> <results-dir> <txt> <revision>",
    );
    process.exitCode = 2;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 2;
}

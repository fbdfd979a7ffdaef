// Prints CI's closing tally, "N passed, N failed, N skipped", from the test runner's JSON report
// and the conformance legs' tallies. Scenarios listed as expected failures count as skipped.
import { existsSync, readFileSync } from "node:fs";

const [vitestReport, ...tallies] = process.argv.slice(2);
const report = JSON.parse(readFileSync(vitestReport, "utf8"));
let passed = report.numPassedTests;
let failed = report.numFailedTests;
let skipped = report.numPendingTests + report.numTodoTests;
for (const file of tallies) {
  if (!existsSync(file)) continue;
  const tally = JSON.parse(readFileSync(file, "utf8"));
  passed += tally.passed;
  failed += tally.unexpected;
  skipped += tally.expected;
}
console.log(`ci: ${passed} passed, ${failed} failed, ${skipped} skipped`);

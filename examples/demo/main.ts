/**
 * `npm run demo`: a hand-off from start to end on this machine, with real parts (see full/story.ts):
 * two OAuth servers, an MCP server whose tool needs the user's grant at a third party, a client
 * that signs alice in, consent, the grant stored on the server, and the retried call. The browser
 * steps run in headless Chromium where it is installed, else in a scripted HTTP user agent (said in a note).
 *
 * `npm run demo -- --simple` runs the smaller story instead (see simple.ts): a forecast tool whose
 * API key the user types on the server's own page, announced by a URL-mode elicitation.
 * `--interactive` (simple story only) asks you for consent and leaves the page to you.
 * `--revision 2025-11-25` pins the client to that revision (the stateful era: `initialize`, a
 * session, error -32042); by default the client probes and both stories run on 2026-07-28.
 */
import "./quiet-dev-servers.js";
import { parseArgs } from "node:util";
import { runSimpleDemo } from "./simple.js";

const { values } = parseArgs({
  options: {
    interactive: { type: "boolean", default: false },
    simple: { type: "boolean", default: false },
    full: { type: "boolean", default: false },
    revision: { type: "string" },
  },
});
const say = (line: string) => console.log(line);

const interactive = values.interactive === true;
const revision = values.revision;
if (interactive && values.full === true) {
  console.error("--interactive is not supported with --full: the full demo's browser steps are automated.");
  process.exitCode = 2;
} else if (interactive && !process.stdin.isTTY) {
  // The consent question needs someone at a terminal to answer it; waiting would wait for ever.
  console.error("--interactive asks you at the terminal, but stdin is not a terminal; run it from one.");
  process.exitCode = 2;
} else if (values.simple === true || interactive) {
  await runSimpleDemo(interactive, say, revision);
} else {
  try {
    const { runFullDemo } = await import("./full/story.js");
    const result = await runFullDemo(say, revision === undefined ? {} : { revision });
    if (result.isError) process.exitCode = 1;
    else say("done     alice's items came back; the third-party token stayed on the server.");
  } catch (error) {
    console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

/**
 * `npm run demo`: a hand-off from start to end on this machine.
 *
 * 1. A forecast MCP server starts on 127.0.0.1; its tool needs an API key the client must never see.
 * 2. Our client calls the tool; the server answers with a URL-mode elicitation to its own page.
 * 3. The client shows the consent step (server, full URL, host) and, after consent, opens the page.
 * 4. The user types the key on that page (scripted here; `--interactive` leaves it to you).
 * 5. The server stores the key, sends `notifications/elicitation/complete`, and the call returns.
 *
 * `npm run demo -- --full` runs the whole story with real OAuth servers instead: see full/story.ts.
 */
import { parseArgs } from "node:util";
import { runSimpleDemo } from "./simple.js";

const { values } = parseArgs({
  options: { interactive: { type: "boolean", default: false }, full: { type: "boolean", default: false } },
});
const say = (line: string) => console.log(line);

if (values.full !== true) {
  await runSimpleDemo(values.interactive === true, say);
} else if (values.interactive === true) {
  console.error("--interactive is not supported with --full: the full demo's browser is scripted.");
  process.exitCode = 2;
} else {
  try {
    const { runFullDemo } = await import("./full/story.js");
    const result = await runFullDemo(say);
    if (result.isError) process.exitCode = 1;
    else say("done     alice's items came back; the third-party token stayed on the server.");
  } catch (error) {
    console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}

/**
 * `npm run demo`: a hand-off from start to end on this machine, with real parts (see full/story.ts):
 * two OAuth servers, an MCP server whose tool needs the user's grant at a third party, a client
 * that signs alice in, consent, the grant stored on the server, and the retried call. The browser
 * steps run in headless Chromium where it is installed, else in a scripted HTTP user agent (said in a note).
 *
 * `npm run demo -- --simple` runs the smaller story instead (see simple.ts): a forecast tool whose
 * API key the user types on the server's own page, announced by a URL-mode elicitation.
 * `npm run demo -- --fleet` runs the full story on three instances behind HAProxy (round robin,
 * no stickiness), sharing Redis and PostgreSQL (see ../fleet/demo.ts), killing one midway.
 * `npm run demo -- --help` prints the usage. A bad flag or value is one line on stderr and exit
 * code 2; a step that fails is one line on stderr and exit code 1, every server closed.
 */
import "./quiet-dev-servers.js";
import { parseArgs } from "node:util";
import { runSimpleDemo } from "./simple.js";

/** The revisions whose wire forms the stories narrate. */
const REVISIONS = ["2026-07-28", "2025-11-25"];
const BROWSERS = ["auto", "chromium", "scripted"] as const;

const USAGE = `Usage: npm run demo -- [options]

A hand-off from start to end on this machine: the client calls a tool, the server sends the user
to its own page, the user connects there, and the retried call returns.

Options:
  --full                 the full story (default): sign-in, a third-party OAuth grant, the vault
  --simple               the smaller story: an API key typed on the server's own page
  --fleet                the full story on three instances behind HAProxy (round robin, no
                         stickiness; Redis, PostgreSQL), one of them killed midway;
                         MCP_HANDOFF_REDIS_URL, MCP_HANDOFF_DATABASE_URL say where (default redis://127.0.0.1:6379, postgres://postgres@127.0.0.1:5432/postgres)
  --interactive          (simple story) ask for consent at the terminal and leave the page to you
  --revision <version>   pin the client to ${REVISIONS.join(" or ")}; default: the client probes
  --browser <choice>     (full story) auto (default: headless Chromium if installed), chromium, scripted
  -h, --help             print this and exit

Exit codes: 0 done, 1 a step failed, 2 bad usage.`;

/** Thrown for bad usage: printed as one line, exit code 2. */
class UsageError extends Error {}

function options() {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    // parseArgs says e.g. "Unknown option '--bogus'. To specify a positional argument, ..."; its first sentence is the point.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(`${message.split(". ")[0]?.replace(/\.$/, "")}.`);
  }
  const { values } = parsed;
  if (values.revision !== undefined && !REVISIONS.includes(values.revision)) {
    throw new UsageError(`--revision ${values.revision} is not supported; use one of ${REVISIONS.join(", ")}.`);
  }
  const browser = values.browser ?? "auto";
  if (!(BROWSERS as readonly string[]).includes(browser)) {
    throw new UsageError(`--browser ${browser} is not supported; use one of ${BROWSERS.join(", ")}.`);
  }
  if (values.interactive && values.full) {
    throw new UsageError("--interactive is not supported with --full: the full demo's browser steps are automated.");
  }
  if (values.simple && values.full) throw new UsageError("--simple and --full are two stories; choose one.");
  if (values.fleet && (values.simple || values.interactive || values.browser !== undefined)) {
    throw new UsageError("--fleet runs the full story in the scripted browser; it takes only --revision.");
  }
  if ((values.simple || values.interactive) && values.browser !== undefined) {
    throw new UsageError("--browser applies to the full story only; the simple story's browser is scripted or you.");
  }
  if (values.interactive && !process.stdin.isTTY) {
    // The consent question needs someone at a terminal to answer it; waiting would wait for ever.
    throw new UsageError("--interactive asks you at the terminal, but stdin is not a terminal; run it from one.");
  }
  return { ...values, browser: browser as (typeof BROWSERS)[number] };
}

function parse() {
  return parseArgs({
    strict: true,
    allowPositionals: false,
    options: {
      interactive: { type: "boolean", default: false },
      simple: { type: "boolean", default: false },
      full: { type: "boolean", default: false },
      fleet: { type: "boolean", default: false },
      revision: { type: "string" },
      browser: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
}

const say = (line: string) => console.log(line);

try {
  const values = options();
  if (values.help) say(USAGE);
  else if (values.fleet) {
    const { runFleetDemo } = await import("../fleet/demo.js");
    const result = await runFleetDemo(say, {
      redisUrl: process.env.MCP_HANDOFF_REDIS_URL || "redis://127.0.0.1:6379",
      databaseUrl: process.env.MCP_HANDOFF_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres",
      ...(values.revision === undefined ? {} : { revision: values.revision }),
    });
    if (result.isError) process.exitCode = 1;
    else {
      const served = [...result.client.served, ...result.browser.steps].map((s) => s.servedBy);
      const names = [...new Set(served)].filter((name) => name !== "?").sort();
      say(
        `done     alice's items came back; instances ${names.join(", ")} served the steps, ${result.killed} was killed midway.`,
      );
    }
  } else if (values.simple || values.interactive) {
    if (!(await runSimpleDemo(values.interactive, say, values.revision))) process.exitCode = 1;
  } else {
    const { runFullDemo } = await import("./full/story.js");
    const result = await runFullDemo(say, {
      browser: values.browser,
      ...(values.revision === undefined ? {} : { revision: values.revision }),
    });
    if (result.isError) process.exitCode = 1;
    else say("done     alice's items came back; the third-party token stayed on the server until she disconnected it.");
  }
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UsageError) {
    console.error(`${message} See npm run demo -- --help.`);
    process.exitCode = 2;
  } else {
    console.error(`demo failed: ${message.split("\n")[0]}`);
    process.exitCode = 1;
  }
}

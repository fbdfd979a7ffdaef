/**
 * The everything client, as the conformance suite runs it:
 *
 *   MCP_CONFORMANCE_SCENARIO=tools_call node --import tsx examples/everything/client.ts http://localhost:3000/mcp
 *
 * The server URL is the last argument; the scenario comes from `MCP_CONFORMANCE_SCENARIO`. An
 * unknown or missing scenario connects, lists the tools and exits; an authorization scenario
 * (`auth/...`) does the same behind OAuth (client-auth.ts). Exit status 0 on success.
 */
import { authorizedScenario } from "./client-auth.js";
import { connectAndList, scenarios } from "./client-scenarios.js";

const name = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const target = process.argv.at(-1);

if (target === undefined || !URL.canParse(target)) {
  process.stderr.write("usage: client.ts <server URL>   (scenario in MCP_CONFORMANCE_SCENARIO)\n");
  process.exit(2);
}

const scenario = Object.hasOwn(scenarios, name)
  ? scenarios[name]
  : name.startsWith("auth/")
    ? authorizedScenario
    : undefined;
try {
  await (scenario ?? connectAndList)(new URL(target));
  process.exit(0);
} catch (error) {
  process.stderr.write(
    `scenario ${name || "(none)"} failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}

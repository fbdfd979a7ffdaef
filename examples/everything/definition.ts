/**
 * The everything server's definition: every tool, resource and prompt the official conformance
 * suite asks for (test/conformance/REQUIREMENTS.md), on one `McpServer` that serves any number
 * of connections.
 */
import { McpServer, stderrLogger } from "../../src/server/index.js";
import { registerInputRounds } from "./input-rounds.js";
import { registerPrompts } from "./prompts.js";
import { registerResources } from "./resources.js";
import { registerTools } from "./tools.js";

export function createEverythingServer(): McpServer {
  const server = new McpServer(
    { name: "mcp-handoff-everything", version: "1.0.0", title: "Everything (mcp-handoff example)" },
    {
      instructions: "A test server: every tool, resource and prompt exists to exercise one protocol feature.",
      // Over HTTP as over stdio: the conformance harness reads the server's stderr.
      logger: stderrLogger(),
    },
  );
  registerTools(server);
  registerResources(server);
  registerPrompts(server);
  registerInputRounds(server);
  return server;
}

/**
 * Tools and a prompt for revision 2026-07-28 (multi round-trip requests, per-request
 * capabilities and log level, subscriptions). Each asks through the ordinary handler context;
 * `inputKey` names the ask the way the conformance suite expects. Over 2025-11-25 the same
 * handlers send ordinary server requests.
 */
import type { McpServer, RequestContext } from "../../src/server/index.js";

const NO_ARGUMENTS = { type: "object", properties: {} };
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

const askName = (ctx: RequestContext, inputKey: string, message = "What is your name?") =>
  ctx.elicit(
    {
      message,
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    },
    { inputKey },
  );

/**
 * A field of the user's answer, or `otherwise` when the user declined or cancelled: only an
 * accepted form carries data the user chose to submit.
 */
const answered = (answer: { action: string; content?: Record<string, unknown> }, field: string, otherwise: string) =>
  answer.action === "accept" && answer.content?.[field] !== undefined ? String(answer.content[field]) : otherwise;

const sampleText = (result: { content: unknown }) => {
  const content = Array.isArray(result.content) ? result.content[0] : result.content;
  return typeof content === "object" && content !== null && "text" in content ? String(content.text) : "";
};

export function registerInputRounds(server: McpServer): void {
  server.registerTool(
    "test_input_required_result_elicitation",
    { description: "Asks the user's name, then greets them", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const answer = await askName(ctx, "user_name");
      return text(`Hello, ${answered(answer, "name", "stranger")}!`);
    },
  );

  server.registerTool(
    "test_input_required_result_sampling",
    { description: "Asks the client's model a question", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const answer = await ctx.sample(
        {
          messages: [{ role: "user", content: { type: "text", text: "What is the capital of France?" } }],
          maxTokens: 100,
        },
        { inputKey: "capital_question" },
      );
      return text(`The model said: ${sampleText(answer)}`);
    },
  );

  server.registerTool(
    "test_input_required_result_list_roots",
    { description: "Lists the client's roots", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const { roots } = await ctx.listRoots({ inputKey: "client_roots" });
      return text(`Roots: ${roots.map((root) => root.uri).join(", ")}`);
    },
  );

  server.registerTool(
    "test_input_required_result_request_state",
    { description: "Asks for a confirmation carried across a retry", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      await ctx.elicit(
        {
          message: "Please confirm",
          requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
        },
        { inputKey: "confirm" },
      );
      // The retry only reaches here once the signed requestState checked out.
      return text("state-ok: confirmed");
    },
  );

  server.registerTool(
    "test_input_required_result_multiple_inputs",
    { description: "Asks for a name, a greeting and the roots at once", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const [name, greeting, roots] = await Promise.all([
        askName(ctx, "user_name"),
        ctx.sample(
          {
            messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
            maxTokens: 50,
          },
          { inputKey: "greeting" },
        ),
        ctx.listRoots({ inputKey: "client_roots" }),
      ]);
      return text(`${sampleText(greeting)} ${answered(name, "name", "stranger")} (${roots.roots.length} roots)`.trim());
    },
  );

  server.registerTool(
    "test_input_required_result_multi_round",
    { description: "Asks two questions, one per round", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const name = await askName(ctx, "step1", "Step 1: What is your name?");
      const color = await ctx.elicit(
        {
          message: "Step 2: What is your favorite color?",
          requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
        },
        { inputKey: "step2" },
      );
      return text(`${answered(name, "name", "Someone")} likes ${answered(color, "color", "no colour in particular")}`);
    },
  );

  server.registerTool(
    "test_input_required_result_tampered_state",
    { description: "Asks for a name; a tampered requestState is refused", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => text(`Hello, ${answered(await askName(ctx, "user_name"), "name", "stranger")}!`),
  );

  server.registerTool(
    "test_input_required_result_capabilities",
    { description: "Asks only for what the request's client declared", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const caps = ctx.clientCapabilities;
      const asks: Promise<unknown>[] = [];
      if (caps.elicitation !== undefined) asks.push(askName(ctx, "user_name"));
      if (caps.sampling !== undefined) {
        asks.push(
          ctx.sample(
            { messages: [{ role: "user", content: { type: "text", text: "Say hi" } }], maxTokens: 20 },
            { inputKey: "sampling" },
          ),
        );
      }
      if (caps.roots !== undefined) asks.push(ctx.listRoots({ inputKey: "client_roots" }));
      await Promise.all(asks);
      return text(`Asked for ${asks.length} input(s)`);
    },
  );

  server.registerTool(
    "test_missing_capability",
    { description: "Needs sampling, which the client must declare", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
        maxTokens: 20,
      });
      return text(sampleText(answer));
    },
  );

  server.registerTool(
    "test_streaming_elicitation",
    { description: "Asks the user through the result, never by a request on the stream", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => text(`Hello, ${answered(await askName(ctx, "user_name"), "name", "stranger")}!`),
  );

  server.registerTool(
    "test_logging_tool",
    { description: "Logs at every level; only what the request's logLevel allows is sent", inputSchema: NO_ARGUMENTS },
    async (_args, ctx) => {
      await ctx.log("info", "Tool execution started");
      await ctx.log("error", "Tool reports an error-level message");
      return text("Logged");
    },
  );

  let changes = 0;
  server.registerTool(
    "test_trigger_tool_change",
    { description: "Adds a tool, so list_changed is sent", inputSchema: NO_ARGUMENTS },
    () => {
      changes += 1;
      server.registerTool(
        `test_added_tool_${changes}`,
        { description: "Added by test_trigger_tool_change", inputSchema: NO_ARGUMENTS },
        () => text("added"),
      );
      return text("tool list changed");
    },
  );

  server.registerTool(
    "test_trigger_prompt_change",
    { description: "Adds a prompt, so list_changed is sent", inputSchema: NO_ARGUMENTS },
    () => {
      changes += 1;
      server.registerPrompt(
        `test_added_prompt_${changes}`,
        { description: "Added by test_trigger_prompt_change" },
        () => ({
          messages: [{ role: "user", content: { type: "text", text: "added" } }],
        }),
      );
      return text("prompt list changed");
    },
  );

  server.registerTool(
    "test_header_param",
    {
      description: "Its region also travels in the Mcp-Param-Region header, which must agree with the body",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" } },
        required: ["region"],
      },
    },
    (args) => text(`Region ${String(args.region)}`),
  );

  server.registerPrompt(
    "test_input_required_result_prompt",
    { description: "A prompt that asks the user for context first" },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: "What context should the prompt use?",
          requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
        },
        { inputKey: "user_context" },
      );
      return {
        messages: [
          { role: "user", content: { type: "text", text: `Context: ${answered(answer, "context", "none given")}` } },
        ],
      };
    },
  );
}

/** `handoff tools <target>`: every tool the server offers. */
import { ExitCode } from "../exit-codes.js";
import { renderJson, renderTools } from "../output.js";
import { type Command, withHandoffs } from "./context.js";

export const toolsCommand: Command = () => async (ctx) => {
  const tools = await withHandoffs(ctx, () => ctx.client.listAllTools(undefined, ctx.requestOptions));
  ctx.io.stdout(ctx.options.json ? renderJson({ tools }) : renderTools(tools));
  return ExitCode.Success;
};

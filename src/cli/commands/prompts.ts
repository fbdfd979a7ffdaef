/** `handoff prompts <target>`: every prompt the server offers. */
import { ExitCode } from "../exit-codes.js";
import { renderJson, renderPrompts } from "../output.js";
import { type Command, withHandoffs } from "./context.js";

export const promptsCommand: Command = () => async (ctx) => {
  const prompts = await withHandoffs(ctx, () => ctx.client.listAllPrompts(undefined, ctx.requestOptions));
  ctx.io.stdout(ctx.options.json ? renderJson({ prompts }) : renderPrompts(prompts));
  return ExitCode.Success;
};

/** `handoff read <target> <uri>`: the contents of one resource. */
import { ExitCode } from "../exit-codes.js";
import { renderJson, renderReadResult } from "../output.js";
import { type Command, withHandoffs } from "./context.js";

export const readCommand: Command =
  ([uri = ""]) =>
  async (ctx) => {
    const result = await withHandoffs(ctx, () => ctx.client.readResource({ uri }, ctx.requestOptions));
    ctx.io.stdout(ctx.options.json ? renderJson(result) : renderReadResult(result));
    return ExitCode.Success;
  };

/** `handoff resources <target>`: every resource and resource template the server offers. */
import type { ResourceTemplate } from "../../client/types.js";
import { ErrorCode, ProtocolError } from "../../jsonrpc/errors.js";
import { ExitCode } from "../exit-codes.js";
import { renderJson, renderResources } from "../output.js";
import { type Command, type CommandContext, withHandoffs } from "./context.js";

export const resourcesCommand: Command = () => async (ctx) => {
  const resources = await withHandoffs(ctx, () => ctx.client.listAllResources(undefined, ctx.requestOptions));
  const resourceTemplates = await listTemplates(ctx);
  ctx.io.stdout(
    ctx.options.json ? renderJson({ resources, resourceTemplates }) : renderResources(resources, resourceTemplates),
  );
  return ExitCode.Success;
};

/** Templates are optional for a server with resources: one that lacks the method simply has none. */
async function listTemplates(ctx: CommandContext): Promise<ResourceTemplate[]> {
  try {
    return await withHandoffs(ctx, () => ctx.client.listAllResourceTemplates(undefined, ctx.requestOptions));
  } catch (error) {
    if (error instanceof ProtocolError && error.code === ErrorCode.MethodNotFound) return [];
    throw error;
  }
}

/** The command table. */
import type { CommandName } from "../args.js";
import { callCommand } from "./call.js";
import type { Command } from "./context.js";
import { promptsCommand } from "./prompts.js";
import { readCommand } from "./read.js";
import { resourcesCommand } from "./resources.js";
import { toolsCommand } from "./tools.js";

/** Every command that talks to a connected server; `login` runs before any connection. */
export const commands: Record<Exclude<CommandName, "login">, Command> = {
  tools: toolsCommand,
  resources: resourcesCommand,
  prompts: promptsCommand,
  call: callCommand,
  read: readCommand,
};

export type { Command, CommandContext, CommandRun } from "./context.js";

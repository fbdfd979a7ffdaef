/**
 * The exit codes of `handoff`, and how a failure maps onto them. They are part of the command's
 * interface (scripts branch on them), so they are listed in `handoff --help` and docs/cli.md.
 */
import { HandoffError } from "../interaction/client/index.js";
import { ProtocolError, SdkError } from "../jsonrpc/errors.js";
import { seconds } from "./text.js";

export const ExitCode = {
  /** The command did what was asked. */
  Success: 0,
  /** The tool ran and reported a failure (`isError: true` in its result). */
  ToolError: 1,
  /** The command line was wrong: unknown option, missing argument, bad JSON, bad config file. */
  Usage: 2,
  /** The server could not be started or reached, the connection broke, or a request timed out. */
  Connection: 3,
  /** The server answered with a JSON-RPC error, or with something that is not valid MCP. */
  Protocol: 4,
  /** You declined or cancelled something the server asked for, or interrupted the command. */
  Declined: 5,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What each exit code means, as `handoff --help` and docs/cli.md list them. */
export const EXIT_CODE_MEANINGS: Record<ExitCode, string> = {
  0: "success",
  1: "the tool ran and returned an error (isError: true)",
  2: "usage error: bad arguments, options, JSON or config file",
  3: "connection or transport failure: the server could not be started or reached, the connection broke, or a request timed out",
  4: "protocol error: the server answered with a JSON-RPC error or with invalid MCP",
  5: "you declined or cancelled what the server asked for, or interrupted the command",
};

/** A failure the command reports with a message and a chosen exit code. */
export class CliError extends Error {
  override readonly name: string = "CliError";
  constructor(
    readonly exitCode: ExitCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A wrong command line or configuration (exit code 2). */
export class UsageError extends CliError {
  override readonly name = "UsageError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(ExitCode.Usage, message, options);
  }
}

/** The exit code for anything a command throws. */
export function exitCodeOf(error: unknown): ExitCode {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ProtocolError) return ExitCode.Protocol;
  if (error instanceof SdkError) {
    switch (error.code) {
      case "REQUEST_CANCELLED":
        return ExitCode.Declined;
      case "INVALID_RESULT":
      case "CAPABILITY_NOT_SUPPORTED":
      case "METHOD_NOT_SUPPORTED":
        return ExitCode.Protocol;
      case "INVALID_ARGUMENT":
        return ExitCode.Usage;
      default:
        return ExitCode.Connection;
    }
  }
  // Anything else escaped from the connection (a fetch TypeError, a spawn failure).
  return ExitCode.Connection;
}

/** One line for stderr describing a failure, with the JSON-RPC code when there is one. */
export function describeError(error: unknown): string {
  if (error instanceof ProtocolError) return `The server answered with error ${error.code}: ${error.message}`;
  if (error instanceof HandoffError) return `${error.message}.`;
  if (error instanceof SdkError) {
    if (error.code === "CAPABILITY_NOT_SUPPORTED") return `The server does not support this: ${error.message}`;
    if (error.code === "REQUEST_CANCELLED") return "Cancelled.";
    // "tools/call timed out after 2000 ms" reads as "tools/call timed out after 2 s".
    if (error.code === "REQUEST_TIMEOUT") return error.message.replace(/(\d+) ms$/, (_, ms) => seconds(Number(ms)));
    return error.message;
  }
  if (error instanceof CliError) return error.message;
  if (error instanceof Error) {
    const cause =
      error.cause instanceof Error && !error.message.includes(error.cause.message) ? ` (${error.cause.message})` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}

/**
 * Checks a tool's `structuredContent` against the `outputSchema` the server listed for it
 * (spec: server/tools § Output Schema: clients SHOULD validate). Each distinct schema is
 * compiled once; a tool the client has not listed is not checked.
 */
import type { Ajv, ValidateFunction } from "ajv";
import { SdkError } from "../jsonrpc/errors.js";
import { createAjv } from "../revisions/index.js";

/** JSON Schema dialects this client validates with; a schema without `$schema` is 2020-12 (spec: basic § JSON Schema Usage). */
const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";
const DRAFT_07 = "http://json-schema.org/draft-07/schema";

/** What the validator needs of a listed tool. */
export interface ToolShape {
  name: string;
  outputSchema?: unknown;
}

/** What the validator needs of a `tools/call` result. */
export interface ToolResultShape {
  isError?: boolean;
  structuredContent?: unknown;
}

export class ToolOutputValidator {
  private readonly schemas = new Map<string, object>();
  private readonly compiled = new Map<string, ValidateFunction>();
  private ajv2020: Ajv | undefined;
  private ajv07: Ajv | undefined;

  /** Records the output schemas of one page of `tools/list`; a tool listed without one is forgotten. */
  remember(tools: readonly ToolShape[]): void {
    for (const tool of tools) {
      const schema = tool.outputSchema;
      if (typeof schema === "object" && schema !== null) this.schemas.set(tool.name, schema);
      else this.schemas.delete(tool.name);
    }
  }

  /** Drops every recorded schema, e.g. when the server says its tool list changed. */
  forget(): void {
    this.schemas.clear();
  }

  /**
   * Checks a result of calling `toolName`. Results flagged `isError` are not checked: the
   * schema describes success.
   * @throws SdkError "INVALID_RESULT" when `structuredContent` is missing or does not match,
   *   or when the schema cannot be compiled (unsupported dialect, invalid schema).
   */
  check(toolName: string, result: ToolResultShape): void {
    const schema = this.schemas.get(toolName);
    if (schema === undefined || result.isError === true) return;
    if (typeof result.structuredContent !== "object" || result.structuredContent === null) {
      throw new SdkError(
        "INVALID_RESULT",
        `Tool "${toolName}" declares an output schema but its result has no structuredContent`,
      );
    }
    const validate = this.validatorFor(toolName, schema);
    if (!validate(result.structuredContent)) {
      const where = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
      throw new SdkError(
        "INVALID_RESULT",
        `Tool "${toolName}" returned structuredContent that does not match its output schema: ${where.join("; ")}`,
        { cause: validate.errors },
      );
    }
  }

  private validatorFor(toolName: string, schema: object): ValidateFunction {
    const key = JSON.stringify(schema);
    const cached = this.compiled.get(key);
    if (cached) return cached;
    try {
      const validate = this.ajvFor(schema).compile(schema);
      this.compiled.set(key, validate);
      return validate;
    } catch (cause) {
      throw new SdkError(
        "INVALID_RESULT",
        `The output schema of tool "${toolName}" cannot be used: ${cause instanceof Error ? cause.message : String(cause)}`,
        { cause },
      );
    }
  }

  /**
   * ajv is loaded here, on the first schema checked; its strict mode is off (tool schemas carry
   * annotations), and a schema's `$id` is not kept in the instance, so that tools whose schemas
   * share an `$id` are each checked against their own.
   */
  private ajvFor(schema: object): Ajv {
    const dialect = (schema as { $schema?: unknown }).$schema;
    const name = typeof dialect === "string" ? dialect.replace(/#$/, "") : DRAFT_2020_12;
    if (name === DRAFT_2020_12) {
      this.ajv2020 ??= createAjv("2020-12", false, { addUsedSchema: false });
      return this.ajv2020;
    }
    if (name === DRAFT_07) {
      this.ajv07 ??= createAjv("draft-07", false, { addUsedSchema: false });
      return this.ajv07;
    }
    throw new Error(`JSON Schema dialect ${JSON.stringify(dialect)} is not supported (use 2020-12 or draft-07)`);
  }
}

/**
 * `InteractionError` is one of the local errors: an `SdkError`, caught as one, that keeps its own
 * name and stable code, and that the connect pages can still tell from other `SdkError`s.
 */
import { describe, expect, it } from "vitest";
import { InteractionError } from "../../../src/interaction/server/index.js";
import { SdkError } from "../../../src/jsonrpc/errors.js";
import { CONNECT_MESSAGE, CONNECT_URL, createManager } from "./support.js";

const ALICE = { issuer: "https://auth.example.com", subject: "alice" };

describe("InteractionError", () => {
  it("is an SdkError that keeps its name, its code and its message", async () => {
    const { manager, clock } = createManager();
    const created = await manager.create({ url: CONNECT_URL, message: CONNECT_MESSAGE, user: ALICE, sessionId: "s" });
    clock.advance(600_000);
    const error = await manager.complete(created.id, { user: ALICE }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toBeInstanceOf(InteractionError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: "InteractionError", code: "EXPIRED" });
    expect((error as Error).message).not.toBe("");
    expect(String(error)).toBe(`InteractionError: ${(error as Error).message}`);
  });

  it("is built from a code and a message, as before", () => {
    const error = new InteractionError("NOT_PENDING", "This interaction is no longer waiting");
    expect(error).toBeInstanceOf(SdkError);
    expect({ name: error.name, code: error.code, message: error.message }).toEqual({
      name: "InteractionError",
      code: "NOT_PENDING",
      message: "This interaction is no longer waiting",
    });
  });

  it("is not what other SdkErrors are (positive control for the connect pages' check)", () => {
    const other = new SdkError("INVALID_ARGUMENT", "An interaction's url must be http or https");
    expect(other).not.toBeInstanceOf(InteractionError);
    expect(other.name).toBe("SdkError");
  });
});

/**
 * Further wire forms plug into HandoffClient as sources. This made-up one carries the hand-off in
 * an error with its own code, and learns of completion by following it after consent.
 */
import { describe, expect, it } from "vitest";
import type { HandoffSource, ReceivedHandoff } from "../../../src/interaction/client/index.js";
import { ProtocolError } from "../../../src/jsonrpc/errors.js";
import { rig } from "./support.js";

const REQUIRED = -32050;

function proposalLikeSource(followed: string[]): HandoffSource {
  return {
    install: () => {},
    required(error) {
      if (!(error instanceof ProtocolError) || error.code !== REQUIRED) return undefined;
      const data = error.data as { id: string; url: string; message: { text: string } };
      return [{ kind: "interaction", id: data.id, url: data.url, message: data.message.text }];
    },
    follow(handoff: ReceivedHandoff, host, signal) {
      followed.push(handoff.id);
      const timer = setTimeout(() => host.complete(handoff.id), 0);
      signal.addEventListener("abort", () => clearTimeout(timer));
    },
  };
}

describe("a second hand-off source", () => {
  it("turns its own error into a UrlInteraction of kind interaction, follows it, and retries", async () => {
    const followed: string[] = [];
    let attempts = 0;
    const r = await rig(async () => "accept", { sources: [proposalLikeSource(followed)] });
    const call = () => {
      attempts += 1;
      if (attempts === 1) {
        throw new ProtocolError(REQUIRED, "handoff_needed", {
          id: "i-7",
          type: "ua",
          url: "https://mcp.example.com/connect/i-7",
          message: { type: "text", text: "Authorize Example Co." },
        });
      }
      return Promise.resolve("done");
    };
    expect(await r.handoff.callWithHandoff(async () => call())).toBe("done");
    expect(r.shown).toMatchObject([
      {
        kind: "interaction",
        id: "i-7",
        source: "error",
        message: "Authorize Example Co.",
        registrableDomain: "example.com",
      },
    ]);
    expect(followed).toEqual(["i-7"]);
    expect(r.statuses).toEqual(["i-7:pending", "i-7:accepted", "i-7:completed"]);
  });

  it("leaves errors that no source reads alone", async () => {
    const r = await rig(async () => "accept", { sources: [proposalLikeSource([])] });
    const error = new ProtocolError(-32603, "boom");
    await expect(
      r.handoff.callWithHandoff(async () => {
        throw error;
      }),
    ).rejects.toBe(error);
    expect(r.shown).toEqual([]);
  });
});

/**
 * The wire forms as the revisions define them: which form a client gets, the user-interaction
 * extension's methods existing only for a client that declared it, its hand-made schemas, and the
 * readers the client side uses.
 */
import { describe, expect, it } from "vitest";
import { SdkError, UrlElicitationRequiredError } from "../../../src/jsonrpc/errors.js";
import type { JsonRpcMessage } from "../../../src/jsonrpc/messages.js";
import {
  createGate,
  interactionDeclinedError,
  isInteractionTrackComplete,
  readInteractionCreate,
  readInteractionRequired,
  revisionFor,
  STATEFUL_VERSIONS,
} from "../../../src/revisions/index.js";
import { CAPS } from "./support.js";

const revision = (version: string) => {
  const found = revisionFor(version);
  if (!found) throw new Error(version);
  return found;
};
const both = { ...CAPS.urlElicitation, ...CAPS.userInteraction };
const interaction = { id: "abc", url: "https://mcp.example.com/connect/abc", message: "Connect GitHub." };

describe("interactionWire", () => {
  it.each([
    ["2025-11-25", both, "url-elicitation"],
    ["2025-11-25", CAPS.urlElicitation, "url-elicitation"],
    ["2025-11-25", CAPS.userInteraction, "user-interaction"],
    ["2025-11-25", { elicitation: {} }, "none"],
    ["2025-06-18", both, "user-interaction"],
    ["2025-06-18", CAPS.urlElicitation, "none"],
    ["2024-11-05", CAPS.userInteraction, "user-interaction"],
    ["2024-11-05", { userInteraction: { types: ["other"] } }, "none"],
    ["2024-11-05", {}, "none"],
  ])("%s with %j is %s", (version, caps, form) => {
    expect(revision(version).interactionWire(caps).form).toBe(form);
  });

  it("maps the same interaction to each form's request, error and completion", () => {
    const url = revision("2025-11-25").interactionWire(CAPS.urlElicitation);
    expect(url.request(interaction)).toEqual({
      method: "elicitation/create",
      params: { mode: "url", elicitationId: "abc", url: interaction.url, message: interaction.message },
    });
    expect(url.requiredError(interaction)).toBeInstanceOf(UrlElicitationRequiredError);
    expect(url.completionNotice("abc")).toEqual({
      method: "notifications/elicitation/complete",
      params: { elicitationId: "abc" },
    });
    const ua = revision("2025-11-25").interactionWire(CAPS.userInteraction);
    expect(ua.request(interaction)?.method).toBe("interaction/create");
    expect(ua.requiredError(interaction)?.toJson()).toEqual({
      code: -32003,
      message: "interaction_required",
      data: { id: "abc", type: "ua", url: interaction.url, message: { type: "text", text: "Connect GitHub." } },
    });
    expect(ua.completionNotice("abc")).toBeUndefined();
    expect(ua.answer({})).toBe("accept");
    expect(ua.answerFromError(interactionDeclinedError())).toBe("decline");
    const none = revision("2025-11-25").interactionWire({});
    expect(none.request(interaction)).toBeUndefined();
    expect(none.requiredError(interaction)).toBeUndefined();
  });
});

describe.each(STATEFUL_VERSIONS)("the user-interaction extension in %s", (version) => {
  const base = revision(version);
  const extended = base.forClient(CAPS.userInteraction);
  const track = (params: Record<string, unknown>): JsonRpcMessage => ({
    jsonrpc: "2.0",
    id: 7,
    method: "interaction/track",
    params,
  });

  it("exists only for a client that declared it", () => {
    expect(base.forClient({})).toBe(base);
    expect(base.hasRequest("interaction/track", "client")).toBe(false);
    expect(extended.hasRequest("interaction/track", "client")).toBe(true);
    expect(extended.hasRequest("interaction/create", "server")).toBe(true);
    expect(base.validateInbound(track({ id: "abc" }), { role: "server" })?.code).toBe(-32601);
  });

  it("checks its messages against its own schemas", () => {
    const ok = track({ id: "abc", _meta: { progressToken: "t1" } });
    expect(extended.validateInbound(ok, { role: "server" })).toBeUndefined();
    expect(extended.validateInbound(track({ id: "abc" }), { role: "server" })?.message).toMatch(/params._meta/);
    const create = revision(version).interactionWire(CAPS.userInteraction).request(interaction);
    const sent = { jsonrpc: "2.0" as const, id: 1, ...create } as JsonRpcMessage;
    expect(extended.validateOutbound(sent, { role: "server" })).toBeUndefined();
    expect(extended.encodeOutbound(sent, { role: "server" })).toBe(sent);
    const badUrl = structuredClone(sent) as unknown as { params: { interaction: { url: string } } };
    badUrl.params.interaction.url = "not a url";
    expect(extended.validateOutbound(badUrl as unknown as JsonRpcMessage, { role: "server" })?.message).toMatch(/url/);
    const required = revision(version).interactionWire(CAPS.userInteraction).requiredError(interaction);
    const error = { jsonrpc: "2.0" as const, id: 3, error: required?.toJson() ?? { code: 0, message: "" } };
    expect(extended.validateOutbound(error, { role: "server" })).toBeUndefined();
    const broken = { ...error, error: { ...error.error, data: { id: "abc", type: "ua" } } };
    expect(extended.validateOutbound(broken, { role: "server" })?.message).toMatch(/url/);
  });

  it("is refused by the gate unless declared, with the declared type", () => {
    const request = {
      jsonrpc: "2.0" as const,
      id: 1,
      method: "interaction/create",
      params: { id: "a", type: "ua", interaction: { url: interaction.url } },
    };
    const gate = (peerCapabilities: Record<string, unknown>) =>
      createGate(base, { role: "server", peerCapabilities, initialized: { initialized: true } });
    expect(gate({}).checkOutbound(request)).toBeInstanceOf(SdkError);
    expect(gate({ userInteraction: { types: ["other"] } }).checkOutbound(request)?.code).toBe(
      "CAPABILITY_NOT_SUPPORTED",
    );
    expect(gate(CAPS.userInteraction).checkOutbound(request)).toBeUndefined();
    const client = createGate(base, {
      role: "client",
      peerCapabilities: {},
      initialized: { initialized: true },
      localCapabilities: CAPS.userInteraction,
    });
    expect(client.checkInbound(request)).toBeUndefined();
  });
});

describe("client-side readers", () => {
  it("read interaction/create, -32003, and whether tracking says completed", () => {
    const wire = revision("2025-11-25").interactionWire(CAPS.userInteraction);
    expect(readInteractionCreate(wire.request(interaction)?.params ?? {})).toEqual(interaction);
    expect(readInteractionRequired(wire.requiredError(interaction)?.toJson() ?? { code: 0 })).toEqual(interaction);
    expect(readInteractionRequired({ code: -32003, data: { id: "x", type: "other" } })).toBeUndefined();
    expect(readInteractionCreate({ id: "x", type: "ua", interaction: {} })).toBeUndefined();
    expect(interactionDeclinedError().code).toBe(-32099);
    const tracking = revision("2024-11-05").interactionTracking(CAPS.userInteraction);
    expect(tracking?.method).toBe("interaction/track");
    expect(isInteractionTrackComplete(tracking?.progress("accepted") ?? { progress: 0 })).toBe(false);
    expect(isInteractionTrackComplete(tracking?.progress("completed") ?? { progress: 0 })).toBe(true);
    expect(revision("2024-11-05").interactionTracking(CAPS.urlElicitation)).toBeUndefined();
  });
});

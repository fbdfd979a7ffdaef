/**
 * Our McpClient answering the official everything server's form elicitation: a schema with every
 * kind of field the 2025-11-25 revision allows (formats, numbers with ranges, single and multiple
 * selection, titled and legacy enums), over stdio and Streamable HTTP.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectEverything, type EverythingPeer, startEverything, type TransportKind, texts } from "./everything.js";
import type { HttpServerProcess } from "./support.js";

describe.each<TransportKind>(["stdio", "http"])("our client -> everything server over %s: elicitation", (kind) => {
  let http: HttpServerProcess | undefined;
  let peer: EverythingPeer;

  beforeAll(async () => {
    http = await startEverything(kind);
    return async () => {
      await http?.stop();
    };
  });

  afterEach(async () => {
    await peer?.close();
  });

  it("shows the whole form and sends the user's answers with the schema's defaults filled in", async () => {
    peer = await connectEverything(kind, http);
    peer.answers = () => ({
      action: "accept",
      content: { name: "Ada Lovelace", check: true, email: "ada@example.com", untitledMultipleSelectEnum: ["Piano"] },
    });
    const result = await peer.client.callTool({ name: "trigger-elicitation-request", arguments: {} });

    const [asked] = peer.elicitations;
    expect(asked).toMatchObject({ mode: "form", message: "Please provide inputs for the following fields:" });
    const schema = asked?.mode === "form" ? asked.requestedSchema : undefined;
    expect(schema?.required).toEqual(["name"]);
    expect(Object.keys(schema?.properties ?? {})).toEqual(
      expect.arrayContaining(["name", "email", "birthdate", "untitledMultipleSelectEnum", "legacyTitledEnum"]),
    );

    const [headline, inputs, raw] = texts(result);
    expect(headline).toBe("✅ User provided the requested information!");
    expect(inputs).toContain("- Name: Ada Lovelace");
    expect(inputs).toContain("- Agreed to terms: true");
    expect(inputs).toContain("- Email: ada@example.com");
    // Not answered by the user: the defaults of the requested schema, filled in by our client.
    expect(inputs).toContain("- Favorite Integer: 42");
    expect(inputs).toContain("- Favorite Number: 3.14");
    const sent = JSON.parse(raw?.replace(/^\nRaw result: /, "") ?? "null") as { content?: Record<string, unknown> };
    expect(sent.content).toMatchObject({
      name: "Ada Lovelace",
      firstLine: "It was a dark and stormy night.",
      untitledSingleSelectEnum: "Monica",
      untitledMultipleSelectEnum: ["Piano"],
      legacyTitledEnum: "pet-1",
    });
  });

  it("sends decline and cancel without content", async () => {
    peer = await connectEverything(kind, http);
    peer.answers = () => ({ action: "decline", content: { name: "not sent" } });
    const declined = await peer.client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(texts(declined)[0]).toBe("❌ User declined to provide the requested information.");
    expect(texts(declined)[1]).not.toContain("not sent");

    peer.answers = () => ({ action: "cancel" });
    const cancelled = await peer.client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(texts(cancelled)[0]).toBe("⚠️ User cancelled the elicitation dialog.");
  });

  it("refuses to send an answer that breaks the schema, and the tool reports the failure", async () => {
    peer = await connectEverything(kind, http);
    const problems: Error[] = [];
    peer.client.onerror = (error) => problems.push(error);
    peer.answers = () => ({ action: "accept", content: { name: "Ada", email: "not an email" } });
    const result = await peer.client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result).join("\n")).toContain("-32603");
    expect(problems.map((problem) => problem.message).join("\n")).toMatch(/email/);
  });
});

import { describe, expect, it } from "vitest";
import type { LoggingMessageParams } from "../../src/client/index.js";
import { ElicitationTracker } from "../../src/client/notifications.js";
import { connected, until } from "./support.js";

describe("notification hooks", () => {
  it("calls the typed hook of each server notification", async () => {
    const { client, server } = await connected();
    const seen: string[] = [];
    const logs: LoggingMessageParams[] = [];
    client.onToolListChanged = () => seen.push("tools");
    client.onResourceListChanged = () => seen.push("resources");
    client.onPromptListChanged = () => seen.push("prompts");
    client.onResourceUpdated = (uri) => seen.push(`updated ${uri}`);
    client.onLoggingMessage = (params) => logs.push(params);

    await server.session.notify("notifications/tools/list_changed");
    await server.session.notify("notifications/resources/list_changed");
    await server.session.notify("notifications/prompts/list_changed");
    await server.session.notify("notifications/resources/updated", { uri: "file:///a" });
    await server.session.notify("notifications/message", { level: "warning", logger: "db", data: { slow: true } });
    await until(() => logs.length === 1 && seen.length === 4);
    expect(seen).toEqual(["tools", "resources", "prompts", "updated file:///a"]);
    expect(logs).toEqual([{ level: "warning", logger: "db", data: { slow: true } }]);
  });

  it("runs a generic handler for any method, alongside the typed hook", async () => {
    const { client, server } = await connected();
    const generic: unknown[] = [];
    let hooked = 0;
    client.onToolListChanged = () => {
      hooked++;
    };
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      generic.push("tools");
    });
    client.setNotificationHandler("notifications/message", (params) => {
      generic.push(params);
    });
    await server.session.notify("notifications/tools/list_changed");
    await server.session.notify("notifications/message", { level: "info", data: "hello" });
    await until(() => generic.length === 2);
    expect(hooked).toBe(1);
    expect(generic).toContainEqual({ level: "info", data: "hello" });
  });

  it("keeps cancellation and progress to the session", async () => {
    const { client } = await connected();
    expect(() => client.setNotificationHandler("notifications/progress", () => {})).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => client.setNotificationHandler("notifications/cancelled", () => {})).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});

describe("elicitations awaited", () => {
  it("keeps the 1,000 most recently tracked ids; a completion for an older one is ignored", () => {
    const tracker = new ElicitationTracker();
    for (let i = 0; i <= 1_000; i++) tracker.track(`e-${i}`);
    expect(tracker.isPending("e-0")).toBe(false);
    expect(tracker.complete("e-0")).toBe(false);
    expect(tracker.isPending("e-1")).toBe(true);
    expect(tracker.complete("e-1000")).toBe(true);
    expect(tracker.complete("e-1000")).toBe(false);
  });

  it("counts an id tracked again as recent, and drops the oldest of a smaller limit", () => {
    const tracker = new ElicitationTracker(2);
    tracker.track("a");
    tracker.track("b");
    tracker.track("a");
    tracker.track("c");
    expect(tracker.isPending("b")).toBe(false);
    expect(tracker.isPending("a")).toBe(true);
    expect(tracker.isPending("c")).toBe(true);
  });
});

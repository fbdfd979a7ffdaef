/**
 * Page declines in a fleet: noted by the instance that served the page into notes every instance
 * reads, and taken by the instance the client's retry reaches, once, for its own session and
 * provider only, and never after the page's deadline. The memory engine and Redis run the same
 * cases; the control shows that declines kept in one instance's memory do not reach another.
 */
import { describe, expect, it } from "vitest";
import { PageDeclines } from "../../src/connect/page-declines.js";
import { SharedPageDeclines } from "../../src/connect/shared-page-declines.js";
import type { UserInteraction } from "../../src/model/interaction.js";
import { RedisExpiringNotes } from "../../src/redis/index.js";
import { MemoryExpiringNotes } from "../../src/stores/index.js";
import type { ExpiringNotes } from "../../src/stores/types.js";
import { testRedis } from "../redis/redis.js";

const declined = (sessionId: string, provider: string, expiresAt = Date.now() + 60_000): UserInteraction => ({
  id: `i-${Math.random()}`,
  url: "https://mcp.example.com/connect/x",
  message: "Connect GitHub.",
  user: { issuer: "https://auth.example.com", subject: "alice" },
  sessionId,
  expiresAt,
  status: "declined",
  createdAt: Date.now(),
  purpose: { kind: "oauth", provider },
});

const redis = await testRedis();

const engines: [string, (() => ExpiringNotes) | undefined][] = [
  ["memory notes", () => new MemoryExpiringNotes()],
  [
    "Redis notes",
    redis === undefined
      ? undefined
      : (() => {
          const keyPrefix = redis.freshPrefix();
          return () => new RedisExpiringNotes({ client: redis.instanceClient(), keyPrefix });
        })(),
  ],
];

for (const [name, open] of engines) {
  describe.skipIf(open === undefined)(`SharedPageDeclines on ${name}`, () => {
    it("a decline noted on the page's instance is taken once by the instance of the retry", async () => {
      const notes = (open as () => ExpiringNotes)();
      const onB = new SharedPageDeclines(notes);
      const onC = new SharedPageDeclines(name === "memory notes" ? notes : (open as () => ExpiringNotes)());
      await onB.note(declined("s-1", "github"));
      expect(await onC.take("s-1", "github")).toBe(true);
      expect(await onC.take("s-1", "github")).toBe(false);
      expect(await onB.take("s-1", "github")).toBe(false);
    });

    it("is never taken by another session or for another provider, nor after the page's deadline", async () => {
      const notes = (open as () => ExpiringNotes)();
      const declines = new SharedPageDeclines(notes);
      await declines.note(declined("s-2", "github"));
      expect(await declines.take("s-other", "github")).toBe(false);
      expect(await declines.take("s-2", "google")).toBe(false);
      await declines.note(declined("s-3", "github", Date.now() + 150));
      await new Promise((resolve) => setTimeout(resolve, 250));
      expect(await declines.take("s-3", "github")).toBe(false);
      // Positive control: the decline of s-2 is still there for its own retry.
      expect(await declines.take("s-2", "github")).toBe(true);
    });

    it("notes only a decline of a page that asked for a credential", async () => {
      const declines = new SharedPageDeclines((open as () => ExpiringNotes)());
      await declines.note({ ...declined("s-4", "github"), status: "completed" });
      await declines.note({ ...declined("s-5", "github"), purpose: {} });
      expect(await declines.take("s-4", "github")).toBe(false);
      expect(await declines.take("s-5", "github")).toBe(false);
    });
  });
}

describe("control: declines kept in one instance's memory", () => {
  it("do not reach the instance of the retry", () => {
    const onB = new PageDeclines();
    const onC = new PageDeclines();
    onB.note(declined("s-1", "github"));
    expect(onC.take("s-1", "github")).toBe(false);
    expect(onB.take("s-1", "github")).toBe(true);
  });
});

/**
 * The record of Declines on the page that a retry after -32042 reads: bounded however many
 * declines one session piles up, and a decline past its page's deadline is never taken.
 * Controls: a decline before its deadline is taken once, for its own session and provider only.
 */
import { describe, expect, it } from "vitest";
import { MAX_NOTED, PageDeclines } from "../../src/connect/page-declines.js";
import type { UserInteraction } from "../../src/model/interaction.js";

let clock = 1_000_000;
const declined = (sessionId: string, provider: string, expiresAt = clock + 60_000): UserInteraction => ({
  id: `i-${Math.random()}`,
  url: "http://127.0.0.1:1/connect/x",
  message: "Enter your key.",
  user: { issuer: "local", subject: "ada" },
  sessionId,
  expiresAt,
  status: "declined",
  createdAt: clock,
  purpose: { kind: "secret", provider, label: "API key" },
});

describe("PageDeclines", () => {
  it("control: a decline is taken once, by its own session and provider", () => {
    const declines = new PageDeclines(() => clock);
    declines.note(declined("s-1", "weather"));
    expect(declines.take("s-2", "weather")).toBe(false);
    expect(declines.take("s-1", "github")).toBe(false);
    expect(declines.take("s-1", "weather")).toBe(true);
    expect(declines.take("s-1", "weather")).toBe(false);
  });

  it("attack: a decline past its page's deadline is not taken", () => {
    const declines = new PageDeclines(() => clock);
    declines.note(declined("s-1", "weather", clock + 10));
    clock += 10;
    expect(declines.take("s-1", "weather")).toBe(false);
  });

  it("attack: one session's many declines keep at most MAX_NOTED of them", () => {
    const declines = new PageDeclines(() => clock);
    for (let i = 0; i < MAX_NOTED + 50; i++) declines.note(declined("s-1", "weather"));
    let taken = 0;
    while (declines.take("s-1", "weather")) taken++;
    expect(taken).toBe(MAX_NOTED);
  });
});

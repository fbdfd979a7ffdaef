/**
 * DNS rebinding against the local connect pages: every spelling of a name that an attacker's DNS
 * can point at 127.0.0.1, or that is loopback only by another reading, is refused as a `Host`;
 * the three loopback names at the pages' own port (any case) are the control that is served.
 */
import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "../../src/connect/index.js";

const PORT = 47_123;

describe("isLoopbackHost", () => {
  it("refuses rebindable names, other spellings of loopback, a trailing dot and another port", () => {
    for (const host of [
      `localhost.evil.com:${PORT}`,
      `127.0.0.1.nip.io:${PORT}`,
      `evil.localhost:${PORT}`,
      `127.1:${PORT}`,
      `2130706433:${PORT}`,
      `0x7f000001:${PORT}`,
      `0.0.0.0:${PORT}`,
      `127.0.0.2:${PORT}`,
      `[::ffff:127.0.0.1]:${PORT}`,
      `[0:0:0:0:0:0:0:1]:${PORT}`,
      `localhost.:${PORT}`,
      `127.0.0.1.:${PORT}`,
      `localhost:${PORT + 1}`,
      `[::1]:${PORT + 1}`,
      "localhost",
      `localhost:${PORT}:${PORT}`,
      `user@localhost:${PORT}`,
      "",
    ]) {
      expect(isLoopbackHost(host, PORT), host).toBe(false);
    }
    expect(isLoopbackHost(null, PORT)).toBe(false);
  });

  it("control: 127.0.0.1, [::1] and localhost at the pages' port, in any case, are served", () => {
    for (const host of [`127.0.0.1:${PORT}`, `[::1]:${PORT}`, `localhost:${PORT}`, `LocalHost:${PORT}`]) {
      expect(isLoopbackHost(host, PORT), host).toBe(true);
    }
    expect(isLoopbackHost("localhost", 80)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { checkOrigin, isLoopbackName } from "../../src/transports/http/origin.js";

/** The Host and Origin values of a request, as `checkOrigin` takes them. */
const request = (host: string, origin?: string) => [host, origin ?? null] as const;

describe("DNS-rebinding defence", () => {
  it("knows loopback names and addresses", () => {
    for (const name of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]", "::ffff:127.0.0.1"]) {
      expect(isLoopbackName(name), name).toBe(true);
    }
    for (const name of ["0.0.0.0", "evil.example", "localhost.evil.example", "10.0.0.1", "::"]) {
      expect(isLoopbackName(name), name).toBe(false);
    }
  });

  it("on a loopback server refuses a foreign Host, whatever the Origin", () => {
    expect(checkOrigin(...request("localhost:3000"), { bindHost: "127.0.0.1" })).toBeUndefined();
    expect(checkOrigin(...request("[::1]:3000"), { bindHost: "::1" })).toBeUndefined();
    expect(checkOrigin(...request("evil.example:3000"), { bindHost: "127.0.0.1" })).toMatch(/Host/);
    expect(checkOrigin(...request("evil.example:3000"), {}, "127.0.0.1")).toMatch(/Host/);
    expect(checkOrigin(...request("evil.example:3000", "http://evil.example:3000"), {}, "::1")).toMatch(/Host/);
  });

  it("keeps the loopback rule for a request on a loopback socket of a server bound to every address", () => {
    // DNS rebinding: the attacker's name resolves to 127.0.0.1, and Origin matches Host.
    const rebound = request("evil.example:3000", "http://evil.example:3000");
    expect(checkOrigin(...rebound, { bindHost: "0.0.0.0" }, "127.0.0.1")).toMatch(/Host/);
    expect(checkOrigin(...rebound, { bindHost: "::" }, "::ffff:127.0.0.1")).toMatch(/Host/);
    expect(checkOrigin(...request("localhost:3000"), { bindHost: "0.0.0.0" }, "127.0.0.1")).toBeUndefined();
    expect(checkOrigin(...request("mcp.example:3000"), { bindHost: "0.0.0.0" }, "10.0.0.5")).toBeUndefined();
  });

  it("takes allowedHosts instead of the loopback rule; an entry without a port allows any port", () => {
    const policy = { bindHost: "127.0.0.1", allowedHosts: ["mcp.internal", "localhost:3000"] };
    expect(checkOrigin(...request("mcp.internal:8080"), policy)).toBeUndefined();
    expect(checkOrigin(...request("localhost:3000"), policy)).toBeUndefined();
    expect(checkOrigin(...request("localhost:3001"), policy)).toMatch(/Host/);
  });

  it("refuses an Origin that is neither the server's own nor listed", () => {
    const policy = { allowedOrigins: ["https://app.example"] };
    expect(checkOrigin(...request("mcp.example"), policy)).toBeUndefined();
    expect(checkOrigin(...request("mcp.example", "https://mcp.example"), policy)).toBeUndefined();
    expect(checkOrigin(...request("mcp.example", "https://app.example"), policy)).toBeUndefined();
    expect(checkOrigin(...request("mcp.example", "https://other.example"), policy)).toMatch(/Origin/);
    expect(checkOrigin(...request("mcp.example", "null"), policy)).toMatch(/Origin/);
  });

  it("recognizes other spellings of the same host: an IPv4-mapped loopback Host, a default port written out", () => {
    expect(checkOrigin(...request("[::ffff:127.0.0.1]:3000"), { bindHost: "127.0.0.1" })).toBeUndefined();
    expect(checkOrigin(...request("[::ffff:7f00:1]:3000"), { bindHost: "127.0.0.1" })).toBeUndefined();
    expect(checkOrigin(...request("[::ffff:a00:1]:3000"), { bindHost: "127.0.0.1" })).toMatch(/Host/);
    expect(checkOrigin(...request("mcp.example:443", "https://mcp.example"), {})).toBeUndefined();
    expect(checkOrigin(...request("mcp.example:80", "http://mcp.example"), {})).toBeUndefined();
    expect(checkOrigin(...request("mcp.example:443", "http://mcp.example"), {})).toMatch(/Origin/);
    expect(checkOrigin(...request("mcp.example:8443", "https://mcp.example"), {})).toMatch(/Origin/);
  });
});

import { describe, expect, it } from "vitest";
import { sameUser, userOf } from "../../src/auth/index.js";

describe("userOf", () => {
  it("is the issuer and subject of a verified token", () => {
    expect(userOf({ token: "t", issuer: "https://as.example", subject: "u-1", scopes: [] })).toEqual({
      issuer: "https://as.example",
      subject: "u-1",
    });
  });

  it("is undefined without a token, an issuer or a subject (a session alone identifies nobody)", () => {
    expect(userOf(undefined)).toBeUndefined();
    expect(userOf({ token: "t", subject: "u-1" })).toBeUndefined();
    expect(userOf({ token: "t", issuer: "https://as.example" })).toBeUndefined();
    expect(userOf({ token: "t", issuer: "https://as.example", subject: "" })).toBeUndefined();
  });

  it("tells users apart by issuer as well as subject", () => {
    const a = { issuer: "https://as-1.example", subject: "42" };
    expect(sameUser(a, { issuer: "https://as-1.example", subject: "42" })).toBe(true);
    expect(sameUser(a, { issuer: "https://as-2.example", subject: "42" })).toBe(false);
    expect(sameUser(a, { issuer: "https://as-1.example", subject: "43" })).toBe(false);
  });
});

/**
 * Stated endpoints are held to what discovery would be held to: https, and plain http only on
 * loopback when the issuer itself is loopback over http (development and tests). A token
 * endpoint stated over plain http elsewhere would send the client secret and the code in clear.
 */
import { describe, expect, it } from "vitest";
import { type AuthorizationServerConfig, github } from "../../../src/connect/index.js";
import { OAuthServers } from "../../../src/connect/oauth-server.js";
import { CLIENT } from "./like-provider.js";

const stated = (issuer: string, token: string): AuthorizationServerConfig => ({
  ...github(CLIENT),
  issuer,
  metadata: { authorization_endpoint: `${issuer}/authorize`, token_endpoint: token },
});

describe("presets: stated endpoints", () => {
  it("attack: a token endpoint over plain http on another host, or on loopback under an https issuer, is refused before any request", async () => {
    const servers = new OAuthServers();
    await expect(servers.get(stated("http://127.0.0.1:9", "http://tokens.example/token"))).rejects.toThrow(
      /token_endpoint .* must be an https URL/,
    );
    await expect(servers.get(stated("https://github.com", "http://127.0.0.1:9/token"))).rejects.toThrow(TypeError);
    await expect(servers.get(stated("https://github.com", "not a url"))).rejects.toThrow(TypeError);
  });

  it("control: https endpoints, and loopback http under a loopback http issuer, are taken as stated without any request", async () => {
    const servers = new OAuthServers();
    const https = await servers.get(github(CLIENT));
    expect(https.as).toMatchObject({
      issuer: "https://github.com",
      token_endpoint: "https://github.com/login/oauth/access_token",
    });
    const loopback = await servers.get(stated("http://127.0.0.1:9", "http://127.0.0.1:9/token"));
    expect(loopback.as.token_endpoint).toBe("http://127.0.0.1:9/token");
  });

  it("two configs of one issuer and client that differ in what they require are two servers, not one remembered", async () => {
    const servers = new OAuthServers();
    const lenient = await servers.get(github(CLIENT));
    const strict = await servers.get({ ...github(CLIENT), requireIss: true });
    expect(lenient.as.authorization_response_iss_parameter_supported).toBe(false);
    expect(strict.as.authorization_response_iss_parameter_supported).toBe(true);
  });

  it("two configs of one issuer and client id with other secrets each authenticate with their own secret", async () => {
    const servers = new OAuthServers();
    const sentWith = async (clientSecret: string) => {
      const server = await servers.get({ ...github(CLIENT), clientSecret });
      const body = new URLSearchParams();
      const headers = new Headers();
      await server.auth(server.as, server.client, body, headers);
      return `${body.toString()} ${headers.get("authorization") ?? ""}`;
    };
    const first = await sentWith("first-secret-of-the-client");
    const second = await sentWith("second-secret-of-the-client");
    // Control: the first config sends its own secret.
    expect(first).toContain("first-secret-of-the-client");
    expect(second).toContain("second-secret-of-the-client");
    expect(second).not.toContain("first-secret-of-the-client");
  });
});

import { describe, expect, it } from "vitest";
import {
  protectedResourceMetadata,
  protectedResourceMetadataHandler,
  protectedResourceMetadataUrl,
} from "../../src/auth/index.js";

const document = protectedResourceMetadata({
  resource: "https://mcp.example.com/mcp",
  authorizationServers: ["https://auth.example.com"],
  scopesSupported: ["mcp:tools", "files:read"],
  resourceName: "Example MCP server",
});

describe("protected resource metadata (RFC 9728)", () => {
  it("builds the document with the header as the only bearer method", () => {
    expect(document).toEqual({
      resource: "https://mcp.example.com/mcp",
      authorization_servers: ["https://auth.example.com"],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp:tools", "files:read"],
      resource_name: "Example MCP server",
    });
    expect(
      protectedResourceMetadata({ resource: "https://h.example", authorizationServers: ["https://as.example"] }),
    ).toEqual({
      resource: "https://h.example",
      authorization_servers: ["https://as.example"],
      bearer_methods_supported: ["header"],
    });
  });

  it("refuses a resource with a fragment or without scheme, and an empty list of authorization servers", () => {
    const good = { resource: "https://h.example/mcp", authorizationServers: ["https://as.example"] };
    expect(() => protectedResourceMetadata({ ...good, resource: "https://h.example/mcp#x" })).toThrow(TypeError);
    expect(() => protectedResourceMetadata({ ...good, resource: "h.example/mcp" })).toThrow(TypeError);
    expect(() => protectedResourceMetadata({ ...good, authorizationServers: [] })).toThrow(TypeError);
    expect(() => protectedResourceMetadata({ ...good, scopesSupported: ["two words"] })).toThrow(TypeError);
  });

  it("puts the well-known path between host and path (§ 3.1)", () => {
    expect(protectedResourceMetadataUrl("https://mcp.example.com/mcp")).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
    );
    expect(protectedResourceMetadataUrl("https://mcp.example.com/public/mcp")).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
    );
    expect(protectedResourceMetadataUrl("https://mcp.example.com")).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource",
    );
    expect(protectedResourceMetadataUrl("https://mcp.example.com/")).toBe(
      "https://mcp.example.com/.well-known/oauth-protected-resource",
    );
    expect(protectedResourceMetadataUrl("http://127.0.0.1:8080/mcp?tenant=a")).toBe(
      "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp?tenant=a",
    );
  });

  it("serves the document at the path-suffixed and the root well-known URL, readable cross-origin", async () => {
    const handler = protectedResourceMetadataHandler(document);
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = handler(new Request(`https://mcp.example.com${path}`));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/json");
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(await response.json()).toEqual(document);
    }
    const head = handler(
      new Request("https://mcp.example.com/.well-known/oauth-protected-resource/mcp", { method: "HEAD" }),
    );
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("answers a preflight, refuses other methods with 405 and other paths with 404", async () => {
    const handler = protectedResourceMetadataHandler(document, { serveAtRoot: false });
    const url = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
    const preflight = handler(new Request(url, { method: "OPTIONS" }));
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, OPTIONS");
    const post = handler(new Request(url, { method: "POST", body: "{}" }));
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(handler(new Request("https://mcp.example.com/.well-known/oauth-protected-resource")).status).toBe(404);
    expect(handler(new Request("https://mcp.example.com/.well-known/oauth-protected-resource/other")).status).toBe(404);
  });
});

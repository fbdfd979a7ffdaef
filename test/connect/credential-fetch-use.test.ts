/**
 * What `ctx.credentials.fetch` does with a request it may send: an OAuth 401 renews the token once
 * (at a real token endpoint) and sends again, a second 401 is returned; the token is in no body,
 * header, status text or error text it hands back, in any spelling; a secret of `kind: "secret"`
 * goes in its declared header to its declared hosts; the caller cannot set the credential's header;
 * and each use is in the audit log, naming the user, the client and the session, with no secret.
 */
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { InteractionRequired } from "../../src/interaction/server/index.js";
import { SdkError } from "../../src/jsonrpc/errors.js";
import {
  ALICE,
  type Api,
  brokerWith,
  contextFor,
  quotes,
  type Received,
  routedFetch,
  startApi,
} from "./credential-fetch-support.js";
import { startTokenEndpoint, type TokenEndpoint } from "./token-endpoint.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const closer of closers.splice(0).reverse()) await closer();
});

async function api(answer?: Parameters<typeof startApi>[0]): Promise<Api> {
  const started = await startApi(answer);
  closers.push(started.close);
  return started;
}

async function tokenEndpoint(): Promise<TokenEndpoint> {
  const endpoint = await startTokenEndpoint();
  closers.push(endpoint.close);
  return endpoint;
}

/** A broker for alice's github grant (`issue()`d by `endpoint`), with `api.github.example` served by `listed`. */
async function oauthWorld(endpoint: TokenEndpoint, listed: Api) {
  const pair = endpoint.issue();
  const world = await brokerWith(
    [
      {
        provider: "github",
        secret: pair.accessToken,
        refreshToken: pair.refreshToken,
        expiresAt: Date.now() + 3_600_000,
        updatedAt: 1,
      },
    ],
    {
      providers: { github: { issuer: endpoint.issuer, clientId: "c", apiHosts: ["api.github.example"] } },
      fetch: routedFetch({ "api.github.example": listed }),
      now: Date.now,
    },
  );
  return { ...world, pair };
}

describe("ctx.credentials.fetch: a 401 renews once", () => {
  it("401 to the old token: one forced refresh, the request sent again with the new token, which is stored", async () => {
    const endpoint = await tokenEndpoint();
    const listed = await api((request, response) => {
      if (request.headers.authorization === "Bearer access-token-2-of-alice") response.writeHead(200).end("repos");
      else response.writeHead(401, { "www-authenticate": 'Bearer error="invalid_token"' }).end("expired");
    });
    const { broker, vault } = await oauthWorld(endpoint, listed);
    const response = await broker.fetch("github", "https://api.github.example/user/repos", {}, contextFor());
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("repos");
    expect(endpoint.refreshGrants).toBe(1);
    expect(listed.received.map((r) => r.headers.authorization)).toEqual([
      "Bearer access-token-1-of-alice",
      "Bearer access-token-2-of-alice",
    ]);
    expect((await vault.get(ALICE, "github"))?.secret).toBe("access-token-2-of-alice");
  });

  it("two calls meeting a 401 at once spend the refresh token once and both go on with the new token", async () => {
    const endpoint = await tokenEndpoint();
    const listed = await api((request, response) => {
      if (request.headers.authorization === "Bearer access-token-2-of-alice") response.writeHead(200).end("repos");
      else response.writeHead(401).end("expired");
    });
    const { broker } = await oauthWorld(endpoint, listed);
    const held = endpoint.hold();
    const calls = [1, 2].map(() => broker.fetch("github", "https://api.github.example/user", {}, contextFor()));
    await held.received(1);
    held.release();
    const responses = await Promise.all(calls);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(endpoint.refreshGrants).toBe(1);
  });

  it("a second 401 is returned as it is: no second refresh, no loop", async () => {
    const endpoint = await tokenEndpoint();
    const listed = await api((_request, response) => response.writeHead(401).end("no"));
    const { broker } = await oauthWorld(endpoint, listed);
    const response = await broker.fetch("github", "https://api.github.example/user", {}, contextFor());
    expect(response.status).toBe(401);
    expect(await response.text()).toBe("no");
    expect(endpoint.refreshGrants).toBe(1);
    expect(listed.received).toHaveLength(2);
  });

  it("attack: a URL that answers every token with 401, called again and again, spends the refresh token once", async () => {
    const endpoint = await tokenEndpoint();
    const listed = await api((_request, response) => response.writeHead(401).end("no"));
    const { broker, vault } = await oauthWorld(endpoint, listed);
    for (let call = 0; call < 3; call += 1) {
      const response = await broker.fetch("github", "https://api.github.example/app", {}, contextFor());
      expect(response.status).toBe(401);
    }
    // The first call's token was old, so its 401 refreshed it (the control above); the new token
    // is fresh, so later 401s are returned as they are and the grant is kept.
    expect(endpoint.refreshGrants).toBe(1);
    expect(listed.received).toHaveLength(4);
    expect((await vault.get(ALICE, "github"))?.secret).toBe("access-token-2-of-alice");
  });

  it("a refresh the provider refuses returns the 401 and forgets the grant, so the next call hands the user off", async () => {
    const endpoint = await tokenEndpoint();
    endpoint.mode = "refuse";
    const listed = await api((_request, response) => response.writeHead(401).end("no"));
    const { broker, vault } = await oauthWorld(endpoint, listed);
    const response = await broker.fetch("github", "https://api.github.example/user", {}, contextFor());
    expect(response.status).toBe(401);
    expect(listed.received).toHaveLength(1);
    expect(await vault.get(ALICE, "github")).toBeUndefined();
    await expect(broker.fetch("github", "https://api.github.example/user", {}, contextFor())).rejects.toBeInstanceOf(
      InteractionRequired,
    );
  });
});

/** Characters every encoding spells differently: slash, plus, equals, tilde, ampersand. */
const KEY = "fc-live/4f9Qe+3vN1=xLr7~tYp&q";

/** A forecast API that echoes the key it was sent in every way an API might. */
function echoingApi(request: Received, response: ServerResponse) {
  const key = String(request.headers["x-api-key"] ?? "");
  response.writeHead(200, `OK ${key}`, {
    "content-type": "application/json",
    "x-echo": key,
    "x-echo-encoded": encodeURIComponent(key),
    "set-cookie": [`k=${Buffer.from(key).toString("base64")}`, "theme=dark"],
  });
  response.end(
    JSON.stringify({
      debug: { headers: request.headers },
      url: `https://api.forecast.example/v1?key=${encodeURIComponent(key)}`,
      basic: Buffer.from(`alice:${key}`).toString("base64"),
      forecast: "sunny",
    }),
  );
}

async function forecastWorld(routes: Record<string, Api>, secrets?: Record<string, unknown>) {
  return brokerWith([{ provider: "forecast", secret: KEY, updatedAt: 0 }], {
    secrets: (secrets ?? {
      forecast: { hosts: ["api.forecast.example"], header: "X-Api-Key", label: "Forecast API key" },
    }) as never,
    fetch: routedFetch(routes),
  });
}

describe("ctx.credentials.fetch: what comes back", () => {
  it("the key is in no header, status text or body returned, in any spelling; the rest is intact", async () => {
    const listed = await api(echoingApi);
    const { broker } = await forecastWorld({ "api.forecast.example": listed });
    const response = await broker.fetch("forecast", "https://api.forecast.example/v1?city=Oslo", {}, contextFor());
    expect(listed.received[0]?.headers["x-api-key"]).toBe(KEY);
    const body = await response.text();
    let headers = "";
    response.headers.forEach((value, name) => {
      headers += `${name}: ${value}\n`;
    });
    for (const text of [body, headers, response.statusText]) expect(quotes(text, KEY)).toBe(false);
    expect(quotes(Buffer.from(body).toString(), KEY)).toBe(false);
    expect(JSON.parse(body)).toMatchObject({ forecast: "sunny", debug: { headers: { "x-api-key": "[redacted]" } } });
    expect(response.headers.get("x-echo")).toBe("[redacted]");
    expect(response.headers.getSetCookie()).toContain("theme=dark");
    expect(response.statusText).toBe("OK [redacted]");
  });

  it("control: without the scrubbing the same API would have handed the key back", async () => {
    const listed = await api(echoingApi);
    const raw = await fetch(`${listed.origin}/v1`, { headers: { "x-api-key": KEY } });
    expect(quotes(await raw.text(), KEY)).toBe(true);
    expect(raw.headers.get("x-echo")).toBe(KEY);
  });

  it("a binary body keeps its bytes around the cut", async () => {
    const bytes = Buffer.concat([Buffer.from([0, 255, 128, 10]), Buffer.from(KEY), Buffer.from([7, 200])]);
    const listed = await api((_request, response) => response.writeHead(200).end(bytes));
    const { broker } = await forecastWorld({ "api.forecast.example": listed });
    const response = await broker.fetch("forecast", "https://api.forecast.example/blob", {}, contextFor());
    const got = Buffer.from(await response.arrayBuffer());
    expect(got).toEqual(
      Buffer.concat([Buffer.from([0, 255, 128, 10]), Buffer.from("[redacted]"), Buffer.from([7, 200])]),
    );
  });

  it("an error of the network layer that quotes the request names provider and host, never the key", async () => {
    const quoting: typeof fetch = async (_input, init) => {
      const sent = new Headers(init?.headers).get("x-api-key");
      throw new TypeError("fetch failed", { cause: new Error(`socket hang up sending x-api-key: ${sent}`) });
    };
    const { broker, audit } = await brokerWith([{ provider: "forecast", secret: KEY, updatedAt: 0 }], {
      secrets: { forecast: { hosts: ["api.forecast.example"], header: "X-Api-Key" } },
      fetch: quoting,
    });
    const error = await broker.fetch("forecast", "https://api.forecast.example/v1", {}, contextFor()).catch((e) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error.code).toBe("TRANSPORT_ERROR");
    expect(error.message).toContain("api.forecast.example");
    expect(error.message).toContain("forecast");
    const texts = [error.message, String(error.stack), String(error.cause?.message), String(error.cause?.stack)];
    for (const text of texts) expect(quotes(text, KEY)).toBe(false);
    expect(error.cause.message).toContain("socket hang up");
    expect((await audit.forUser(ALICE))[0]).toMatchObject({
      outcome: "failed",
      detail: { host: "api.forecast.example" },
    });
  });
});

describe("ctx.credentials.fetch: secrets declare their header and hosts", () => {
  it("the key goes in X-Api-Key (no Authorization) to its host; another host is refused", async () => {
    const listed = await api();
    const other = await api();
    const { broker } = await forecastWorld({ "api.forecast.example": listed, "api.other.example": other });
    await broker.fetch("forecast", "https://api.forecast.example/v1", {}, contextFor());
    expect(listed.received[0]?.headers["x-api-key"]).toBe(KEY);
    expect(listed.received[0]?.headers.authorization).toBeUndefined();
    const error = await broker.fetch("forecast", "https://api.other.example/v1", {}, contextFor()).catch((e) => e);
    expect(error.code).toBe("DESTINATION_REFUSED");
    expect(other.received).toEqual([]);
  });

  it("a secret declared without a header goes as Authorization: Bearer; one not declared goes nowhere", async () => {
    const listed = await api();
    const { broker } = await forecastWorld(
      { "api.forecast.example": listed },
      {
        forecast: { hosts: ["api.forecast.example"] },
      },
    );
    await broker.fetch("forecast", "https://api.forecast.example/v1", {}, contextFor());
    expect(listed.received[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    const bare = await forecastWorld({ "api.forecast.example": listed }, {});
    const error = await bare.broker
      .fetch("forecast", "https://api.forecast.example/v1", {}, contextFor())
      .catch((e) => e);
    expect(error.code).toBe("DESTINATION_REFUSED");
    expect(listed.received).toHaveLength(1);
  });

  it("a declared host that is more than a host name fails at construction", async () => {
    for (const hosts of [
      ["*.forecast.example"],
      ["https://api.forecast.example"],
      ["api.forecast.example/v1"],
      ["u@api.forecast.example"],
    ]) {
      await expect(forecastWorld({}, { forecast: { hosts } })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    }
    await expect(
      forecastWorld({}, { forecast: { hosts: ["api.forecast.example"], header: "X Api Key" } }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("the caller may not set the credential's header, in init or on a Request; other headers pass", async () => {
    const listed = await api();
    const { broker } = await forecastWorld({ "api.forecast.example": listed });
    const url = "https://api.forecast.example/v1";
    for (const attempt of [
      broker.fetch("forecast", url, { headers: { "x-api-key": "mine" } }, contextFor()),
      broker.fetch("forecast", new Request(url, { headers: { "X-API-KEY": "mine" } }), {}, contextFor()),
    ]) {
      await expect(attempt).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    }
    expect(listed.received).toEqual([]);
    await broker.fetch(
      "forecast",
      new Request(url, { method: "PUT", body: "x", headers: { "x-trace": "1" } }),
      {},
      contextFor(),
    );
    expect(listed.received[0]).toMatchObject({
      method: "PUT",
      body: "x",
      headers: { "x-trace": "1", "x-api-key": KEY },
    });
  });

  it("a Request object is checked by its own URL", async () => {
    const foreign = await api();
    const { broker } = await forecastWorld({ "evil.example": foreign });
    const error = await broker
      .fetch("forecast", new Request("https://evil.example/v1"), {}, contextFor())
      .catch((e) => e);
    expect(error.code).toBe("DESTINATION_REFUSED");
    expect(foreign.received).toEqual([]);
  });
});

describe("ctx.credentials.fetch: the audit log", () => {
  it("records each use (ok with its status, refused with why) for the user, client and session, without the key; marks the credential used", async () => {
    const listed = await api((request, response) => {
      if (request.path === "/away") response.writeHead(302, { location: "https://evil.example/" }).end();
      else response.writeHead(204).end();
    });
    const { broker, audit, used } = await forecastWorld({ "api.forecast.example": listed });
    await broker.fetch("forecast", "https://api.forecast.example/v1", { method: "delete" }, contextFor());
    await broker.fetch("forecast", "https://evil.example/v1", {}, contextFor()).catch(() => {});
    await broker.fetch("forecast", "https://api.forecast.example/away", {}, contextFor()).catch(() => {});
    const records = (await audit.forUser(ALICE)).reverse();
    const common = {
      event: "credential.used",
      user: ALICE,
      client: { name: "agent", version: "2.1.0" },
      sessionId: "session-7",
      provider: "forecast",
    };
    expect(records).toMatchObject([
      { ...common, outcome: "ok", detail: { host: "api.forecast.example", method: "DELETE", status: 204 } },
      { ...common, outcome: "refused", detail: { host: "evil.example", method: "GET" } },
      { ...common, outcome: "ok", detail: { host: "api.forecast.example", method: "GET", status: 302 } },
      { ...common, outcome: "refused", detail: { host: "evil.example", method: "GET" } },
    ]);
    expect(records[1]?.detail?.reason).toContain("not one of the API hosts");
    let exported = "";
    for await (const line of audit.exportJsonLines()) exported += line;
    expect(quotes(exported, KEY)).toBe(false);
    expect(used).toEqual([1_700_000_000_000]);
  });

  it("with no credential stored, an allowed destination hands the user off; a refused one does not", async () => {
    const { broker } = await brokerWith([], {
      secrets: { forecast: { hosts: ["api.forecast.example"] } },
      fetch: routedFetch({}),
    });
    await expect(broker.fetch("forecast", "https://api.forecast.example/v1", {}, contextFor())).rejects.toBeInstanceOf(
      InteractionRequired,
    );
    await expect(broker.fetch("forecast", "https://evil.example/v1", {}, contextFor())).rejects.toMatchObject({
      code: "DESTINATION_REFUSED",
    });
  });
});

/**
 * Every use of a credential by `ctx.credentials.fetch` reaches the audit log, whatever the
 * request and the client look like: a host the URL parser accepts but a DNS name would not (an
 * underscore, a sub-delimiter), a very long host in a redirect, a client that names itself at
 * great length or with an empty version. The log checks each entry's shape and refuses what does
 * not fit, so the use would otherwise go unrecorded, and an attacker steering the URL or the
 * client could hide exactly the attempts the log is for.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RequestContext } from "../../src/server/index.js";
import { ALICE, type Api, brokerWith, contextFor, routedFetch, startApi } from "./credential-fetch-support.js";

const KEY = "fk_live_7Hq2mZ9xW4";
const apis: Api[] = [];
afterEach(async () => {
  for (const api of apis.splice(0)) await api.close();
});

async function world(answer?: Parameters<typeof startApi>[0]) {
  const listed = await startApi(answer);
  apis.push(listed);
  const errors: unknown[] = [];
  const made = await brokerWith([{ provider: "forecast", secret: KEY, updatedAt: 0 }], {
    secrets: { forecast: { hosts: ["api.forecast.example"], header: "X-Api-Key" } },
    fetch: routedFetch({ "api.forecast.example": listed }),
    logger: {
      error: (entry: unknown) => errors.push(entry),
      warn: () => {},
      info: () => {},
      debug: () => {},
    } as never,
  });
  return { ...made, listed, errors };
}

function withClient(info: { name?: string; version?: string }): RequestContext {
  const ctx = contextFor();
  return { ...ctx, session: { ...ctx.session, clientInfo: info } } as unknown as RequestContext;
}

describe("ctx.credentials.fetch: each use is recorded, whatever its shape", () => {
  it.each([
    ["an underscore", "https://evil_collector.example/v1", "evil_collector.example"],
    ["sub-delimiters", "https://evil!$&'()*+,;=.example/v1", "evil!$&'()*+,;=.example"],
  ])("a refused host with %s is recorded as refused", async (_what, url, host) => {
    const { broker, audit, errors } = await world();
    await expect(broker.fetch("forecast", url, {}, contextFor())).rejects.toMatchObject({
      code: "DESTINATION_REFUSED",
    });
    const records = await audit.forUser(ALICE);
    expect(records).toMatchObject([{ event: "credential.used", outcome: "refused", detail: { host } }]);
    expect(errors).toEqual([]);
  });

  it("a plain foreign host is recorded as refused (control)", async () => {
    const { broker, audit } = await world();
    await broker.fetch("forecast", "https://evil.example/v1", {}, contextFor()).catch(() => {});
    expect(await audit.forUser(ALICE)).toMatchObject([{ outcome: "refused", detail: { host: "evil.example" } }]);
  });

  it("a redirect to a very long host is recorded as refused, its reason and host cut to fit", async () => {
    const label = "a".repeat(63);
    const far = `${label}.${label}.${label}.${label}.example`;
    const { broker, audit, errors } = await world((_request, response) =>
      response.writeHead(302, { location: `https://${far}/collect` }).end(),
    );
    await expect(broker.fetch("forecast", "https://api.forecast.example/away", {}, contextFor())).rejects.toMatchObject(
      { code: "DESTINATION_REFUSED" },
    );
    const records = (await audit.forUser(ALICE)).reverse();
    expect(records).toMatchObject([
      { outcome: "ok", detail: { host: "api.forecast.example", status: 302 } },
      { outcome: "refused" },
    ]);
    expect(records[1]?.detail?.host?.startsWith(label)).toBe(true);
    expect(records[1]?.detail?.reason).toContain("redirected elsewhere");
    expect(errors).toEqual([]);
  });

  it("a client naming itself at great length, or with an empty version, is still recorded (cleaned as on the hand-off records)", async () => {
    const { broker, audit, listed, errors } = await world();
    const long = `agent ${"x".repeat(600)}`;
    await broker.fetch("forecast", "https://api.forecast.example/v1", {}, withClient({ name: long, version: "1.0" }));
    await broker.fetch("forecast", "https://api.forecast.example/v1", {}, withClient({ name: "agent", version: "" }));
    await broker.fetch(
      "forecast",
      "https://api.forecast.example/v1",
      {},
      withClient({ name: "agent", version: "2.1.0" }),
    );
    expect(listed.received).toHaveLength(3);
    const records = (await audit.forUser(ALICE)).reverse();
    expect(records).toHaveLength(3);
    expect(records[0]?.client?.name).toBe(long.slice(0, 100));
    expect(records[0]?.client?.version).toBe("1.0");
    expect(records[1]?.client).toEqual({ name: "agent" });
    expect(records[2]?.client).toEqual({ name: "agent", version: "2.1.0" });
    expect(errors).toEqual([]);
  });
});

describe("ctx.credentials.fetch: a method of its own is recorded", () => {
  it("a method with a hyphen (SSDP's M-SEARCH) is recorded as sent; a plain one as well (control)", async () => {
    const { broker, audit, listed, errors } = await world();
    await broker.fetch("forecast", "https://api.forecast.example/v1", { method: "M-SEARCH" }, contextFor());
    await broker.fetch("forecast", "https://api.forecast.example/v1", { method: "PUT" }, contextFor());
    expect(listed.received.map((request) => request.method)).toEqual(["M-SEARCH", "PUT"]);
    const records = (await audit.forUser(ALICE)).reverse();
    expect(records.map((record) => record.detail?.method)).toEqual(["M-SEARCH", "PUT"]);
    expect(errors).toEqual([]);
  });

  it("a refused request with a method that is no HTTP token is still recorded, without the method", async () => {
    const { broker, audit } = await world();
    await broker.fetch("forecast", "https://evil.example/v1", { method: "GET /x" }, contextFor()).catch(() => {});
    const records = await audit.forUser(ALICE);
    expect(records).toMatchObject([{ outcome: "refused", detail: { host: "evil.example" } }]);
    expect(records[0]?.detail?.method).toBeUndefined();
  });
});

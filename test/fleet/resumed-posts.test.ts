/**
 * A POST's SSE stream resumed on another instance of a fleet (spec 2025-11-25: basic/transports §
 * Resumability and Redelivery): the instance the GET lands on replays what the shared event store
 * holds of the stream, then goes on with what the instance serving the POST stores on it later,
 * the response included, and ends the stream once that instance says it got every response.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { ElicitationResult, McpClient } from "../../src/client/index.js";
import { type FleetRig, fleetRig, type Name, textOf, until } from "./support.js";

let rig: FleetRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

interface Asked {
  client: McpClient;
  /** Answers the `elicitation/create` the client received. */
  answer(result: ElicitationResult): void;
  /** The result of the `ask` call, as text. */
  result: Promise<string>;
}

/** A client of alice's served by A alone, whose `ask` call A is waiting on (its question arrived). */
async function askOnA(r: FleetRig): Promise<Asked> {
  let answer: ((result: ElicitationResult) => void) | undefined;
  r.steer("A");
  const client = await r.client({ protocolVersion: "2025-11-25" }, "alice", (c) =>
    c.setElicitationHandler(
      () =>
        new Promise<ElicitationResult>((resolve) => {
          answer = resolve;
        }),
    ),
  );
  await until(() => (r.instances.A.served.includes("GET") ? true : undefined));
  const result = client.callTool({ name: "ask" }).then(textOf);
  await until(() => answer);
  r.steer(undefined);
  return { client, answer: (value) => answer?.(value), result };
}

/** The `Last-Event-ID`s of the GETs every instance served, A's stream of the session's GET aside. */
const resumptions = (r: FleetRig) =>
  (["A", "B", "C"] as Name[]).flatMap((name) => r.instances[name].lastEventIds).filter((id) => id !== undefined);

describe("fleet: a POST's stream resumed on another instance", () => {
  it("carries the response that the serving instance produces after the resumption", async () => {
    rig = await fleetRig();
    const asked = await askOnA(rig);
    rig.steer("C");
    rig.drop("A", "POST");
    // The resumed connection is open on C before the answer that lets A respond is sent.
    await until(() =>
      [...(rig as FleetRig).instances.C.responses].some((res) => res.req.method === "GET" && res.headersSent) ||
      resumptions(rig as FleetRig).length > 1
        ? true
        : undefined,
    );
    asked.answer({ action: "accept", content: { colour: "blue" } });
    expect(await asked.result).toBe("blue, asked by A");
    // One resumption carried it: C neither ended the stream early nor made the client poll.
    expect(resumptions(rig)).toHaveLength(1);
    expect(rig.instances.C.lastEventIds).toHaveLength(1);
  });

  it("control: resumed after the response was stored, replays it and ends", async () => {
    rig = await fleetRig();
    const asked = await askOnA(rig);
    const gets = rig.holdGets();
    rig.steer("B");
    rig.drop("A", "POST");
    await until(() => (gets.waiting > 0 ? true : undefined));
    asked.answer({ action: "accept", content: { colour: "green" } });
    // A has the answer (forwarded by B) and stores its response while the client is away.
    const responded = () => rig?.stored.some((m) => JSON.stringify(m).includes("green, asked by A"));
    await until(() => (responded() ? true : undefined));
    rig.steer("C");
    gets.release();
    expect(await asked.result).toBe("green, asked by A");
    expect(resumptions(rig)).toHaveLength(1);
  });
});

/**
 * What the instances of a fleet tell each other about a session's POST streams resumed elsewhere:
 * the messages are checked on receipt, and a stream of another session is never acted on.
 */
import { describe, expect, it } from "vitest";
import { InProcessMessageBus } from "../../src/stores/index.js";
import { FleetLink, type FleetShared, streamTagOf } from "../../src/transports/http/fleet-link.js";
import { decodeFleetMessage, encodeFleetMessage } from "../../src/transports/http/fleet-messages.js";
import { MemoryEventStore } from "../../src/transports/http/index.js";
import { MemorySessionDirectory } from "../../src/transports/http/memory-session-directory.js";

const OTHER = "BBBBBBBBBBBBBBBB";

describe("fleet messages about resumed streams", () => {
  it("decode as sent, and a malformed one says why", () => {
    const sent = [
      { v: 1, from: OTHER, kind: "stored", stream: "s.1" },
      { v: 1, from: OTHER, kind: "following", to: "A", stream: "s.1" },
      { v: 1, from: OTHER, kind: "streamEnd", stream: "s.1" },
    ] as const;
    for (const message of sent) expect(decodeFleetMessage(encodeFleetMessage(message))).toEqual(message);
    expect(decodeFleetMessage(JSON.stringify({ v: 1, from: OTHER, kind: "stored", stream: 7 }))).toHaveProperty(
      "invalid",
    );
    expect(decodeFleetMessage(JSON.stringify({ v: 1, from: OTHER, kind: "following", stream: "s.1" }))).toHaveProperty(
      "invalid",
    );
    expect(decodeFleetMessage(JSON.stringify({ v: 1, from: OTHER, kind: "streamEnd" }))).toHaveProperty("invalid");
  });

  it("attack: a stream of another session is ignored and reported; control: the session's own is acted on", async () => {
    const bus = new InProcessMessageBus();
    const reports: Error[] = [];
    const shared: FleetShared = {
      instance: "AAAAAAAAAAAAAAAA",
      directory: new MemorySessionDirectory(),
      bus,
      store: new MemoryEventStore(),
      ttlMs: 60_000,
      touchEveryMs: 15_000,
      report: (error) => reports.push(error),
      channel: (sessionId) => `sessions:${sessionId}`,
      replicate: async () => false,
      subscribedTo: async () => undefined,
    };
    const heard: string[] = [];
    const link = new FleetLink(
      shared,
      "session-s",
      undefined,
      {
        stored: () => heard.push("stored"),
        forwarded: () => {},
        listeningElsewhere: () => {},
        ended: () => {},
        streamStored: (stream) => heard.push(`streamStored ${stream}`),
        following: (stream) => heard.push(`following ${stream}`),
        streamEnded: (stream) => heard.push(`streamEnded ${stream}`),
      },
      undefined,
    );
    await link.join();
    const own = `${streamTagOf("session-s")}.${OTHER}.1`;
    const foreign = `${streamTagOf("session-t")}.${OTHER}.1`;
    const publish = (message: object) => bus.publish("sessions:session-s", JSON.stringify(message));
    for (const stream of [foreign, own]) {
      await publish({ v: 1, from: OTHER, kind: "stored", stream });
      await publish({ v: 1, from: OTHER, kind: "following", to: shared.instance, stream });
      await publish({ v: 1, from: OTHER, kind: "streamEnd", stream });
    }
    // Another instance's follower is not this one's business.
    await publish({ v: 1, from: OTHER, kind: "following", to: "CCCCCCCCCCCCCCCC", stream: own });
    expect(heard).toEqual([`streamStored ${own}`, `following ${own}`, `streamEnded ${own}`]);
    expect(reports).toHaveLength(3);
    await link.leave();
  });
});

import { describe, expect, it } from "vitest";
import { InProcessMessageBus } from "../../src/stores/index.js";
import { runMessageBusContract } from "./message-bus.contract.js";

runMessageBusContract("in-process", (onerror) => new InProcessMessageBus({ onerror }));

describe("InProcessMessageBus", () => {
  it("has delivered to every subscriber by the time publish resolves", async () => {
    const bus = new InProcessMessageBus();
    const seen: string[] = [];
    await bus.subscribe("s", (m) => seen.push(`1:${m}`));
    await bus.subscribe("s", (m) => seen.push(`2:${m}`));
    const published = bus.publish("s", "now");
    expect(seen).toEqual(["1:now", "2:now"]);
    await published;
  });

  it("skips a subscriber that an earlier handler unsubscribed during the same delivery", async () => {
    const bus = new InProcessMessageBus();
    const seen: string[] = [];
    let unsubscribeSecond = async () => {};
    await bus.subscribe("s", () => {
      seen.push("first");
      void unsubscribeSecond();
    });
    unsubscribeSecond = await bus.subscribe("s", () => seen.push("second"));
    await bus.publish("s", "m");
    expect(seen).toEqual(["first"]);
  });
});

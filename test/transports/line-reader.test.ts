import { describe, expect, it } from "vitest";
import { LineReader } from "../../src/transports/stdio/line-reader.js";

function reader(maxLineBytes?: number) {
  const events: string[] = [];
  const lines = new LineReader(
    {
      line: (text) => events.push(`line ${text}`),
      oversized: (bytes, max) => events.push(`oversized ${bytes}/${max}`),
      invalidUtf8: (bytes) => events.push(`invalid ${bytes}`),
    },
    maxLineBytes === undefined ? {} : { maxLineBytes },
  );
  return { lines, events };
}

describe("LineReader", () => {
  it("takes plain Uint8Array chunks as well as Buffers", () => {
    const { lines, events } = reader();
    lines.push(new TextEncoder().encode("ab"));
    lines.push(new TextEncoder().encode("c\nd\n"));
    expect(events).toEqual(["line abc", "line d"]);
  });

  it("counts bytes, not characters, against the limit", () => {
    const { lines, events } = reader(4);
    lines.push(Buffer.from("éé\néééé\n"));
    expect(events).toEqual(["line éé", "oversized 8/4"]);
  });

  it("reports an oversized last line at the end of the stream", () => {
    const { lines, events } = reader(4);
    lines.push(Buffer.from("0123456789"));
    lines.push(Buffer.from("0123456789"));
    lines.end();
    expect(events).toEqual(["oversized 20/4"]);
  });

  it("reports nothing at the end of a stream that ended with a newline", () => {
    const { lines, events } = reader();
    lines.push(Buffer.from("x\n"));
    lines.end();
    expect(events).toEqual(["line x"]);
  });

  it("rejects a limit that is not a positive integer", () => {
    expect(() => reader(0)).toThrow(RangeError);
    expect(() => reader(1.5)).toThrow(RangeError);
  });
});

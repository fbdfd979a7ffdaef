/**
 * Streamable HTTP: ms per `tools/call` of `echo` with a large text, one call at a time in one
 * session, with every server answering JSON, then with every server answering SSE. The text
 * goes up in the request and comes back in the answer, so both directions carry it.
 */
import { startHttpServer } from "../impl/process.js";
import type { AnswerForm } from "../impl/types.js";
import { msPerOperation, runBounded } from "./loop.js";
import { type FigureSpec, type Scale, scaledCount, scaledTime, type Workload } from "./types.js";

const KIB = 1024;
const MIB = KIB * KIB;
const SIZES = [
  { id: "1k", label: "1 KiB", bytes: KIB, count: 1_000, timeMs: 2_000 },
  { id: "64k", label: "64 KiB", bytes: 64 * KIB, count: 200, timeMs: 2_000 },
  { id: "1m", label: "1 MiB", bytes: MIB, count: 40, timeMs: 3_000 },
  { id: "8m", label: "8 MiB", bytes: 8 * MIB, count: 8, timeMs: 5_000 },
  { id: "32m", label: "32 MiB", bytes: 32 * MIB, count: 3, timeMs: 8_000 },
] as const;
const FORMS = [
  { form: "json", label: "JSON" },
  { form: "sse", label: "SSE" },
] as const satisfies readonly { form: AnswerForm; label: string }[];

export const httpPayload: Workload = {
  id: "http-payload",
  title: "Streamable HTTP: echo of large strings",
  description:
    "One echo at a time of an ASCII string of each size (the answer's length is checked) in one session, the server started once answering JSON and once answering SSE; one warm-up call per size. Every client and server is set to accept messages up to 64 MiB.",
  splits: true,
  // Reading an answer takes time linear in its size: four times the bytes, about four times the time.
  within: FORMS.map(({ form, label }) => ({
    label: `32 MiB ÷ 8 MiB, ${label} answer`,
    figure: `${form}-32m`,
    base: `${form}-8m`,
  })),
  figures: FORMS.flatMap(({ form, label }) =>
    SIZES.map(
      ({ id, label: size }): FigureSpec => ({
        id: `${form}-${id}`,
        label: `${size}, ${label} answer`,
        unit: "ms/call",
        better: "lower",
      }),
    ),
  ),
  async run({ client, server: served }, scale: Scale) {
    const figures: Record<string, number> = {};
    for (const { form } of FORMS) {
      const server = await startHttpServer(served.httpServer, form);
      try {
        const session = await client.openHttp(server.url);
        try {
          for (const { id, bytes, count, timeMs } of SIZES) {
            const text = "x".repeat(bytes);
            const call = async () => {
              const echoed = await session.echo(text);
              if (echoed.length !== bytes) throw new Error(`echo of ${bytes} bytes came back with ${echoed.length}`);
            };
            await call();
            const bounds = { count: scaledCount(count, scale), timeMs: scaledTime(timeMs, scale) };
            figures[`${form}-${id}`] = msPerOperation(await runBounded(bounds, call));
          }
        } finally {
          await session.close();
        }
      } finally {
        await server.stop();
      }
    }
    return figures;
  },
};

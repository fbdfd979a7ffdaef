/**
 * The spans of the connect pages: each page of an interaction and each third-party answer is a
 * step of the hand-off, placed in the trace of the request that created the interaction (read
 * from the interaction as stored, so it joins that trace on whichever instance serves the page).
 * An active span of another trace (an HTTP server instrumentation's) is linked. Attributes name
 * the HTTP method, the status answered and the provider, never the URL, a cookie, `code` or `state`.
 */
import type { UserInteraction } from "../model/interaction.js";
import { ATTR, STEP, type Tracing } from "../tracing/index.js";

type Read = (id: string) => Promise<UserInteraction | undefined>;

/** Runs `serve` (the page for interaction `id`) inside a `STEP.pageOpened` span. */
export async function tracedPage(
  tracing: Tracing,
  read: Read,
  id: string,
  method: string,
  serve: () => Promise<Response>,
): Promise<Response> {
  if (!tracing.on) return serve();
  const from = await read(id);
  return tracing.step(
    STEP.pageOpened,
    { "http.request.method": method },
    async (span) => {
      const response = await serve();
      span?.setAttribute("http.response.status_code", response.status);
      return response;
    },
    from === undefined ? {} : { from },
  );
}

/** Runs `finish` (exchanging the code, storing the credential) inside a `STEP.callback` span. */
export async function tracedCallback(
  tracing: Tracing,
  read: Read,
  interactionId: string,
  provider: string,
  finish: () => Promise<Response>,
): Promise<Response> {
  if (!tracing.on) return finish();
  const from = await read(interactionId);
  return tracing.step(
    STEP.callback,
    { [ATTR.provider]: provider },
    async (span) => {
      const response = await finish();
      span?.setAttribute("http.response.status_code", response.status);
      return response;
    },
    from === undefined ? {} : { from },
  );
}

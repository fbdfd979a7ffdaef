/**
 * Where a `Last-Event-ID` resumes a session's stream (spec: basic/transports § Resumability and
 * Redelivery). An id the event store cannot place in this session is as good as evicted: the
 * client cannot get what followed it, so the resumption is refused with 410 rather than served
 * as a fresh stream that silently lacks those events.
 */
import { SdkError } from "../../jsonrpc/errors.js";
import { type EventStore, EventsEvictedError } from "./event-store.js";

/** The stream the id belongs to, or why it cannot be resumed (for the 410's message). */
export type ResumePoint = { streamId: string } | { gone: string };

/**
 * Looks `lastEventId` up in `store` without sending anything. `tag` prefixes the stream ids of
 * the resuming session. `onerror` hears a store failure other than an unknown or evicted id.
 */
export async function placeLastEventId(
  store: EventStore | undefined,
  lastEventId: string,
  tag: () => string,
  onerror: ((error: Error) => void) | undefined,
): Promise<ResumePoint> {
  const cannot = `Gone: the stream of Last-Event-ID "${lastEventId}" cannot be resumed`;
  if (store === undefined) return { gone: `${cannot}: this server stores no events` };
  const named = store.streamIdOf?.(lastEventId);
  // Another session's stream is never read, so its ids cost nothing and tell nothing of it.
  if (named !== undefined && !named.startsWith(`${tag()}.`))
    return { gone: `${cannot}: it is no event of this session` };
  let streamId: string;
  try {
    streamId = await store.replayEventsAfter(lastEventId, async () => {});
  } catch (error) {
    if (error instanceof EventsEvictedError) {
      return {
        gone: `Gone: events after Last-Event-ID "${lastEventId}" are no longer stored; the stream cannot be resumed`,
      };
    }
    // An unknown id is the client's news, not the server's; a store that failed otherwise is.
    if (!(error instanceof SdkError)) onerror?.(error instanceof Error ? error : new Error(String(error)));
    return { gone: `${cannot}: the server does not know that event id` };
  }
  if (!streamId.startsWith(`${tag()}.`)) return { gone: `${cannot}: it is no event of this session` };
  return { streamId };
}

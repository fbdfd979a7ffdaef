/**
 * Fleet: the streams of POSTs served by another instance that a client resumed here (spec
 * 2025-11-25: basic/transports § Resumability and Redelivery: the server replays "the messages
 * that would have been sent after the last event ID, on the stream that was disconnected, and
 * resumes the stream from that point"). The connection gets what the shared event store holds of
 * the stream after its `Last-Event-ID`, then what the serving instance stores on it later (it
 * announces each), and ends when that instance says the stream got every response it owed. If
 * that instance is gone, nothing more comes: the connection lasts until its allowed age
 * (`maxSseConnectionMs`), and the client resumes again from where it got to.
 */

import type { EventStore } from "./event-store.js";
import type { HttpReply } from "./exchange.js";
import type { FleetLink } from "./fleet-link.js";
import { endStaleConnection, NO_REQUESTS, newStream, type OutboundStream, rotateStream } from "./outbound-stream.js";
import { SseSink } from "./sinks.js";

interface Follower {
  stream: OutboundStream;
  /** The id of the last event written to the client from here. */
  cursor: string;
}

export class FollowedStreams {
  readonly #followed = new Map<string, Follower>();

  /**
   * @param retryMs sent as `retry` when a connection reaches its allowed age (`maxSseConnectionMs`).
   * @param report hears a store that failed while replaying (the connection ends; the client resumes again).
   */
  constructor(
    private readonly store: EventStore,
    private readonly link: FleetLink,
    private readonly retryMs: number,
    private readonly report: (error: Error) => void,
  ) {}

  /**
   * Attaches a GET that resumes stream `streamId` of a POST that instance `owner` serves, after
   * `lastEventId`; a connection that resumed it here before is ended (the client lost it).
   */
  follow(streamId: string, owner: string, lastEventId: string, headers: Record<string, string>): HttpReply {
    const previous = this.#followed.get(streamId);
    if (previous !== undefined) endStaleConnection(previous.stream);
    const stream = previous?.stream ?? newStream(streamId, NO_REQUESTS);
    const follower: Follower = { stream, cursor: lastEventId };
    this.#followed.set(streamId, follower);
    const sink = new SseSink(() => {
      if (stream.sink === sink) stream.sink = undefined;
      if (stream.sink === undefined && this.#followed.get(streamId) === follower) this.#followed.delete(streamId);
    });
    sink.onexpire = () => {
      rotateStream(stream, sink, this.retryMs, async () => follower.cursor).catch((error: unknown) =>
        this.#fail(stream, sink, error),
      );
    };
    stream.sink = sink;
    this.catchUp(streamId, false);
    // Subscribed already (the replica joined the bus first): nothing stored from now on is missed.
    void this.link.follow(owner, streamId);
    return sink.reply(headers);
  }

  /** Writes what was stored on `streamId` after the cursor; with `end`, then ends the connection. */
  catchUp(streamId: string, end: boolean): void {
    const follower = this.#followed.get(streamId);
    const stream = follower?.stream;
    const sink = stream?.sink;
    if (follower === undefined || stream === undefined || !(sink instanceof SseSink) || !sink.open) return;
    stream.chain = stream.chain
      .then(async () => {
        if (stream.sink !== sink || !sink.open) return;
        await this.store.replayEventsAfter(follower.cursor, async (eventId, message) => {
          if (stream.sink !== sink || !sink.open) return;
          sink.write(message, eventId);
          follower.cursor = eventId;
        });
        if (end && stream.sink === sink) {
          stream.sink = undefined;
          sink.end();
        }
      })
      .catch((error: unknown) => this.#fail(stream, sink, error));
  }

  /** Ends every connection (the session closed here). */
  close(): void {
    for (const { stream } of this.#followed.values()) {
      stream.sink?.end();
      stream.sink = undefined;
    }
    this.#followed.clear();
  }

  #fail(stream: OutboundStream, sink: SseSink, error: unknown): void {
    // Events lost after the cursor: the client resumes again, and is refused (410) if they are gone.
    if (stream.sink === sink) stream.sink = undefined;
    sink.end();
    this.report(error instanceof Error ? error : new Error(String(error)));
  }
}

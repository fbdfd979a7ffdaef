/** What a `JsonRpcSession` uses when it is given nothing: shared by every session, made once. */
import type { RequestHandler, RequestOptions } from "./session-types.js";
import type { SendOptions } from "./transport.js";

/** The options of a request that passes none, shared. */
export const NO_REQUEST_OPTIONS: RequestOptions = Object.freeze({});

/** The send options of a message that belongs to no inbound request, shared. */
export const NO_SEND_OPTIONS: SendOptions = Object.freeze({});

/** `ping` is answered with an empty result (spec: basic/utilities/ping). */
export const answerPing: RequestHandler = () => ({});

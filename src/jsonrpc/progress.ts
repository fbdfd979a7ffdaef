/** Progress notifications (spec: basic/utilities/progress). */

/** A progress token chosen by the requester; unique across its active requests. */
export type ProgressToken = string | number;

/** One `notifications/progress` update, without its token. */
export interface Progress {
  /** Increases with every notification, even when the total is unknown. */
  progress: number;
  /** The value `progress` reaches when the work is done, if known. */
  total?: number;
  /** What is happening now, for a person to read. */
  message?: string;
}

/** Receives each progress update of one request, in arrival order, until its response settles it. */
export type ProgressCallback = (progress: Progress) => void;

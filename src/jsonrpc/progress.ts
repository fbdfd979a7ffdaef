/** Progress notifications (spec: basic/utilities/progress). */

/** A progress token chosen by the requester; unique across its active requests. */
export type ProgressToken = string | number;

export interface Progress {
  /** Increases with every notification, even when the total is unknown. */
  progress: number;
  total?: number;
  message?: string;
}

export type ProgressCallback = (progress: Progress) => void;

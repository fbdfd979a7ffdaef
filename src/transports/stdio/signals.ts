/** Graceful shutdown of a stdio server when its parent asks it to stop. */

export interface CloseOnSignalsOptions {
  /** Default `["SIGTERM", "SIGINT"]`. */
  signals?: NodeJS.Signals[];
  /**
   * Exit the process once `close()` has settled: with code 0 after a clean close, 1 when close
   * threw. Default `true`, because a signal listener replaces Node's default of exiting.
   */
  exit?: boolean;
}

/**
 * Calls `closeable.close()` on the first of `signals`, once. The listeners are removed as
 * soon as one signal arrives, so a second signal terminates the process the default way
 * (a second Ctrl-C forces the exit). Returns a function that removes the listeners.
 */
export function closeOnSignals(closeable: { close(): unknown }, options: CloseOnSignalsOptions = {}): () => void {
  const signals = options.signals ?? ["SIGTERM", "SIGINT"];
  const exit = options.exit ?? true;
  const remove = () => {
    for (const signal of signals) process.off(signal, onSignal);
  };
  const onSignal = () => {
    remove();
    Promise.resolve()
      .then(() => closeable.close())
      .then(
        () => {
          if (exit) process.exit(0);
        },
        (error: unknown) => {
          process.stderr.write(`Closing on signal failed: ${error instanceof Error ? error.message : String(error)}\n`);
          if (exit) process.exit(1);
        },
      );
  };
  for (const signal of signals) process.on(signal, onSignal);
  return remove;
}

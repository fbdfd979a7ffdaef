/**
 * Whether `value` is a promise or any other thenable (an object or function with a callable
 * `then`), which `await` and `Promise.resolve` would follow. Reads `then` once; a getter that
 * throws throws here, so callers read it where a handler's own failure is caught.
 */
export function isPromiseLike<T = unknown>(value: unknown): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

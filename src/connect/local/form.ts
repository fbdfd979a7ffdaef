/**
 * Reading a local page's form post with a bound: the pages' own form is a few hundred bytes, so a
 * body larger than `MAX_FORM_BYTES` is refused unread (by its `Content-Length`) or as soon as the
 * bytes read pass the bound.
 */

/** Bytes a local page's form post may have: 65,536. */
export const MAX_FORM_BYTES = 64 * 1024;

/** Whether `request` says in advance that its body is larger than a form. */
export function declaresTooLarge(request: Request): boolean {
  const length = request.headers.get("content-length");
  return length !== null && /^\d+$/.test(length) && Number(length) > MAX_FORM_BYTES;
}

/** The fields of an `application/x-www-form-urlencoded` post; `"too-large"` past `MAX_FORM_BYTES`. */
export async function readLocalForm(request: Request): Promise<Record<string, string> | "too-large"> {
  const fields: Record<string, string> = {};
  if (request.body === null) return fields;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BYTES) {
      await reader.cancel().catch(() => {});
      return "too-large";
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  for (const [name, value] of new URLSearchParams(text)) {
    if ((name === "action" || name === "csrf" || name === "secret") && !Object.hasOwn(fields, name)) {
      fields[name] = value;
    }
  }
  return fields;
}

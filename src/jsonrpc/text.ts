/**
 * Shortening text without breaking it: a cut between the two halves of a surrogate pair would
 * leave a lone surrogate, which is not Unicode and which strict peers refuse.
 */

/**
 * `text` cut to at most `maxLength` UTF-16 code units, one unit shorter when the cut would fall
 * inside a surrogate pair (an emoji, say); `text` itself when it is short enough.
 */
export function cutText(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  const last = text.charCodeAt(maxLength - 1);
  // A high surrogate as the last unit kept is the first half of a pair whose second half is cut off.
  const end = last >= 0xd800 && last <= 0xdbff ? maxLength - 1 : maxLength;
  return text.slice(0, Math.max(0, end));
}

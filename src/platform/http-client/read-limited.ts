/**
 * An answer's body, at most `max` bytes: refused on a larger Content-Length before reading, and
 * cut off as soon as more arrives than allowed (a server that lies about, or omits, the length).
 * `tooLarge` makes the caller's own error.
 */
export async function readLimited(response: Response, max: number, tooLarge: () => Error): Promise<Uint8Array> {
  if (Number(response.headers.get('content-length') ?? '0') > max) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (response.body === null) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

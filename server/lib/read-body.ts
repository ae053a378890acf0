// Request bodies are read with a cap, so no caller can make the server buffer without end:
// the public API (256 KiB, D26) and the provider callbacks (which need the exact bytes to check
// signatures) use the same reader.

/** The bytes of `source`; null as soon as they exceed `max` (or the declared length does). */
export async function readCapped(source: AsyncIterable<Uint8Array>, declaredLength: number, max: number): Promise<Buffer | null> {
  if (declaredLength > max) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A route handler's body (a web `Request`), capped. */
export function readRequestBody(req: Request, max: number): Promise<Buffer | null> {
  if (!req.body) return Promise.resolve(Buffer.alloc(0));
  return readCapped(req.body as unknown as AsyncIterable<Uint8Array>, Number(req.headers.get("content-length") ?? 0), max);
}

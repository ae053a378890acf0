import { IncomingMessage, type ServerResponse } from "node:http";

// Request bodies are read with a cap, so no caller can make the server buffer without end:
// the public API (256 KiB, D26), the requests handed to Next (D51) and the provider callbacks
// (which need the exact bytes to check signatures) use these readers.

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

/**
 * A Node request's body, counted as it streams; null as soon as it exceeds `max` (or the
 * declared length does). On null the request is left paused, its connection open, so the
 * caller can still answer (then `dropRest`).
 */
export function readNodeBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  if (Number(req.headers["content-length"] ?? 0) > max) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: Buffer | null, err?: unknown) => {
      req.off("data", onData).off("end", onEnd).off("error", onError);
      if (err) reject(err);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= max) return void chunks.push(chunk);
      req.pause();
      done(null);
    };
    const onEnd = () => done(Buffer.concat(chunks));
    const onError = (err: unknown) => done(null, err);
    req.on("data", onData).on("end", onEnd).on("error", onError);
  });
}

/**
 * Answers a request whose body is too large, and closes the connection: the rest of the body
 * is dropped as it comes (never kept). The close lingers a second after the answer, reading
 * and dropping, so a client still sending gets the answer rather than a reset.
 */
export function refuseBody(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
  dropRest(req);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", Connection: "close" }).end(body);
}

/**
 * Drops the rest of a refused body as it comes, and makes the connection's close, once the
 * answer is sent, linger a second. Node's own close would reset a connection that still has
 * unread bytes, and a reset can reach a client still sending before it has read the answer:
 * it then sees a broken pipe instead of the refusal.
 */
export function dropRest(req: IncomingMessage): void {
  const socket = req.socket;
  socket.destroySoon = () => {
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  };
  req.resume();
}

/**
 * The request Next may read, its body capped at `max` bytes (D51), or null when the body is
 * larger (the caller answers 413). A declared length is checked before anything is read, and
 * Node never reads past it; a chunked body is read here, counting as it streams, and handed
 * on whole in a request of its own.
 */
export async function cappedRequest(req: IncomingMessage, max: number): Promise<IncomingMessage | null> {
  if (req.headers["transfer-encoding"] === undefined) return Number(req.headers["content-length"] ?? 0) > max ? null : req;
  const body = await readNodeBody(req, max);
  if (!body) return null;
  const whole = new IncomingMessage(req.socket);
  whole.method = req.method;
  whole.url = req.url;
  whole.httpVersionMajor = req.httpVersionMajor;
  whole.httpVersionMinor = req.httpVersionMinor;
  whole.httpVersion = req.httpVersion;
  const { "transfer-encoding": _chunked, ...headers } = req.headers;
  whole.headers = { ...headers, "content-length": String(body.length) };
  whole.rawHeaders = Object.entries(whole.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.flatMap((x) => [k, x]) : [k, String(v)]));
  whole.push(body);
  whole.push(null);
  whole.complete = true;
  return whole;
}

/** One answer of the service, as the campaigns read it. */
export interface Reply {
  status: number;
  contentType: string;
  text: string;
  /** the body parsed as JSON, or undefined */
  json: unknown;
  headers: Headers;
}

/** The request a campaign sends: a JSON body is serialised, a string is sent as written. */
export interface Send {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
}

export async function send(req: Send): Promise<Reply> {
  const headers: Record<string, string> = { ...req.headers };
  let body: string | undefined;
  if (typeof req.body === 'string') body = req.body;
  else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(req.url, { method: req.method, headers, body, signal: AbortSignal.timeout(req.timeoutMs ?? 60_000) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text, json, headers: res.headers };
}

/** The body as the load clients read it: parsed JSON, else the text as it came, null when empty. */
export function bodyOf(reply: Reply): unknown {
  if (reply.text === '') return null;
  return reply.json === undefined ? reply.text : reply.json;
}

/** A string field of a JSON answer, or a thrown error naming the call (setup steps must not go on without it). */
export function field(reply: Reply, name: string, what: string): string {
  const value = reply.json !== null && typeof reply.json === 'object' ? (reply.json as Record<string, unknown>)[name] : undefined;
  if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`${what}: no ${name} in ${reply.status} ${reply.text.slice(0, 400)}`);
  return String(value);
}

/** Throws unless the answer has the status a setup step needs. */
export function expectStatus(reply: Reply, statuses: number | number[], what: string): Reply {
  const wanted = Array.isArray(statuses) ? statuses : [statuses];
  if (!wanted.includes(reply.status)) throw new Error(`${what}: ${reply.status} ${reply.text.slice(0, 600)}`);
  return reply;
}

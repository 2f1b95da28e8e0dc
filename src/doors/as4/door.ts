import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { As4Receiver } from '../../modules/delivery/index.ts';

/** Where other Access Points push AS4 messages (the URL our SMP entries name, behind TLS). */
export const AS4_PATH = '/as4';

export interface As4DoorDeps {
  receiver: As4Receiver;
  /** AS4_MAX_BODY_BYTES: a larger request is refused unread */
  maxBodyBytes: number;
  /** AS4_BODY_TIMEOUT_MS: a sender that has not sent its whole body by then is cut off */
  bodyTimeoutMs: number;
  log: Logger;
}

export function isAs4Path(url: string): boolean {
  return url === AS4_PATH || url.startsWith(`${AS4_PATH}?`);
}

type Body = { ok: true; body: Buffer } | { ok: false; status: number; reason: string };

/**
 * The AS4 front door: neither JSON API, so no Koa pipeline. It reads the body as a stream within
 * a size bound and a time limit, hands it to the delivery module's receiver, and answers what that
 * returns: a signed Receipt or an ebMS Error signal, both with HTTP 200. An error signal is an
 * ordinary SOAP message, not a SOAP Fault (SOAP 1.2 part 2, 7.5.2.2), and phase4 answers its
 * error signals with 200 too; phase4 senders up to 4.1.0 read no body of a non-2xx answer, so a
 * 4xx would hide our error code from them. Only a request whose body never arrived (too large,
 * too slow, cut short) gets a 4xx, still with an error signal. Hostile input never gets a 5xx;
 * only a failure of our own (the database) does, so the sender retries.
 */
export function as4Door(deps: As4DoorDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const answer = (res: ServerResponse, status: number, reply: { contentType: string; body: Buffer }, close = false) => {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': reply.contentType, 'content-length': String(reply.body.length), ...(close ? { connection: 'close' } : {}) });
    res.end(reply.body);
  };
  return async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' }).end('AS4 messages are POSTed here\n');
      return;
    }
    const read = await readBody(req, deps.maxBodyBytes, deps.bodyTimeoutMs);
    if (!read.ok) {
      answer(res, read.status, deps.receiver.refuse(read.reason), true);
      // what is left of a refused body is not read: the connection goes
      res.once('finish', () => req.destroy());
      return;
    }
    try {
      const reply = await deps.receiver.receive(req.headers['content-type'] ?? '', read.body);
      answer(res, 200, reply);
    } catch (error) {
      deps.log.error({ err: error }, 'AS4 receiving failed');
      if (!res.headersSent) res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '60' }).end('the message could not be taken now: send it again later\n');
    }
  };
}

/** The whole body, or why not: larger than allowed (413) or not complete in time (408). */
function readBody(req: IncomingMessage, max: number, timeoutMs: number): Promise<Body> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > max) {
      resolve({ ok: false, status: 413, reason: `the message is larger than this Access Point accepts (${max} bytes)` });
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (result: Body) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      if (!result.ok) req.pause();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ ok: false, status: 408, reason: `the message did not arrive within ${timeoutMs} ms` }), timeoutMs);
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > max) {
        finish({ ok: false, status: 413, reason: `the message is larger than this Access Point accepts (${max} bytes)` });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish({ ok: true, body: Buffer.concat(chunks, received) }));
    req.once('error', () => finish({ ok: false, status: 400, reason: 'the request was cut short' }));
    req.once('aborted', () => finish({ ok: false, status: 400, reason: 'the request was cut short' }));
  });
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SvcVerification, verifyLegacySignature, verifySvcSignature } from '../../src/modules/webhooks/transport/signatures.ts';
import { type Polling, eventually } from './poll.ts';

/** How the receiver answers one arrival. */
export type Answer =
  | { status: number; delayMs?: number; body?: string }
  | { hang: true } // reads the request, never answers
  | { stall: true } // sends 200 and the start of a body, never finishes it
  | { drop: true } // closes the connection without an answer
  | { redirectTo: string; status?: 301 | 302 | 303 | 307 | 308 };

export interface Arrival {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  /** the sender's port: equal ports mean one keep-alive connection */
  remotePort: number;
  /** Date.now() when the whole body had arrived */
  receivedAt: number;
  /** the svc-signature check a consumer would make (null when no secret is set) */
  svc: SvcVerification | null;
  svcValid: boolean;
  legacyValid: boolean;
}

export interface ReceiverOptions {
  /** the endpoint's whsec_ secret, to verify both signatures as a consumer would */
  secret?: string;
  /** the answer to every arrival, or per arrival (0-based); default 200 */
  answer?: Answer | ((index: number, arrival: Arrival) => Answer);
  /** the consumer's clock for the 300 s tolerance, in unix seconds (default: the real one) */
  nowUnix?: () => number;
  /** false keeps only the count (for a bench): arrivals stays empty */
  record?: boolean;
  /** the loopback address to listen on: 127.0.0.1 (default) or ::1 */
  host?: '127.0.0.1' | '::1';
}

/**
 * A local webhook consumer for tests and the bench: listens on 127.0.0.1 on an ephemeral port,
 * records every arrival as received, and answers as told.
 */
export class WebhookReceiver {
  readonly arrivals: Arrival[] = [];
  /** every arrival, recorded or not */
  count = 0;
  secret: string | undefined;
  answer: Answer | ((index: number, arrival: Arrival) => Answer);
  private readonly nowUnix: () => number;
  private readonly record: boolean;
  private readonly server: http.Server;
  private readonly host: string;

  private constructor(options: ReceiverOptions) {
    this.secret = options.secret;
    this.answer = options.answer ?? { status: 200 };
    this.nowUnix = options.nowUnix ?? (() => Math.floor(Date.now() / 1000));
    this.record = options.record ?? true;
    this.host = options.host ?? '127.0.0.1';
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  static async start(options: ReceiverOptions = {}): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(options);
    await new Promise<void>((resolve, reject) => {
      receiver.server.once('error', reject);
      receiver.server.listen(0, receiver.host, () => resolve());
    });
    receiver.port = (receiver.server.address() as AddressInfo).port;
    return receiver;
  }

  /** the port it listens on (still known after close, for a test of a closed port) */
  port = 0;

  /** A URL to this receiver; `host` (a name, say) is what the URL says, not where it connects. */
  url(path = '/hook', host = this.host.includes(':') ? `[${this.host}]` : this.host): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** Waits until at least `n` arrivals came (a condition, not a fixed sleep). */
  async waitFor(n: number, polling: Polling = {}): Promise<Arrival[]> {
    await eventually(async () => this.count, (count) => count >= n, { what: `${n} webhook arrivals`, everyMs: 10, ...polling });
    return this.arrivals;
  }

  /** Stops listening and cuts every open connection, hanging ones included. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const arrival = this.arrivalOf(req, rawBody);
      const index = this.count++;
      if (this.record) this.arrivals.push(arrival);
      const answer = typeof this.answer === 'function' ? this.answer(index, arrival) : this.answer;
      respond(res, answer);
    });
  }

  private arrivalOf(req: http.IncomingMessage, rawBody: Buffer): Arrival {
    const svcHeader = header(req, 'svc-signature');
    const svc = this.secret === undefined ? null : verifySvcSignature(svcHeader, this.secret, rawBody, this.nowUnix());
    const legacyValid = this.secret !== undefined && verifyLegacySignature(header(req, 'x-webhook-signature'), this.secret, rawBody);
    return {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawBody,
      remotePort: req.socket.remotePort ?? 0,
      receivedAt: Date.now(),
      svc,
      svcValid: svc?.ok === true,
      legacyValid,
    };
  }
}

function header(req: http.IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function respond(res: http.ServerResponse, answer: Answer): void {
  if ('hang' in answer) return;
  if ('drop' in answer) {
    res.socket?.destroy();
    return;
  }
  if ('stall' in answer) {
    res.writeHead(200, { 'content-type': 'text/plain' }).write('partial');
    return;
  }
  if ('redirectTo' in answer) {
    res.writeHead(answer.status ?? 302, { location: answer.redirectTo }).end();
    return;
  }
  const send = (): void => {
    if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
  };
  if (answer.delayMs) setTimeout(send, answer.delayMs);
  else send();
}

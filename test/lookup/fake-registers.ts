import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** A canned answer: a recorded file (or a literal body), its status, and an optional delay. */
export interface Canned {
  file?: string;
  body?: string;
  status?: number;
  delayMs?: number;
}

export interface FakeRegisters {
  /** http://127.0.0.1:<port> */
  url: string;
  /** answers by path and query exactly as requested ("/rpo/v1/search?identifier=50100017") */
  routes: Map<string, Canned>;
  /** every request's path and query, in order */
  requests: string[];
  close(): Promise<void>;
}

const RECORDED = path.join(import.meta.dirname, 'recorded');
export const recorded = (file: string) => readFileSync(path.join(RECORDED, file), 'utf8');

/** One local HTTP server playing RPO, RegisterUZ and VIES from recorded answers; anything unknown is 404. Nothing leaves the machine. */
export async function startFakeRegisters(): Promise<FakeRegisters> {
  const routes = new Map<string, Canned>();
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    const canned = routes.get(url);
    const answer = () => {
      if (!canned) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
        return;
      }
      res.writeHead(canned.status ?? 200, { 'content-type': 'application/json; charset=utf-8' }).end(canned.body ?? recorded(canned.file ?? ''));
    };
    if (canned?.delayMs) setTimeout(answer, canned.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { guardedRequest, type GuardedRequest } from '../../src/platform/http-client/guarded-request.ts';
import type { Resolver } from '../../src/platform/http-client/target-guard.ts';

describe('guarded request (the SSRF guard for outbound calls to hosts others name)', () => {
  let server: Server;
  let port: number;
  const seen: { path: string; host: string | undefined }[] = [];

  before(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', host: req.headers.host });
      if (req.url === '/redirect') return void res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
      if (req.url === '/big') return void res.writeHead(200).end('x'.repeat(10_000));
      if (req.url === '/slow') return void setTimeout(() => res.writeHead(200).end('late'), 2_000);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => void (seen.length = 0));

  const loopbackOk: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const request = (path: string, overrides: Partial<GuardedRequest> = {}): Promise<Awaited<ReturnType<typeof guardedRequest>>> =>
    guardedRequest({ url: `http://smp.example.test:${port}${path}`, timeoutMs: 500, maxBodyBytes: 1_000, guard: { allowLoopback: true, resolve: loopbackOk }, ...overrides });

  it('connects to the address the guard admitted, sending the name as Host', async () => {
    const answer = await request('/hello');
    expect(answer).to.deep.include({ ok: true, status: 200 });
    if (answer.ok) expect(answer.body.toString()).to.equal('hello');
    expect(seen).to.deep.equal([{ path: '/hello', host: `smp.example.test:${port}` }]);
  });

  it('refuses a name resolving to a private or loopback address, asking nothing', async () => {
    const privateAddress: Resolver = async () => [{ address: '192.168.1.10', family: 4 }];
    const refused = await request('/hello', { guard: { allowLoopback: true, resolve: privateAddress } });
    expect(refused).to.deep.include({ ok: false, failure: 'refused_target' });
    const loopback = await request('/hello', { guard: { allowLoopback: false, resolve: loopbackOk } });
    expect(loopback).to.deep.include({ ok: false, failure: 'refused_target' });
    expect(seen).to.deep.equal([]);
  });

  it('resolves once: a rebinding resolver cannot move the connection after the check', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => (calls++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }]);
    expect(await request('/hello', { guard: { allowLoopback: true, resolve: rebinding } })).to.deep.include({ ok: true });
    expect(calls).to.equal(1);
  });

  it('does not follow a redirect', async () => {
    const answer = await request('/redirect');
    expect(answer).to.deep.include({ ok: false, failure: 'redirect' });
    expect(seen.map((s) => s.path)).to.deep.equal(['/redirect']);
  });

  it('cuts off a body larger than allowed, and a server slower than the deadline', async () => {
    expect(await request('/big')).to.deep.include({ ok: false, failure: 'too_large' });
    const started = Date.now();
    expect(await request('/slow')).to.deep.include({ ok: false, failure: 'timeout' });
    expect(Date.now() - started).to.be.below(1_500);
  });

  it('keeps the address it met out of the reason a client may read', async () => {
    const privateAddress: Resolver = async () => [{ address: '10.9.8.7', family: 4 }];
    const answer = await request('/hello', { guard: { allowLoopback: false, resolve: privateAddress } });
    expect(answer.ok).to.equal(false);
    if (!answer.ok) {
      expect(answer.reason).to.not.include('10.9.8.7');
      expect(answer.detail).to.include('10.9.8.7');
    }
  });
});

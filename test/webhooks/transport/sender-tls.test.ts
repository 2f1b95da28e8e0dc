import { expect } from 'chai';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { sendWebhook } from '../../../src/modules/webhooks/transport/sender.ts';
import { TEST_TLS_CERT, TEST_TLS_KEY, TEST_TLS_NAME } from './tls-fixture.ts';

describe('webhook sender over TLS to a pinned address', () => {
  let server: https.Server;
  let port: number;
  const seen: { servername: string | false | null; host: string | undefined }[] = [];
  // trusts the test certificate only; the webhook agents use the system's roots
  const agent = new https.Agent({ keepAlive: true, ca: TEST_TLS_CERT });

  before(async () => {
    server = https.createServer({ cert: TEST_TLS_CERT, key: TEST_TLS_KEY }, (req, res) => {
      seen.push({ servername: (req.socket as TLSSocket).servername, host: req.headers.host });
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (host: string) =>
    sendWebhook({ url: `https://${host}:${port}/hook`, address: '127.0.0.1', family: 4, headers: {}, body: '{}', timeoutMs: 10_000, agent });

  it('sends the URL host as SNI and Host, and checks the certificate against it, not the address', async () => {
    expect(await send(TEST_TLS_NAME)).to.include({ outcome: 'success', http_status: 200 });
    expect(seen).to.deep.equal([{ servername: TEST_TLS_NAME, host: `${TEST_TLS_NAME}:${port}` }]);
  });

  it('fails as a connection error when the certificate is not for the URL host', async () => {
    const result = await send('other.example.test');
    expect(result).to.include({ outcome: 'connection', http_status: null, error: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });
});

import { expect } from 'chai';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sendWebhook } from '../../../src/modules/webhooks/transport/sender.ts';
import { legacySignature, svcSignature } from '../../../src/modules/webhooks/transport/signatures.ts';
import { eventually } from '../../support/poll.ts';

/** The guide's code, run as a consumer would run it: the doc cannot drift from what we send. */
const GUIDE = new URL('../../../README.md', import.meta.url);

async function snippets(): Promise<{ js: string[]; text: string }> {
  const text = await readFile(GUIDE, 'utf8');
  const js = [...text.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  return { js, text };
}

describe('the webhook consumer guide', () => {
  const secret = 'whsec_guide_snippet_secret_42';
  const previous = 'whsec_guide_snippet_previous_41';
  let dir: string;
  let child: ChildProcess | undefined;
  let port = 0;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'webhook-guide-'));
  });
  after(async () => {
    child?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  it('publishes the same test vectors as the signature tests', async () => {
    const { text } = await snippets();
    expect(text).to.include('t=1700000000,v1=bfa9f37f982109ac7dc19d01fadc91d692a1aaa094f49c7cf827dcb27cf1a2f2');
    expect(text).to.include('sha256=f1d3bd8d1cd0dfd3db9c05c4e0668be1b7c8d1f751bf46377ec83a22b4a5f7e6');
    expect(svcSignature('whsec_8xK2mQ7vN4pR1tY6wZ3bC9dF5gH0jL2s', 1700000000, '{"id":"evt_00000000000000000000000000000001","type":"test.vector","data":{"text":"Faktúra č. 2024/001 – Žilina"}}')).to.equal(
      't=1700000000,v1=bfa9f37f982109ac7dc19d01fadc91d692a1aaa094f49c7cf827dcb27cf1a2f2',
    );
  });

  it("its receiver accepts what we send, once per event id, and refuses stale or forged signatures", async () => {
    const { js } = await snippets();
    const file = join(dir, 'webhook-receiver.mjs');
    await writeFile(file, js[0] ?? '');
    const output: string[] = [];
    child = spawn(process.execPath, [file], { env: { ...process.env, WEBHOOK_SECRET: secret, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const listening = await eventually(async () => /listening on (\d+)/.exec(output.join('')), (m) => m !== null, { what: 'the guide receiver listening' });
    port = Number(listening?.[1]);

    const body = '{"id":"6c1f9a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b","event":"test.ping","created_at":"2024-05-01T10:00:00Z","data":{"invoice_id":null}}';
    const now = Math.floor(Date.now() / 1000);
    const send = (signature: string) =>
      sendWebhook({
        url: `http://127.0.0.1:${port}/`,
        address: '127.0.0.1',
        family: 4,
        headers: { 'svc-signature': signature, 'X-Webhook-Event': 'test.ping', 'X-Webhook-Event-Id': '6c1f9a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b' },
        body,
        timeoutMs: 10_000,
      });

    expect(await send(svcSignature(secret, now, body))).to.include({ http_status: 204 });
    expect(await send(svcSignature(secret, now, body))).to.include({ http_status: 204 });
    expect(await send(svcSignature(secret, now - 301, body))).to.include({ http_status: 401 });
    expect(await send(svcSignature('whsec_someone_else', now, body))).to.include({ http_status: 401 });
    expect(await send(svcSignature(previous, now, body, secret))).to.include({ http_status: 204 }); // a rotation overlap
    await eventually(async () => output.join(''), (text) => text.includes('event test.ping'), { what: 'the event logged' });
    expect(output.join('').match(/event test\.ping/g)).to.have.length(1);
  });

  it('its legacy check accepts our X-Webhook-Signature and refuses another secret', async () => {
    const { js } = await snippets();
    const file = join(dir, 'legacy.mjs');
    await writeFile(file, `${js[1] ?? ''}\nexport { verifyLegacySignature };\n`);
    const module = (await import(pathToFileURL(file).href)) as { verifyLegacySignature: (h: string, raw: Buffer, s: string) => boolean };
    const body = '{"id":"x","event":"invoice.delivered","data":{"invoice_id":"y"}}';
    expect(module.verifyLegacySignature(legacySignature(secret, body), Buffer.from(body), secret)).to.equal(true);
    expect(module.verifyLegacySignature(legacySignature(previous, body), Buffer.from(body), secret)).to.equal(false);
  });
});

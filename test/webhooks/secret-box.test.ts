import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadWebhookKey, newWebhookSecret } from '../../src/modules/webhooks/secret-box.ts';
import { secretBox, SecretKeyConfigError } from '../../src/platform/secret-box.ts';

describe('webhook secrets at rest', () => {
  it('seals so that only the key opens it, and never shows the plaintext', () => {
    const box = secretBox(randomBytes(32));
    const secret = newWebhookSecret();
    expect(secret).to.match(/^whsec_[A-Za-z0-9_-]{43}$/);
    const sealed = box.seal(secret);
    expect(sealed).to.match(/^v1\./).and.not.to.contain(secret.slice(6));
    expect(box.seal(secret)).not.to.equal(sealed); // a fresh IV each time
    expect(box.open(sealed)).to.equal(secret);
    expect(() => secretBox(randomBytes(32)).open(sealed)).to.throw();
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = `${body![0] === 'A' ? 'B' : 'A'}${body!.slice(1)}`;
    expect(() => box.open([v, iv, tag, flipped].join('.'))).to.throw(); // GCM refuses a changed ciphertext
  });

  it('the embedded default makes a key once and keeps it (0600); elsewhere it must be configured', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'whkey-'));
    try {
      const first = await loadWebhookKey({ configured: undefined, dataDir: dir, embedded: true });
      const again = await loadWebhookKey({ configured: undefined, dataDir: dir, embedded: true });
      expect(again.equals(first)).to.equal(true);
      expect((await stat(path.join(dir, 'webhook-secret.key'))).mode & 0o777).to.equal(0o600);
      expect((await readFile(path.join(dir, 'webhook-secret.key'), 'utf8')).trim()).to.equal(first.toString('base64'));
      const configured = randomBytes(32).toString('base64');
      expect((await loadWebhookKey({ configured, dataDir: dir, embedded: false })).toString('base64')).to.equal(configured);
      let refused: unknown = null;
      await loadWebhookKey({ configured: undefined, dataDir: dir, embedded: false }).catch((e: unknown) => { refused = e; });
      expect(refused).to.be.instanceOf(SecretKeyConfigError);
      refused = null;
      await loadWebhookKey({ configured: 'c2hvcnQ=', dataDir: dir, embedded: false }).catch((e: unknown) => { refused = e; });
      expect(refused).to.be.instanceOf(SecretKeyConfigError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

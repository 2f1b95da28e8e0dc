import { expect } from 'chai';
import { type ResolvedAddress, type Resolver, type TargetCheck, checkTarget, systemResolver } from '../../src/platform/http-client/target-guard.ts';

const PUBLIC = '93.184.215.14';

/** A DNS stub: answers each call with the next entry (the last one repeats); records what it was asked. */
function stub(...answers: (ResolvedAddress[] | Error)[]): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    asked.push(host);
    const answer = answers[Math.min(asked.length - 1, answers.length - 1)];
    if (answer instanceof Error || answer === undefined) throw answer ?? new Error('no answer');
    return answer;
  };
  return Object.assign(resolve, { asked });
}

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });
const notFound = (): Error => Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });

const strict = (resolve: Resolver) => ({ allowLoopback: false, resolve });
const loopbackAllowed = (resolve: Resolver) => ({ allowLoopback: true, resolve });

function refused(check: TargetCheck): string {
  if (check.ok) throw new Error(`expected a refusal, got ${JSON.stringify(check)}`);
  return check.code;
}

describe('webhook target guard', () => {
  it('admits a host whose every address is public, and pins the first', async () => {
    const resolve = stub([v4(PUBLIC), v6('2606:4700:4700::1111')]);
    const check = await checkTarget('https://hooks.example.com/in?x=1', strict(resolve));
    expect(check).to.deep.equal({ ok: true, host: 'hooks.example.com', port: 443, protocol: 'https:', address: PUBLIC, family: 4 });
    expect(resolve.asked).to.deep.equal(['hooks.example.com']);
  });

  it('gives the port written in the URL, or the scheme default', async () => {
    const resolve = stub([v4(PUBLIC)]);
    expect(await checkTarget('http://hooks.example.com/', strict(resolve))).to.include({ port: 80, protocol: 'http:' });
    expect(await checkTarget('https://hooks.example.com:8443/', strict(resolve))).to.include({ port: 8443 });
  });

  it('checks again on every call: a DNS answer that turns to 127.0.0.1 refuses the second check', async () => {
    const resolve = stub([v4(PUBLIC)], [v4('127.0.0.1')]);
    const first = await checkTarget('https://rebind.example.com/', strict(resolve));
    const second = await checkTarget('https://rebind.example.com/', strict(resolve));
    expect(first.ok).to.equal(true);
    expect(refused(second)).to.equal('address_not_public');
  });

  it('refuses a host with one private address among public ones', async () => {
    const resolve = stub([v4(PUBLIC), v4('10.0.0.5')]);
    expect(refused(await checkTarget('https://mixed.example.com/', strict(resolve)))).to.equal('address_not_public');
    const sixFirst = stub([v6('2606:4700:4700::1111'), v6('fd00::1')]);
    expect(refused(await checkTarget('https://mixed.example.com/', strict(sixFirst)))).to.equal('address_not_public');
  });

  it('refuses a host that does not resolve, or resolves to nothing', async () => {
    expect(refused(await checkTarget('https://nowhere.invalid/', strict(stub(notFound()))))).to.equal('unresolvable');
    expect(refused(await checkTarget('https://empty.example.com/', strict(stub([]))))).to.equal('unresolvable');
  });

  const literals: [string, string][] = [
    ['http://127.0.0.1/', 'dotted loopback'],
    ['http://2130706433/', 'decimal 127.0.0.1'],
    ['http://0177.0.0.1/', 'octal 127.0.0.1'],
    ['http://0x7f.1/', 'hex 127.0.0.1'],
    ['http://0x7f000001/', 'one hex number'],
    ['http://127.1/', 'short form'],
    ['http://0/', '0.0.0.0'],
    ['http://[::1]/', 'IPv6 loopback'],
    ['http://[::ffff:127.0.0.1]/', 'IPv4-mapped loopback'],
    ['http://[::ffff:a9fe:a9fe]/', 'IPv4-mapped metadata'],
    ['http://[64:ff9b::7f00:1]/', 'NAT64 loopback'],
    ['http://[64:ff9b::169.254.169.254]/', 'NAT64 metadata'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://2852039166/', 'decimal 169.254.169.254'],
    ['http://10.0.0.1/', 'private'],
    ['http://0xa.0.0.1/', 'hex private'],
    ['http://100.64.0.1/', 'CGNAT'],
    ['http://[fe80::1]/', 'IPv6 link-local'],
    ['http://[fc00::1]/', 'IPv6 unique local'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
  ];
  for (const [url, why] of literals) {
    it(`refuses the literal ${url} (${why}) without asking DNS`, async () => {
      const resolve = stub([v4(PUBLIC)]);
      expect(refused(await checkTarget(url, strict(resolve)))).to.equal('address_not_public');
      expect(resolve.asked).to.deep.equal([]);
    });
  }

  it('admits a public literal, and pins it', async () => {
    expect(await checkTarget('https://8.8.8.8/', strict(stub()))).to.include({ ok: true, address: '8.8.8.8', family: 4 });
    expect(await checkTarget('https://[2606:4700:4700::1111]/', strict(stub()))).to.include({
      ok: true,
      host: '2606:4700:4700::1111',
      address: '2606:4700:4700::1111',
      family: 6,
    });
  });

  it('refuses a host name that resolves to loopback', async () => {
    expect(refused(await checkTarget('http://localhost:8080/', strict(stub([v4('127.0.0.1'), v6('::1')]))))).to.equal(
      'address_not_public',
    );
  });

  it('resolves with the system resolver by default: localhost is loopback', async () => {
    expect(refused(await checkTarget('http://localhost/', strict(systemResolver)))).to.equal('address_not_public');
    expect(await checkTarget('http://localhost/', loopbackAllowed(systemResolver))).to.include({ ok: true });
  });

  it('refuses schemes other than http and https', async () => {
    for (const url of ['ftp://hooks.example.com/', 'file:///etc/passwd', 'gopher://hooks.example.com/', 'javascript:alert(1)']) {
      expect(refused(await checkTarget(url, strict(stub([v4(PUBLIC)]))))).to.equal('scheme_not_allowed');
    }
  });

  it('refuses credentials in the URL', async () => {
    for (const url of ['https://user:pass@hooks.example.com/', 'https://user@hooks.example.com/', 'https://:pass@hooks.example.com/']) {
      expect(refused(await checkTarget(url, strict(stub([v4(PUBLIC)]))))).to.equal('credentials_in_url');
    }
  });

  it('refuses what does not parse as a URL', async () => {
    expect(refused(await checkTarget('not a url', strict(stub([v4(PUBLIC)]))))).to.equal('invalid_url');
    expect(refused(await checkTarget('http://[::1/', strict(stub([v4(PUBLIC)]))))).to.equal('invalid_url');
  });

  it('tells the client only the kind of address (reason, message); the address and its class stay in detail, for our logs', async () => {
    const check = await checkTarget('http://[64:ff9b::7f00:1]/', strict(stub()));
    expect(check).to.deep.include({
      ok: false, code: 'address_not_public', reason: 'loopback', message: 'the host is a loopback address',
      detail: '64:ff9b::7f00:1 resolves to 64:ff9b::7f00:1 (nat64 of 127.0.0.1), which is loopback (loopback)',
    });
    const cases: [string, Resolver, string, string][] = [
      ['http://internal.example/', stub([v4('10.20.30.40')]), 'private', 'the host resolves to a private network address'],
      ['http://localhost/', stub([v4('127.0.0.1'), v6('::1')]), 'loopback', 'the host resolves to a loopback address'],
      ['http://metadata.example/', stub([v4('169.254.169.254')]), 'link_local', 'the host resolves to a link-local address'],
      ['http://cgnat.example/', stub([v4('100.64.7.7')]), 'not_public', 'the host resolves to an address that is not public (reserved, shared, multicast or unspecified space)'],
      ['http://nowhere.invalid/', stub(notFound()), 'unresolvable', 'the host does not resolve'],
    ];
    for (const [url, resolve, reason, message] of cases) {
      const refusal = await checkTarget(url, strict(resolve));
      expect(refusal, url).to.deep.include({ ok: false, reason, message });
      expect(refusal.ok ? '' : refusal.detail, url).to.include(new URL(url).hostname);
    }
  });

  describe('with loopback allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS)', () => {
    it('admits 127.0.0.1, [::1] and a name resolving to loopback', async () => {
      expect(await checkTarget('http://127.0.0.1:4000/hook', loopbackAllowed(stub()))).to.include({ ok: true, address: '127.0.0.1', port: 4000 });
      expect(await checkTarget('http://127.9.9.9/', loopbackAllowed(stub()))).to.include({ ok: true });
      expect(await checkTarget('http://[::1]:4000/', loopbackAllowed(stub()))).to.include({ ok: true, address: '::1', family: 6 });
      expect(await checkTarget('http://localhost/', loopbackAllowed(stub([v4('127.0.0.1'), v6('::1')])))).to.include({ ok: true });
    });

    it('still refuses private, link-local, other non-public and unresolvable targets', async () => {
      for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/', 'http://192.168.0.1/', 'http://[fe80::1]/', 'http://100.64.0.1/', 'http://0.0.0.0/']) {
        expect(refused(await checkTarget(url, loopbackAllowed(stub()))), url).to.equal('address_not_public');
      }
      expect(refused(await checkTarget('http://nowhere.invalid/', loopbackAllowed(stub(notFound()))))).to.equal('unresolvable');
      expect(refused(await checkTarget('http://mixed.example/', loopbackAllowed(stub([v4('127.0.0.1'), v4('10.0.0.1')]))))).to.equal(
        'address_not_public',
      );
    });

    it('admits only plain loopback, not a mapped or NAT64 form of it', async () => {
      expect(refused(await checkTarget('http://[::ffff:127.0.0.1]/', loopbackAllowed(stub())))).to.equal('address_not_public');
      expect(refused(await checkTarget('http://[64:ff9b::7f00:1]/', loopbackAllowed(stub())))).to.equal('address_not_public');
    });
  });
});

import { expect } from 'chai';
import { pino } from 'pino';
import { DomainError } from '../../commands/shared/domain-error.ts';
import type { CompanyFacts, SourceName } from '../../commands/lookup/sources.ts';
import { companyLookupService, type CompanyLookupService } from '../../src/modules/lookup/registers/company-lookup.ts';
import type { CompanyRegistry, LookupKey } from '../../src/modules/lookup/registers/port.ts';
import { sandboxRegistry } from '../../src/modules/lookup/registers/sandbox/index.ts';
import { SANDBOX_COMPANIES } from '../../src/modules/lookup/registers/sandbox/fixtures.ts';
import { dicProblem, icDphProblem, icoProblem } from '../../commands/shared/slovak-identifiers.ts';

/** A source that answers what the test says, when the test says, and counts what it was asked. */
function scripted(source: SourceName, answer: (key: LookupKey, signal: AbortSignal) => Promise<CompanyFacts | null>, needsDic = false) {
  const asked: LookupKey[] = [];
  const registry: CompanyRegistry = { source, needsDic, find: (key, signal) => (asked.push(key), answer(key, signal)) };
  return { registry, asked };
}
const never = () => new Promise<never>(() => {});
const ICO = '50100017';
const DIC = '2023456710';

describe('company lookup: sources, time limits and the cache', function () {
  let now = Date.parse('2026-05-20T10:00:00Z');
  const clock = { now: () => new Date(now) };
  const service = (registries: CompanyRegistry[], options: { ttl?: number; timeout?: number } = {}): CompanyLookupService => companyLookupService({
    registries, clock, log: pino({ level: 'silent' }), timeoutsMs: { rpo: options.timeout ?? 50, registeruz: options.timeout ?? 50, vies: options.timeout ?? 50 },
    cacheTtlMs: options.ttl ?? 3600_000, cacheMaxEntries: 100,
  });
  const rpo = () => scripted('rpo', async () => ({ name: 'Kŕdeľ s.r.o.', city: 'Košice' }));
  const ruz = () => scripted('registeruz', async () => ({ dic: DIC }));
  const vies = () => scripted('vies', async () => ({ vat_registered: true }), true);

  beforeEach(() => (now = Date.parse('2026-05-20T10:00:00Z')));

  it('asks VIES second, with the DIČ RegisterUZ gave, and the day as today', async () => {
    const v = vies();
    const answer = await service([rpo().registry, ruz().registry, v.registry]).byIco(ICO);
    expect(v.asked).to.deep.equal([{ ico: ICO, dic: DIC, today: '2026-05-20' }]);
    expect(answer).to.include({ ic_dph: `SK${DIC}`, is_vat_registered: true });
  });

  it('does not ask VIES without a DIČ, nor when no register knows the company', async () => {
    const v = vies();
    await service([rpo().registry, scripted('registeruz', async () => null).registry, v.registry]).byIco(ICO);
    const nobody = service([scripted('rpo', async () => null).registry, scripted('registeruz', async () => null).registry, v.registry]);
    await nobody.byIco('50100025').catch(() => undefined);
    expect(v.asked).to.deep.equal([]);
  });

  it('a source past its time limit is left out, its request aborted, the answer partial', async () => {
    let aborted = false;
    const slow = scripted('vies', (_key, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => ((aborted = true), reject(new Error('aborted'))))), true);
    const started = Date.now();
    const answer = await service([rpo().registry, ruz().registry, slow.registry], { timeout: 80 }).byIco(ICO);
    expect(Date.now() - started).to.be.below(1_000);
    expect(aborted).to.equal(true);
    expect(answer.sources).to.deep.equal(['rpo', 'registeruz']);
  });

  it('a source that ignores the abort is not waited for either', async () => {
    const answer = await service([scripted('rpo', never).registry, ruz().registry, vies().registry], { timeout: 60 }).byIco(ICO);
    expect(answer.sources).to.deep.equal(['registeruz', 'vies']);
  });

  it('a source that throws is left out like one that is down', async () => {
    const broken = scripted('rpo', async () => {
      throw new Error('HTTP 500');
    });
    expect((await service([broken.registry, ruz().registry, vies().registry]).byIco(ICO)).sources).to.deep.equal(['registeruz', 'vies']);
  });

  it('every identity register down: 502, not cached', async () => {
    let up = false;
    const flaky = scripted('rpo', async () => (up ? { name: 'Späť s.r.o.' } : Promise.reject(new Error('down'))));
    const lookups = service([flaky.registry, scripted('registeruz', () => Promise.reject(new Error('down'))).registry, vies().registry]);
    const refusal = await lookups.byIco(ICO).catch((e: unknown) => e);
    expect(refusal).to.be.instanceOf(DomainError).and.include({ code: 'company_registry_unavailable' });
    up = true;
    expect((await lookups.byIco(ICO)).name).to.equal('Späť s.r.o.');
  });

  it('caches a complete answer for the TTL, then asks again', async () => {
    const r = rpo();
    const lookups = service([r.registry, ruz().registry, vies().registry], { ttl: 3600_000 });
    await lookups.byIco(ICO);
    now += 3599_000;
    await lookups.byIco(ICO);
    expect(r.asked).to.have.length(1);
    now += 2_000;
    await lookups.byIco(ICO);
    expect(r.asked).to.have.length(2);
  });

  it('keeps a partial answer only a minute, a not-found ten', async () => {
    const r = rpo();
    const lookups = service([r.registry, ruz().registry, scripted('vies', () => Promise.reject(new Error('MS_UNAVAILABLE')), true).registry]);
    await lookups.byIco(ICO);
    now += 61_000;
    await lookups.byIco(ICO);
    expect(r.asked).to.have.length(2);

    const missing = scripted('rpo', async () => null);
    const none = service([missing.registry, scripted('registeruz', async () => null).registry]);
    for (const minutes of [0, 9]) {
      now += minutes * 60_000;
      expect(await none.byIco('50100025').catch((e: DomainError) => e.code)).to.equal('company_not_found');
    }
    expect(missing.asked).to.have.length(1);
    now += 2 * 60_000;
    await none.byIco('50100025').catch(() => undefined);
    expect(missing.asked).to.have.length(2);
  });

  it('a TTL of 0 caches nothing', async () => {
    const r = rpo();
    const lookups = service([r.registry, ruz().registry, vies().registry], { ttl: 0 });
    await lookups.byIco(ICO);
    await lookups.byIco(ICO);
    expect(r.asked).to.have.length(2);
  });

  it('the same IČO asked by many at once is asked of the registers once', async () => {
    const r = rpo();
    const lookups = service([r.registry, ruz().registry, vies().registry]);
    const answers = await Promise.all(Array.from({ length: 10 }, () => lookups.byIco(ICO)));
    expect(r.asked).to.have.length(1);
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).to.equal(1);
  });

  it('refuses an impossible IČO or search text before asking anyone', async () => {
    const r = rpo();
    const lookups = service([r.registry]);
    expect(await lookups.byIco('50100018').catch((e: Error) => e.name)).to.equal('InvalidFields');
    expect(await lookups.search('ab', 10).catch((e: Error) => e.name)).to.equal('InvalidFields');
    expect(r.asked).to.have.length(0);
  });

  it('search: what the searching sources found, cached by the folded text', async () => {
    const sandbox = sandboxRegistry();
    const lookups = service(sandbox.registries);
    expect(await lookups.search('  Košice ', 10)).to.deep.equal({
      query: 'Košice', results: [{ ico: '50100025', name: 'Stavebniny Košice a.s.', street: 'Južná trieda 8', city: 'Košice', terminated: false }],
    });
    expect((await lookups.search('KOSICE', 10)).results).to.have.length(1);
    expect(sandbox.calls.rpo).to.equal(1);
  });
});

describe('the sandbox register\'s fixtures', () => {
  it('every IČO has a valid check digit and every DIČ is 10 digits; a VAT-registered one makes a valid IČ DPH', () => {
    for (const c of SANDBOX_COMPANIES) {
      expect(icoProblem(c.ico), c.ico).to.equal(null);
      if (c.dic !== null) expect(dicProblem(c.dic), c.dic).to.equal(null);
      if (c.vat_registered) expect(icDphProblem(`SK${c.dic}`), c.name).to.equal(null);
    }
  });

  it('holds each case a lookup meets: VAT-registered, not, terminated, without a DIČ, names with diacritics', () => {
    expect(SANDBOX_COMPANIES.some((c) => c.vat_registered)).to.equal(true);
    expect(SANDBOX_COMPANIES.some((c) => !c.vat_registered && c.dic !== null && !c.terminated)).to.equal(true);
    expect(SANDBOX_COMPANIES.some((c) => c.terminated)).to.equal(true);
    expect(SANDBOX_COMPANIES.some((c) => c.dic === null)).to.equal(true);
    expect(SANDBOX_COMPANIES.filter((c) => /[áäčďéíĺľňóôŕšťúýž]/i.test(c.name)).length).to.be.above(3);
    expect(new Set(SANDBOX_COMPANIES.map((c) => c.ico)).size).to.equal(SANDBOX_COMPANIES.length);
  });
});

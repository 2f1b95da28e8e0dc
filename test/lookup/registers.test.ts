import { expect } from 'chai';
import { pino } from 'pino';
import { loadConfig } from '../../src/platform/config.ts';
import { companyLookupService, configuredRegistries } from '../../src/modules/lookup/registers/index.ts';
import { registerUzRegistry } from '../../src/modules/lookup/registers/registeruz.ts';
import { rpoRegistry } from '../../src/modules/lookup/registers/rpo.ts';
import { viesRegistry } from '../../src/modules/lookup/registers/vies.ts';
import { startFakeRegisters, type FakeRegisters } from './fake-registers.ts';

/**
 * The live adapters (RPO, RegisterUZ, VIES) against recorded answers served by a local fake
 * (test/lookup/recorded). No test touches the internet.
 */
const TODAY = '2026-05-20';
const signal = () => AbortSignal.timeout(5_000);

describe('live company registers against recorded answers', function () {
  this.timeout(30_000);
  let fake: FakeRegisters;

  beforeEach(async () => {
    fake = await startFakeRegisters();
  });
  afterEach(async () => fake.close());

  const rpo = () => rpoRegistry({ baseUrl: `${fake.url}/rpo/v1` });
  const ruz = () => registerUzRegistry({ baseUrl: `${fake.url}/cruz-public/api/` });
  const vies = () => viesRegistry({ baseUrl: `${fake.url}/vies/rest-api` });
  const key = (ico: string, dic: string | null = null) => ({ ico, dic, today: TODAY });

  /** RPO knows 50100017 (entity 1234567) and 50100041 (7654321, terminated); RegisterUZ 50100017's unit; VIES two DIČs. */
  function recordedRegisters(): void {
    fake.routes.set('/rpo/v1/search?identifier=50100017', { file: 'rpo-search-ico.json' });
    fake.routes.set('/rpo/v1/entity/1234567', { file: 'rpo-entity.json' });
    fake.routes.set('/rpo/v1/search?identifier=50100041', { file: 'rpo-search-name.json' });
    fake.routes.set('/rpo/v1/entity/7654321', { file: 'rpo-entity-terminated.json' });
    fake.routes.set('/rpo/v1/search?identifier=35757442', { file: 'rpo-search-empty.json' });
    fake.routes.set('/rpo/v1/search?fullName=uctovna+kancelaria', { file: 'rpo-search-name.json' });
    fake.routes.set('/cruz-public/api/uctovne-jednotky?zmenene-od=2000-01-01&ico=50100017', { file: 'ruz-units.json' });
    fake.routes.set('/cruz-public/api/uctovna-jednotka?id=1535938', { file: 'ruz-unit.json' });
    fake.routes.set('/cruz-public/api/uctovna-jednotka?id=998877', { file: 'ruz-unit-deleted.json' });
    fake.routes.set('/cruz-public/api/uctovne-jednotky?zmenene-od=2000-01-01&ico=35757442', { file: 'ruz-units-empty.json' });
    fake.routes.set('/vies/rest-api/ms/SK/vat/2023456710', { file: 'vies-valid.json' });
    fake.routes.set('/vies/rest-api/ms/SK/vat/1087654321', { file: 'vies-invalid.json' });
    fake.routes.set('/vies/rest-api/ms/SK/vat/2023456721', { file: 'vies-ms-unavailable.json' });
  }

  describe('RPO', () => {
    it('by IČO: searches by identifier, reads the entity, and takes its current name, seat and legal form', async () => {
      recordedRegisters();
      expect(await rpo().find(key('50100017'), signal())).to.deep.equal({
        name: 'Kŕdeľ Šťastných Ďatľov s.r.o.', street: 'Hlavná 1234/12', city: 'Košice', postal_code: '040 01', country_code: 'SK',
        legal_form_code: '112', terminated: false,
      });
      expect(fake.requests).to.deep.equal(['/rpo/v1/search?identifier=50100017', '/rpo/v1/entity/1234567']);
    });

    it('as of an earlier day, the name and seat of that day', async () => {
      recordedRegisters();
      expect(await rpo().find({ ...key('50100017'), today: '2018-01-01' }, signal())).to.include({ name: 'Ďateľ s.r.o.', street: 'Mlynská 3', city: 'Košice - mestská časť Staré Mesto' });
    });

    it('a terminated company keeps its last name and is marked terminated', async () => {
      recordedRegisters();
      expect(await rpo().find(key('50100041'), signal())).to.include({ name: 'Zaniknutá Účtovná Kancelária s.r.o.', terminated: true, legal_form_code: '112' });
    });

    it('an IČO it does not know is null', async () => {
      recordedRegisters();
      expect(await rpo().find(key('35757442'), signal())).to.equal(null);
    });

    it('searches by name: suggestions with the current seat, terminated marked, entries without an IČO dropped', async () => {
      recordedRegisters();
      expect(await rpo().search?.({ text: 'uctovna kancelaria', ico: null, today: TODAY }, signal())).to.deep.equal([
        { ico: '50100041', name: 'Zaniknutá Účtovná Kancelária s.r.o.', street: 'Obchodná 3', city: 'Bratislava', terminated: true },
        { ico: '50100076', name: 'Bratislavská Účtovná Kancelária, s.r.o.', street: 'Šancová 56', city: 'Bratislava', terminated: false },
      ]);
    });

    it('a search text that is an IČO searches by identifier', async () => {
      recordedRegisters();
      const found = await rpo().search?.({ text: '50 100 017', ico: '50100017', today: TODAY }, signal());
      expect(found?.map((s) => s.name)).to.deep.equal(['Kŕdeľ Šťastných Ďatľov s.r.o.']);
      expect(fake.requests).to.deep.equal(['/rpo/v1/search?identifier=50100017']);
    });

    it('an error status, a body that is not JSON, or one without results is thrown (the source is unavailable)', async () => {
      fake.routes.set('/rpo/v1/search?identifier=50100017', { status: 503, body: 'down for maintenance' });
      fake.routes.set('/rpo/v1/search?identifier=50100025', { body: '<html>' });
      fake.routes.set('/rpo/v1/search?identifier=50100033', { body: '{"error":"x"}' });
      for (const ico of ['50100017', '50100025', '50100033']) {
        const error = await rpo().find(key(ico), signal()).catch((e: Error) => e.message);
        expect(error, ico).to.be.a('string').and.match(/HTTP 503|not JSON|no results/);
      }
    });
  });

  describe('RegisterUZ', () => {
    it('gives the DIČ of the unit in business (a deleted older unit is passed over)', async () => {
      recordedRegisters();
      expect(await ruz().find(key('50100017'), signal())).to.deep.equal({
        name: 'Kŕdeľ Šťastných Ďatľov s.r.o.', street: 'Hlavná 1234/12', city: 'Košice', postal_code: '040 01', dic: '2023456710', legal_form_code: '112', terminated: false,
      });
      expect(fake.requests[0]).to.equal('/cruz-public/api/uctovne-jednotky?zmenene-od=2000-01-01&ico=50100017');
    });

    it('no unit for the IČO is null', async () => {
      recordedRegisters();
      expect(await ruz().find(key('35757442'), signal())).to.equal(null);
    });
  });

  describe('VIES', () => {
    it('SK + DIČ valid: registered; INVALID: not registered', async () => {
      recordedRegisters();
      expect(await vies().find(key('50100017', '2023456710'), signal())).to.deep.equal({ vat_registered: true });
      expect(await vies().find(key('50100050', '1087654321'), signal())).to.deep.equal({ vat_registered: false });
    });

    it('the member state not answering (MS_UNAVAILABLE) or an error status is thrown, never read as "not registered"', async () => {
      recordedRegisters();
      expect(await vies().find(key('50100025', '2023456721'), signal()).catch((e: Error) => e.message)).to.match(/MS_UNAVAILABLE/);
      fake.routes.set('/vies/rest-api/ms/SK/vat/2023456732', { status: 500, body: '{}' });
      expect(await vies().find(key('50100033', '2023456732'), signal()).catch((e: Error) => e.message)).to.match(/HTTP 500/);
    });

    it('is not asked without a DIČ', async () => {
      expect(await vies().find(key('50100068'), signal())).to.equal(null);
      expect(fake.requests).to.deep.equal([]);
    });
  });

  describe('the three together (COMPANY_REGISTRY=live)', () => {
    const live = (timeoutMs = 2_000) => {
      const config = loadConfig({
        COMPANY_REGISTRY: 'live', COMPANY_REGISTRY_RPO_URL: `${fake.url}/rpo/v1`, COMPANY_REGISTRY_REGISTERUZ_URL: `${fake.url}/cruz-public/api`,
        COMPANY_REGISTRY_VIES_URL: `${fake.url}/vies/rest-api`, COMPANY_REGISTRY_VIES_TIMEOUT_MS: String(timeoutMs),
      }).lookup;
      return companyLookupService({
        // the live adapters need no database
        registries: configuredRegistries(config, undefined as never), clock: { now: () => new Date(`${TODAY}T09:00:00Z`) }, log: pino({ level: 'silent' }),
        timeoutsMs: config.timeoutsMs, cacheTtlMs: config.cacheTtlMs, cacheMaxEntries: config.cacheMaxEntries,
      });
    };

    it('merge RPO\'s identity, RegisterUZ\'s DIČ and VIES\'s VAT status into the spec\'s answer', async () => {
      recordedRegisters();
      expect(await live().byIco('50100017')).to.deep.equal({
        ico: '50100017', name: 'Kŕdeľ Šťastných Ďatľov s.r.o.', street: 'Hlavná 1234/12', city: 'Košice', postal_code: '040 01', country_code: 'SK',
        dic: '2023456710', ic_dph: 'SK2023456710', is_vat_registered: true, legal_form_code: '112', sources: ['rpo', 'registeruz', 'vies'],
      });
    });

    it('VIES slower than its time limit: the answer comes without it', async () => {
      recordedRegisters();
      fake.routes.set('/vies/rest-api/ms/SK/vat/2023456710', { file: 'vies-valid.json', delayMs: 1_500 });
      const started = Date.now();
      const answer = await live(200).byIco('50100017');
      expect(Date.now() - started).to.be.below(1_200);
      expect(answer).to.include({ is_vat_registered: false, ic_dph: null, dic: '2023456710' });
      expect(answer.sources).to.deep.equal(['rpo', 'registeruz']);
    });

    it('unknown to both: 404; both down: 502', async () => {
      recordedRegisters();
      expect(await live().byIco('35757442').catch((e: { code: string }) => e.code)).to.equal('company_not_found');
      fake.routes.set('/rpo/v1/search?identifier=50100025', { status: 502, body: '' });
      fake.routes.set('/cruz-public/api/uctovne-jednotky?zmenene-od=2000-01-01&ico=50100025', { status: 503, body: '' });
      expect(await live().byIco('50100025').catch((e: { code: string }) => e.code)).to.equal('company_registry_unavailable');
    });

    it('search goes to RPO with the text as typed (RPO ignores case and diacritics itself)', async () => {
      recordedRegisters();
      fake.routes.set('/rpo/v1/search?fullName=Uctovna+kancelaria', { file: 'rpo-search-name.json' });
      const found = await live().search('Uctovna  kancelaria', 10);
      expect(found.query).to.equal('Uctovna kancelaria');
      expect(found.results.map((r) => [r.ico, r.terminated])).to.deep.equal([['50100076', false], ['50100041', true]]);
    });
  });
});

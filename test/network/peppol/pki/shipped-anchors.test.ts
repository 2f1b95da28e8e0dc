/**
 * The Peppol CA certificates shipped as the default trust (pki/anchors/README.md): pinned by their
 * SHA-256, each issuing CA signed by its root, one issuing CA per bundle; the default applies only
 * to a variable left unset, and our own certificate from another CA refuses the start naming
 * PEPPOL_STAGE. Health says which trust is in use.
 */
import { X509Certificate, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import pino from 'pino';
import { loadPeppolPki, loadTrustAnchors, peppolHealth, shippedAnchorsFile } from '../../../../src/modules/delivery/peppol/pki/index.ts';
import { selfSigned } from '../../../../src/modules/delivery/peppol/pki/trust.ts';
import { ConfigRefused, loadConfig, type PeppolStage } from '../../../../src/platform/config.ts';
import { describeDatabaseFree } from '../../../support/database-free.ts';
import { startTestPki, type TestPki } from '../../../support/peppol-pki.ts';

const SHIPPED: Record<PeppolStage, Record<'ap' | 'smp', { issuing: string; issuingSha256: string; root: string; rootSha256: string }>> = {
  test: {
    ap: { issuing: 'PEPPOL ACCESS POINT TEST CA - G3', issuingSha256: 'd2445a0f115ee64cc141a849fe142927fe5701b7d9b58d3e6f53993162115cc0', root: 'PEPPOL Root TEST CA - G3', rootSha256: '8b4e0e5dc7c8208cba88edebfad31e064740d896ab6e18de0b03386fd24be734' },
    smp: { issuing: 'PEPPOL SERVICE METADATA PUBLISHER TEST CA - G3', issuingSha256: 'eb78dabb622bbc701592f085bc27ab817fe1c0d4753ae829682e8127b3b00ce7', root: 'PEPPOL Root TEST CA - G3', rootSha256: '8b4e0e5dc7c8208cba88edebfad31e064740d896ab6e18de0b03386fd24be734' },
  },
  production: {
    ap: { issuing: 'PEPPOL ACCESS POINT CA - G3', issuingSha256: 'b65e375a5826ada16517b2aa8a881b6fcaff5e48e7559b9e96bba5c64921f900', root: 'PEPPOL Root CA - G3', rootSha256: 'b6075b9f8655e756777f182d1407c0049442d3a2f57dff9781523828f331f211' },
    smp: { issuing: 'PEPPOL SERVICE METADATA PUBLISHER CA - G3', issuingSha256: 'd9e17467c69e51fc4f5c5263542fc68d2abba5dfaae62e87fbd6829f1de621c4', root: 'PEPPOL Root CA - G3', rootSha256: 'b6075b9f8655e756777f182d1407c0049442d3a2f57dff9781523828f331f211' },
  },
};

const sha256 = (certificate: X509Certificate) => createHash('sha256').update(certificate.raw).digest('hex');
const cn = (certificate: X509Certificate) => /(?:^|\n)CN=([^\n]+)/.exec(certificate.subject)?.[1];
const silent = pino({ level: 'silent' });

describeDatabaseFree('the shipped Peppol trust anchors (PEPPOL_STAGE)', function () {
  this.timeout(60_000);

  for (const stage of ['test', 'production'] as const) {
    for (const purpose of ['ap', 'smp'] as const) {
      it(`${stage}/${purpose}.pem: the pinned issuing CA, signed by the pinned root, and nothing else`, () => {
        const expected = SHIPPED[stage][purpose];
        const anchors = loadTrustAnchors(purpose, shippedAnchorsFile(stage, purpose));
        expect(anchors.certificates).to.have.length(2);
        expect(anchors.issuingCas).to.have.length(1);
        const issuing = anchors.issuingCas[0] as X509Certificate;
        const root = anchors.certificates.find((c) => selfSigned(c)) as X509Certificate;
        expect([cn(issuing), sha256(issuing)]).to.deep.equal([expected.issuing, expected.issuingSha256]);
        expect([cn(root), sha256(root)]).to.deep.equal([expected.root, expected.rootSha256]);
        expect(issuing.checkIssued(root) && issuing.verify(root.publicKey), 'the issuing CA is signed by its root').to.equal(true);
        expect(issuing.ca && root.ca).to.equal(true);
        // the file holds certificates only, never a key
        expect(readFileSync(shippedAnchorsFile(stage, purpose), 'utf8')).to.not.match(/PRIVATE KEY/);
      });
    }
  }

  describe('as the default of an unset variable', () => {
    let pki: TestPki;
    before(async () => {
      pki = await startTestPki();
    });
    after(() => pki.close());

    it('config: both unset is no longer a refusal; the stage is test unless PEPPOL_STAGE says production; SML_ZONE follows it', async () => {
      const ap = await pki.issue('ap');
      const { PEPPOL_AP_TRUST: _a, PEPPOL_SMP_TRUST: _s, ...identityOnly } = pki.env(ap);
      const test = loadConfig(identityOnly);
      expect(test.peppol).to.include({ stage: 'test', apTrustFile: undefined, smpTrustFile: undefined });
      expect(test.delivery.smlZone).to.equal('acc.edelivery.tech.ec.europa.eu');
      const production = loadConfig({ ...identityOnly, PEPPOL_STAGE: 'production' });
      expect(production.peppol.stage).to.equal('production');
      expect(production.delivery.smlZone).to.equal('edelivery.tech.ec.europa.eu');
      expect(loadConfig({ ...identityOnly, SML_ZONE: 'sml.example.org' }).delivery.smlZone).to.equal('sml.example.org');
      expect(() => loadConfig({ ...identityOnly, PEPPOL_STAGE: 'pilot' })).to.throw(ConfigRefused, 'PEPPOL_STAGE must be one of test, production');
      // the sandbox neither reads it nor changes its zone
      expect(loadConfig({ PEPPOL_STAGE: 'pilot' }).delivery.smlZone).to.equal('edelivery.tech.ec.europa.eu');
    });

    it('our certificate from a CA the shipped anchors do not hold: the start is refused, naming PEPPOL_STAGE', async () => {
      const ap = await pki.issue('ap', { cn: 'POP000777' });
      const { PEPPOL_AP_TRUST: _a, PEPPOL_SMP_TRUST: _s, ...identityOnly } = pki.env(ap);
      for (const stage of ['test', 'production']) {
        const error = await loadPeppolPki(loadConfig({ ...identityOnly, PEPPOL_STAGE: stage, PEPPOL_REVOCATION: 'off' }).peppol, { log: silent }).then(() => null, (e: unknown) => e);
        expect(error, stage).to.be.instanceOf(ConfigRefused);
        expect((error as Error).message).to.include(`PEPPOL_STAGE=${stage}`).and.include('POP000777').and.include('PEPPOL_AP_TRUST');
      }
    });

    it('the contract\'s variable wins for its purpose; health names each trust and its issuing CAs', async () => {
      const ap = await pki.issue('ap');
      const { PEPPOL_SMP_TRUST: _s, ...apTrustOnly } = pki.env(ap);
      const loaded = await loadPeppolPki(loadConfig({ ...apTrustOnly, PEPPOL_REVOCATION: 'off' }).peppol, { log: silent });
      if (!loaded) throw new Error('as4 loads a PKI');
      expect(loaded.trustSource.ap).to.deep.equal({ kind: 'file', name: 'file' });
      expect(loaded.trustSource.smp).to.deep.equal({ kind: 'shipped', name: 'peppol-test' });
      const health = peppolHealth(loaded, new Date());
      expect(health.peppol).to.have.property('trust').that.deep.equals({
        ap: { source: 'file', issuing_cas: ['PEPPOL ACCESS POINT TEST CA - G2'] },
        smp: { source: 'peppol-test', issuing_cas: ['PEPPOL SERVICE METADATA PUBLISHER TEST CA - G3'] },
      });
      // the shipped SMP bundle does not make an SMP certificate of another CA trusted
      const smp = await pki.issue('smp');
      expect(await loaded.check(smp.node, 'smp', new Date())).to.deep.include({ ok: false, reason: 'untrusted_issuer' });
    });
  });
});

import { expect } from 'chai';
import fs from 'node:fs';
import { cenSchematronFile, codeListsFromSchematron, defaultCodeListsArtifactsDir, loadCodeLists } from '../../src/modules/invoices/code-lists-loader.ts';

const artifactsDir = defaultCodeListsArtifactsDir();
const available = fs.existsSync(cenSchematronFile(artifactsDir));

describe('code lists loader', () => {
  describe('from the official CEN Schematron', function () {
    before(function () {
      if (available) return;
      if (process.env['CI']) throw new Error(`${cenSchematronFile(artifactsDir)} is missing`);
      console.warn(`    skipped: ${cenSchematronFile(artifactsDir)} is missing; run scripts/fetch-validation-artifacts.sh`);
      this.skip();
    });

    it('reads ISO 4217 currencies (BR-CL-04)', async () => {
      const { currencyCodes } = await loadCodeLists(artifactsDir);
      expect(['EUR', 'CZK', 'USD', 'HUF', 'PLN'].every((c) => currencyCodes.has(c))).to.equal(true);
      expect(currencyCodes.has('SKK')).to.equal(false); // the Slovak crown ended in 2009
      expect(currencyCodes.size).to.be.within(150, 200);
    });
    it('reads ISO 3166-1 countries (BR-CL-14)', async () => {
      const { countryCodes } = await loadCodeLists(artifactsDir);
      expect(['SK', 'CZ', 'AT', 'DE', 'XI', '1A'].every((c) => countryCodes.has(c))).to.equal(true);
      expect(countryCodes.has('EU')).to.equal(false);
      expect(countryCodes.size).to.be.within(240, 260);
    });
    it('reads VATEX exemption reasons (BR-CL-22)', async () => {
      const { vatexCodes } = await loadCodeLists(artifactsDir);
      for (const code of ['VATEX-EU-AE', 'VATEX-EU-IC', 'VATEX-EU-132', 'VATEX-EU-143', 'VATEX-EU-G', 'VATEX-EU-O']) {
        expect(vatexCodes.has(code), code).to.equal(true);
      }
      expect(vatexCodes.has('VATEX-EU-XX')).to.equal(false);
    });
    it('reads UN/ECE Rec. 20 and Rec. 21 units (BR-CL-23)', async () => {
      const { unitCodes } = await loadCodeLists(artifactsDir);
      for (const code of ['C62', 'EA', 'H87', 'HUR', 'DAY', 'E49', 'MON', 'KGM', 'MTR', 'LTR', 'XBX', 'XPK']) {
        expect(unitCodes.has(code), code).to.equal(true);
      }
      expect(unitCodes.has('PCS')).to.equal(false);
      expect(unitCodes.size).to.be.above(1500);
    });
    it('reads the file once per directory', async () => {
      expect(loadCodeLists(artifactsDir)).to.equal(loadCodeLists(artifactsDir));
    });
  });

  it('refuses a Schematron that lacks one of the lists', () => {
    const sch = `<schema xmlns="http://purl.oclc.org/dsdl/schematron"><pattern><rule context="x">
      <assert id="BR-CL-04" test="contains(' EUR CZK ', concat(' ', normalize-space(.), ' '))">m</assert>
    </rule></pattern></schema>`;
    expect(() => codeListsFromSchematron(sch)).to.throw(/BR-CL-14/);
  });

  it('reads lists from any assert carrying the id, entities decoded by the XML parser', () => {
    const assert = (id: string, codes: string) =>
      `<assert id="${id}" test="contains(' ${codes} ', concat(' ', normalize-space(.), ' ')) and 1 &lt; 2">m</assert>`;
    const sch = `<schema xmlns="http://purl.oclc.org/dsdl/schematron"><pattern><rule context="x">
      ${assert('BR-CL-04', 'EUR')}${assert('BR-CL-14', 'SK')}${assert('BR-CL-22', 'vatex-eu-ae')}${assert('BR-CL-23', 'C62')}
      </rule><rule context="y">${assert('BR-CL-23', 'XBX')}</rule></pattern></schema>`;
    const lists = codeListsFromSchematron(sch);
    expect([...lists.unitCodes]).to.deep.equal(['C62', 'XBX']);
    expect([...lists.vatexCodes]).to.deep.equal(['VATEX-EU-AE']);
  });

  it('rejects a missing artifacts directory', async () => {
    let error: unknown;
    await loadCodeLists('/nonexistent/artifacts').catch((e: unknown) => (error = e));
    expect(String(error)).to.match(/ENOENT/);
  });
});

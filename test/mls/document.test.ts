// The MLS document: what we build validates under the official Schematron and reads back as built;
// the official examples read to the model they state; untrusted input is refused with a code.
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import {
  MlsBuildError,
  MlsReadError,
  buildMls,
  createMlsValidator,
  readMls,
  type MessageLevelStatus,
  type MlsErrorCode,
  type MlsValidator,
} from '../../src/modules/mls/index.ts';
import { mlsVerdict } from '../../commands/mls/answer.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { needArtifacts } from '../validation/support/paths.ts';
import { mlsExample } from './support.ts';

const AP: MessageLevelStatus = {
  id: '3f64739a-72eb-4d27-b835-5fd1ba504a7b',
  issued_at: '2026-11-29T17:05:09.000Z',
  sender: '0242:000123',
  receiver: '0242:000456',
  response_code: 'AP',
  description: null,
  referenced_instance_id: '90f14eff-3705-4869-ad3c-caae270a234e',
  issues: [],
};
const AB: MessageLevelStatus = { ...AP, response_code: 'AB', description: 'Delivered to the buyer\'s mailbox; it gives no confirmation.', receiver: '0242:000456-mls.node_2' };
const RE: MessageLevelStatus = {
  ...AP,
  response_code: 'RE',
  description: 'Rejected: the invoice fails validation & cannot be delivered <to C4>',
  issues: [
    { location: '/Invoice[1]/cac:TaxTotal[1]', description: '[BR-CO-15] Invoice total amount with VAT = total without VAT + VAT', reason: 'BV' },
    { location: '/Invoice[1]/cac:TaxTotal[1]', description: '[BR-CO-14] Invoice total VAT amount = sum of subtotals', reason: 'BV' },
    { location: 'NA', description: '[SK-BR-04] A Slovak rule, only a warning', reason: 'BW' },
  ],
};
/** The same issues, a location coming back after another: read back grouped. */
const RE_SCATTERED: MessageLevelStatus = { ...RE, issues: [RE.issues[0], RE.issues[2], RE.issues[1]].filter((i) => i !== undefined) };

function refusal(read: () => unknown): MlsErrorCode {
  try {
    read();
  } catch (error) {
    if (error instanceof MlsReadError) return error.code;
    throw error;
  }
  throw new Error('read without refusal');
}

describeDatabaseFree('MLS document', function () {
  this.timeout(120_000);
  before(needArtifacts);
  let validator: MlsValidator;
  before(async () => {
    validator = await createMlsValidator();
  });

  describe('building', () => {
    for (const mls of [AP, AB, RE]) {
      it(`builds an ${mls.response_code} that the official Schematron finds nothing in, and reads it back as built`, () => {
        const xml = buildMls(mls);
        expect(validator.validate(xml)).to.deep.equal({ valid: true, errors: [], warnings: [] });
        expect(readMls(xml)).to.deep.equal(mls);
      });
    }

    it('writes one LineResponse per location, in the order the locations first appear', () => {
      const xml = buildMls(RE_SCATTERED);
      const lines = [...xml.matchAll(/<cbc:LineID>([^<]*)<\/cbc:LineID>/g)].map((m) => m[1]);
      expect(lines).to.deep.equal(['/Invoice[1]/cac:TaxTotal[1]', 'NA']);
      expect(xml.match(/<cac:LineResponse>/g)).to.have.length(2);
      expect(readMls(xml).issues.map((i) => i.description.slice(0, 10))).to.deep.equal(['[BR-CO-15]', '[BR-CO-14]', '[SK-BR-04]']);
    });

    it('writes the issue instant as the UTC date without a zone and the UTC time with Z (milliseconds only when there are some)', () => {
      const at = (issued_at: string) => /<cbc:IssueDate>([^<]*)<\/cbc:IssueDate>\s*<cbc:IssueTime>([^<]*)</.exec(buildMls({ ...AP, issued_at }))?.slice(1);
      expect(at('2026-11-30T00:30:00+01:00')).to.deep.equal(['2026-11-29', '23:30:00Z']);
      expect(at('2026-11-29T12:34:56.789Z')).to.deep.equal(['2026-11-29', '12:34:56.789Z']);
      expect(buildMls(AP)).to.contain('<cbc:EndpointID schemeID="0242">000123</cbc:EndpointID>');
    });

    it('refuses a model that would not be a valid MLS', () => {
      const bad: [string, MessageLevelStatus][] = [
        ['RE without a description', { ...RE, description: null }],
        ['RE with only a warning', { ...RE, issues: [{ location: 'NA', description: 'w', reason: 'BW' }] }],
        ['AP with a failure', { ...AP, issues: [{ location: 'NA', description: 'x', reason: 'BV' }] }],
        ['sender of another scheme', { ...AP, sender: '9915:000123' }],
        ['receiver without a scheme', { ...AP, receiver: '000456' }],
        ['empty reference', { ...AP, referenced_instance_id: ' ' }],
        ['not an instant', { ...AP, issued_at: 'yesterday' }],
        ['empty issue location', { ...RE, issues: [{ location: '', description: 'x', reason: 'BV' }] }],
        ['a character XML cannot carry', { ...AB, description: 'bell \u0007' }],
      ];
      for (const [what, mls] of bad) expect(() => buildMls(mls), what).to.throw(MlsBuildError);
    });
  });

  describe('reading', () => {
    const base = { id: 'MLS-ID123', issued_at: '2025-03-11T12:00:00.000Z', sender: '0242:123456', receiver: '0242:234567', referenced_instance_id: '90f14eff-3705-4869-ad3c-caae270a234e' };
    const bv = (line: number) => ({
      location: `/Catalogue/cac:CatalogueLine[${line}]/cac:Item[1]/cac:ClassifiedTaxCategory[1]/cbc:ID[1]`,
      description: 'Validation gives error [CL-T77-R002]- Tax categories MUST be coded using UN/ECE 5305 code list',
      reason: 'BV' as const,
    });
    const re2 = { ...base, response_code: 'RE', description: 'Rejected due to validation errors', issues: [bv(3), { ...bv(3), description: 'Something else went wrong - just a warning', reason: 'BW' }] };
    const snippet = { id: '3f64739a-72eb-4d27-b835-5fd1ba504a7b', issued_at: '2025-02-05T23:07:22.000Z', sender: '0242:000003', receiver: '0242:000002', referenced_instance_id: base.referenced_instance_id };
    const EXPECTED: Record<string, unknown> = {
      'MessageLevelStatus_Example_AB.xml': { ...base, response_code: 'AB', description: null, issues: [] },
      // 12:00:00+01:00 is 11:00 UTC
      'MessageLevelStatus_Example_AB2.xml': { ...base, issued_at: '2025-03-11T11:00:00.000Z', response_code: 'AB', description: null, issues: [] },
      // MLS_TO-style SPIS values, lower-cased as participant ids are compared
      'MessageLevelStatus_Example_AB3.xml': { ...base, sender: '0242:123456-mls.anything', receiver: '0242:234567-mls.p12345.99', response_code: 'AB', description: 'Can have something here as well', issues: [] },
      'MessageLevelStatus_Example_AP.xml': { ...base, response_code: 'AP', description: null, issues: [] },
      'MessageLevelStatus_Example_RE.xml': { ...base, response_code: 'RE', description: 'Rejected due to validation errors', issues: [bv(3)] },
      'MessageLevelStatus_Example_RE2.xml': re2,
      // the same as RE2 with every value padded: read as normalize-space reads it
      'MessageLevelStatus_Example_RE3.xml': re2,
      'MessageLevelStatus_Example_RE4.xml': { ...base, response_code: 'RE', description: 'Rejected due to validation errors', issues: [bv(3), bv(4)] },
      'snippet-ab.xml': { ...snippet, sender: '0242:000001', response_code: 'AB', description: 'The document was forwarded for delivery, but our delivery method has no method for confirmation.', issues: [] },
      'snippet-ap.xml': { ...snippet, response_code: 'AP', description: null, issues: [] },
      'snippet-re.xml': {
        ...snippet,
        response_code: 'RE',
        description: 'The document was rejected because it failed validation',
        issues: [
          { location: 'NA', description: 'Invoice tax exclusive amount MUST equal the sum of lines plus allowances and charges on header level', reason: 'BV' },
          { location: 'inv:Invoice/cac:TaxTotal/cac:TaxSubtotal/', description: 'Document level amounts cannot have more than 2 decimals', reason: 'BV' },
        ],
      },
    };

    for (const [file, model] of Object.entries(EXPECTED)) {
      it(`reads ${file}`, () => {
        expect(readMls(mlsExample(file))).to.deep.equal(model);
        expect(readMls(Buffer.from(mlsExample(file)))).to.deep.equal(model);
      });
    }

    it('refuses what is not an MLS: another root, another ApplicationResponse', () => {
      const invoice = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>';
      expect(refusal(() => readMls(invoice))).to.equal('MLS-NOT-MLS');
      const mlr = mlsExample('MessageLevelStatus_Example_AP.xml').replace('urn:peppol:edec:mls:1.0<', 'urn:fdc:peppol.eu:poacc:trns:mlr:3<');
      expect(refusal(() => readMls(mlr))).to.equal('MLS-NOT-MLS');
    });

    it('refuses a DOCTYPE before any entity is expanded, and text that is not XML', () => {
      const doctype = `<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "y">]>${mlsExample('MessageLevelStatus_Example_AP.xml').replace(/^<\?xml[^>]*\?>/, '')}`;
      expect(refusal(() => readMls(doctype))).to.equal('MLS-UNSAFE');
      expect(refusal(() => readMls('<ApplicationResponse'))).to.equal('MLS-MALFORMED');
    });

    it('refuses an MLS without the reference to the message it answers, or with two', () => {
      const ap = mlsExample('MessageLevelStatus_Example_AP.xml');
      const reference = /<cac:DocumentReference>[\s\S]*?<\/cac:DocumentReference>/.exec(ap)?.[0] ?? '';
      expect(refusal(() => readMls(ap.replace(reference, '')))).to.equal('MLS-MISSING-FIELD');
      expect(refusal(() => readMls(ap.replace('>90f14eff-3705-4869-ad3c-caae270a234e<', '> <')))).to.equal('MLS-MISSING-FIELD');
      expect(refusal(() => readMls(ap.replace(reference, reference + reference)))).to.equal('MLS-INVALID-FIELD');
    });

    it('refuses a response or status reason code outside the code lists, and a party without a scheme', () => {
      const re = mlsExample('MessageLevelStatus_Example_RE.xml');
      expect(refusal(() => readMls(re.replace('<cbc:ResponseCode>RE<', '<cbc:ResponseCode>OK<')))).to.equal('MLS-INVALID-FIELD');
      expect(refusal(() => readMls(re.replace('<cbc:StatusReasonCode>BV<', '<cbc:StatusReasonCode>XX<')))).to.equal('MLS-INVALID-FIELD');
      expect(refusal(() => readMls(re.replace('schemeID="0242">123456<', '>123456<')))).to.equal('MLS-MISSING-FIELD');
    });
  });

  describe('validating', () => {
    it('gives a fatal finding, not an exception, for a root other than ApplicationResponse or a DOCTYPE', () => {
      const notMls = validator.validate('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>');
      expect(notMls.valid).to.equal(false);
      expect(notMls.errors.map((f) => [f.rule, f.source])).to.deep.equal([['XML-NOT-MLS', 'xml']]);
      const doctype = validator.validate('<!DOCTYPE a><a/>');
      expect(doctype.valid).to.equal(false);
      expect(doctype.errors.map((f) => f.rule)).to.deep.equal(['XML-DOCTYPE']);
    });

    it('says valid null with a VALIDATION-UNAVAILABLE warning when the Schematron is missing', async () => {
      const without = await createMlsValidator({ artifactsDir: path.join(os.tmpdir(), 'no-mls-artifacts-here') });
      const report = without.validate(buildMls(AP));
      expect(report.valid).to.equal(null);
      expect(report.errors).to.deep.equal([]);
      expect(report.warnings.map((f) => f.rule)).to.deep.equal(['VALIDATION-UNAVAILABLE']);
    });
  });

  describe('issues from a verdict (commands/mls/answer.ts)', () => {
    it('makes issues an RE carries, valid under the official Schematron', () => {
      const verdict = mlsVerdict([{ rule: 'BR-01', flag: 'fatal', location: '/Invoice[1]', message: '[BR-01]-An Invoice shall have a Specification identifier', kind: 'rule' }]);
      expect(validator.validate(buildMls({ ...RE, description: verdict.description, issues: verdict.issues })).errors).to.deep.equal([]);
    });
  });
});

// What corner 3 issues for a received document (src/modules/delivery/mls/answer.ts): the MLS owed,
// where it goes, and the one for the sending Access Point's SPID when nobody serves MLS_TO; each
// document valid under the official MLS Schematron, and read back as it was meant.
import { expect } from 'chai';
import { mlsVerdict } from '../../commands/mls/answer.ts';
import { issueCommand } from '../../src/modules/delivery/mls/answer.ts';
import { createMlsValidator, readMls, type MlsValidator } from '../../src/modules/mls/index.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { needArtifacts } from '../validation/support/paths.ts';

const AT = new Date('2026-11-29T17:05:09.000Z');
const document = (overrides: Partial<Parameters<typeof issueCommand>[0]> = {}): Parameters<typeof issueCommand>[0] => ({
  instanceId: '90f14eff-3705-4869-ad3c-caae270a234e', documentTypeId: 'invoice', sender: '0245:1111111111', receiver: '0245:2222222222',
  mlsTo: null, mlsType: 'ALWAYS_SEND', ...overrides,
});
const refused = mlsVerdict([{ rule: 'BR-CO-15', message: 'totals', location: '/*:Invoice[1]', flag: 'fatal', kind: 'rule' }]);
const accepted = mlsVerdict([]);
const answering = { ourSpis: '0242:000002', senderSpis: '0242:000001' };

describeDatabaseFree('MLS issued for a received document', function () {
  this.timeout(120_000);
  let validator: MlsValidator;
  before(needArtifacts);
  before(async () => {
    validator = await createMlsValidator();
  });

  it('an AP asked for goes to the sending Access Point\'s SPID, valid and naming the document answered', () => {
    const command = issueCommand(document(), accepted, answering, AT);
    if (command.type !== 'IssueMls' || !command.mls) throw new Error('an MLS was owed');
    expect(command.mls).to.include({ from: '0242:000002', to: '0242:000001', fallback: null });
    expect(validator.validate(command.mls.document).errors).to.deep.equal([]);
    expect(readMls(command.mls.document)).to.include({ sender: '0242:000002', receiver: '0242:000001', response_code: 'AP', referenced_instance_id: document().instanceId });
  });

  it('no positive MLS unless every status was asked for; a rejection always', () => {
    const quiet = issueCommand(document({ mlsType: null }), accepted, answering, AT);
    expect(quiet.type === 'IssueMls' && quiet.mls).to.equal(null);
    const rejected = issueCommand(document({ mlsType: 'FAILURE_ONLY' }), refused, answering, AT);
    expect(rejected.type === 'IssueMls' && rejected.mls?.to).to.equal('0242:000001');
  });

  it('MLS_TO under the sender\'s SPID is honoured, with an MLS for the SPID itself in reserve; each valid and addressed as it says', () => {
    const command = issueCommand(document({ mlsTo: '0242:000001-ap2' }), refused, answering, AT);
    if (command.type !== 'IssueMls' || !command.mls?.fallback) throw new Error('an MLS with a fallback was owed');
    expect(command.mls.to).to.equal('0242:000001-ap2');
    expect(command.mls.fallback.to).to.equal('0242:000001');
    for (const [xml, receiver] of [[command.mls.document, '0242:000001-ap2'], [command.mls.fallback.document, '0242:000001']] as const) {
      expect(validator.validate(xml).errors).to.deep.equal([]);
      expect(readMls(xml)).to.include({ receiver, response_code: 'RE', id: command.mls.mls_id });
    }
  });

  it('MLS_TO of another provider is not followed: the sender\'s own SPID gets it', () => {
    const command = issueCommand(document({ mlsTo: '0242:000999' }), refused, answering, AT);
    expect(command.type === 'IssueMls' && command.mls).to.deep.include({ to: '0242:000001', fallback: null });
  });
});

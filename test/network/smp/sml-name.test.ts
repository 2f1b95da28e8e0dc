import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { ParticipantLookupError } from '../../../src/modules/delivery/peppol/participants.ts';
import { parseSmpParticipantId } from '../../../src/modules/delivery/peppol/smp/participant-id.ts';
import { participantHashLabel, smlHostName } from '../../../src/modules/delivery/peppol/smp/sml-name.ts';

const id = (text: string) => parseSmpParticipantId(text);

/** RFC 4648 base32 written out here, independently of @scure/base, to check the label. */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of bytes) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += alphabet[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
}

describe('SML host name (BDXL)', () => {
  it('matches the Policy for use of Identifiers POLICY 7 example 0088:123abc, in any case', () => {
    expect(participantHashLabel(id('0088:123abc'))).to.equal('y7dzfxaf3d4cjz4kcgrxtec6twvcga4ky7zwa5boif6mswd4tdrq');
    expect(participantHashLabel(id('0088:123ABC'))).to.equal('y7dzfxaf3d4cjz4kcgrxtec6twvcga4ky7zwa5boif6mswd4tdrq');
  });

  it('matches the SML specification example 0010:5798000000001', () => {
    expect(smlHostName(id('0010:5798000000001'), 'edelivery.tech.ec.europa.eu')).to.equal(
      'xukhfqabqziki3ykvr2fhr4snfa3pf5vpq6k4tonv3lmvsy5arvq.iso6523-actorid-upis.edelivery.tech.ec.europa.eu',
    );
  });

  it('hashes the value only, not the iso6523-actorid-upis:: prefix, which may be given or not', () => {
    const expected = base32(createHash('sha256').update('0245:2020273893').digest()).toLowerCase();
    expect(smlHostName(id('iso6523-actorid-upis::0245:2020273893'), 'acc.edelivery.tech.ec.europa.eu.')).to.equal(
      `${expected}.iso6523-actorid-upis.acc.edelivery.tech.ec.europa.eu`,
    );
    expect(smlHostName(id('0245:2020273893'), 'ACC.edelivery.tech.ec.europa.eu')).to.equal(
      `${expected}.iso6523-actorid-upis.acc.edelivery.tech.ec.europa.eu`,
    );
    expect(expected).to.have.length(52); // 256 bits, no padding
  });

  it('refuses a zone that is not a DNS name', () => {
    expect(() => smlHostName(id('0088:1'), 'bad zone')).to.throw(/not a DNS name/);
  });
});

describe('participant ids for the SMP', () => {
  it('normalises the value to lower case and keeps the 4-digit scheme', () => {
    expect(id(' 9950:SK2020273893SVCTEST ')).to.deep.equal({ scheme: '9950', value: 'sk2020273893svctest' });
  });

  for (const bad of ['', '0245', '245:2020273893', 'abcd:1', '0245:', '0245:with space', `0088:${'x'.repeat(131)}`]) {
    it(`refuses ${JSON.stringify(bad.length > 20 ? `${bad.slice(0, 20)}…` : bad)} as invalid_participant_id`, () => {
      expect(() => id(bad))
        .to.throw(ParticipantLookupError)
        .with.property('code', 'invalid_participant_id');
    });
  }
});

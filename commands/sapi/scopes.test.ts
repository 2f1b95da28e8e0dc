import { expect } from 'chai';
import { SapiRefusal } from './errors.ts';
import { requireLockedParticipant, requireParticipantHeader } from './participant.ts';
import { requestedScopes, requireScope } from './scopes.ts';

describe('SAPI-SK scopes and participant lock', () => {
  it('grants both scopes unless a narrower one is asked for', () => {
    expect(requestedScopes(undefined)).to.deep.equal(['document:send', 'document:receive']);
    expect(requestedScopes('  ')).to.deep.equal(['document:send', 'document:receive']);
    expect(requestedScopes('document:receive')).to.deep.equal(['document:receive']);
    expect(requestedScopes('document:receive document:send')).to.deep.equal(['document:send', 'document:receive']);
  });

  it('refuses an unknown requested scope as SAPI-VAL-SCOPE, and a token beyond its scopes as SAPI-AUTH-SCOPE', () => {
    expect(() => requestedScopes('document:send admin')).to.throw(SapiRefusal).with.property('code', 'SAPI-VAL-SCOPE');
    expect(() => requireScope(['document:receive'], 'document:send')).to.throw(SapiRefusal).with.property('code', 'SAPI-AUTH-SCOPE');
    expect(() => requireScope(['document:send'], 'document:send')).to.not.throw();
  });

  it('needs the participant header, and only the locked participant (case-insensitive)', () => {
    expect(() => requireParticipantHeader('9950:sk1234567890svctest', undefined)).to.throw(SapiRefusal).with.property('code', 'SAPI-VAL-001');
    expect(() => requireParticipantHeader('9950:sk1234567890svctest', '9950:SK1234567890SVCTEST')).to.not.throw();
    expect(() => requireParticipantHeader('9950:sk1234567890svctest', '9950:sk9999999999svctest')).to.throw(SapiRefusal).with.property('code', 'SAPI-AUTH-PARTICIPANT');
    expect(() => requireLockedParticipant('0245:1234567890', '0245:1234567891', 'metadata.senderParticipantId')).to.throw(SapiRefusal).with.property('code', 'SAPI-AUTH-PARTICIPANT');
  });
});

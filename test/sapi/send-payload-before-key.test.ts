import { expect } from 'chai';
import { SapiSendRequest } from '../../schemas/sapi/outbound.ts';
import { createBodyAjv } from '../../src/platform/http/ajv.ts';
import { sapiError, sapiTestClient, type SapiTestClient } from '../support/sapi.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { newKey, sendRequest, sha256Hex } from './support/send.ts';

/**
 * docs/sapi.md, Sending, step 7: the payload's encoding and size are checked before the
 * Idempotency-Key is claimed, like the body's shape. A payload over 10 MB used to be copied, hashed
 * and its key written to the store before it was refused, which took over a second under load in the
 * xml campaign (issue 21). Refused before the key, it leaves the key untouched.
 */
describe('SAPI-SK send: a payload over 10 MB is refused before its key is claimed', function () {
  this.timeout(240_000);
  let svc: TestService;
  let client: SapiTestClient;
  let receiver: string;

  before(async () => {
    svc = await startTestService();
    client = await sapiTestClient(svc, 0);
    receiver = svc.demo.companies[1]!.sapi.participant_id;
  });
  after(async () => svc?.close());

  it('refuses it with SAPI-VAL-001 on payload, and the same key then takes another body', async () => {
    const key = newKey();
    const big = `<Invoice>${'x'.repeat(10 * 1024 * 1024 - 19 + 1)}</Invoice>`;
    expect(Buffer.byteLength(big)).to.equal(10 * 1024 * 1024 + 1);
    for (let i = 0; i < 2; i++) {
      const answer = await client.call('POST', '/document/send', sendRequest(big, client.participant_id, receiver), { 'idempotency-key': key });
      expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
      expect(sapiError(answer).code).to.equal('SAPI-VAL-001');
      expect(sapiError(answer).details[0]).to.include({ field: 'payload' });
    }
    // under the key, another body would be SAPI-IDEMPOTENCY-CONFLICT; the key was never claimed, so
    // this body runs its own checks, and its wrong checksum (the first check under the key) answers
    const other = { ...sendRequest('<broken', client.participant_id, receiver), checksum: sha256Hex('something else') };
    const answer = await client.call('POST', '/document/send', other, { 'idempotency-key': key });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
    expect(sapiError(answer).code).to.equal('SAPI-VAL-CHECKSUM');
  });

  it('refuses an empty payload in the same step: SAPI-VAL-001 on payload', async () => {
    const answer = await client.call('POST', '/document/send', sendRequest('', client.participant_id, receiver), { 'idempotency-key': newKey() });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(400);
    expect(sapiError(answer).details).to.deep.equal([{ field: 'payload', issue: 'empty' }]);
  });

  it('the body schema does not walk the payload: no keyword on it that makes ajv read the string (a minLength counted 10 MB of code points in JavaScript, ~25 ms)', () => {
    // what the schema asks of the payload, not how long ajv takes (a timing would fail on a busy machine)
    const payload = SapiSendRequest.properties.payload as unknown as Record<string, unknown>;
    for (const keyword of ['minLength', 'maxLength', 'pattern', 'format', 'contentEncoding', 'contentMediaType']) expect(payload, keyword).to.not.have.property(keyword);
    const validate = createBodyAjv().compile(SapiSendRequest);
    const body = { ...sendRequest(`<Invoice>${'x'.repeat(10 * 1024 * 1024)}</Invoice>`, '9950:a', '9950:b'), checksum: 'a'.repeat(64) };
    expect(validate(body), JSON.stringify(validate.errors)).to.equal(true);
  });
});

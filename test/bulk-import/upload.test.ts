import { expect } from 'chai';
import { readUpload } from '../../src/modules/bulk-import/upload.ts';
import { DomainError } from '../../commands/shared/domain-error.ts';

describe('bulk import upload: a multipart body cut short', () => {
  const boundary = 'fuzz123';
  const whole = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f.csv"\r\nContent-Type: text/csv\r\n\r\na,b\n1,2\n\r\n--${boundary}--\r\n`;

  // found by the fuzz campaign: the file part's stream emitted 'error' with no listener, and the
  // whole service process ended on one request
  it('is a malformed_request, and the process goes on', async () => {
    const error = await readUpload(Buffer.from(whole.slice(0, -10)), `multipart/form-data; boundary=${boundary}`).then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(DomainError);
    expect((error as DomainError).code).to.equal('malformed_request');
  });

  it('still reads the whole body', async () => {
    const upload = await readUpload(Buffer.from(whole), `multipart/form-data; boundary=${boundary}`);
    expect([upload.bytes.toString(), upload.fileName]).to.deep.equal(['a,b\n1,2\n', 'f.csv']);
  });
});

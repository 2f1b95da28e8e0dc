import { expect } from 'chai';
import { ParticipantLookupError } from '../../../src/modules/delivery/peppol/participants.ts';
import { documentTypeOfReference, readServiceGroup } from '../../../src/modules/delivery/peppol/smp/service-group.ts';
import { readServiceMetadata } from '../../../src/modules/delivery/peppol/smp/service-metadata.ts';
import { withSmpXml } from '../../../src/modules/delivery/peppol/smp/smp-xml.ts';
import { BILLING, INVOICE, redirectMetadata, serviceGroup, signedServiceMetadata } from './smp-fixtures.ts';
import { apIdentity, preparePki } from './test-pki.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const group = (xml: string) => withSmpXml(bytes(xml), 'ServiceGroup t', (root) => readServiceGroup(root, 'ServiceGroup t'));
const metadata = (xml: string) => withSmpXml(bytes(xml), 'ServiceMetadata t', (root) => readServiceMetadata(root, 'ServiceMetadata t'));

function failure(run: () => unknown): ParticipantLookupError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(ParticipantLookupError);
    expect((error as ParticipantLookupError).code).to.equal('participant_lookup_failed');
    return error as ParticipantLookupError;
  }
  expect.fail('expected a ParticipantLookupError');
}

describe('SMP 1.x XML', () => {
  before(preparePki);
  it('reads a ServiceGroup: participant and the document types of its references', () => {
    const read = group(serviceGroup('https://smp.example.com', '0088:123abc', [INVOICE]));
    expect(read.participant).to.deep.equal({ scheme: 'iso6523-actorid-upis', value: '0088:123abc' });
    expect(read.documentTypes).to.deep.equal([{ scheme: 'busdox-docid-qns', value: INVOICE }]);
  });

  it('reads the document type of a reference even when the SMP did not percent-encode it', () => {
    expect(documentTypeOfReference(`http://smp/iso6523-actorid-upis::0088:1/services/busdox-docid-qns::${INVOICE}`)).to.deep.equal({
      scheme: 'busdox-docid-qns',
      value: INVOICE,
    });
    expect(documentTypeOfReference('http://smp/iso6523-actorid-upis::0088:1')).to.equal(null);
    expect(documentTypeOfReference('http://smp/x/services/%E0%A4%A')).to.equal(null);
  });

  it('reads SignedServiceMetadata: document type, processes, endpoints and their dates', () => {
    const read = metadata(
      signedServiceMetadata('0088:123abc', INVOICE, [
        { process: BILLING, endpoints: [{ url: 'https://ap.example.com/as4', expiration: '2030-01-01T00:00:00Z' }] },
      ]),
    );
    expect(read).to.deep.equal({
      kind: 'service',
      service: {
        participant: { scheme: 'iso6523-actorid-upis', value: '0088:123abc' },
        documentType: { scheme: 'busdox-docid-qns', value: INVOICE },
        processes: [
          {
            process: { scheme: 'cenbii-procid-ubl', value: BILLING },
            endpoints: [{ transportProfile: 'peppol-transport-as4-v2_0', url: 'https://ap.example.com/as4', activation: null, expiration: '2030-01-01T00:00:00Z', certificate: apIdentity().base64 }],
          },
        ],
      },
    });
  });

  it('reads a Redirect', () => {
    expect(metadata(redirectMetadata('https://other.example.com/a?b&c', 'CN=SMP other'))).to.deep.equal({ kind: 'redirect', href: 'https://other.example.com/a?b&c', certificateUid: 'CN=SMP other' });
  });

  it('refuses a DOCTYPE with an entity (billion laughs) before parsing it', () => {
    const hostile = `<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<ServiceGroup xmlns="http://busdox.org/serviceMetadata/publishing/1.0/">&lol2;</ServiceGroup>`;
    expect(failure(() => group(hostile)).message).to.match(/DOCTYPE/);
  });

  it('refuses an external entity (XXE)', () => {
    const hostile = `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<ServiceGroup xmlns="http://busdox.org/serviceMetadata/publishing/1.0/">&xxe;</ServiceGroup>`;
    expect(failure(() => group(hostile)).message).to.match(/DOCTYPE/);
  });

  it('refuses what is not XML, not SMP 1.x, or OASIS SMP 2.0', () => {
    expect(failure(() => group('{"ServiceGroup": []}')).message).to.match(/not well-formed/);
    expect(failure(() => group('<html><body>Welcome</body></html>')).message).to.match(/not an SMP 1.x ServiceGroup/);
    expect(failure(() => metadata('<ServiceGroup xmlns="http://busdox.org/serviceMetadata/publishing/1.0/"/>')).message).to.match(/not an SMP 1.x SignedServiceMetadata/);
    expect(failure(() => group('<ServiceGroup xmlns="http://docs.oasis-open.org/bdxr/ns/SMP/2/ServiceGroup"/>')).message).to.match(/OASIS SMP 2.0/);
  });

  it('refuses a reference without a document type and metadata without identifiers', () => {
    const badReference = `<ServiceGroup xmlns="http://busdox.org/serviceMetadata/publishing/1.0/"><ServiceMetadataReferenceCollection><ServiceMetadataReference href="http://smp/elsewhere"/></ServiceMetadataReferenceCollection></ServiceGroup>`;
    expect(failure(() => group(badReference)).message).to.match(/names no document type/);
    const noIds = `<SignedServiceMetadata xmlns="http://busdox.org/serviceMetadata/publishing/1.0/"><ServiceMetadata><ServiceInformation/></ServiceMetadata></SignedServiceMetadata>`;
    expect(failure(() => metadata(noIds)).message).to.match(/lacks its participant or document identifier/);
  });
});

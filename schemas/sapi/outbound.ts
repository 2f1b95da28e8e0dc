import { Type, type Static } from '@sinclair/typebox';

const text = (description: string, maxLength = 1024) => Type.String({ minLength: 1, maxLength, description });

/** sapi-sk.md, Send request: camelCase on the wire. */
export const SapiSendMetadata = Type.Object(
  {
    documentId: text("the client's own document number"),
    documentTypeId: text('Peppol document type identifier (BIS Billing 3.0 Invoice or CreditNote form); must agree with the UBL root'),
    processId: text('Peppol process identifier: urn:fdc:peppol.eu:2017:poacc:billing:01:1.0 (the UBL ProfileID)'),
    senderParticipantId: text('the seller EndpointID as schemeID:value; must be the participant the credentials are locked to', 200),
    receiverParticipantId: text('the buyer EndpointID as schemeID:value', 200),
    creationDateTime: Type.String({ format: 'date-time', description: 'ISO 8601 timestamp with zone' }),
  },
  { additionalProperties: false },
);

export const SapiSendRequest = Type.Object(
  {
    metadata: SapiSendMetadata,
    // no minLength: ajv counts a string's code points in a JavaScript loop to check it (~25 ms for a
    // 10 MB payload); the send refuses an empty payload itself, with its size (docs/sapi.md, step 7)
    payload: Type.String({ description: 'the UBL Invoice or CreditNote as plain UTF-8 XML text (not base64), not empty, at most 10 MB (10,485,760 bytes) of UTF-8' }),
    payloadFormat: Type.Literal('XML', { description: 'XML only' }),
    payloadEncoding: Type.Optional(Type.String({ maxLength: 16, description: 'optional, default UTF-8; only UTF-8 is supported' })),
    checksum: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$', description: 'optional lowercase SHA-256 hex of the payload bytes (UTF-8); a mismatch is SAPI-VAL-CHECKSUM' })),
  },
  { $id: 'SapiSendRequest', title: 'SapiSendRequest', additionalProperties: false },
);
export type SapiSendRequest = Static<typeof SapiSendRequest>;

export const SapiSendResponse = Type.Object(
  {
    providerDocumentId: Type.String({ pattern: '^svc_sapi_doc_[0-9a-f]{32}$' }),
    status: Type.Literal('ACCEPTED'),
    receivedAt: Type.String({ format: 'date-time' }),
    timestamp: Type.String({ format: 'date-time', description: 'when this answer was first made (a replay repeats it)' }),
  },
  { $id: 'SapiSendResponse', title: 'SapiSendResponse', additionalProperties: false },
);
export type SapiSendResponse = Static<typeof SapiSendResponse>;

const nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The receiving Access Point's Message Level Status on the document's Peppol message (an extension
 * of sapi-sk.md, whose states end at SENT): beside `status`, which it does not move.
 */
const SapiMls = Type.Object(
  {
    responseCode: Type.Union(['AP', 'AB', 'RE'].map((c) => Type.Literal(c)), { description: 'AP accepted, AB acknowledged (both: delivered), RE rejected' }),
    description: nullable(Type.String({ description: "the MLS's own description (an RE has one)" })),
    reasons: Type.Array(
      Type.Object({
        location: Type.String({ description: 'an XPath in the document sent, or NA' }),
        description: Type.String(),
        reasonCode: Type.Union(['SV', 'BV', 'BW', 'FD'].map((c) => Type.Literal(c)), { description: 'SV syntax, BV rule (fatal), BW rule (warning), FD delivery failed' }),
      }, { additionalProperties: false }),
      { description: 'why the MLS rejected the document (RE); empty otherwise' },
    ),
    receivedAt: Type.String({ format: 'date-time', description: 'when the MLS reached our Access Point' }),
  },
  { additionalProperties: false },
);

export const SapiStatusResponse = Type.Object(
  {
    providerDocumentId: Type.String(),
    clientDocumentId: Type.String({ description: 'metadata.documentId as sent' }),
    status: Type.Union(['ACCEPTED', 'PROCESSING', 'SENT', 'FAILED'].map((s) => Type.Literal(s))),
    direction: Type.Literal('outbound'),
    peppolMessageId: Type.String({ description: 'the SBDH instance identifier, fixed at acceptance' }),
    fs: Type.Object({
      status: Type.Union(['NOT_SUBMITTED', 'SUBMITTED', 'ACKNOWLEDGED', 'FAILED'].map((s) => Type.Literal(s))),
      submissionId: nullable(Type.String()),
      reportDeadline: Type.String({ format: 'date', description: 'the UBL IssueDate + 5 calendar days (docs/sapi.md, Status)' }),
      acknowledgedAt: nullable(Type.String({ format: 'date-time' })),
      errorMessage: nullable(Type.String()),
    }, { additionalProperties: false }),
    mls: Type.Union([SapiMls, Type.Null()], {
      description: "the receiving Access Point's Message Level Status (an extension of SAPI-SK): null until one came; one at most (a later one is ignored)",
    }),
    updatedAt: Type.String({ format: 'date-time' }),
    timestamp: Type.String({ format: 'date-time' }),
  },
  { $id: 'SapiStatusResponse', title: 'SapiStatusResponse', additionalProperties: false },
);
export type SapiStatusResponse = Static<typeof SapiStatusResponse>;
